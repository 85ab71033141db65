"""Raw JSON-RPC against the generated Petstore server: older handshake revisions and error paths."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import RawServer
from tests.kit.meta import PROTOCOL_VERSION, meta


@pytest.fixture
def raw(petstore_package: Path, fake_petstore: Any) -> Iterator[RawServer]:
    server = RawServer(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    yield server
    assert server.close() == 0


def initialize(raw: RawServer, version: str) -> dict[str, Any]:
    reply = raw.request(
        "initialize",
        {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"},
        },
    )
    raw.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return reply["result"]


def test_2025_06_18_session(raw: RawServer, fake_petstore: Any) -> None:
    result = initialize(raw, "2025-06-18")
    assert result["protocolVersion"] == "2025-06-18"
    assert result["serverInfo"]["name"] == "petstore-mcp"
    assert "resultType" not in result
    assert raw.request("ping") == {"jsonrpc": "2.0", "id": 2, "result": {}}
    tools = raw.request("tools/list")["result"]
    assert "resultType" not in tools and "ttlMs" not in tools
    by_name = {t["name"]: t for t in tools["tools"]}
    assert by_name["list_pets"]["title"] == "List pets"
    assert by_name["list_pets"]["outputSchema"]["type"] == "object"
    called = raw.request("tools/call", {"name": "list_pets", "arguments": {"limit": 1}})["result"]
    assert set(called["structuredContent"]) == {"result"}
    assert fake_petstore.requests[-1].query == "limit=1"
    missing = raw.request("resources/read", {"uri": "petstore://pets/99999"})
    assert missing["error"]["code"] == -32002


def test_2025_03_26_session_shapes_and_batches(raw: RawServer) -> None:
    result = initialize(raw, "2025-03-26")
    assert result["protocolVersion"] == "2025-03-26"
    tool = next(
        t for t in raw.request("tools/list")["result"]["tools"] if t["name"] == "get_pet_by_id"
    )
    assert "title" not in tool and "outputSchema" not in tool
    assert tool["annotations"]["title"] == "Get a pet"
    called = raw.request("tools/call", {"name": "get_pet_by_id", "arguments": {"petId": 1}})[
        "result"
    ]
    assert "structuredContent" not in called
    assert json.loads(called["content"][0]["text"])["id"] == 1
    raw.send(
        [
            {"jsonrpc": "2.0", "id": "a", "method": "ping"},
            {"jsonrpc": "2.0", "id": "b", "method": "prompts/list"},
        ]
    )
    replies = raw.receive()
    assert sorted(r["id"] for r in replies) == ["a", "b"]


def test_modern_error_paths(raw: RawServer) -> None:
    no_meta = raw.request("tools/list", {})
    assert no_meta["error"]["code"] == -32602
    assert PROTOCOL_VERSION in no_meta["error"]["message"]
    old = raw.request(
        "tools/list",
        {"_meta": meta("raw-test", **{PROTOCOL_VERSION: "1999-01-01"})},
    )
    assert old["error"]["code"] == -32022
    assert old["error"]["data"]["requested"] == "1999-01-01"
    assert "2026-07-28" in old["error"]["data"]["supported"]
    assert raw.request("ping", {"_meta": meta("raw-test")})["error"]["code"] == -32601
    assert (
        raw.request("tools/call", {"_meta": meta("raw-test"), "name": "nope", "arguments": {}})[
            "error"
        ]["code"]
        == -32602
    )
    gone = raw.request(
        "resources/read", {"_meta": meta("raw-test"), "uri": "petstore://pets/99999"}
    )
    assert gone["error"]["code"] == -32602
    assert gone["error"]["data"]["uri"] == "petstore://pets/99999"
    raw.send(b"{not json")
    assert raw.receive()["error"]["code"] == -32700
    raw.send(
        [{"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {"_meta": meta("raw-test")}}]
    )
    assert raw.receive()["error"]["code"] == -32600


def test_modern_results_carry_result_type_caching_and_server_info(raw: RawServer) -> None:
    discover = raw.request("server/discover", {"_meta": meta("raw-test")})["result"]
    assert discover["resultType"] == "complete"
    assert discover["supportedVersions"][0] == "2026-07-28"
    assert {"tools", "resources", "prompts", "completions"} <= set(discover["capabilities"])
    assert isinstance(discover["ttlMs"], int) and discover["cacheScope"] in {"public", "private"}
    assert discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "petstore-mcp"
    for method in ("tools/list", "resources/list", "resources/templates/list", "prompts/list"):
        result = raw.request(method, {"_meta": meta("raw-test")})["result"]
        assert (
            result["resultType"] == "complete" and "ttlMs" in result and "cacheScope" in result
        ), method


def test_template_completion_and_array_query_round_trip(raw: RawServer, fake_petstore: Any) -> None:
    template = "petstore://pets/findByStatus{?status}"
    completion = raw.request(
        "completion/complete",
        {
            "_meta": meta("raw-test"),
            "ref": {"type": "ref/resource", "uri": template},
            "argument": {"name": "status", "value": "s"},
        },
    )["result"]["completion"]
    assert completion["values"] == ["sold"]
    read = raw.request(
        "resources/read",
        {"_meta": meta("raw-test"), "uri": "petstore://pets/findByStatus?status=available,sold"},
    )
    assert read["result"]["contents"][0]["mimeType"] == "application/json"
    assert fake_petstore.requests[-1].query_params == [("status", "available"), ("status", "sold")]


def test_prompt_guides_through_a_tag(raw: RawServer) -> None:
    prompt = raw.request(
        "prompts/get",
        {"_meta": meta("raw-test"), "name": "pets_workflow", "arguments": {"goal": "adopt a cat"}},
    )
    (message,) = prompt["result"]["messages"]
    text = message["content"]["text"]
    assert "- create_pet:" in text and text.endswith("adopt a cat")
    missing = raw.request(
        "prompts/get", {"_meta": meta("raw-test"), "name": "pets_workflow", "arguments": {}}
    )
    assert missing["error"]["code"] == -32602
