"""The text limit of tool results: explicit, per server, and from ``<PREFIX>_MAX_RESULT_CHARS``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from templates.runtime.catalog import load_catalog
from templates.runtime.jsonschema import Validator
from templates.runtime.results import (
    MAX_TEXT_CHARS,
    ResultLimits,
    tool_result,
)
from templates.runtime.server import McpServer, Settings, SettingsError
from templates.runtime.upstream import UpstreamResponse

CATALOG = Path(__file__).resolve().parent / "fixtures" / "catalog.json"
URL = "https://api.example.com/pets"
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "limits-test", "version": "1"},
}


def text_response(text: str, content_type: str = "text/plain") -> UpstreamResponse:
    return UpstreamResponse(200, "OK", content_type, text.encode(), URL)


def test_explicit_limits_cut_text_and_name_the_setting() -> None:
    limits = ResultLimits(max_text_chars=120, setting="PETSTORE_MAX_RESULT_CHARS")
    [block] = tool_result(text_response("x" * 500), None, limits)["content"]
    assert block == {
        "type": "text",
        "text": "x" * 120 + "\n[truncated: 380 of 500 characters cut; this server returns at "
        "most 120 characters of text per result (its operator can raise that with "
        "PETSTORE_MAX_RESULT_CHARS)]",
    }


def test_text_at_the_limit_is_not_cut() -> None:
    limits = ResultLimits(max_text_chars=120)
    assert tool_result(text_response("y" * 120), None, limits)["content"] == [
        {"type": "text", "text": "y" * 120}
    ]


def test_json_text_is_cut_but_structured_content_stays_whole() -> None:
    value = {"items": ["z" * 50] * 10}
    response = text_response(json.dumps(value), "application/json")
    result = tool_result(response, Validator({"type": "object"}), ResultLimits(100, "A_LIMIT"))
    assert result["structuredContent"] == value
    text = result["content"][0]["text"]
    assert text.startswith(json.dumps(value, separators=(",", ":"))[:100] + "\n[truncated: ")
    assert text.endswith("(its operator can raise that with A_LIMIT)]")


def test_results_built_without_limits_use_the_default() -> None:
    [block] = tool_result(text_response("w" * (MAX_TEXT_CHARS + 1)), None)["content"]
    assert block["text"].startswith("w" * MAX_TEXT_CHARS + "\n[truncated: 1 of ")


def settings(**env: str) -> Settings:
    return Settings.from_env(load_catalog(CATALOG), env)


def test_the_setting_defaults_to_one_mebi_character() -> None:
    assert settings().max_result_chars == MAX_TEXT_CHARS == 1024 * 1024


@pytest.mark.parametrize("raw", ["0", "99", "-5", "1e6", "lots", "10 000"])
def test_an_unusable_setting_stops_start_up(raw: str) -> None:
    with pytest.raises(SettingsError) as info:
        settings(PETSTORE_MAX_RESULT_CHARS=raw)
    assert str(info.value) == (
        f"PETSTORE_MAX_RESULT_CHARS must be a number of characters >= 100, got {raw!r}"
    )


class TextUpstream:
    """Answers every operation with a long plain-text body."""

    async def call(self, operation: str, arguments: Mapping[str, Any]) -> UpstreamResponse:
        return text_response("p" * 1000)


async def call_slow_operation(server: McpServer) -> dict[str, Any]:
    async def notify(message: dict[str, Any]) -> None:
        pass

    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"_meta": META, "name": "slow_operation", "arguments": {}},
    }
    reply = await server.dispatcher.handle(request, None, notify)
    assert reply is not None
    result: dict[str, Any] = reply["result"]
    return result


async def test_a_server_built_from_the_environment_cuts_tool_results_at_its_setting() -> None:
    catalog = load_catalog(CATALOG)
    env = {"PETSTORE_MAX_RESULT_CHARS": "250"}
    server = McpServer(catalog, Settings.from_env(catalog, env), upstream=TextUpstream())
    assert (await call_slow_operation(server))["content"] == [
        {
            "type": "text",
            "text": "p" * 250 + "\n[truncated: 750 of 1000 characters cut; this server returns "
            "at most 250 characters of text per result (its operator can raise that with "
            "PETSTORE_MAX_RESULT_CHARS)]",
        }
    ]
    # the limit belongs to that server: another one in the same process keeps the default
    other = McpServer(catalog, Settings.from_env(catalog, {}), upstream=TextUpstream())
    assert (await call_slow_operation(other))["content"] == [{"type": "text", "text": "p" * 1000}]
    assert (await call_slow_operation(server))["content"][0]["text"].startswith("p" * 250 + "\n")
