"""Classification defaults: which operations become which MCP primitives, named how, hinted how."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.ir.model import Api, ApiKeyScheme, Operation, Parameter, RequestBody, Response
from openapi2mcp.ir.x_mcp import XMcp
from openapi2mcp.plan.build import build_plan
from openapi2mcp.plan.classify import classify_operations
from openapi2mcp.plan.settings import Settings

PET = {
    "type": "object",
    "required": ["name"],
    "properties": {"name": {"type": "string"}, "status": {"enum": ["available", "sold"]}},
    "additionalProperties": False,
}


def op(method: str, path: str, key: str, **kwargs: Any) -> Operation:
    pointer = f"#/paths/{path.replace('/', '~1')}/{method.lower()}"
    return Operation(key=key, operation_id=key, method=method, path=path, pointer=pointer, **kwargs)  # type: ignore[arg-type]


def path_param(name: str, schema: dict[str, Any] | None = None) -> Parameter:
    return Parameter(name, "path", True, schema or {"type": "integer"})


def api(*operations: Operation, **kwargs: Any) -> Api:
    return Api(
        title="Pet Store API",
        version="1.2.3",
        description="All about pets.\n\nMore text.",
        openapi_version="3.0.3",
        servers=("https://pets.example.com/v1",),
        operations=operations,
        **kwargs,
    )


@pytest.mark.parametrize(
    ("method", "hints"),
    [
        ("GET", (True, False, True)),
        ("HEAD", (True, False, True)),
        ("OPTIONS", (True, False, True)),
        ("PUT", (False, True, True)),
        ("DELETE", (False, True, True)),
        ("PATCH", (False, True, False)),
        ("POST", (False, True, False)),
    ],
)
def test_annotations_follow_the_verb(method: str, hints: tuple[bool, bool, bool]) -> None:
    surface = classify_operations(
        api(op(method, "/things", "doThing")), Settings(), "pets", Report()
    )
    (tool,) = surface.tools
    a = tool.annotations
    assert (a.read_only, a.destructive, a.idempotent, a.open_world) == (*hints, True)


def test_get_collection_is_a_static_resource_and_item_a_template() -> None:
    surface = classify_operations(
        api(
            op(
                "GET",
                "/pets",
                "listPets",
                parameters=(Parameter("limit", "query", False, {"type": "integer"}),),
            ),
            op(
                "GET",
                "/pets/{petId}",
                "getPetById",
                parameters=(
                    path_param("petId"),
                    Parameter(
                        "fields", "query", False, {"type": "array", "items": {"type": "string"}}
                    ),
                    Parameter("verbose", "query", False, {"type": "boolean"}),
                ),
            ),
        ),
        Settings(),
        "pets",
        Report(),
    )
    assert [r.uri for r in surface.resources] == ["pets://pets"]
    (template,) = surface.templates
    # objects cannot round-trip through {?…}; scalars and arrays of scalars (comma-separated) can
    assert template.uri_template == "pets://pets/{petId}{?fields,verbose}"
    assert dict(template.variables) == {"petId": "petId", "fields": "fields", "verbose": "verbose"}
    assert dict(template.variable_types) == {
        "petId": "integer",
        "fields": "array",
        "verbose": "boolean",
    }


def test_an_optional_parameter_written_the_fastapi_way_is_in_its_template() -> None:
    # Phoenix (FastAPI, OpenAPI 3.1): anyOf [{type: string}, {type: null}] for an optional value
    nullable = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    splits = {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]}
    # ZenML's filters: a UUID, a string, an array of either, or null
    uuid = {"type": "string", "format": "uuid"}
    either = {"anyOf": [uuid, {"type": "string"}]}
    filters = {
        "anyOf": [uuid, {"type": "string"}, {"type": "array", "items": either}, {"type": "null"}]
    }
    surface = classify_operations(
        api(
            op(
                "GET",
                "/datasets/{id}/csv",
                "getDatasetCsv",
                parameters=(
                    path_param("id", {"type": "string"}),
                    Parameter("version_id", "query", False, nullable),
                    Parameter("split", "query", False, splits),
                    Parameter("user", "query", False, filters),
                    # drf-spectacular's ordering: named as the tool's argument is
                    Parameter("_ordering", "query", False, {"type": "string"}),
                    # OData's: the mark is no part of a URI variable's name
                    Parameter("$top", "query", False, {"type": "integer"}),
                    # an object is no text: left out
                    Parameter("where", "query", False, {"anyOf": [{"type": "object"}, uuid]}),
                ),
            )
        ),
        Settings(),
        "pets",
        Report(),
    )
    (template,) = surface.templates
    assert template.uri_template == (
        "pets://datasets/{id}/csv{?version_id,split,user,_ordering,top}"
    )
    assert dict(template.variable_types) == {
        "id": "string",
        "version_id": "string",
        "split": "array",
        "user": "string",
        "_ordering": "string",
        "top": "integer",
    }


def test_a_stream_is_no_resource() -> None:
    # Mayan's and ZenML's event streams (no body documented, or JSON): a client reading every
    # listed resource waited out the timeout on each; a documented event stream alike
    events = Response("200", "text/event-stream", None, media_types=("text/event-stream",))
    report = Report()
    surface = classify_operations(
        api(
            op("GET", "/api/v4/server_side_events/stream/", "sse_stream"),
            op(
                "GET",
                "/runs/{run_id}/events/stream",
                "stream_run",
                parameters=(path_param("run_id"),),
            ),
            op("GET", "/logs", "follow_logs", response=events),
            op("GET", "/streams", "list_streams"),
        ),
        Settings(),
        "pets",
        report,
    )
    assert [r.uri for r in surface.resources] == ["pets://streams"]
    assert surface.templates == ()
    assert [t.name for t in surface.tools] == [
        "sse_stream",
        "stream_run",
        "follow_logs",
        "list_streams",
    ]


def test_a_websocket_route_is_left_out_with_a_warning(tmp_path: Any) -> None:
    # LiteLLM's /realtime: its only answer is "101 WebSocket Protocol Switched"; as a tool and a
    # resource it could only ever fail
    spec = tmp_path / "relay.yaml"
    spec.write_text(
        "openapi: 3.1.0\ninfo: {title: Relay, version: '1'}\n"
        "servers: [{url: 'https://relay.example.com'}]\npaths:\n"
        "  /realtime:\n    get:\n      operationId: websocket_endpoint\n"
        "      responses: {'101': {description: WebSocket Protocol Switched}}\n"
        "  /models:\n    get:\n      operationId: listModels\n"
        "      responses: {'101': {description: upgrade}, '200': {description: ok}}\n"
    )
    plan, report = plan_source(str(spec), GenerateOptions())
    assert [tool.name for tool in plan.tools] == ["list_models"]
    assert [r.uri for r in plan.resources] == ["relay://models"]
    (told,) = [d for d in report.diagnostics if d.code == "op-switches-protocols"]
    assert (told.pointer, told.message) == (
        "#/paths/~1realtime/get",
        "'websocket_endpoint' is not exposed: its only answer switches protocols (101: a "
        "WebSocket), which a tool call cannot use",
    )


def test_a_long_poll_or_a_watch_is_no_resource() -> None:
    # Airflow 3's wait for a DAG run ("streamed as newline-delimited JSON", a long poll): reading
    # its resource waited out the timeout; Kubernetes' watch lists say so in their media type
    lines = Response("200", "application/x-ndjson", None, media_types=("application/x-ndjson",))
    watch = Response(
        "200",
        "application/json",
        None,
        media_types=("application/json", "application/json;stream=watch"),
    )
    export = Response("200", "application/x-ndjson", None, media_types=("application/x-ndjson",))
    surface = classify_operations(
        api(
            dataclasses.replace(
                op(
                    "GET", "/dags/{dag_id}/wait", "wait_dag_run", parameters=(path_param("dag_id"),)
                ),
                response=lines,
                description="Wait for a DAG run; results are streamed as newline-delimited JSON.",
            ),
            op("GET", "/api/v1/watch/pods", "watchPods", response=watch),
            op("GET", "/longpoll", "LongPoll"),
            # JSON lines that end (an export) are still read
            op("GET", "/export", "exportEvents", response=export),
        ),
        Settings(),
        "pets",
        Report(),
    )
    assert [r.uri for r in surface.resources] == ["pets://export"]
    assert surface.templates == ()


def test_a_resource_says_its_media_type_only_when_the_document_does() -> None:
    # LNbits documents no content for its backup (a ZIP) and QR codes (SVG): no guess at JSON
    surface = classify_operations(
        api(
            op("GET", "/backup", "api_backup", response=Response("200", "", None)),
            op("GET", "/qrcode/{data}", "api_qr", parameters=(path_param("data"),)),
            op("GET", "/pets", "listPets", response=Response("200", "application/json", {})),
        ),
        Settings(),
        "pets",
        Report(),
    )
    assert [(r.uri, r.mime_type) for r in surface.resources] == [
        ("pets://backup", ""),
        ("pets://pets", "application/json"),
    ]
    assert [(t.uri_template, t.mime_type) for t in surface.templates] == [
        ("pets://qrcode/{data}", "")
    ]


def test_a_paths_sub_delimiters_stay_literal_in_its_uri_template() -> None:
    # TiTiler's point query: a client reads titiler://cog/point/10,45, not .../10%2C45; a colon
    # (which the first segment, the URI's authority, would read as a port) and a space are encoded
    json = Response("200", "application/json", {})
    lon, lat = path_param("lon", {"type": "number"}), path_param("lat", {"type": "number"})
    surface = classify_operations(
        api(
            op("GET", "/cog/point/{lon},{lat}", "point", parameters=(lon, lat), response=json),
            op("GET", "/a:b/c d/(x)+y;z=1", "odd", response=json),
        ),
        Settings(),
        "titiler",
        Report(),
    )
    assert [t.uri_template for t in surface.templates] == ["titiler://cog/point/{lon},{lat}"]
    assert [r.uri for r in surface.resources] == ["titiler://a%3Ab/c%20d/(x)+y;z=1"]


def test_required_query_parameter_makes_a_template_and_enums_give_completions() -> None:
    status = Parameter("status", "query", True, {"type": "string", "enum": ["available", "sold"]})
    surface = classify_operations(
        api(op("GET", "/pets/findByStatus", "findPetsByStatus", parameters=(status,))),
        Settings(),
        "pets",
        Report(),
    )
    (template,) = surface.templates
    assert template.uri_template == "pets://pets/findByStatus{?status}"
    assert surface.template_completions == (
        ("pets://pets/findByStatus{?status}", (("status", ("available", "sold")),)),
    )


def test_object_body_is_flattened_and_schema_is_self_contained() -> None:
    body = RequestBody("application/json", True, {"$ref": "#/$defs/NewPet"})
    surface = classify_operations(
        api(
            op(
                "POST",
                "/pets",
                "createPet",
                body=body,
                response=Response("201", "application/json", {"$ref": "#/$defs/Pet"}),
            ),
            input_schemas={"NewPet": PET},
            output_schemas={
                "Pet": {**PET, "properties": {**PET["properties"], "id": {"type": "integer"}}}
            },
        ),
        Settings(),
        "pets",
        Report(),
    )
    (tool,) = surface.tools
    assert tool.input_schema == {
        "type": "object",
        "properties": PET["properties"],
        "required": ["name"],
        "additionalProperties": False,
    }
    assert [(a.name, a.source) for a in tool.arguments] == [
        ("name", "body_property"),
        ("status", "body_property"),
    ]
    assert tool.output_schema is not None
    assert tool.output_schema["$defs"]["Pet"]["properties"]["id"] == {"type": "integer"}


SILENCE = {
    "type": "object",
    "required": ["matchers", "endsAt"],
    "properties": {
        "matchers": {"type": "array", "items": {"type": "string"}},
        "endsAt": {"type": "string", "format": "date-time"},
    },
}


def _body_tool(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    body = RequestBody("application/json", True, schema)
    surface = classify_operations(
        api(op("POST", "/silences", "postSilences", body=body), input_schemas=defs),
        Settings(),
        "am",
        Report(),
    )
    (tool,) = surface.tools
    return tool


def test_a_body_that_extends_a_model_with_all_of_is_flattened() -> None:
    """Alertmanager's postableSilence: allOf [{$ref: silence}, {properties: {id}}] (go-swagger)."""
    postable = {
        "allOf": [{"$ref": "#/$defs/silence"}, {"type": "object", "properties": {"id": {}}}],
        "description": "A silence to create or update.",
    }
    tool = _body_tool(
        {"$ref": "#/$defs/postableSilence"}, {"silence": SILENCE, "postableSilence": postable}
    )
    assert [(a.name, a.source, a.required) for a in tool.arguments] == [
        ("matchers", "body_property", True),
        ("endsAt", "body_property", True),
        ("id", "body_property", False),
    ]
    assert tool.input_schema["required"] == ["matchers", "endsAt"]
    assert "allOf" not in tool.input_schema


