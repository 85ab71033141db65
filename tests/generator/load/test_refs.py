"""``$ref`` resolution: local pointers, relative files, what is refused, and cycles."""

from __future__ import annotations

import socket
from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.ir.model import Api, ApiKeyScheme, Parameter, RequestBody, Response
from openapi2mcp.ir.parse import parse_api
from openapi2mcp.load.reading import load_source
from openapi2mcp.load.refs import decode_fragment, defs_ref

HEAD = (
    "openapi: 3.0.3\ninfo: {title: T, version: '1'}\nservers: [{url: 'https://api.example.com'}]\n"
)


def spec(body: str) -> str:
    return HEAD + dedent(body)


def parse(tmp_path: Path, files: dict[str, str], root: str = "openapi.yaml") -> tuple[Api, Report]:
    for name, content in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(content))
    report = Report()
    return parse_api(load_source(str(tmp_path / root)), report), report


def where(report: Report) -> list[tuple[str, str]]:
    return [(d.code, d.pointer) for d in report.diagnostics]


def messages(report: Report) -> list[tuple[str, str, str]]:
    return [(d.code, d.pointer, d.message) for d in report.diagnostics]


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("network used")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


# -- pointers -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fragment", "tokens"),
    [
        ("", ()),
        ("/", ("",)),
        ("/components/schemas/Pet", ("components", "schemas", "Pet")),
        ("/paths/~1pets~1{id}/get", ("paths", "/pets/{id}", "get")),
        ("/a~0b/~01", ("a~b", "~1")),
        ("/My%20Pet/%7E1x", ("My Pet", "/x")),
    ],
)
def test_fragments_are_percent_decoded_then_unescaped(
    fragment: str, tokens: tuple[str, ...]
) -> None:
    assert decode_fragment(fragment) == tokens


def test_a_fragment_that_is_not_a_pointer_is_rejected() -> None:
    assert decode_fragment("Pet") is None


@pytest.mark.parametrize(
    ("name", "ref"),
    [
        ("Pet", "#/$defs/Pet"),
        ("Pet/Dog", "#/$defs/Pet~1Dog"),
        ("a~b", "#/$defs/a~0b"),
        ("My Pet", "#/$defs/My%20Pet"),
        ("100%", "#/$defs/100%25"),
    ],
)
def test_defs_references_escape_names(name: str, ref: str) -> None:
    assert defs_ref(name) == ref


def test_local_references_with_escaped_and_percent_encoded_names(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        {
            "openapi.yaml": spec("""\
            paths:
              /a:
                get:
                  operationId: a
                  parameters:
                    - $ref: '#/components/parameters/x~1y'
                    - $ref: '#/components/parameters/page%20size'
                  responses: {'204': {description: done}}
            components:
              parameters:
                x/y: {name: xy, in: query, schema: {type: string}}
                page size: {name: size, in: query, schema: {type: integer}}
            """)
        },
    )
    assert [(p.name, p.schema) for p in api.operations[0].parameters] == [
        ("xy", {"type": "string"}),
        ("size", {"type": "integer"}),
    ]
    assert where(report) == []


# -- several files ------------------------------------------------------------------------------

MULTI_FILE = {
    "openapi.yaml": spec("""\
    paths:
      /pets/{id}:
        $ref: paths/pet.yaml
      /owners:
        get:
          operationId: listOwners
          parameters:
            - $ref: 'parameters.yaml#/limit'
          responses:
            '200':
              description: owners
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/Owner'}
    components:
      schemas:
        Owner:
          type: object
          properties:
            pets: {type: array, items: {$ref: 'schemas/pet.json'}}
    """),
    "paths/pet.yaml": """\
    get:
      operationId: getPet
      parameters:
        - {name: id, in: path, required: true, schema: {$ref: '../schemas/pet.json#/properties/id'}}
      responses:
        '200':
          description: a pet
          content:
            application/json:
              schema: {$ref: '../schemas/pet.json'}
    """,
    "schemas/pet.json": """\
    {"type": "object",
     "properties": {"id": {"type": "integer"},
                    "owner": {"$ref": "../openapi.yaml#/components/schemas/Owner"},
                    "tag": {"$ref": "tag.json"}}}
    """,
    "schemas/tag.json": '{"type": "string", "maxLength": 10}',
    "parameters.yaml": """\
    limit: {name: limit, in: query, schema: {$ref: 'schemas/tag.json'}}
    """,
}


