"""OpenAPI document → IR: metadata, operations, parameters, bodies, responses, security, keys."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.ir.model import (
    Api,
    ApiKeyScheme,
    AuthorizationCodeFlow,
    HttpBasicScheme,
    HttpBearerScheme,
    OAuth2ClientCredentialsScheme,
    OAuth2PasswordScheme,
    Operation,
    Parameter,
    RequestBody,
    Response,
    Server,
    Tag,
)
from openapi2mcp.ir.operation_parts import response as real_response
from openapi2mcp.ir.parse import parse_api
from openapi2mcp.ir.x_mcp import XMcp
from openapi2mcp.load.reading import load_source

HEAD = "openapi: 3.0.3\ninfo: {title: Pets, version: '1.0'}\nservers: [{url: 'https://pets.example.com/v1'}]\n"
NO_CONTENT = "{'204': {description: done}}"


def spec(body: str) -> str:
    return HEAD + dedent(body)


def parse(tmp_path: Path, text: str) -> tuple[Api, Report]:
    path = tmp_path / "openapi.yaml"
    path.write_text(text)
    report = Report()
    return parse_api(load_source(str(path)), report), report


def parse_json(tmp_path: Path, document: dict[str, Any]) -> tuple[Api, Report]:
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(document))
    report = Report()
    return parse_api(load_source(str(path)), report), report


def where(report: Report) -> list[tuple[str, str]]:
    return [(d.code, d.pointer) for d in report.diagnostics]


def messages(report: Report) -> list[tuple[str, str, str, str]]:
    return [(d.level, d.code, d.pointer, d.message) for d in report.diagnostics]


def one_operation(
    tmp_path: Path, operation: str, *, path: str = "/pets"
) -> tuple[Operation, Report]:
    """Parse a spec with one GET operation whose body (YAML, indented 4) is ``operation``."""
    text = spec(f"paths:\n  {path}:\n    get:\n      operationId: op\n") + dedent(
        operation
    ).replace("\n", "\n      ").join(["      ", "\n"])
    api, report = parse(tmp_path, text)
    assert len(api.operations) == 1, where(report)
    return api.operations[0], report


# -- document metadata --------------------------------------------------------------------------


def test_metadata_and_servers(tmp_path: Path) -> None:
    text = dedent(
        """\
        openapi: 3.0.3
        info:
          title: Pet Store
          version: 2.1.0
          description: Pets for everyone.
        servers:
          - url: 'https://{region}.pets.example.com:{port}/v1'
            variables:
              region: {default: eu, enum: [eu, us]}
              port: {default: '8443'}
          - url: /relative/v1
        paths: {}
        """
    )
    api, report = parse(tmp_path, text)
    assert (api.title, api.version, api.description, api.openapi_version) == (
        "Pet Store",
        "2.1.0",
        "Pets for everyone.",
        "3.0.3",
    )
    assert api.servers == ("https://eu.pets.example.com:8443/v1", "/relative/v1")
    assert api.source_sha256 == hashlib.sha256(text.encode()).hexdigest()
    assert api.operations == ()
    assert messages(report) == [
        ("warning", "no-operations", "#", "the document has no paths; nothing to generate")
    ]


def test_missing_servers_give_an_empty_base_url(tmp_path: Path) -> None:
    api, report = parse(tmp_path, "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\n")
    assert api.servers == ("",)
    assert ("servers-missing", "#") in where(report)


def test_a_server_variable_without_default_is_left_in_place(tmp_path: Path) -> None:
    text = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\nservers: [{url: 'https://{host}/v1'}]\npaths: {}\n"
    api, report = parse(tmp_path, text)
    assert api.servers == ("https://{host}/v1",)
    assert messages(report)[0] == (
        "warning",
        "server-variable-missing",
        "#/servers/0",
        "server variable 'host' has no default; left in the URL",
    )


def test_missing_title_and_version(tmp_path: Path) -> None:
    api, report = parse(tmp_path, "openapi: 3.0.3\ninfo: {}\nservers: [{url: /}]\npaths: {}\n")
    assert (api.title, api.version) == ("", "0.0.0")
    assert messages(report) == [
        ("warning", "title-missing", "#/info", "info.title is missing or empty"),
        ("warning", "version-missing", "#/info", "info.version is missing; using 0.0.0"),
        ("warning", "no-operations", "#", "the document has no paths; nothing to generate"),
    ]


def test_an_empty_version_is_said_to_be_empty(tmp_path: Path) -> None:
    api, report = parse(tmp_path, "openapi: 3.0.3\ninfo: {title: t, version: ''}\npaths: {}\n")
    assert api.version == "0.0.0"
    assert messages(report)[0] == (
        "warning",
        "version-missing",
        "#/info/version",
        "info.version is empty; using 0.0.0",
    )


def test_a_numeric_version_is_kept_as_text_with_a_warning(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        "openapi: 3.1.0\ninfo: {title: T, version: 1.10}\nservers: [{url: /}]\npaths: {}\n",
    )
    assert api.version == "1.1"
    assert where(report)[:2] == [
        ("spec-invalid", "#/info/version"),
        ("version-not-string", "#/info/version"),
    ]


def test_tags_in_document_order_then_undeclared_ones_in_first_use_order(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        spec(
            f"""\
            tags:
              - {{name: b, description: Bees}}
              - {{name: a}}
              - {{name: b, description: again}}
            paths:
              /x:
                get: {{operationId: x, tags: [c, a], responses: {NO_CONTENT}}}
                post: {{operationId: y, tags: [d, c], responses: {NO_CONTENT}}}
            """
        ),
    )
    assert api.tags == (Tag("b", "Bees"), Tag("a"), Tag("c"), Tag("d"))
    assert api.operations[0].tags == ("c", "a")
    assert where(report) == [("tag-duplicate", "#/tags/2")]


def test_operations_follow_path_order_then_fixed_method_order(tmp_path: Path) -> None:
    api, _ = parse(
        tmp_path,
        spec(
            f"""\
            paths:
              /b:
                trace: {{operationId: b6, responses: {NO_CONTENT}}}
                delete: {{operationId: b4, responses: {NO_CONTENT}}}
                post: {{operationId: b3, responses: {NO_CONTENT}}}
                patch: {{operationId: b5, responses: {NO_CONTENT}}}
                get: {{operationId: b1, responses: {NO_CONTENT}}}
                put: {{operationId: b2, responses: {NO_CONTENT}}}
              /a:
                head: {{operationId: a2, responses: {NO_CONTENT}}}
                options: {{operationId: a1, responses: {NO_CONTENT}}}
            """
        ),
    )
    assert [(op.key, op.method, op.path) for op in api.operations] == [
        ("b1", "GET", "/b"),
        ("b2", "PUT", "/b"),
        ("b3", "POST", "/b"),
        ("b4", "DELETE", "/b"),
        ("b5", "PATCH", "/b"),
        ("b6", "TRACE", "/b"),
        ("a1", "OPTIONS", "/a"),
        ("a2", "HEAD", "/a"),
    ]
    assert api.operations[0].pointer == "#/paths/~1b/get"


def test_webhooks_only_document_has_no_operations(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        dedent(
            """\
            openapi: 3.1.0
            info: {title: Hooks, version: '1'}
            servers: [{url: 'https://hooks.example.com'}]
            webhooks:
              newPet:
                post:
                  requestBody: {content: {application/json: {schema: {type: object}}}}
                  responses: {'200': {description: ok}}
            """
        ),
    )
    assert api.operations == ()
    assert messages(report) == [
        (
            "warning",
            "webhooks-only",
            "#/webhooks",
            "the document describes only webhooks (no paths); no operations are generated",
        )
    ]


def test_webhooks_beside_paths_are_ignored(tmp_path: Path) -> None:
    _, report = parse(
        tmp_path,
        spec(
            f"""\
            paths:
              /a: {{get: {{operationId: a, responses: {NO_CONTENT}}}}}
            webhooks:
              hook: {{post: {{responses: {NO_CONTENT}}}}}
            """
        ).replace("3.0.3", "3.1.0"),
    )
    assert where(report) == [("webhooks-ignored", "#/webhooks")]


# -- parameters ---------------------------------------------------------------------------------


def test_an_extension_among_the_paths_is_no_path(tmp_path: Path) -> None:
    """Apicurio's registry keeps ``x-codegen-contextRoot: /apis/registry/v2`` among its paths (the
    Paths Object takes extensions): it had been read as a path item, with three warnings."""
    api, report = parse(
        tmp_path,
        spec(
            f"""            paths:
              x-codegen-contextRoot: /apis/registry/v2
              /search:
                get: {{operationId: search, responses: {NO_CONTENT}}}
            """
        ),
    )
    assert [op.path for op in api.operations] == ["/search"]
    assert where(report) == []


def test_a_path_that_starts_with_a_parameter_holds_a_path(tmp_path: Path) -> None:
    """Pulp's paths are keyed by the href a response gave (``{task_href}cancel/``): the parameter
    is said to hold a path, in an info; a key that starts with a literal is a warning, as before."""
    href = "{in: path, name: task_href, required: true, schema: {type: string}}"
    api, report = parse(
        tmp_path,
        spec(
            f"""            paths:
              "{{task_href}}cancel/":
                post: {{operationId: cancel, parameters: [{href}], responses: {NO_CONTENT}}}
              tasks/:
                get: {{operationId: tasks, responses: {NO_CONTENT}}}
            """
        ),
    )
    cancel, tasks = api.operations
    assert (cancel.path, tasks.path) == ("/{task_href}cancel/", "/tasks/")
    assert [(p.name, p.whole_path) for p in cancel.parameters] == [("task_href", True)]
    assert messages(report) == [
        (
            "info",
            "path-key-whole-path",
            "#/paths/{task_href}cancel~1",
            "path '{task_href}cancel/' starts with the parameter 'task_href': its value is taken "
            "as a path of the API and sent with its slashes",
        ),
        (
            "warning",
            "path-key-invalid",
            "#/paths/tasks~1",
            "path 'tasks/' does not start with '/'; using '/tasks/'",
        ),
    ]


def test_path_level_parameters_are_merged_and_the_operation_wins(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        spec(
            f"""\
            paths:
              /pets/{{id}}:
                parameters:
                  - {{name: id, in: path, required: true, schema: {{type: integer}}}}
                  - {{name: q, in: query, description: path level, schema: {{type: string}}}}
                  - {{name: q, in: header, schema: {{type: string}}}}
                get:
                  operationId: getPet
                  parameters:
                    - {{name: limit, in: query, schema: {{type: integer}}}}
                    - {{name: q, in: query, description: operation level, schema: {{type: string}}}}
                  responses: {NO_CONTENT}
            """
        ),
    )
    (op,) = api.operations
    assert [(p.name, p.location, p.description) for p in op.parameters] == [
        ("id", "path", ""),
        ("q", "query", "operation level"),
        ("q", "header", ""),
        ("limit", "query", ""),
    ]
    assert where(report) == []


@pytest.mark.parametrize(
    ("declaration", "style", "explode"),
    [
        ("{name: p, in: query}", "form", True),
        ("{name: p, in: cookie}", "form", True),
        ("{name: p, in: header}", "simple", False),
        ("{name: p, in: query, style: deepObject}", "deepObject", False),
        ("{name: p, in: query, style: spaceDelimited, explode: true}", "spaceDelimited", True),
        ("{name: p, in: query, explode: false}", "form", False),
        ("{name: p, in: header, explode: true}", "simple", True),
    ],
)
def test_style_and_explode_defaults(
    tmp_path: Path, declaration: str, style: str, explode: bool
) -> None:
    op, _ = one_operation(
        tmp_path,
        f"parameters: [{declaration[:-1]}, schema: {{type: string}}}}]\nresponses: {NO_CONTENT}",
    )
    assert (op.parameters[0].style, op.parameters[0].explode) == (style, explode)


def test_path_parameter_defaults(tmp_path: Path) -> None:
    op, report = one_operation(
        tmp_path,
        f"""\
        parameters:
          - name: id
            in: path
            required: true
            description: The pet.
            deprecated: true
            example: 7
            schema: {{type: integer, minimum: 1}}
          - name: tags
            in: query
            allowReserved: true
            examples: {{a: {{value: [x, y]}}, b: {{summary: no value}}}}
            schema: {{type: array, items: {{type: string}}}}
        responses: {NO_CONTENT}
        """,
        path="/pets/{id}",
    )
    assert op.parameters == (
        Parameter(
            name="id",
            location="path",
            required=True,
            schema={"type": "integer", "minimum": 1},
            description="The pet.",
            style="simple",
            explode=False,
            deprecated=True,
            examples=(7,),
        ),
        Parameter(
            name="tags",
            location="query",
            required=False,
            schema={"type": "array", "items": {"type": "string"}},
            style="form",
            explode=True,
            allow_reserved=True,
            examples=(["x", "y"],),
        ),
    )
    assert where(report) == []


def test_accept_and_content_type_are_ignored_and_authorization_is_the_credential(
    tmp_path: Path,
) -> None:
    """OpenAPI 3 ignores the three headers as parameters; an Authorization header parameter of an
    operation that nothing else authenticates is its credential (as in Swagger 2.0 documents:
    APIs.guru's converted ones keep it), never a tool argument."""
    op, report = one_operation(
        tmp_path,
        f"""\
        parameters:
          - {{name: Accept, in: header, schema: {{type: string}}}}
          - {{name: content-type, in: header, schema: {{type: string}}}}
          - {{name: Authorization, in: header, required: true, schema: {{type: string}}}}
          - {{name: Authorization, in: query, schema: {{type: string}}}}
        responses: {NO_CONTENT}
        """,
    )
    assert [(p.name, p.location) for p in op.parameters] == [("Authorization", "query")]
    assert op.security == (("authorization",),)
    assert where(report) == [
        ("swagger-authorization-header", "#/paths/~1pets/get"),
        ("param-ignored", "#/paths/~1pets/get/parameters/0"),
        ("param-ignored", "#/paths/~1pets/get/parameters/1"),
    ]
    assert messages(report)[1] == (
        "info",
        "param-ignored",
        "#/paths/~1pets/get/parameters/0",
        "header parameter 'Accept' is ignored (OpenAPI: Accept, Content-Type and Authorization"
        " are set by the client, not described as parameters)",
    )


def test_headers_the_http_client_writes_are_ignored_and_an_accept_enum_kept(
    tmp_path: Path,
) -> None:
    op, report = one_operation(
        tmp_path,
        f"""\
        parameters:
          - {{name: Content-Length, in: header, schema: {{type: integer}}}}
          - {{name: Accept-Encoding, in: header, schema: {{type: string, enum: [gzip, identity]}}}}
          - {{name: Accept, in: header, schema: {{type: string, enum: [text/csv, application/json]}}}}
          - {{name: X-Trace, in: header, schema: {{type: string}}}}
        responses: {NO_CONTENT}
        """,
    )
    assert [(p.name, p.location) for p in op.parameters] == [("X-Trace", "header")]
    assert op.accept == ("text/csv", "application/json")
    assert messages(report)[:2] == [
        (
            "info",
            "param-ignored",
            f"#/paths/~1pets/get/parameters/{index}",
            f"header parameter '{name}' is ignored: the HTTP client sets it from the request it"
            " sends",
        )
        for index, name in enumerate(("Content-Length", "Accept-Encoding"))
    ]


def test_a_path_parameter_of_no_type_is_text(tmp_path: Path) -> None:
    """httpbin's `/status/{codes}` gives its parameter no type: a path segment is text (a value
    of any type could be null, and the call would have no path)."""
    op, _ = one_operation(
        tmp_path,
        f"""\
        parameters:
          - {{name: codes, in: path, required: true, description: status codes}}
          - {{name: q, in: query, schema: {{}}}}
        responses: {NO_CONTENT}
        """,
        path="/status/{codes}",
    )
    assert [(p.name, p.schema) for p in op.parameters] == [
        ("codes", {"type": "string"}),
        ("q", {}),
    ]


def test_a_content_parameter_takes_the_schema_of_its_media_type(tmp_path: Path) -> None:
    op, report = one_operation(
        tmp_path,
        f"""\
        parameters:
          - name: filter
            in: query
            required: true
            content:
              application/json:
                schema: {{type: object, properties: {{color: {{type: string, nullable: true}}}}}}
        responses: {NO_CONTENT}
        """,
    )
    assert op.parameters == (
        Parameter(
            name="filter",
            location="query",
            required=True,
            schema={"type": "object", "properties": {"color": {"type": ["string", "null"]}}},
            style="form",
            explode=True,
            content_type="application/json",
        ),
    )
    assert where(report) == []


def test_path_template_and_path_parameters_are_reconciled(tmp_path: Path) -> None:
    op, report = one_operation(
        tmp_path,
        f"""\
        parameters:
          - {{name: owner, in: path, schema: {{type: string}}}}
          - {{name: stale, in: path, required: true, schema: {{type: string}}}}
        responses: {NO_CONTENT}
        """,
        path="/owners/{owner}/pets/{petId}",
    )
    assert op.parameters == (
        Parameter(name="owner", location="path", required=True, schema={"type": "string"}),
        Parameter(name="petId", location="path", required=True, schema={"type": "string"}),
    )
    pointer = "#/paths/~1owners~1{owner}~1pets~1{petId}/get"
    assert messages(report) == [
        (
            "warning",
            "path-param-required",
            pointer + "/parameters/0",
            "path parameter 'owner' is treated as required",
        ),
        (
            "warning",
            "path-param-unused",
            pointer,
            "path parameter 'stale' does not appear in the path /owners/{owner}/pets/{petId}; dropped",
        ),
        (
            "warning",
            "path-param-missing",
            pointer,
            "path variable 'petId' has no parameter; a required string is assumed",
        ),
    ]


def test_a_duplicate_parameter_keeps_the_first(tmp_path: Path) -> None:
    op, report = one_operation(
        tmp_path,
        f"""\
        parameters:
          - {{name: q, in: query, description: first, schema: {{type: string}}}}
          - {{name: q, in: query, description: second, schema: {{type: string}}}}
        responses: {NO_CONTENT}
        """,
    )
    assert [p.description for p in op.parameters] == ["first"]
    assert where(report) == [("param-duplicate", "#/paths/~1pets/get/parameters/1")]


def test_a_required_parameter_that_may_be_null_is_optional(tmp_path: Path) -> None:
    # Evidently (Litestar): required, and null admitted; the API takes it left out, and a
    # model could only meet "required" by inventing a filter
    op, report = one_operation(
        tmp_path,
        f"""\
        parameters:
          - {{name: tags, in: query, required: true, schema: {{type: string, nullable: true}}}}
          - {{name: kind, in: query, required: true, schema: {{type: string}}}}
        responses: {NO_CONTENT}
        """,
    )
    assert [(p.name, p.required) for p in op.parameters] == [("tags", False), ("kind", True)]
    assert where(report) == [("param-required-null", "#/paths/~1pets/get/parameters/0")]


# -- request bodies -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("media_types", "chosen"),
    [
        (["text/plain", "application/json"], "application/json"),
        (["application/xml", "application/vnd.api+json"], "application/vnd.api+json"),
        (
            ["multipart/form-data", "application/x-www-form-urlencoded"],
            "application/x-www-form-urlencoded",
        ),
        (["application/octet-stream", "multipart/form-data"], "multipart/form-data"),
        (["application/octet-stream", "text/plain"], "text/plain"),
        (["application/xml", "application/octet-stream"], "application/octet-stream"),
        (["application/xml", "text/csv"], "application/xml"),
        (["Application/JSON; charset=utf-8"], "Application/JSON; charset=utf-8"),
    ],
)
def test_request_body_media_type_choice(
    tmp_path: Path, media_types: list[str], chosen: str
) -> None:
    content = {media_type: {"schema": {"type": "string"}} for media_type in media_types}
    document = {
        "openapi": "3.0.3",
        "info": {"title": "T", "version": "1"},
        "servers": [{"url": "/"}],
        "paths": {
            "/a": {
                "post": {
                    "operationId": "a",
                    "requestBody": {"content": content},
                    "responses": {"204": {"description": "done"}},
                }
            }
        },
    }
    api, report = parse_json(tmp_path, document)
    multipart = chosen == "multipart/form-data"
    # a multipart body that is a string has no field name: it is sent as the path's last word
    field = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    assert api.operations[0].body == RequestBody(
        content_type=chosen, required=False, schema=field if multipart else {"type": "string"}
    )
    others = [media_type for media_type in media_types if media_type != chosen]
    expected = (
        [
            (
                "info",
                "media-dropped",
                "#/paths/~1a/post/requestBody/content",
                f"request body uses {chosen}; other media types dropped: {', '.join(others)}",
            )
        ]
        if others
        else []
    )
    if multipart:
        expected.append(
            (
                "warning",
                "body-field-unnamed",
                "#/paths/~1a/post/requestBody/content/multipart~1form-data/schema",
                "the multipart/form-data body is a string, for which the document names no field: "
                "it is sent as the field 'a'",
            )
        )
    assert messages(report) == expected