def test_what_a_body_requires_without_defining_it_is_an_argument() -> None:
    """Box's token revocation requires ``grant_type``, which its properties leave out: the API asks
    for it, so the tool takes it, with a warning naming the body."""
    report = Report()
    body = RequestBody(
        "application/x-www-form-urlencoded",
        True,
        {"type": "object", "properties": {"token": {"type": "string"}}, "required": ["grant_type"]},
    )
    revoke = op("POST", "/oauth2/revoke", "revoke", body=body)
    (tool,) = classify_operations(api(revoke), Settings(), "box", report).tools
    assert [(a.name, a.source, a.required) for a in tool.arguments] == [
        ("token", "body_property", False),
        ("grant_type", "body_property", True),
    ]
    assert tool.input_schema["required"] == ["grant_type"]
    [warning] = [d for d in report.warnings if d.code == "body-required-undefined"]
    assert warning.pointer == "#/paths/~1oauth2~1revoke/post/requestBody"
    assert warning.message == (
        "the request body requires 'grant_type', which its properties do not define: the tool "
        "takes it as an argument"
    )
    # a form field is text (null cannot be sent in a form)
    assert tool.input_schema["properties"]["grant_type"]["type"] == "string"


def test_a_form_body_that_is_a_string_says_it_is_the_encoded_form() -> None:
    """The runtime sends such a body as given; the argument tells the model to write the form
    (unless the document describes it)."""
    body = RequestBody("application/x-www-form-urlencoded", True, {"type": "string"})
    (tool,) = classify_operations(
        api(op("POST", "/token", "t", body=body)), Settings(), "t", Report()
    ).tools
    assert tool.input_schema["properties"]["body"] == {
        "type": "string",
        "description": "The form itself, encoded: name=value pairs joined by &.",
    }
    described = RequestBody(
        "application/x-www-form-urlencoded", True, {"type": "string"}, description="The query."
    )
    (tool,) = classify_operations(
        api(op("POST", "/q", "q", body=described)), Settings(), "q", Report()
    ).tools
    assert tool.input_schema["properties"]["body"]["description"] == "The query."


