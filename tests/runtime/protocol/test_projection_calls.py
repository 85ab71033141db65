"""Selections through the protocol: ``tools/list`` and ``tools/call`` in both eras, and dynamic mode.

A hand-built catalog names ``_select`` as its selection argument; two read tools list it (one
returning an object, one an array) and a write tool does not. A fake upstream records the arguments
each call hands it, so every test can say exactly what reached the API.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from templates.runtime.catalog.model import Catalog
from templates.runtime.protocol.dispatch import LegacySession
from templates.runtime.protocol.projection import argument_schema, selected_output
from templates.runtime.server import McpServer, Settings
from templates.runtime.upstream.client import UpstreamResponse
from tests.reliability.kit import META, catalog, operation, parameter, tool

PET = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}
PETS = {"type": "array", "items": PET}
REX = {"id": 1, "name": "Rex", "status": "available"}
TOM = {"id": 2, "name": "Tom", "status": "sold"}
SELECT = {"_select": argument_schema()}


class Recording:
    """The API: a pet or the list of pets; remembers the arguments of every call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
        self.calls.append((operation, dict(arguments)))
        body = [REX, TOM] * int(arguments.get("limit", 1)) if operation == "list_pets" else REX
        return UpstreamResponse(200, "OK", "application/json", json.dumps(body).encode(), "u")


def pets_catalog(*, dynamic: bool = False) -> Catalog:
    cat = catalog(
        {
            "get_pet": operation("GET", "/pets/{id}", [parameter("id", "path")]),
            "list_pets": operation("GET", "/pets", [parameter("limit")]),
            "create_pet": operation("POST", "/pets"),
        },
        [
            tool("get_pet", {"id": {"type": "integer"}, **SELECT}, required=["id"])
            | {"outputSchema": PET},
            tool("list_pets", {"limit": {"type": "integer"}, **SELECT}) | {"outputSchema": PETS},
            tool("create_pet", {"name": {"type": "string"}}) | {"outputSchema": PET},
        ],
    )
    cat["selectArgument"] = "_select"
    if dynamic:
        call = tool("call_operation", {"name": {"type": "string"}, "arguments": {"type": "object"}})
        call["inputSchema"]["properties"]["_select"] = argument_schema()
        call["inputSchema"]["required"] = ["name"]
        cat["toolMode"] = {"mode": "dynamic", "toolsets": [], "autoThreshold": 60}
        cat["dynamicTools"] = [call]
    return cat


def serve(
    upstream: Recording, *, dynamic: bool = False, env: dict[str, str] | None = None
) -> McpServer:
    cat = pets_catalog(dynamic=dynamic)
    return McpServer(cat, Settings.from_env(cat, env or {}), upstream=upstream)


