"""``<PREFIX>_OUTPUT_SCHEMAS``: lenient, strict or no output schemas, in ``tools/list`` and in what
``tools/call`` promises; and the start-up checks of the settings behind real traffic."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from templates.runtime.catalog.model import Catalog
from templates.runtime.server import McpServer, Settings, SettingsError
from templates.runtime.upstream.client import UpstreamResponse
from tests.reliability.kit import META, catalog, operation, tool

LENIENT = {"type": "object", "properties": {"id": {"type": ["integer", "null"]}}}
STRICT = {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id", "name"]}


def pets_catalog() -> Catalog:
    cat = catalog(
        {"get_pet": operation("GET", "/pets/1")}, [tool("get_pet") | {"outputSchema": LENIENT}]
    )
    cat["toolBindings"]["get_pet"]["outputSchemas"] = {"strict": STRICT}
    return cat


class Drifting:
    """An API whose answer leaves out a required field and sends a string for an integer."""

    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
        return UpstreamResponse(200, "OK", "application/json", b'{"id": "7"}', "u")


def serve(mode: str | None) -> McpServer:
    cat = pets_catalog()
    env = {"REL_OUTPUT_SCHEMAS": mode} if mode is not None else {}
    return McpServer(cat, Settings.from_env(cat, env), upstream=Drifting())


async def ask(server: McpServer, method: str, params: dict[str, Any]) -> dict[str, Any]:
    async def notify(message: dict[str, Any]) -> None:
        pass

    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"_meta": META, **params}}
    reply = await server.dispatcher.handle(message, None, notify)
    assert reply is not None
    result: dict[str, Any] = reply["result"]
    return result


@pytest.mark.parametrize(
    ("mode", "listed"), [(None, LENIENT), ("lenient", LENIENT), ("strict", STRICT), ("off", None)]
)
async def test_tools_list_shows_the_output_schema_of_the_mode(
    mode: str | None, listed: Any
) -> None:
    [shown] = (await ask(serve(mode), "tools/list", {}))["tools"]
    assert shown.get("outputSchema") == listed


async def test_lenient_mode_delivers_a_drifting_answer_with_conforming_structured_content() -> None:
    result = await ask(serve(None), "tools/call", {"name": "get_pet", "arguments": {}})
    assert result.get("isError") is None
    assert result["structuredContent"] == {"id": None}
    assert result["content"][0] == {"type": "text", "text": '{"id":"7"}'}


async def test_strict_mode_checks_the_documented_schema_and_still_reports_success() -> None:
    result = await ask(serve("strict"), "tools/call", {"name": "get_pet", "arguments": {}})
    assert result.get("isError") is None
    assert "structuredContent" not in result
    assert result["content"][1]["text"].splitlines()[1:3] == [
        '- (root): "name" is a required property',
        '- id: "7" is not of type "integer"',
    ]


async def test_off_mode_sends_no_structured_content() -> None:
    result = await ask(serve("off"), "tools/call", {"name": "get_pet", "arguments": {}})
    assert result == {
        "resultType": "complete",
        "content": [{"type": "text", "text": '{"id":"7"}'}],
        "_meta": result["_meta"],
    }


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("REL_OUTPUT_SCHEMAS", "loose", "REL_OUTPUT_SCHEMAS must be one of lenient, strict, off, got 'loose'"),
        ("REL_HEADERS", "Bearer x", "REL_HEADERS must be a JSON object of header names and values"),
        ("REL_HEADERS", json.dumps({"Content-Length": "1"}), "REL_HEADERS: the header Content-Length is set by the server itself"),
        ("REL_LIMIT_WAIT", "soon", "REL_LIMIT_WAIT must be a number of seconds (0 or more), got 'soon'"),
    ],
)  # fmt: skip
def test_unusable_settings_stop_start_up(name: str, value: str, message: str) -> None:
    with pytest.raises(SettingsError) as info:
        Settings.from_env(pets_catalog(), {name: value})
    assert str(info.value).startswith(message)