_PATCH_OPERATION = {
    "type": "object",
    "required": ["op", "path"],
    "properties": {"op": {"type": "string"}, "path": {"type": "string"}, "value": {}},
}


@pytest.mark.parametrize(
    ("media_types", "schema", "chosen", "said"),
    [
        # Kubernetes' Patch: an object offered as a JSON Patch, a merge patch, a strategic merge
        # patch and YAML; an object sent as a JSON Patch is refused, as a merge patch it is read
        (
            [
                "application/json-patch+json",
                "application/merge-patch+json",
                "application/strategic-merge-patch+json",
                "application/apply-patch+yaml",
            ],
            {"type": "object"},
            "application/merge-patch+json",
            True,
        ),
        # ASP.NET's JsonPatchDocument: read under the JSON Patch type only
        (
            ["application/json", "application/json-patch+json", "text/json"],
            {"type": "array", "items": {"$ref": "#/components/schemas/Operation"}},
            "application/json-patch+json",
            False,
        ),
        # Swashbuckle lists the JSON Patch type beside every body: an array of something else
        (
            ["application/json-patch+json", "application/json", "text/json"],
            {"type": "array", "items": {"type": "object", "properties": {"level": {}}}},
            "application/json",
            False,
        ),
        (["application/json-patch+json"], {"type": "object"}, "application/json-patch+json", False),
    ],
)
def test_a_json_patch_is_sent_as_one_only_when_its_schema_is_an_array_of_operations(
    tmp_path: Path, media_types: list[str], schema: dict[str, Any], chosen: str, said: bool
) -> None:
    document = {
        "openapi": "3.0.3",
        "info": {"title": "T", "version": "1"},
        "servers": [{"url": "/"}],
        "paths": {
            "/a": {
                "patch": {
                    "operationId": "a",
                    "requestBody": {"content": {t: {"schema": schema} for t in media_types}},
                    "responses": {"204": {"description": "done"}},
                }
            }
        },
        "components": {"schemas": {"Operation": _PATCH_OPERATION}},
    }
    api, report = parse_json(tmp_path, document)
    body = api.operations[0].body
    assert body is not None
    assert body.content_type == chosen
    patch_notes = [m for m in messages(report) if m[1] == "body-json-patch"]
    assert patch_notes == (
        [
            (
                "info",
                "body-json-patch",
                "#/paths/~1a/patch/requestBody/content",
                "the request body's schema is not the array of operations a JSON Patch"
                " (application/json-patch+json) is; it is sent as application/merge-patch+json",
            )
        ]
        if said
        else []
    )


