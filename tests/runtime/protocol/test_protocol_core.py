"""The transport-independent core in process: failure mapping, sessions, batches, pages, shaping."""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Mapping
from typing import Any

import pytest

from templates.runtime.catalog.model import Catalog
from templates.runtime.protocol.calls import convert_variable
from templates.runtime.protocol.dispatch import Dispatcher, LegacySession
from templates.runtime.protocol.jsonrpc import PreparedResult, encode
from templates.runtime.protocol.results import UpstreamStatusError
from templates.runtime.protocol.shaping import wrap_output_schema
from templates.runtime.protocol.uritemplate import Listed, Matched
from templates.runtime.upstream.client import UpstreamError, UpstreamResponse
from tests.runtime.conftest import CATALOG, META

OK_JSON = UpstreamResponse(200, "OK", "application/json", b'{"id":1,"name":"Rex"}', "u")


class FakeUpstream:
    """Answers each operation with a canned response or raises a canned exception."""

    def __init__(self, answers: Mapping[str, UpstreamResponse | Exception]) -> None:
        self.answers = answers
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
        self.calls.append((operation, dict(arguments)))
        answer = self.answers[operation]
        if isinstance(answer, Exception):
            raise answer
        return answer


def catalog() -> Catalog:
    return copy.deepcopy(CATALOG)  # type: ignore[no-any-return]


async def ignore(message: dict[str, Any]) -> None:
    raise AssertionError(f"unexpected notification {message}")


def request(method: str, request_id: Any = 1, **params: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": method,
        "params": {"_meta": META, **params},
    }


async def test_unexpected_exception_is_an_internal_error_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    dispatcher = Dispatcher(catalog(), FakeUpstream({"getPet": RuntimeError("boom at 0x1234")}))
    with caplog.at_level(logging.ERROR):
        reply = await dispatcher.handle(
            request("tools/call", name="get_pet", arguments={"petId": 1}), None, ignore
        )
    assert reply == {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32603, "message": "Internal error"},
    }
    assert "boom at 0x1234" in caplog.text


async def test_upstream_error_is_a_tool_error_with_its_message() -> None:
    failing = FakeUpstream({"getPet": UpstreamError("could not reach https://petstore.example")})
    reply = await Dispatcher(catalog(), failing).handle(
        request("tools/call", name="get_pet", arguments={"petId": 1}), None, ignore
    )
    assert reply is not None
    assert reply["result"]["isError"] is True
    assert reply["result"]["content"] == [
        {"type": "text", "text": "could not reach https://petstore.example"}
    ]
    assert failing.calls == [("getPet", {"petId": 1})]


@pytest.mark.parametrize(
    "failure",
    [
        UpstreamError("upstream timed out after 30 s"),
        UpstreamStatusError(500, "upstream timed out after 30 s"),
    ],
)
async def test_resource_upstream_failure_is_an_internal_error_with_its_message(
    failure: Exception,
) -> None:
    dispatcher = Dispatcher(catalog(), FakeUpstream({"listPets": failure}))
    reply = await dispatcher.handle(request("resources/read", uri="petstore://pets"), None, ignore)
    assert reply == {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32603, "message": "upstream timed out after 30 s"},
    }


async def test_template_variables_reach_the_upstream_typed() -> None:
    upstream = FakeUpstream({"getPet": OK_JSON, "listOwnerPets": OK_JSON})
    dispatcher = Dispatcher(catalog(), upstream)
    await dispatcher.handle(request("resources/read", uri="petstore://pets/7"), None, ignore)
    await dispatcher.handle(
        request("resources/read", uri="petstore://owners/o%20b/pets?limit=3"), None, ignore
    )
    # no tool is bound to listOwnerPets, so its variables stay strings
    assert upstream.calls == [
        ("getPet", {"petId": 7}),
        ("listOwnerPets", {"ownerId": "o b", "limit": "3"}),
    ]


async def test_empty_resource_body_still_has_contents() -> None:
    empty = UpstreamResponse(200, "OK", "", b"", "u")
    dispatcher = Dispatcher(catalog(), FakeUpstream({"getInventory": empty}))
    reply = await dispatcher.handle(
        request("resources/read", uri="petstore://store/inventory"), None, ignore
    )
    assert reply is not None
    assert reply["result"]["contents"] == [
        {"uri": "petstore://store/inventory", "mimeType": "application/json", "text": ""}
    ]


async def test_modern_requests_never_read_the_legacy_session() -> None:
    dispatcher = Dispatcher(catalog(), FakeUpstream({}))
    session = LegacySession(version="2025-03-26", initialized=True)
    reply = await dispatcher.handle(request("tools/list"), session, ignore)
    assert reply is not None
    assert reply["result"]["resultType"] == "complete"
    assert reply["result"]["tools"] == CATALOG["tools"]
    assert session == LegacySession(version="2025-03-26", initialized=True)


async def test_initialize_without_a_session_answers_and_remembers_nothing() -> None:
    dispatcher = Dispatcher(catalog(), FakeUpstream({}))
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18"},
    }
    reply = await dispatcher.handle(init, None, ignore)
    assert reply is not None and reply["result"]["protocolVersion"] == "2025-06-18"
    ping = await dispatcher.handle({"jsonrpc": "2.0", "id": 1, "method": "ping"}, None, ignore)
    assert ping is not None and ping["error"]["code"] == -32602


async def test_notifications_initialized_marks_the_session() -> None:
    dispatcher = Dispatcher(catalog(), FakeUpstream({}))
    session = LegacySession(version="2025-06-18")
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert await dispatcher.handle(note, session, ignore) is None
    assert session.initialized