async def ask(
    server: McpServer, method: str, params: dict[str, Any], version: str | None = None
) -> dict[str, Any]:
    """One request: modern, or in a legacy session that negotiated ``version``."""

    async def notify(message: dict[str, Any]) -> None:
        pass

    session = None
    if version is not None:
        session = LegacySession()
        hello = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t"}}
        opened = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}
        await server.dispatcher.handle(opened, session, notify)
    else:
        params = {"_meta": META, **params}
    reply = await server.dispatcher.handle(
        {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, session, notify
    )
    assert reply is not None and "result" in reply, reply
    result: dict[str, Any] = reply["result"]
    return result


async def call(
    server: McpServer, name: str, arguments: dict[str, Any], version: str | None = None
) -> dict[str, Any]:
    return await ask(server, "tools/call", {"name": name, "arguments": arguments}, version)


def texts(result: dict[str, Any]) -> list[str]:
    return [block["text"] for block in result["content"]]


async def test_tools_list_advertises_what_a_selection_may_return() -> None:
    listed = (await ask(serve(Recording()), "tools/list", {}))["tools"]
    schemas = {item["name"]: item.get("outputSchema") for item in listed}
    assert schemas == {
        "get_pet": selected_output(PET),
        "list_pets": selected_output(PETS),
        "create_pet": PET,
    }


async def test_legacy_tools_list_keeps_object_roots_and_wraps_the_rest() -> None:
    listed = (await ask(serve(Recording()), "tools/list", {}, "2025-11-25"))["tools"]
    schemas = {item["name"]: item["outputSchema"] for item in listed}
    assert schemas["get_pet"] == selected_output(PET)
    assert schemas["list_pets"] == {
        "type": "object",
        "properties": {"result": selected_output(PETS)},
        "required": ["result"],
    }


async def test_the_selection_is_applied_and_never_sent_upstream() -> None:
    upstream = Recording()
    result = await call(serve(upstream), "list_pets", {"limit": 1, "_select": "[].name"})
    assert result == {
        "resultType": "complete",
        "content": [{"type": "text", "text": '["Rex","Tom"]'}],
        "structuredContent": ["Rex", "Tom"],
        "_meta": result["_meta"],
    }
    assert upstream.calls == [("list_pets", {"limit": 1})]


@pytest.mark.parametrize("version", ["2025-11-25", "2025-06-18"])
async def test_legacy_results_are_objects_wrapped_once(version: str) -> None:
    server = serve(Recording())
    listed = await call(server, "list_pets", {"_select": "[].name"}, version)
    picked = await call(server, "get_pet", {"id": 1, "_select": "name"}, version)
    whole = await call(server, "get_pet", {"id": 1, "_select": "{n: name}"}, version)
    assert listed["structuredContent"] == {"result": ["Rex", "Tom"]}
    assert picked["structuredContent"] == {"result": "Rex"}
    assert whole["structuredContent"] == {"n": "Rex"}
    assert texts(picked) == ['"Rex"']


async def test_2025_03_26_gets_the_text_only() -> None:
    result = await call(serve(Recording()), "get_pet", {"id": 1, "_select": "name"}, "2025-03-26")
    assert result == {"content": [{"type": "text", "text": '"Rex"'}]}


async def test_a_malformed_selection_sends_nothing() -> None:
    upstream = Recording()
    result = await call(serve(upstream), "get_pet", {"id": 1, "_select": "name["})
    assert result["isError"] is True
    assert texts(result) == [
        "Invalid arguments for tool 'get_pet':\n"
        "- _select: is not a valid JMESPath expression: Invalid jmespath expression: "
        'Incomplete expression: "name[" ^\n'
        "Nothing was sent to the API."
    ]
    assert upstream.calls == []


async def test_a_write_tool_refuses_a_selection() -> None:
    upstream = Recording()
    result = await call(serve(upstream), "create_pet", {"name": "Bo", "_select": "id"})
    assert result["isError"] is True
    assert texts(result) == [
        "Tool 'create_pet' does not take _select: only read-only tools that return JSON do. "
        "Nothing was sent to the API."
    ]
    assert upstream.calls == []


async def test_the_result_budget_bounds_the_selection() -> None:
    server = serve(Recording(), env={"REL_MAX_RESULT_CHARS": "600"})
    result = await call(server, "list_pets", {"limit": 10, "_select": "[].{n: name, s: status}"})
    shown, note = texts(result)
    rex, tom = '{"n":"Rex","s":"available"}', '{"n":"Tom","s":"sold"}'
    assert shown == f"[{rex},{tom},{rex},{tom},{rex}]"
    assert result["structuredContent"] == json.loads(shown)
    assert note == (
        "[cut to fit: the selection has 511 characters; shown: the first 5 of 20 items. This "
        "server returns at most 600 characters per result (its operator can raise that with "
        "REL_MAX_RESULT_CHARS). A smaller limit returns fewer, whole. A narrower _select "
        "returns less.]"
    )
    assert len(shown) * 2 + len(note) <= 600


async def test_call_operation_hands_its_selection_to_a_read_operation() -> None:
    upstream = Recording()
    server = serve(upstream, dynamic=True)
    outer = await call(
        server, "call_operation", {"name": "get_pet", "arguments": {"id": 1}, "_select": "name"}
    )
    same = await call(
        server,
        "call_operation",
        {"name": "get_pet", "arguments": {"id": 1, "_select": "name"}, "_select": "name"},
    )
    assert texts(outer) == texts(same) == ["Operation get_pet (GET /pets/{id}):", '"Rex"']
    assert outer["structuredContent"] == {"result": "Rex"}
    assert upstream.calls == [("get_pet", {"id": 1})] * 2


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            {"name": "create_pet", "arguments": {"name": "Bo"}, "_select": "id"},
            "Operation 'create_pet' does not take _select: only read-only operations that "
            "return JSON do. Nothing was sent to the API.",
        ),
        (
            {"name": "get_pet", "arguments": {"id": 1, "_select": "id"}, "_select": "name"},
            "_select is given twice, with different expressions (once in arguments); give it "
            "once. Nothing was sent to the API.",
        ),
    ],
)
async def test_call_operation_refuses_a_selection_it_cannot_hand_on(
    arguments: dict[str, Any], message: str
) -> None:
    upstream = Recording()
    result = await call(serve(upstream, dynamic=True), "call_operation", arguments)
    assert result["isError"] is True
    assert texts(result) == [message]
    assert upstream.calls == []
