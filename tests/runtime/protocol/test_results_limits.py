"""The size limit of tool results (text and structured content together): explicit, per server, and
from ``<PREFIX>_MAX_RESULT_CHARS``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from templates.runtime.catalog.model import load_catalog
from templates.runtime.jsonschema import Validator
from templates.runtime.protocol.results import (
    MAX_TEXT_CHARS,
    ResultLimits,
    tool_result,
)
from templates.runtime.protocol.structured import compact
from templates.runtime.server import McpServer, Settings, SettingsError
from templates.runtime.upstream.client import UpstreamResponse
from tests.kit.meta import meta

CATALOG = Path(__file__).resolve().parents[1] / "fixtures" / "catalog.json"
URL = "https://api.example.com/pets"
META = meta("limits-test")


def text_response(text: str, content_type: str = "text/plain") -> UpstreamResponse:
    return UpstreamResponse(200, "OK", content_type, text.encode(), URL)


def test_explicit_limits_cut_text_and_name_the_setting() -> None:
    limits = ResultLimits(max_text_chars=200, setting="PETSTORE_MAX_RESULT_CHARS")
    [block] = tool_result(text_response("x" * 500), None, limits)["content"]
    notice = (
        "\n[truncated: 455 of 500 characters cut; this server returns at most 200 characters "
        "per result (its operator can raise that with PETSTORE_MAX_RESULT_CHARS)]"
    )
    assert block == {"type": "text", "text": "x" * 45 + notice}
    assert len(block["text"]) == 200


@pytest.mark.parametrize("content_type", ["application/x-sqlite3", "image/png", ""])
def test_bytes_over_the_budget_are_said_not_shown(content_type: str) -> None:
    # Open WebUI's database download: 972,120 characters of base64 where 1,500 were allowed
    limits = ResultLimits(max_text_chars=1500, setting="OPEN_WEBUI_MAX_RESULT_CHARS")
    body = b"\x89PNG\r\n\x1a\n" + bytes(2000)
    big = UpstreamResponse(200, "OK", content_type, body, URL)
    [block] = tool_result(big, None, limits)["content"]
    what = content_type or "unlabelled bytes"
    assert block == {
        "type": "text",
        "text": f"[not shown: the answer is 2008 bytes of {what}, 2680 characters as base64, "
        "more than the 1500 characters per result this server hands over (its operator can "
        "raise that with OPEN_WEBUI_MAX_RESULT_CHARS)]",
    }
    # within the budget, the bytes themselves
    small = UpstreamResponse(200, "OK", content_type, body[:600], URL)
    [shown] = tool_result(small, None, limits)["content"]
    assert shown["type"] in ("image", "resource")


def test_text_at_the_limit_is_not_cut() -> None:
    limits = ResultLimits(max_text_chars=120)
    assert tool_result(text_response("y" * 120), None, limits)["content"] == [
        {"type": "text", "text": "y" * 120}
    ]


def result_size(result: dict[str, Any]) -> int:
    text = sum(len(block["text"]) for block in result["content"])
    structured = result.get("structuredContent")
    return text + (0 if structured is None else len(compact(structured)))


def test_the_limit_bounds_text_and_structured_content_together() -> None:
    pets = [{"id": i, "name": f"pet {i}", "tags": ["a", "b"]} for i in range(1000)]
    response = text_response(json.dumps(pets), "application/json")
    schema = {"type": "array", "items": {"type": ["object", "null"]}}
    limits = ResultLimits(5000, "PETSTORE_MAX_RESULT_CHARS")
    result = tool_result(response, Validator(schema), limits, paging=("page", "per_page"))
    shown = result["structuredContent"]
    assert 0 < len(shown) < 1000 and shown == pets[: len(shown)]
    assert json.loads(result["content"][0]["text"]) == shown
    assert result["content"][1]["text"] == (
        f"[cut to fit: the response has {len(compact(pets))} characters; shown: the first "
        f"{len(shown)} of 1000 items. This server returns at most 5000 characters per result (its "
        "operator can raise that with PETSTORE_MAX_RESULT_CHARS). To get the rest, call again "
        "for fewer at a time (per_page) and page on with page: a next page starts after what "
        "this call asked for, not after what is shown.]"
    )
    assert 4000 < result_size(result) <= 5000


def test_a_big_object_keeps_its_small_members_whole_and_cuts_inside_the_large_one() -> None:
    # NocoDB's page: the list came first, and its pageInfo (what tells how to get the rest) was
    # left out; small members are kept whole wherever they stand
    value = {"total_count": 2, "items": ["z" * 50] * 100, "pageInfo": {"isLastPage": False}}
    response = text_response(json.dumps(value), "application/json")
    result = tool_result(response, Validator({"type": "object"}), ResultLimits(1500, "A_LIMIT"))
    shown = result["structuredContent"]
    assert list(shown) == ["total_count", "items", "pageInfo"]
    assert shown["total_count"] == 2 and shown["pageInfo"] == {"isLastPage": False}
    assert 0 < len(shown["items"]) < 100
    note = result["content"][-1]["text"]
    assert f"the first {len(shown['items'])} of 100 items of items" in note
    assert "properties" not in note
    assert result_size(result) <= 1500
    # a second large member after the one cut is left out, and said so
    value = {"items": ["z" * 50] * 100, "others": ["y" * 50] * 100}
    response = text_response(json.dumps(value), "application/json")
    result = tool_result(response, Validator({"type": "object"}), ResultLimits(1500, "A_LIMIT"))
    assert list(result["structuredContent"]) == ["items"]
    assert "1 of 2 properties (left out: others)" in result["content"][-1]["text"]


def test_results_built_without_limits_use_the_default() -> None:
    [block] = tool_result(text_response("w" * (MAX_TEXT_CHARS + 1)), None)["content"]
    assert block["text"].startswith("w" * (MAX_TEXT_CHARS - 158) + "\n[truncated: 159 of ")
    assert len(block["text"]) == MAX_TEXT_CHARS


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

    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
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
    env = {"PETSTORE_MAX_RESULT_CHARS": "300"}
    server = McpServer(catalog, Settings.from_env(catalog, env), upstream=TextUpstream())
    assert (await call_slow_operation(server))["content"] == [
        {
            "type": "text",
            "text": "p" * 144 + "\n[truncated: 856 of 1000 characters cut; this server returns "
            "at most 300 characters per result (its operator can raise that with "
            "PETSTORE_MAX_RESULT_CHARS)]",
        }
    ]
    # the limit belongs to that server: another one in the same process keeps the default
    other = McpServer(catalog, Settings.from_env(catalog, {}), upstream=TextUpstream())
    assert (await call_slow_operation(other))["content"] == [{"type": "text", "text": "p" * 1000}]
    assert (await call_slow_operation(server))["content"][0]["text"].startswith("p" * 144 + "\n")