def test_relative_file_references_are_resolved_from_the_referring_file(tmp_path: Path) -> None:
    api, report = parse(tmp_path, MULTI_FILE)
    get_pet, list_owners = api.operations
    assert (get_pet.key, get_pet.path, get_pet.pointer) == (
        "getPet",
        "/pets/{id}",
        "paths/pet.yaml#/get",
    )
    assert get_pet.parameters == (
        Parameter(name="id", location="path", required=True, schema={"$ref": "#/$defs/id"}),
    )
    assert get_pet.response == Response(
        status="200",
        content_type="application/json",
        schema={"$ref": "#/$defs/pet"},
        description="a pet",
    )
    assert list_owners.parameters == (
        Parameter(
            name="limit",
            location="query",
            required=False,
            schema={"$ref": "#/$defs/tag"},
            style="form",
            explode=True,
        ),
    )
    assert list_owners.response is not None
    assert list_owners.response.schema == {"$ref": "#/$defs/Owner"}
    assert where(report) == []


def test_schemas_from_files_become_definitions_and_cross_file_recursion_is_kept(
    tmp_path: Path,
) -> None:
    api, _ = parse(tmp_path, MULTI_FILE)
    # the same file reached from two folders is one definition
    assert list(api.input_schemas) == ["Owner", "id", "pet", "tag"]
    assert api.input_schemas == {
        "Owner": {
            "type": "object",
            "properties": {"pets": {"type": "array", "items": {"$ref": "#/$defs/pet"}}},
        },
        "id": {"type": "integer"},
        "pet": {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "owner": {"$ref": "#/$defs/Owner"},
                "tag": {"$ref": "#/$defs/tag"},
            },
        },
        "tag": {"type": "string", "maxLength": 10},
    }
    assert api.output_schemas == api.input_schemas


def test_a_file_schema_named_like_a_component_gets_a_suffix(tmp_path: Path) -> None:
    api, _ = parse(
        tmp_path,
        {
            "openapi.yaml": spec("""\
            paths:
              /a:
                post:
                  requestBody:
                    content:
                      application/json: {schema: {$ref: 'other.yaml#/components/schemas/Pet'}}
                  responses: {'204': {description: done}}
            components:
              schemas:
                Pet: {type: string}
            """),
            "other.yaml": "components: {schemas: {Pet: {type: integer}}}\n",
        },
    )
    assert api.operations[0].body == RequestBody(
        content_type="application/json", required=False, schema={"$ref": "#/$defs/Pet_2"}
    )
    assert api.input_schemas == {"Pet": {"type": "string"}, "Pet_2": {"type": "integer"}}


def test_a_cross_file_reference_cycle_leaves_the_parameter_out(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        {
            "openapi.yaml": spec("""\
            paths:
              /loop:
                get:
                  operationId: loop
                  parameters: [{$ref: '#/components/parameters/B'}]
                  responses: {'204': {description: done}}
              /fine:
                get:
                  operationId: fine
                  responses: {'204': {description: done}}
            components:
              parameters:
                B: {$ref: 'parameters.yaml#/A'}
            """),
            "parameters.yaml": "A: {$ref: 'openapi.yaml#/components/parameters/B'}\n",
        },
    )
    assert [(op.key, op.parameters) for op in api.operations] == [("loop", ()), ("fine", ())]
    assert messages(report) == [
        (
            "ref-cycle",
            "parameters.yaml#/A",
            "$ref 'openapi.yaml#/components/parameters/B' closes a cycle of references",
        ),
        (
            "param-unresolved",
            "#/paths/~1loop/get/parameters/0",
            "parameter #/paths/~1loop/get/parameters/0 cannot be resolved; the operation is kept "
            "without it",
        ),
    ]


def test_a_cross_file_schema_alias_cycle_is_broken(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        {
            "openapi.yaml": spec("""\
            paths: {}
            components:
              schemas:
                Loop: {$ref: 'loop.yaml#/Loop'}
            """),
            "loop.yaml": "Loop: {$ref: 'openapi.yaml#/components/schemas/Loop'}\n",
        },
    )
    assert api.input_schemas == {"Loop": {"$ref": "#/$defs/Loop_2"}, "Loop_2": {}}
    assert where(report) == [("no-operations", "#"), ("ref-cycle", "loop.yaml#/Loop")]