async def test_handle_batch() -> None:
    dispatcher = Dispatcher(catalog(), FakeUpstream({}))
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    note = {"jsonrpc": "2.0", "method": "notifications/progress"}
    refused = {
        "jsonrpc": "2.0",
        "error": {
            "code": -32600,
            "message": "Invalid request: batches are accepted only from 2025-03-26 clients",
        },
    }
    assert await dispatcher.handle_batch([ping], None, ignore) == refused
    assert await dispatcher.handle_batch([ping], LegacySession("2025-06-18"), ignore) == refused
    old = LegacySession("2025-03-26")
    assert await dispatcher.handle_batch([ping, note], old, ignore) == [
        {"jsonrpc": "2.0", "id": 1, "result": {}}
    ]
    assert await dispatcher.handle_batch([note], old, ignore) is None
    empty = await dispatcher.handle_batch([], old, ignore)
    assert empty == {
        "jsonrpc": "2.0",
        "error": {"code": -32600, "message": "Invalid request: empty batch"},
    }


async def test_list_pages_are_prepared_once_per_era() -> None:
    dispatcher = Dispatcher(catalog(), FakeUpstream({}))
    first = await dispatcher.handle(request("tools/list", 1), None, ignore)
    second = await dispatcher.handle(request("tools/list", 2), None, ignore)
    assert first is not None and second is not None
    assert isinstance(first["result"], PreparedResult)
    assert first["result"] is second["result"]
    assert json.loads(encode(second)) == {**second, "result": dict(second["result"])}
    legacy = LegacySession("2025-11-25")
    old = await dispatcher.handle(
        {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, legacy, ignore
    )
    assert old is not None and old["result"] is not first["result"]


async def test_cursors_do_not_depend_on_the_page_size() -> None:
    small = Dispatcher(catalog(), FakeUpstream({}), page_size=2)
    large = Dispatcher(catalog(), FakeUpstream({}), page_size=3)
    page = await small.handle(request("tools/list"), None, ignore)
    assert page is not None
    cursor = page["result"]["nextCursor"]
    rest = await large.handle(request("tools/list", cursor=cursor), None, ignore)
    assert rest is not None
    names = [tool["name"] for tool in rest["result"]["tools"]]
    assert names == ["create_pet", "delete_pet", "slow_operation"]
    assert "nextCursor" not in rest["result"]


async def test_empty_catalog_advertises_nothing() -> None:
    bare = catalog()
    for key in ("tools", "resources", "resourceTemplates", "prompts"):
        bare[key] = []  # type: ignore[literal-required]
    bare["completions"] = {"prompts": {}, "resourceTemplates": {}}
    dispatcher = Dispatcher(bare, FakeUpstream({}))
    discover = await dispatcher.handle(request("server/discover"), None, ignore)
    assert discover is not None and discover["result"]["capabilities"] == {}
    for method in ("tools/list", "resources/read", "prompts/get", "completion/complete"):
        reply = await dispatcher.handle(request(method), None, ignore)
        assert reply is not None and reply["error"]["code"] == -32601


def test_wrap_output_schema_keeps_definitions_at_the_root() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "array",
        "items": {"$ref": "#/$defs/Pet"},
        "$defs": {"Pet": {"type": "object"}},
    }
    assert wrap_output_schema(schema) == {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"result": {"type": "array", "items": {"$ref": "#/$defs/Pet"}}},
        "required": ["result"],
        "$defs": {"Pet": {"type": "object"}},
    }
    assert wrap_output_schema(True) == {
        "type": "object",
        "properties": {"result": True},
        "required": ["result"],
    }


@pytest.mark.parametrize(
    ("text", "schema", "value"),
    [
        ("42", {"type": "integer"}, 42),
        ("-3", {"type": ["integer", "null"]}, -3),
        ("2.5", {"type": "number"}, 2.5),
        ("2", {"type": "number"}, 2),
        ("true", {"type": "boolean"}, True),
        # bare commas separate items; a comma of the value's own came encoded (TiTiler's
        # rescale=-1000%2C1000 is one item) and reaches here decoded, in a plain string
        (Listed(["a", "b"]), {"type": "array", "items": {"type": "string"}}, ["a", "b"]),
        (Listed(["1", "2"]), {"type": "array", "items": {"type": "integer"}}, [1, 2]),
        ("-1000,1000", {"type": "array", "items": {"type": "string"}}, ["-1000,1000"]),
        (Listed(["a", "b"]), {"type": "string"}, "a,b"),
        (["1", "2"], {"type": "array", "items": {"type": "integer"}}, [1, 2]),
        (["a,b", "c"], {"type": "array", "items": {"type": "string"}}, ["a,b", "c"]),
        ([Listed(["0", "1"]), "c"], {"type": "array", "items": {"type": "string"}}, ["0,1", "c"]),
        # an optional array (FastAPI's `list[int] | None`): its items are still typed
        (
            Listed(["5", "95"]),
            {"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]},
            [5, 95],
        ),
        ("1", {"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]}, [1]),
        ("007", {"type": "string"}, "007"),
        ("x", None, "x"),
    ],
)
def test_convert_variable(text: Matched, schema: Any, value: Any) -> None:
    assert convert_variable(text, schema) == value
    assert type(convert_variable(text, schema)) is type(value)


@pytest.mark.parametrize(
    ("text", "schema"),
    [
        ("1_000", {"type": "integer"}),
        ("1.0", {"type": "integer"}),
        ("nan", {"type": "number"}),
        ("yes", {"type": "boolean"}),
        (["1", "2"], {"type": "integer"}),
        (["1", "x"], {"type": "array", "items": {"type": "integer"}}),
    ],
)
def test_convert_variable_refuses_what_the_type_cannot_hold(
    text: str | list[str], schema: Any
) -> None:
    with pytest.raises(ValueError):
        convert_variable(text, schema)