def test_a_parameter_s_own_example_is_shown_in_its_schema() -> None:
    """Nexmo's phone number has an example on the parameter (not in its schema, whose pattern
    admits ""): the argument shows it, when it is a short value the schema accepts."""
    phone = {"type": "string", "pattern": "^[0-9-+\\(\\)\\s]*$"}
    params = (
        Parameter("number", "query", True, phone, examples=("447700900000",)),
        Parameter("country", "query", False, {"type": "string", "maxLength": 2}, examples=("GBR",)),
        Parameter("note", "query", False, {"type": "string"}, examples=("x" * 61,)),
        Parameter(
            "ip", "query", False, {"type": "string", "examples": ["1.2.3.4"]}, examples=("5",)
        ),
    )
    insight = op("GET", "/basic", "insight", parameters=params)
    (tool,) = classify_operations(api(insight), Settings(), "n", Report()).tools
    shown = {k: v.get("examples") for k, v in tool.input_schema["properties"].items()}
    assert shown == {
        "number": ["447700900000"],
        "country": None,  # the schema refuses it
        "note": None,  # too long to be worth its tokens
        "ip": ["1.2.3.4"],  # the schema's own
    }


def test_a_parameter_s_example_is_said_in_its_description() -> None:
    """The advertised schemas carry no examples, so the form a value takes is said in the
    argument's description: Directus's filter syntax (its schema's example), a UUID (its own); not
    a number or a boolean, which say no more than their type, nor what an enum says already, nor
    a generator's placeholder, nor an example the description quotes."""
    filter_ = {"type": "object", "examples": [{"<field>": {"<operator>": "<value>"}}]}
    params = (
        Parameter("filter", "query", False, filter_, "Select items by given conditions"),
        Parameter("id", "path", True, {"type": "string"}, "Its id.", examples=("8cbb43fe",)),
        Parameter("limit", "query", False, {"type": "integer"}, "How many.", examples=(5,)),
        Parameter("order", "query", False, {"type": "string", "enum": ["a", "d"]}, examples=("a",)),
        Parameter("q", "query", False, {"type": "string", "examples": ["string"]}, "Words."),
        Parameter(
            "tag", "query", False, {"type": "string"}, "A tag such as red.", examples=("red",)
        ),
        Parameter("bare", "query", False, {"type": "string"}, examples=("x-1",)),
    )
    listed = op("GET", "/items/{id}", "listItems", parameters=params)
    (tool,) = classify_operations(api(listed), Settings(), "n", Report()).tools
    said = {k: v.get("description") for k, v in tool.input_schema["properties"].items()}
    assert said == {
        "filter": 'Select items by given conditions. Example: {"<field>":{"<operator>":"<value>"}}',
        "id": 'Its id. Example: "8cbb43fe"',
        "limit": "How many.",
        "order": None,
        "q": "Words.",
        "tag": "A tag such as red.",
        "bare": 'Example: "x-1"',
    }