def test_body_is_normalised_for_input_and_response_for_output(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        spec(
            """\
            paths:
              /pets:
                post:
                  operationId: addPet
                  requestBody:
                    description: The pet.
                    required: true
                    content:
                      application/json: {schema: {$ref: '#/components/schemas/Pet'}}
                  responses:
                    '201':
                      description: Created.
                      content:
                        application/json:
                          schema:
                            type: object
                            required: [id, secret]
                            properties:
                              id: {type: integer, readOnly: true}
                              secret: {type: string, writeOnly: true}
            components:
              schemas:
                Pet:
                  type: object
                  required: [id, name]
                  properties:
                    id: {type: integer, readOnly: true}
                    name: {type: string}
            """
        ),
    )
    (op,) = api.operations
    assert op.body == RequestBody(
        content_type="application/json",
        required=True,
        schema={"$ref": "#/$defs/Pet"},
        description="The pet.",
    )
    assert op.response == Response(
        status="201",
        content_type="application/json",
        schema={"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}},
        description="Created.",
    )
    assert api.input_schemas == {
        "Pet": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}
    }
    assert api.output_schemas == {
        "Pet": {
            "type": "object",
            "required": ["id", "name"],
            "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
        }
    }
    assert where(report) == []


def test_a_body_without_content_is_dropped(tmp_path: Path) -> None:
    op, report = one_operation(
        tmp_path, f"requestBody: {{description: nothing}}\nresponses: {NO_CONTENT}"
    )
    assert op.body is None
    assert ("body-empty", "#/paths/~1pets/get/requestBody") in where(report)