# -- refused references -------------------------------------------------------------------------


def test_a_reference_escaping_the_spec_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.yaml").write_text("p: {name: p, in: query}\nS: {type: string}\n")
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "link.yaml").symlink_to(tmp_path / "secret.yaml")
    api, report = parse(
        tmp_path / "spec",
        {
            "openapi.yaml": spec("""\
            paths:
              /a:
                get:
                  operationId: a
                  parameters: [{$ref: '../secret.yaml#/p'}]
                  responses: {'204': {description: done}}
              /b:
                get:
                  operationId: b
                  parameters: [{name: q, in: query, schema: {$ref: 'link.yaml#/S'}}]
                  responses: {'204': {description: done}}
            """)
        },
    )
    # nothing of the file outside is read: /a goes without the parameter it points to
    assert [(op.key, len(op.parameters)) for op in api.operations] == [("a", 0), ("b", 1)]
    assert api.operations[1].parameters[0].schema == {}
    assert messages(report) == [
        (
            "ref-escape",
            "#/paths/~1a/get/parameters/0",
            "$ref '../secret.yaml#/p' leaves the spec's folder; only files inside it are read",
        ),
        (
            "param-unresolved",
            "#/paths/~1a/get/parameters/0",
            "parameter #/paths/~1a/get/parameters/0 cannot be resolved; the operation is kept "
            "without it",
        ),
        (
            "ref-escape",
            "#/paths/~1b/get/parameters/0/schema",
            "$ref 'link.yaml#/S' leaves the spec's folder; only files inside it are read",
        ),
    ]


@pytest.mark.usefixtures("no_network")
def test_remote_references_are_refused_and_never_fetched(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        {
            "openapi.yaml": spec("""\
            paths:
              /a:
                get:
                  operationId: a
                  parameters: [{$ref: 'https://example.com/params.yaml#/p'}]
                  responses: {'204': {description: done}}
              /b:
                get:
                  operationId: b
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json: {schema: {$ref: 'http://example.com/s.json'}}
            """)
        },
    )
    assert [(op.key, op.parameters) for op in api.operations] == [("a", ()), ("b", ())]
    assert api.operations[1].response == Response(
        status="200", content_type="application/json", schema={}, description="ok"
    )
    assert where(report) == [
        ("ref-remote", "#/paths/~1a/get/parameters/0"),
        ("param-unresolved", "#/paths/~1a/get/parameters/0"),
        ("ref-remote", "#/paths/~1b/get/responses/200/content/application~1json/schema"),
    ]
    assert report.diagnostics[0].message == (
        "$ref 'https://example.com/params.yaml#/p' is a URL; remote references are fetched only"
        " with --allow-remote-refs"
    )


@pytest.mark.usefixtures("no_network")
def test_an_operation_whose_parameters_are_online_is_kept_without_them(tmp_path: Path) -> None:
    # pygeoapi's live document: its items' parameters point at OGC's schemas online
    api, report = parse(
        tmp_path,
        {
            "openapi.yaml": spec("""\
            paths:
              /collections/lakes/items/{featureId}:
                get:
                  operationId: getLakesFeature
                  parameters:
                    - {$ref: 'https://schemas.opengis.net/ogcapi/features.yaml#/featureId'}
                    - {$ref: 'https://schemas.opengis.net/ogcapi/sortby.yaml'}
                    - {name: f, in: query, schema: {type: string}}
                  responses: {'204': {description: done}}
            """)
        },
    )
    (op,) = api.operations
    assert [(p.name, p.location, p.required, p.schema) for p in op.parameters] == [
        ("f", "query", False, {"type": "string"}),
        ("featureId", "path", True, {"type": "string"}),
    ]
    assert where(report) == [
        ("ref-remote", "#/paths/~1collections~1lakes~1items~1{featureId}/get/parameters/0"),
        ("param-unresolved", "#/paths/~1collections~1lakes~1items~1{featureId}/get/parameters/0"),
        ("ref-remote", "#/paths/~1collections~1lakes~1items~1{featureId}/get/parameters/1"),
        ("param-unresolved", "#/paths/~1collections~1lakes~1items~1{featureId}/get/parameters/1"),
        ("path-param-missing", "#/paths/~1collections~1lakes~1items~1{featureId}/get"),
    ]