def test_a_body_that_requires_what_it_cannot_carry_is_sent_as_the_api_decides() -> None:
    """Jira's security-level members: ``required: [securitySchemeLevelMembers]``, properties
    ``members`` only and ``additionalProperties: false``: no body satisfies it; the tool leaves
    the requirement out and says so."""
    report = Report()
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"members": {"type": "array"}},
        "required": ["securitySchemeLevelMembers"],
    }
    put = op("PUT", "/members", "addMembers", body=RequestBody("application/json", True, schema))
    (tool,) = classify_operations(api(put), Settings(), "jira", report).tools
    assert [(a.name, a.required) for a in tool.arguments] == [("members", False)]
    [warning] = [d for d in report.warnings if d.code == "body-required-undefined"]
    assert "no request satisfies the document" in warning.message


PATCH = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "tag": {"type": "string"}},
}


def _patch_tool(body: dict[str, Any]) -> Any:
    patch = op(
        "PATCH",
        "/pets/{petId}",
        "patchPet",
        parameters=(path_param("petId"),),
        body=RequestBody("application/json", True, body),
    )
    (tool,) = classify_operations(api(patch), Settings(), "pets", Report()).tools
    return tool


def test_a_body_that_needs_one_field_needs_one_of_its_arguments() -> None:
    """``minProperties: 1`` of a PATCH body is said of the body's arguments: the path's id alone
    (which the whole argument object would count) must not send ``{}``, which APIs refuse."""
    tool = _patch_tool({**PATCH, "minProperties": 1})
    assert [(a.name, a.source) for a in tool.arguments] == [
        ("petId", "path"),
        ("name", "body_property"),
        ("tag", "body_property"),
    ]
    assert "minProperties" not in tool.input_schema
    assert tool.input_schema["anyOf"] == [{"required": ["name"]}, {"required": ["tag"]}]