# -- responses ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("codes", "chosen"),
    [
        (["201", "200"], "200"),
        (["default", "204", "202"], "202"),
        (["default", "2XX"], "2XX"),
        (["2XX", "204"], "204"),
        (["404", "default"], "default"),
        (["400", "500"], None),
    ],
)
def test_success_response_choice(tmp_path: Path, codes: list[str], chosen: str | None) -> None:
    responses = {code: {"description": f"r{code}"} for code in codes}
    document = {
        "openapi": "3.0.3",
        "info": {"title": "T", "version": "1"},
        "servers": [{"url": "/"}],
        "paths": {"/a": {"get": {"operationId": "a", "responses": responses}}},
    }
    api, _ = parse_json(tmp_path, document)
    expected = None if chosen is None else Response(chosen, "", None, f"r{chosen}")
    assert api.operations[0].response == expected


def test_json_response_preferred(tmp_path: Path) -> None:
    op, report = one_operation(
        tmp_path,
        """\
        responses:
          '200':
            description: ok
            content:
              application/xml: {schema: {type: string}}
              application/problem+json: {schema: {type: integer}}
              application/json: {schema: {type: object, example: {a: 1}}}
        """,
    )
    assert op.response == Response(
        "200", "application/json", {"type": "object", "examples": [{"a": 1}]}, "ok"
    )
    assert messages(report) == [
        (
            "info",
            "media-dropped",
            "#/paths/~1pets/get/responses/200/content",
            "response 200 uses application/json; other media types dropped: application/xml,"
            " application/problem+json",
        )
    ]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{text/csv: {schema: {type: string}}}", Response("200", "text/csv", None, "ok")),
        (
            "{application/hal+json: {schema: {type: string}}}",
            Response("200", "application/hal+json", {"type": "string"}, "ok"),
        ),
        ("{application/json: {}}", Response("200", "application/json", None, "ok")),
        ("{}", Response("200", "", None, "ok")),
    ],
)
def test_response_media_types(tmp_path: Path, content: str, expected: Response) -> None:
    op, _ = one_operation(
        tmp_path, f"responses: {{'200': {{description: ok, content: {content}}}}}"
    )
    assert op.response == expected