def test_file_references_need_a_file_not_stdin() -> None:
    spec = (
        HEAD
        + "paths:\n  /a:\n    get:\n      parameters: [{$ref: 'p.yaml#/p'}]\n"
        + "      responses: {'204': {description: done}}\n"
    )
    report = Report()
    api = parse_api(load_source("-", stdin=spec.encode()), report)
    assert [op.parameters for op in api.operations] == [()]
    assert messages(report)[0] == (
        "ref-unresolved",
        "#/paths/~1a/get/parameters/0",
        "$ref 'p.yaml#/p' names a file, but the spec was read from stdin",
    )


def test_unreadable_files_and_missing_targets_are_reported(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        {
            "openapi.yaml": spec("""\
            paths:
              /a:
                get:
                  parameters: [{$ref: 'nope.yaml#/p'}]
                  responses: {'204': {description: done}}
              /b:
                get:
                  parameters: [{$ref: 'broken.yaml#/p'}]
                  responses: {'204': {description: done}}
              /c:
                get:
                  parameters: [{$ref: '#/components/parameters/nope'}]
                  responses: {'204': {description: done}}
            """),
            "broken.yaml": "p: [1\n",
        },
    )
    assert [op.parameters for op in api.operations] == [(), (), ()]
    found = [m for m in messages(report) if m[0] != "operation-id-missing"]
    assert [(code, pointer) for code, pointer, _ in found] == [
        ("ref-file-invalid", "#/paths/~1a/get/parameters/0"),
        ("param-unresolved", "#/paths/~1a/get/parameters/0"),
        ("ref-file-invalid", "#/paths/~1b/get/parameters/0"),
        ("param-unresolved", "#/paths/~1b/get/parameters/0"),
        ("ref-missing", "#/paths/~1c/get/parameters/0"),
        ("param-unresolved", "#/paths/~1c/get/parameters/0"),
    ]
    assert found[0][2] == "$ref 'nope.yaml#/p': cannot read nope.yaml: No such file or directory"
    assert found[2][2].startswith("$ref 'broken.yaml#/p': broken.yaml is not valid YAML: ")
    assert found[4][2] == "$ref '#/components/parameters/nope' points to nothing"


# -- non-schema references are inlined --------------------------------------------------------


def test_components_other_than_schemas_are_inlined(tmp_path: Path) -> None:
    api, report = parse(
        tmp_path,
        {
            "openapi.yaml": """\
            openapi: 3.1.0
            info: {title: T, version: '1'}
            servers: [{url: 'https://api.example.com'}]
            security: [{key: []}]
            paths:
              /pets:
                $ref: '#/components/pathItems/Pets'
            components:
              pathItems:
                Pets:
                  post:
                    operationId: addPet
                    parameters:
                      - $ref: '#/components/parameters/Trace'
                        description: overridden
                    requestBody: {$ref: '#/components/requestBodies/Pet'}
                    responses:
                      '201': {$ref: '#/components/responses/Created'}
              parameters:
                Trace:
                  name: X-Trace
                  in: header
                  description: original
                  schema: {type: string}
                  examples:
                    one: {$ref: '#/components/examples/Trace'}
              examples:
                Trace: {value: abc}
              requestBodies:
                Pet:
                  required: true
                  content: {application/json: {schema: {type: object}}}
              responses:
                Created:
                  description: created
                  content: {application/json: {schema: {type: string}}}
              securitySchemes:
                key: {$ref: '#/components/securitySchemes/Key'}
                Key: {type: apiKey, in: header, name: X-Key}
            """
        },
    )
    (op,) = api.operations
    assert (op.key, op.pointer) == ("addPet", "#/components/pathItems/Pets/post")
    assert op.parameters == (
        Parameter(
            name="X-Trace",
            location="header",
            required=False,
            schema={"type": "string"},
            description="overridden",
            examples=("abc",),
        ),
    )
    assert op.body == RequestBody(
        content_type="application/json", required=True, schema={"type": "object"}
    )
    assert op.response == Response(
        status="201",
        content_type="application/json",
        schema={"type": "string"},
        description="created",
    )
    assert op.security == (("key",),)
    assert api.security_schemes == {
        "key": ApiKeyScheme("key", "header", "X-Key"),
        "Key": ApiKeyScheme("Key", "header", "X-Key"),
    }
    assert where(report) == []