@pytest.mark.parametrize("count", [{"minProperties": 2}, {"maxProperties": 1}])
def test_a_body_counted_otherwise_beside_other_arguments_stays_one_argument(
    count: dict[str, int],
) -> None:
    tool = _patch_tool({**PATCH, **count})
    assert [(a.name, a.source) for a in tool.arguments] == [("petId", "path"), ("body", "body")]


@pytest.mark.parametrize(
    "other",
    [
        # a part that says more than properties: what it says would be lost
        {"type": "object", "properties": {"id": {}}, "additionalProperties": False},
        {"type": "object", "minProperties": 2},
        # a property two parts describe differently
        {"properties": {"endsAt": {"type": "integer"}}},
        # a part that is no object
        {"type": "string"},
    ],
)
def test_an_all_of_that_does_not_merge_plainly_stays_one_body(other: dict[str, Any]) -> None:
    tool = _body_tool({"allOf": [{"$ref": "#/$defs/silence"}, other]}, {"silence": SILENCE})
    assert [(a.name, a.source) for a in tool.arguments] == [("body", "body")]


DRF_OPS = [
    ("/api/labels/", "api_labels_list"),
    ("/api/projects/", "api_projects_list"),
    ("/api/projects/{id}/", "api_projects_retrieve"),
    *((f"/api/t{i}/", f"api_t{i}_list") for i in range(7)),
]
DRF_NAMES = ["labels_list", "projects_list", "projects_retrieve", *(f"t{i}_list" for i in range(7))]