@pytest.mark.parametrize(
    ("content", "read_as"),
    [
        # FastAPI's placeholder beside the type a route documents (Phoenix's experiment CSV)
        ("{application/json: {schema: {}}, text/csv: {schema: {type: string}}}", "text/csv"),
        (
            "{application/json: {}, image/png: {schema: {type: string, format: binary}}}",
            "image/png",
        ),
        # JSON without a schema is still read before XML or YAML with one
        ("{application/json: {}, application/xml: {schema: {type: object}}}", "application/json"),
        ("{application/json: {schema: {}}, text/csv: {}}", "application/json"),
    ],
)
def test_a_json_placeholder_gives_way_to_the_type_a_route_documents(
    tmp_path: Path, content: str, read_as: str
) -> None:
    op, _ = one_operation(
        tmp_path, f"responses: {{'200': {{description: ok, content: {content}}}}}"
    )
    assert op.response is not None and op.response.content_type == read_as


def test_a_multipart_form_with_a_file_left_out_is_a_warning(tmp_path: Path) -> None:
    # Phoenix's dataset upload: JSON rows, or a CSV file with its columns named in the form
    op, report = one_operation(
        tmp_path,
        """\
        requestBody:
          content:
            application/json:
              schema: {type: object, properties: {name: {type: string}, inputs: {type: array}}}
            multipart/form-data:
              schema:
                type: object
                properties:
                  name: {type: string}
                  input_keys[]: {type: array, items: {type: string}}
                  file: {type: string, format: binary}
        responses: {'204': {description: done}}
        """,
    )
    assert op.body is not None and op.body.content_type == "application/json"
    (warning,) = [d for d in report.diagnostics if d.code == "body-files-dropped"]
    assert (warning.level, warning.pointer, warning.message) == (
        "warning",
        "#/paths/~1pets/get/requestBody/content/multipart~1form-data",
        "the request body is sent as application/json; multipart/form-data, which carries the "
        "file 'file', is left out: the tool cannot upload it (an overlay that removes the other "
        "media types keeps it)",
    )


# -- security -----------------------------------------------------------------------------------

SECURITY_SCHEMES = """\
components:
  securitySchemes:
    headerKey: {type: apiKey, in: header, name: X-API-Key, description: The key.}
    queryKey: {type: apiKey, in: query, name: api_key}
    cookieKey: {type: apiKey, in: cookie, name: session}
    token: {type: http, scheme: Bearer, bearerFormat: JWT}
    basic: {type: http, scheme: basic}
    oauth: {type: oauth2, flows: {clientCredentials: {tokenUrl: 'https://a.example.com/token', scopes: {}}}}
    login: {type: oauth2, flows: {password: {tokenUrl: token, scopes: {}}}}
    both: {type: oauth2, flows: {password: {tokenUrl: /p, scopes: {}}, clientCredentials: {tokenUrl: /c, scopes: {}}}}
    code: {type: oauth2, flows: {authorizationCode: {authorizationUrl: /a, tokenUrl: /t, scopes: {}}}}
    oidc: {type: openIdConnect, openIdConnectUrl: 'https://a.example.com/.well-known/openid-configuration'}
    digest: {type: http, scheme: digest}
"""


def test_security_schemes(tmp_path: Path) -> None:
    api, report = parse(tmp_path, spec("paths: {}\n") + SECURITY_SCHEMES)
    assert api.security_schemes == {
        "headerKey": ApiKeyScheme("headerKey", "header", "X-API-Key", "The key."),
        "queryKey": ApiKeyScheme("queryKey", "query", "api_key"),
        "cookieKey": ApiKeyScheme("cookieKey", "cookie", "session"),
        "token": HttpBearerScheme("token"),
        "basic": HttpBasicScheme("basic"),
        "oauth": OAuth2ClientCredentialsScheme("oauth", "https://a.example.com/token"),
        # FastAPI's OAuth2PasswordBearer: the server signs in itself
        "login": OAuth2PasswordScheme("login", "token"),
        # the server's own credentials are the simpler way when a scheme offers both
        "both": OAuth2ClientCredentialsScheme("both", "/c"),
        "code": HttpBearerScheme("code", authorization_code=AuthorizationCodeFlow("/a", "/t")),
        "oidc": HttpBearerScheme("oidc"),
    }
    assert messages(report) == [
        (
            "info",
            "security-as-bearer",
            "#/components/securitySchemes/code",
            "oauth2 scheme 'code' is used as a bearer token: supply an access token obtained"
            " outside the server",
        ),
        (
            "info",
            "security-as-bearer",
            "#/components/securitySchemes/oidc",
            "openIdConnect scheme 'oidc' is used as a bearer token: supply an access token obtained"
            " outside the server",
        ),
        (
            "warning",
            "security-unsupported",
            "#/components/securitySchemes/digest",
            "security scheme 'digest' uses HTTP authentication scheme 'digest'; only basic and bearer"
            " are supported; requirements that need it are dropped",
        ),
        ("warning", "no-operations", "#", "the document has no paths; nothing to generate"),
    ]


@pytest.mark.parametrize(
    ("scheme", "prefix"),
    [
        # drf-spectacular's TokenAuthentication
        ('description: Token-based authentication with required prefix "Token"', "Token"),
        # Label Studio's: an example request, and Fern's extension
        (
            "description: 'Example: curl https://ls.example/api -H \"Authorization: Token "
            "[your-token]\"'",
            "Token",
        ),
        ("x-fern-header: {name: api_key, prefix: 'Token '}", "Token"),
        ("description: 'Send it as Authorization: SSWS ${api_token}'", "SSWS"),
        ("description: 'Authorization: Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b'", "Token"),
        # a word said to go before a space: Phoenix's (FastAPI), Swashbuckle's, APIs.guru's
        ("description: 'Enter `Bearer` followed by a space and then the token.'", "Bearer"),
        (
            "description: \"Enter 'Bearer' [space] and then your token in the text input below.\"",
            "Bearer",
        ),
        (
            "description: 'Should start with `Bearer`, followed by a space, followed by the token.'",
            "Bearer",
        ),
        (
            "description: 'The value is the word Bearer followed by a space and the access token'",
            "Bearer",
        ),
        (
            "description: 'API tokens must be prepended with \"token\" followed by a space.'",
            "token",
        ),
        ("description: 'The authorization method and a space, then the key'", ""),
        # no word before the key, or a word that is the key itself
        ("description: 'Authorization: <your key>'", ""),
        ("description: 'Put the key in Authorization: abc123 works too'", ""),
        ("description: 'The key.'", ""),
    ],
)
def test_an_authorization_api_key_keeps_the_word_its_scheme_says(
    tmp_path: Path, scheme: str, prefix: str
) -> None:
    schemes = (
        "components:\n  securitySchemes:\n"
        f"    auth: {{type: apiKey, in: header, name: Authorization, {scheme}}}\n"
        # only the Authorization header takes a word before the key
        f"    other: {{type: apiKey, in: header, name: X-Key, {scheme}}}\n"
    )
    api, _ = parse(tmp_path, spec("paths: {}\n") + schemes)
    found = api.security_schemes
    assert isinstance(found["auth"], ApiKeyScheme) and isinstance(found["other"], ApiKeyScheme)
    assert (found["auth"].prefix, found["other"].prefix) == (prefix, "")


def test_a_header_named_as_the_word_before_the_key_is_authorization(tmp_path: Path) -> None:
    """Weblate's document (drf-spectacular, a custom keyword scheme) names the header "Token",
    the word its description says goes before the key: the API reads Authorization."""
    schemes = (
        "components:\n  securitySchemes:\n"
        "    tokenAuth: {type: apiKey, in: header, name: Token, "
        "description: 'Token-based authentication with required prefix `Token`'}\n"
    )
    api, report = parse(tmp_path, spec("paths: {}\n") + schemes)
    scheme = api.security_schemes["tokenAuth"]
    assert isinstance(scheme, ApiKeyScheme)
    assert (scheme.parameter, scheme.prefix) == ("Authorization", "Token")
    (told,) = [d for d in report.diagnostics if d.code == "security-header-is-prefix"]
    assert told.pointer == "#/components/securitySchemes/tokenAuth"


def test_security_requirements(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        spec(
            f"""\
            security: [{{headerKey: []}}, {{token: [], basic: []}}]
            paths:
              /a:
                get: {{operationId: inherits, responses: {NO_CONTENT}}}
                put: {{operationId: overrides, security: [{{oauth: [read]}}], responses: {NO_CONTENT}}}
                post: {{operationId: anonymous, security: [], responses: {NO_CONTENT}}}
                delete: {{operationId: optional, security: [{{queryKey: []}}, {{}}], responses: {NO_CONTENT}}}
                patch: {{operationId: unsupported, security: [{{digest: []}}, {{digest: [], cookieKey: []}}], responses: {NO_CONTENT}}}
                head: {{operationId: unknown, security: [{{nope: []}}, {{oidc: []}}], responses: {NO_CONTENT}}}
            """
        )
        + SECURITY_SCHEMES,
    )
    assert {op.key: op.security for op in api.operations} == {
        "inherits": (("headerKey",), ("token", "basic")),
        "overrides": (("oauth",),),
        "anonymous": (),
        "optional": (("queryKey",), ()),
        "unsupported": (),
        "unknown": (("oidc",),),
    }
    assert {op.key: op.scopes for op in api.operations if op.scopes} == {
        "overrides": (("oauth", ("read",)),)
    }
    assert messages(report)[-2:] == [
        (
            "warning",
            "security-unknown",
            "#/paths/~1a/head/security/0",
            "security scheme 'nope' is not declared in components.securitySchemes",
        ),
        (
            "warning",
            "security-dropped",
            "#/paths/~1a/patch/security",
            "no security requirement can be met with the supported schemes; requests are sent"
            " without credentials",
        ),
    ]


@pytest.mark.parametrize("top", ["security: []", "x-security: none declared"])
def test_schemes_declared_and_never_required_are_each_an_alternative(
    tmp_path: Path, top: str
) -> None:
    """Airflow 2's document declares Basic and requires nothing (`security: []`); so do 177 of
    APIs.guru's: each operation takes any one declared scheme, or none, so that the credentials
    its README names go when they are set; the scheme that cannot be used stays out."""
    api, report = parse(
        tmp_path,
        spec(
            f"""
            {top}
            paths:
              /dags:
                get: {{operationId: listDags, responses: {NO_CONTENT}}}
                post: {{operationId: login, security: [], responses: {NO_CONTENT}}}
            components:
              securitySchemes:
                Basic: {{type: http, scheme: basic}}
                Kerberos: {{type: http, scheme: negotiate}}
                key: {{type: apiKey, in: header, name: X-Key}}
            """
        ),
    )
    assert {op.key: op.security for op in api.operations} == {
        "listDags": (("Basic",), ("key",), ()),
        "login": (("Basic",), ("key",), ()),
    }
    assert (
        "info",
        "security-unrequired",
        "#/components/securitySchemes",
        "no operation requires the security schemes the document declares (Basic, key): their "
        "credentials are sent when they are set, and calls go without them otherwise",
    ) in messages(report)


def test_operations_that_say_nothing_of_security_take_the_schemes_others_require(
    tmp_path: Path,
) -> None:
    """Directus's document requires a scheme of 3 of its 129 operations and says nothing of
    security for the others (83 APIs.guru documents do so): those take any declared scheme, the
    one the others require first, or none; an operation that says `security: []` stays anonymous."""
    api, report = parse(
        tmp_path,
        spec(
            f"""            paths:
              /a:
                get: {{operationId: unsaid, responses: {NO_CONTENT}}}
                put: {{operationId: guarded, security: [{{header: []}}], responses: {NO_CONTENT}}}
                post: {{operationId: login, security: [], responses: {NO_CONTENT}}}
            components:
              securitySchemes:
                query: {{type: apiKey, in: query, name: access_token}}
                header: {{type: apiKey, in: header, name: Authorization}}
            """
        ),
    )
    assert {op.key: op.security for op in api.operations} == {
        "unsaid": (("header",), ("query",), ()),
        "guarded": (("header",),),
        "login": (),
    }
    assert (
        "info",
        "security-unsaid",
        "#/components/securitySchemes",
        "1 of 3 operations say nothing of security, and the document has no default: they take "
        "the credentials of any declared scheme (header, query) when they are set, and go without "
        "them otherwise",
    ) in messages(report)