@pytest.mark.parametrize(
    ("extra", "names"),
    [
        # drf-spectacular: every path under /api/ and every id "api_..."; "api" says nothing
        ((), DRF_NAMES),
        # one in eleven elsewhere (Label Studio's /data/upload/...): still nine in ten
        ((("/data/files", "data_files_list"),), ["data_files_list", *DRF_NAMES]),
        # two in twelve: the ids stay as they are
        (
            (("/data/files", "data_files_list"), ("/data/dirs", "data_dirs_list")),
            ["data_dirs_list", "data_files_list", *(f"api_{name}" for name in DRF_NAMES)],
        ),
    ],
)
def test_the_word_every_path_and_operation_id_begin_with_is_left_out(
    extra: tuple[tuple[str, str], ...], names: list[str]
) -> None:
    ops = [*DRF_OPS, *extra]
    surface = classify_operations(
        api(*(op("GET", path, key) for path, key in ops)), Settings(), "ls", Report()
    )
    assert sorted(tool.name for tool in surface.tools) == sorted(names)


def test_a_shared_segment_that_names_a_resource_stays_in_the_names() -> None:
    ops = [("/todos/", "todos_list"), ("/todos/", "todos_create"), ("/todos/{id}", "todos_get")]
    methods = ["GET", "POST", "GET"]
    surface = classify_operations(
        api(*(op(m, path, key) for m, (path, key) in zip(methods, ops, strict=True))),
        Settings(),
        "t",
        Report(),
    )
    assert sorted(tool.name for tool in surface.tools) == [
        "todos_create",
        "todos_get",
        "todos_list",
    ]


def test_ids_that_do_not_begin_with_the_shared_segment_keep_their_words() -> None:
    ops = [("/api/v2/collections", "list_collections"), ("/api/v2/version", "version")]
    surface = classify_operations(
        api(*(op("GET", path, key) for path, key in ops)), Settings(), "c", Report()
    )
    assert sorted(tool.name for tool in surface.tools) == ["list_collections", "version"]


def test_a_body_property_named_as_a_parameter_is_renamed_and_the_rest_flattened() -> None:
    # FastAPI's update models repeat the path's id: {"petId": ..., "name": ...} at PUT /pets/{petId}
    properties = {"petId": {"type": "string"}, "name": {"type": "string", "description": "Name"}}
    body = RequestBody("application/json", True, {"type": "object", "properties": properties})
    surface = classify_operations(
        api(op("PUT", "/pets/{petId}", "updatePet", parameters=(path_param("petId"),), body=body)),
        Settings(),
        "pets",
        Report(),
    )
    (tool,) = surface.tools
    assert [(a.name, a.source, a.wire_name) for a in tool.arguments] == [
        ("petId", "path", "petId"),
        ("body_petId", "body_property", "petId"),
        ("name", "body_property", "name"),
    ]
    assert tool.input_schema["properties"]["body_petId"] == {
        "type": "string",
        "description": "The request body's 'petId' (not the parameter 'petId')",
    }
    assert tool.input_schema["properties"]["name"] == properties["name"]
    assert tool.input_schema["required"] == ["petId"]


@pytest.mark.parametrize(
    "extra",
    [
        # a root constraint names the property by the name it would no longer have
        {"anyOf": [{"required": ["petId"]}, {"required": ["name"]}]},
        # so would an optional body's required
        {"required": ["petId"]},
    ],
)
def test_a_body_that_cannot_rename_its_colliding_property_stays_whole(
    extra: dict[str, Any],
) -> None:
    properties = {"petId": {"type": "string"}, "name": {"type": "string"}}
    schema = {"type": "object", "properties": properties, **extra}
    body = RequestBody("application/json", False, schema)
    surface = classify_operations(
        api(op("PUT", "/pets/{petId}", "updatePet", parameters=(path_param("petId"),), body=body)),
        Settings(),
        "pets",
        Report(),
    )
    (tool,) = surface.tools
    assert [(a.name, a.source) for a in tool.arguments] == [("petId", "path"), ("body", "body")]
    assert tool.input_schema["required"] == ["petId"]