def test_a_default_of_no_security_leaves_the_operations_that_inherit_it_anonymous(
    tmp_path: Path,
) -> None:
    api, report = parse(
        tmp_path,
        spec(
            f"""            security: []
            paths:
              /a:
                get: {{operationId: open, responses: {NO_CONTENT}}}
                put: {{operationId: guarded, security: [{{key: []}}], responses: {NO_CONTENT}}}
            components:
              securitySchemes:
                key: {{type: apiKey, in: header, name: X-Key}}
            """
        ),
    )
    assert {op.key: op.security for op in api.operations} == {"open": (), "guarded": (("key",),)}
    codes = [code for _, code, _, _ in messages(report)]
    assert "security-unrequired" not in codes
    assert "security-unsaid" not in codes


@pytest.mark.parametrize(
    ("scheme", "message"),
    [
        ("{type: apiKey, in: body, name: k}", "needs 'name' and 'in' (header, query or cookie)"),
        ("{type: mutualTLS}", "has type 'mutualTLS', which is not supported"),
        ("{description: untyped}", "has no valid 'type'"),
    ],
)
def test_unsupported_security_schemes(tmp_path: Path, scheme: str, message: str) -> None:
    api, report = parse(
        tmp_path,
        spec("paths: {}\n").replace("3.0.3", "3.1.0")
        + f"components: {{securitySchemes: {{s: {scheme}}}}}\n",
    )
    assert api.security_schemes == {}
    assert (
        "warning",
        "security-unsupported",
        "#/components/securitySchemes/s",
        f"security scheme 's' {message}; requirements that need it are dropped",
    ) in messages(report)


# -- operations ---------------------------------------------------------------------------------


def test_operation_fields_and_typed_x_mcp(tmp_path: Path) -> None:
    op, report = one_operation(
        tmp_path,
        f"""\
        summary: List pets
        description: All of them.
        deprecated: true
        tags: [pets]
        x-mcp: {{name: pets, hidden: false, extra: {{nested: [1, 2]}}}}
        responses: {NO_CONTENT}
        """,
    )
    assert op == Operation(
        key="op",
        operation_id="op",
        method="GET",
        path="/pets",
        pointer="#/paths/~1pets/get",
        summary="List pets",
        description="All of them.",
        tags=("pets",),
        deprecated=True,
        response=Response("204", "", None, "done"),
        x_mcp=XMcp(name="pets"),
    )
    assert where(report) == [
        ("x-mcp-invalid", "#/paths/~1pets/get/x-mcp/hidden"),
        ("x-mcp-invalid", "#/paths/~1pets/get/x-mcp/extra"),
    ]


def test_x_mcp_that_is_not_an_object_is_ignored(tmp_path: Path) -> None:
    op, report = one_operation(tmp_path, f"x-mcp: tool\nresponses: {NO_CONTENT}")
    assert op.x_mcp == XMcp()
    assert where(report) == [("x-mcp-invalid", "#/paths/~1pets/get/x-mcp")]


def test_operation_keys(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        spec(
            f"""\
            paths:
              /one: {{get: {{operationId: a, responses: {NO_CONTENT}}}}}
              /two: {{get: {{operationId: a, responses: {NO_CONTENT}}}}}
              /three: {{get: {{operationId: a_2, responses: {NO_CONTENT}}}}}
              /pets/{{id}}:
                get: {{parameters: [{{name: id, in: path, required: true, schema: {{type: string}}}}], responses: {NO_CONTENT}}}
            """
        ),
    )
    assert [(op.key, op.operation_id) for op in api.operations] == [
        ("a", "a"),
        ("a_3", "a"),
        ("a_2", "a_2"),
        ("get_/pets/{id}", None),
    ]
    assert messages(report) == [
        (
            "warning",
            "operation-id-duplicate",
            "#/paths/~1two/get",
            "operationId 'a' is already used at #/paths/~1one/get; this operation's key is 'a_3'",
        ),
        (
            "info",
            "operation-id-missing",
            "#/paths/~1pets~1{id}/get",
            "no operationId; the operation's key is 'get_/pets/{id}' (from its method and path)",
        ),
    ]


def test_path_keys_lose_query_and_fragment(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        spec(
            f"""\
            paths:
              /search?kind=pets:
                get: {{operationId: search, responses: {NO_CONTENT}}}
              /docs#top:
                get: {{operationId: docs, responses: {NO_CONTENT}}}
              nolead:
                get: {{operationId: nolead, responses: {NO_CONTENT}}}
            """
        ),
    )
    assert [(op.path, op.pointer) for op in api.operations] == [
        ("/search", "#/paths/~1search?kind=pets/get"),
        ("/docs", "#/paths/~1docs#top/get"),
        ("/nolead", "#/paths/nolead/get"),
    ]
    assert messages(report) == [
        (
            "warning",
            "path-key-query",
            "#/paths/~1search?kind=pets",
            "path '/search?kind=pets' contains a query or fragment; using '/search'",
        ),
        (
            "warning",
            "path-key-query",
            "#/paths/~1docs#top",
            "path '/docs#top' contains a query or fragment; using '/docs'",
        ),
        (
            "warning",
            "path-key-invalid",
            "#/paths/nolead",
            "path 'nolead' does not start with '/'; using '/nolead'",
        ),
    ]


def test_operation_servers_are_kept(tmp_path: Path) -> None:
    op, report = one_operation(
        tmp_path, f"servers: [{{url: 'https://uploads.example.com'}}]\nresponses: {NO_CONTENT}"
    )
    assert op.server == Server("https://uploads.example.com")
    assert where(report) == []


# -- tolerance ----------------------------------------------------------------------------------


def test_shape_problems_are_said_in_the_documents_words(tmp_path: Path) -> None:
    """PowerDNS's `items: [A, B]` and Label Studio's empty `required` (OpenAPI 3.0 forbids both):
    said as what the document should hold, not as the model's class names."""
    _, report = parse(
        tmp_path,
        spec(
            f"""\
            paths:
              /stats:
                get:
                  operationId: stats
                  summary: Stats
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema: {{type: array, items: [{{type: string}}]}}
                post:
                  operationId: store
                  requestBody:
                    content: {{application/json: {{schema: {{type: object, required: []}}}}}}
                  responses: {NO_CONTENT}
            """
        ),
    )
    shape = [
        (where, text) for level, code, where, text in messages(report) if code == "spec-invalid"
    ]
    op = "#/paths/~1stats"
    assert shape == [
        (
            f"{op}/get/responses/200/content/application~1json/schema/items",
            "should be an object, not an array",
        ),
        (
            f"{op}/post/requestBody/content/application~1json/schema/required",
            "should not be empty",
        ),
    ]


def test_invalid_parts_skip_only_their_operation(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        spec(
            f"""\
            paths:
              /body:
                post:
                  operationId: unknownLocation
                  parameters: [{{name: pet, in: payload, schema: {{type: object}}}}]
                  responses: {NO_CONTENT}
              /text:
                get: hello
              /params:
                get: {{operationId: params, parameters: 3, responses: {NO_CONTENT}}}
              /item: 42
              /fine:
                get: {{operationId: fine, responses: {NO_CONTENT}}}
            """
        ),
    )
    assert [op.key for op in api.operations] == ["fine"]
    assert messages(report) == [
        (
            "warning",
            "spec-invalid",
            "#/paths/~1body/post/parameters/0/in",
            "Input should be 'query', 'header', 'path' or 'cookie'",
        ),
        (
            "warning",
            "spec-invalid",
            "#/paths/~1text/get",
            "should be an object, not a string",
        ),
        (
            "warning",
            "spec-invalid",
            "#/paths/~1params/get/parameters",
            "should be a list, not the number 3",
        ),
        (
            "warning",
            "spec-invalid",
            "#/paths/~1item",
            "should be an object, not the number 42",
        ),
        (
            "warning",
            "op-skipped",
            "#/paths/~1body/post",
            "operation skipped: parameter 'pet' has an unsupported location ('in')",
        ),
        (
            "warning",
            "op-skipped",
            "#/paths/~1text/get",
            "operation skipped: the operation is not an object",
        ),
        (
            "warning",
            "op-skipped",
            "#/paths/~1params/get",
            "operation skipped: #/paths/~1params/get/parameters is not a list",
        ),
        (
            "warning",
            "op-skipped",
            "#/paths/~1item",
            "path item cannot be read; its operations skipped",
        ),
    ]


def test_shape_problems_are_capped(tmp_path: Path) -> None:
    paths = {
        f"/p{i}": {"get": {"operationId": f"p{i}", "responses": {"204": {"description": 1}}}}
        for i in range(60)
    }
    document = {
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1"},
        "servers": [{"url": "/"}],
        "paths": paths,
    }
    api, report = parse_json(tmp_path, document)
    assert len(api.operations) == 60
    assert where(report)[:2] == [
        ("spec-invalid", "#/paths/~1p0/get/responses/204/description"),
        ("spec-invalid", "#/paths/~1p1/get/responses/204/description"),
    ]
    assert messages(report)[50:] == [
        ("warning", "spec-invalid", "#", "10 more shape problems not listed")
    ]


def test_an_unquoted_openapi_version_is_accepted_with_a_warning(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path, "openapi: 3.1\ninfo: {title: T, version: '1'}\nservers: [{url: /}]\npaths: {}\n"
    )
    assert api.openapi_version == "3.1"
    assert messages(report)[0] == (
        "warning",
        "spec-invalid",
        "#/openapi",
        "'openapi' must be a string such as \"3.1.0\"",
    )


def test_an_unforeseen_failure_skips_only_that_operation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def flaky(ctx: Any, responses: Any, at: Any) -> Any:
        if "~1bad" in at.pointer:
            raise KeyError("boom")
        return real_response(ctx, responses, at)

    monkeypatch.setattr("openapi2mcp.ir.parse.response", flaky)
    api, report = parse(
        tmp_path,
        spec(
            f"""\
            paths:
              /bad: {{get: {{operationId: bad, responses: {NO_CONTENT}}}}}
              /good: {{get: {{operationId: good, responses: {NO_CONTENT}}}}}
            """
        ),
    )
    assert [op.key for op in api.operations] == ["good"]
    assert messages(report) == [
        (
            "warning",
            "op-skipped",
            "#/paths/~1bad/get",
            "operation skipped: unexpected shape (KeyError)",
        )
    ]


def test_boolean_schemas_in_openapi_3_1_are_not_reported_as_invalid(tmp_path: Path) -> None:
    # regression: openapi-pydantic only accepts objects as schemas, so `unevaluatedProperties: false`
    # (real-world trial: the 3.1 Train Travel API) was reported as spec-invalid
    body = """\
    paths:
      /a:
        post:
          operationId: a
          requestBody:
            content:
              application/json:
                schema:
                  type: object
                  unevaluatedProperties: false
                  properties:
                    never: false
                    list: {type: array, items: false, prefixItems: [true]}
                    d: {anyOf: [true, false], not: true, propertyNames: true}
                    e: {patternProperties: {"^a": false}, $defs: {X: true}}
          responses: {'204': {description: done}}
    components:
      schemas:
        Anything: true
    """
    _, report = parse(tmp_path, spec(body).replace("openapi: 3.0.3", "openapi: 3.1.0"))
    # nothing is invalid; the property no value may take is said to be left out
    assert where(report) == [
        (
            "property-forbidden",
            "#/paths/~1a/post/requestBody/content/application~1json/schema/properties/never",
        )
    ]
    _, report = parse(tmp_path, spec(body))
    assert ("spec-invalid", "#/components/schemas/Anything") in where(report)


def test_servers_repeating_the_documents_are_not_reported_as_ignored(tmp_path: Path) -> None:
    # regression: Twilio's API repeats the document's server on 119 paths, each reported as ignored
    api, report = parse(
        tmp_path,
        spec(
            f"""\
            paths:
              /same:
                servers: [{{url: 'https://pets.example.com/v1'}}]
                get:
                  operationId: same
                  servers: [{{url: 'https://pets.example.com/v1'}}, {{url: 'https://b.example.com'}}]
                  responses: {NO_CONTENT}
              /other:
                get:
                  operationId: other
                  servers: [{{url: 'https://other.example.com'}}]
                  responses: {NO_CONTENT}
            """
        ),
    )
    assert [op.key for op in api.operations] == ["same", "other"]
    assert [op.server for op in api.operations] == [None, Server("https://other.example.com")]
    assert where(report) == []


def test_the_https_twin_of_a_first_http_server_is_preferred(tmp_path: Path) -> None:
    # regression: AWS EC2 lists http://ec2.{region}.amazonaws.com before its https twin, so the
    # generated server sent signed requests in clear text by default
    api, report = parse(
        tmp_path,
        "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\nservers:\n"
        "  - {url: 'http://{region}.example.com', variables: {region: {default: eu}}}\n"
        "  - {url: 'https://{region}.example.com', variables: {region: {default: eu}}}\n"
        "  - {url: 'http://plain.example.com'}\n",
    )
    assert api.servers == (
        "https://eu.example.com",
        "http://eu.example.com",
        "http://plain.example.com",
    )
    assert messages(report)[0] == (
        "info",
        "server-https-preferred",
        "#/servers",
        "the first server http://eu.example.com is also declared as https://eu.example.com,"
        " which is used",
    )