def test_same_name_in_path_and_query_gets_distinct_arguments_and_a_warning() -> None:
    report = Report()
    surface = classify_operations(
        api(
            op(
                "GET",
                "/items/{id}",
                "getItem",
                parameters=(Parameter("id", "query", False, {"type": "string"}), path_param("id")),
            )
        ),
        Settings(),
        "x",
        report,
    )
    (tool,) = surface.tools
    assert [a.name for a in tool.arguments] == ["id", "id_query"]
    assert [d.code for d in report.warnings] == ["argument-renamed"]


def test_deprecated_and_excluded_operations_are_skipped() -> None:
    surface = classify_operations(
        api(
            op("GET", "/old", "oldThing", deprecated=True),
            op("GET", "/hidden", "hidden", x_mcp=XMcp(exclude=True)),
            op("GET", "/new", "newThing", x_mcp=XMcp(name="fresh_thing", title="Fresh")),
        ),
        Settings(),
        "x",
        Report(),
    )
    assert [t.name for t in surface.tools] == ["fresh_thing"]
    assert surface.tools[0].title == "Fresh"
    assert [d.kinds for d in surface.decisions] == [
        ("skipped",),
        ("skipped",),
        ("tool", "resource"),
    ]


def test_duplicate_names_are_resolved_in_document_order() -> None:
    surface = classify_operations(
        api(op("GET", "/a", "list-pets"), op("GET", "/b", "listPets")),
        Settings(),
        "x",
        Report(),
    )
    assert [t.name for t in surface.tools] == ["list_pets", "list_pets_2"]


def test_plan_names_env_vars_and_prompts() -> None:
    the_api = api(
        op("GET", "/pets", "listPets", tags=("pets",), security=(("api_key",),)),
        op(
            "DELETE",
            "/pets/{petId}",
            "deletePet",
            tags=("pets",),
            parameters=(path_param("petId"),),
        ),
        op("GET", "/health", "health"),
        security_schemes={"api_key": ApiKeyScheme("api_key", "header", "X-API-Key")},
    )
    plan = build_plan(the_api, Settings(), Report())
    assert (plan.distribution, plan.package, plan.uri_scheme) == (
        "pet-store-mcp",
        "pet_store_mcp",
        "petstore",
    )
    assert [v.name for v in plan.env_vars] == [
        "PET_STORE_BASE_URL",
        "PET_STORE_TIMEOUT",
        "PET_STORE_API_KEY",
        "PET_STORE_HEADERS",
    ]
    assert plan.security == {
        "api_key": {
            "type": "apiKey",
            "location": "header",
            "name": "X-API-Key",
            "env": "PET_STORE_API_KEY",
        }
    }
    assert [p.name for p in plan.prompts] == ["pets_workflow", "other_workflow"]
    text = plan.prompts[0].parts[0].text
    assert "- list_pets:" in text and "- delete_pet:" in text and "destructive" in text
    assert plan.version == "1.2.3"


@pytest.mark.parametrize(
    ("name", "schema", "mirrored"),
    [
        ("X-Request-ID", {"type": "string"}, True),
        ("X-Page", {"type": "integer"}, True),
        ("X-Dry-Run", {"type": "boolean"}, True),
        ("X-Ratio", {"type": "number"}, False),  # numbers never (mcp-wire §3.2)
        ("X-Api-Key", {"type": "string"}, False),  # credentials never
        ("X-Auth-Token", {"type": "string"}, False),
        ("X-Session", {"type": "string"}, False),
        ("X Bad", {"type": "string"}, False),  # not an RFC 9110 token
        ("X-Ref", {"$ref": "#/$defs/Id"}, False),  # no $ref on the way
        ("X-List", {"type": "array", "items": {"type": "string"}}, False),
        ("X-Maybe", {"type": ["string", "null"]}, False),  # regression: a type list crashed (Box)
    ],
)
def test_header_parameters_are_mirrored_only_where_allowed(
    name: str, schema: dict[str, Any], mirrored: bool
) -> None:
    param = Parameter(name, "header", False, schema)
    surface = classify_operations(
        api(op("GET", "/x", "getX", parameters=(param,))), Settings(), "x", Report()
    )
    properties = surface.tools[0].input_schema["properties"]
    (prop,) = [schema for argument, schema in properties.items() if argument != "_select"]
    assert prop.get("x-mcp-header") == (name if mirrored else None)


def test_mirrored_header_names_are_case_insensitively_unique() -> None:
    params = (
        Parameter("X-Trace", "header", False, {"type": "string"}),
        Parameter("x-trace", "query", False, {"type": "string"}),
        Parameter("X-TRACE", "header", False, {"type": "string"}),
    )
    surface = classify_operations(
        api(op("GET", "/x", "getX", parameters=params)), Settings(), "x", Report()
    )
    props = surface.tools[0].input_schema["properties"]
    assert [p.get("x-mcp-header") for p in props.values()] == [None, "X-Trace", None]


CONTACT = {
    "type": "object",
    "properties": {
        "method": {"type": "string", "enum": ["phone", "email"]},
        "phone": {"type": "string"},
        "email": {"type": "string"},
    },
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"method": {"const": "phone"}}, "required": ["method"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
}


def test_body_root_constraints_move_to_the_tool_schema_with_the_dialect() -> None:
    body = RequestBody("application/json", True, CONTACT)
    surface = classify_operations(
        api(op("POST", "/contacts", "addContact", body=body)), Settings(), "pets", Report()
    )
    (tool,) = surface.tools
    assert [a.source for a in tool.arguments] == ["body_property"] * 3
    schema = tool.input_schema
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    for key in ("allOf", "if", "then", "else"):
        assert schema[key] == CONTACT[key]
    assert schema["additionalProperties"] is False


@pytest.mark.parametrize(
    "constraint",
    [
        {"allOf": [{"$ref": "#/$defs/Base"}]},
        {"anyOf": [{"properties": {"x": {}}, "additionalProperties": False}]},
    ],
)
def test_body_constraints_that_cannot_move_keep_the_body_whole(constraint: Any) -> None:
    body = RequestBody("application/json", True, {**CONTACT, **constraint})
    surface = classify_operations(
        api(op("POST", "/contacts", "addContact", body=body)), Settings(), "pets", Report()
    )
    (tool,) = surface.tools
    assert [a.name for a in tool.arguments] == ["body"]
    assert "$schema" not in tool.input_schema and "allOf" not in tool.input_schema


def test_a_removal_whose_arguments_are_all_optional_says_none_may_mean_everything() -> None:
    # PostgREST's DELETE /books takes row filters only; ArchiveBox's cli_remove, called with
    # none of its arguments, removed every snapshot
    title = Parameter("title", "query", False, {"type": "string"})
    patterns = RequestBody(
        "application/json",
        False,
        {
            "type": "object",
            "properties": {"filter_patterns": {"type": "array", "items": {"type": "string"}}},
        },
    )
    surface = classify_operations(
        api(
            op("DELETE", "/books", "delete_books", parameters=(title,)),
            op("POST", "/cli/remove", "cli_remove", body=patterns),
            op("DELETE", "/books/{id}", "delete_book", parameters=(path_param("id"),)),
            op("DELETE", "/cache", "clear_cache"),
        ),
        Settings(),
        "books",
        Report(),
    )
    said = (
        "Its arguments say what it acts on: called with none of them, the API may act on"
        " everything it holds, so such a call is refused unless `_all` is true."
    )
    told = {
        tool.name: (
            said in tool.description,
            tool.everything,
            "_all" in tool.input_schema["properties"],
        )
        for tool in surface.tools
    }
    assert told == {
        "delete_books": (True, "_all", True),
        "cli_remove": (True, "_all", True),
        "delete_book": (False, "", False),  # its id says what it acts on
        "clear_cache": (False, "", False),  # it takes nothing that could narrow it
    }
    (books,) = [tool for tool in surface.tools if tool.name == "delete_books"]
    assert books.input_schema["properties"]["_all"] == {
        "type": "boolean",
        "description": "true to let a call with none of the other arguments act on everything",
    }
