"""Legacy revisions over stdio: the initialize handshake, per-era shapes, ping and batches."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from tests.runtime.conftest import CATALOG

if TYPE_CHECKING:
    from tests.runtime.conftest import StdioPeer

LEGACY = ["2025-11-25", "2025-06-18", "2025-03-26"]
CAPABILITIES = {
    "completions": {},
    "logging": {},
    "prompts": {"listChanged": False},
    "resources": {"listChanged": False, "subscribe": True},
    "tools": {"listChanged": False},
}
SERVER_INFO = {
    "2025-11-25": {
        "name": "petstore-mcp",
        "version": "1.0.0",
        "title": "Petstore",
        "description": "MCP server for the Petstore API",
    },
    "2025-06-18": {"name": "petstore-mcp", "title": "Petstore", "version": "1.0.0"},
    "2025-03-26": {"name": "petstore-mcp", "version": "1.0.0"},
}
TOOLS = {tool["name"]: tool for tool in CATALOG["tools"]}
PET = TOOLS["get_pet"]["outputSchema"]
REX = {"id": 1, "name": "Rex", "species": "dog"}
TOM = {"id": 2, "name": "Tom", "species": "cat"}
WRAPPED_PETS_SCHEMA = {
    "type": "object",
    "properties": {"result": {"type": "array", "items": {"$ref": "#/$defs/Pet"}}},
    "required": ["result"],
    "$defs": {"Pet": PET},
}
MODERN_ONLY = {"resultType", "ttlMs", "cacheScope", "_meta"}


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def legacy_peer(peer: StdioPeer, version: str) -> StdioPeer:
    assert peer.initialize(version)["result"]["protocolVersion"] == version
    return peer


@pytest.mark.parametrize("version", LEGACY)
def test_initialize_echoes_a_supported_legacy_version(peer: StdioPeer, version: str) -> None:
    reply = peer.initialize(version)
    assert reply == {
        "jsonrpc": "2.0",
        "id": reply["id"],
        "result": {
            "protocolVersion": version,
            "capabilities": CAPABILITIES,
            "serverInfo": SERVER_INFO[version],
            "instructions": "Petstore API tools.",
        },
    }


@pytest.mark.parametrize("requested", ["2026-07-28", "1999-01-01", "2024-11-05"])
def test_initialize_with_another_version_gets_the_newest_legacy_one(
    peer: StdioPeer, requested: str
) -> None:
    result = peer.initialize(requested)["result"]
    assert result["protocolVersion"] == "2025-11-25"
    assert result["serverInfo"] == SERVER_INFO["2025-11-25"]
    # the session now speaks 2025-11-25
    assert peer.request("ping") == {"jsonrpc": "2.0", "id": peer._next_id, "result": {}}


def test_initialize_without_a_version_is_invalid(peer: StdioPeer) -> None:
    reply = peer.request("initialize", {"capabilities": {}})
    assert reply["error"] == {
        "code": -32602,
        "message": "initialize requires params.protocolVersion",
    }


def test_without_handshake_or_meta_a_request_is_missing_meta(peer: StdioPeer) -> None:
    assert peer.request("ping")["error"] == {
        "code": -32602,
        "message": "Missing required _meta field io.modelcontextprotocol/protocolVersion",
    }


@pytest.mark.parametrize("version", LEGACY)
def test_ping(peer: StdioPeer, version: str) -> None:
    legacy_peer(peer, version)
    assert peer.request("ping")["result"] == {}
    assert peer.request("ping", {})["result"] == {}


def test_tools_list_2025_11_25_wraps_array_output_schemas_and_keeps_icons(peer: StdioPeer) -> None:
    tools = legacy_peer(peer, "2025-11-25").request("tools/list")["result"]
    assert set(tools) == {"tools"}
    listed = {tool["name"]: tool for tool in tools["tools"]}
    assert list(listed) == list(TOOLS)
    assert listed["list_pets"] == {**TOOLS["list_pets"], "outputSchema": WRAPPED_PETS_SCHEMA}
    assert "icons" in listed["list_pets"]
    for name in ("get_pet", "create_pet", "delete_pet", "slow_operation"):
        assert listed[name] == TOOLS[name]


def test_tools_list_2025_06_18_drops_icons(peer: StdioPeer) -> None:
    tools = legacy_peer(peer, "2025-06-18").request("tools/list")["result"]["tools"]
    expected_first = {k: v for k, v in TOOLS["list_pets"].items() if k != "icons"}
    assert tools[0] == {**expected_first, "outputSchema": WRAPPED_PETS_SCHEMA}
    assert tools[1] == TOOLS["get_pet"]


def test_tools_list_2025_03_26_drops_titles_and_output_schemas(peer: StdioPeer) -> None:
    tools = legacy_peer(peer, "2025-03-26").request("tools/list")["result"]["tools"]
    assert tools[0] == {
        "name": "list_pets",
        "description": "List all pets.",
        "inputSchema": TOOLS["list_pets"]["inputSchema"],
        "annotations": TOOLS["list_pets"]["annotations"],
    }
    assert tools[0]["annotations"]["title"] == "List pets"
    for tool in tools:
        assert not {"title", "outputSchema", "icons"} & set(tool)


@pytest.mark.parametrize(
    ("version", "pets", "pet"),
    [
        ("2025-11-25", {"result": [REX]}, TOM),
        ("2025-06-18", {"result": [REX]}, TOM),
        ("2025-03-26", None, None),
    ],
)
def test_tools_call_structured_content_per_era(
    peer: StdioPeer, version: str, pets: Any, pet: Any
) -> None:
    legacy_peer(peer, version)
    listed = peer.request("tools/call", {"name": "list_pets", "arguments": {"limit": 1}})["result"]
    expected: dict[str, Any] = {"content": [{"type": "text", "text": compact([REX])}]}
    if pets is not None:
        expected["structuredContent"] = pets
    assert listed == expected
    got = peer.request("tools/call", {"name": "get_pet", "arguments": {"petId": 2}})["result"]
    expected = {"content": [{"type": "text", "text": compact(TOM)}]}
    if pet is not None:
        expected["structuredContent"] = pet
    assert got == expected


@pytest.mark.parametrize("version", LEGACY)
def test_tool_errors_have_no_modern_fields(peer: StdioPeer, version: str) -> None:
    legacy_peer(peer, version)
    result = peer.request("tools/call", {"name": "get_pet", "arguments": {}})["result"]
    assert result["isError"] is True
    assert not MODERN_ONLY & set(result)
    assert peer.request("tools/call", {"name": "nope"})["error"]["code"] == -32602


def test_resources_2025_03_26_drop_titles_icons_and_last_modified(peer: StdioPeer) -> None:
    legacy_peer(peer, "2025-03-26")
    resources = peer.request("resources/list")["result"]
    assert resources == {
        "resources": [
            {
                "uri": "petstore://pets",
                "name": "pets",
                "mimeType": "application/json",
                "annotations": {"audience": ["assistant"], "priority": 0.5},
            },
            {
                "uri": "petstore://store/inventory",
                "name": "inventory",
                "mimeType": "application/json",
            },
            CATALOG["resources"][2],
        ]
    }
    templates = peer.request("resources/templates/list")["result"]["resourceTemplates"]
    assert templates[0] == {
        "uriTemplate": "petstore://pets/{petId}",
        "name": "pet",
        "mimeType": "application/json",
    }


def test_resources_2025_11_25_are_unchanged(peer: StdioPeer) -> None:
    legacy_peer(peer, "2025-11-25")
    assert peer.request("resources/list")["result"] == {"resources": CATALOG["resources"]}
    templates = peer.request("resources/templates/list")["result"]
    assert templates == {"resourceTemplates": CATALOG["resourceTemplates"]}


@pytest.mark.parametrize("version", LEGACY)
def test_read_resource_legacy(peer: StdioPeer, version: str) -> None:
    legacy_peer(peer, version)
    result = peer.request("resources/read", {"uri": "petstore://pets/2"})["result"]
    assert result == {
        "contents": [
            {"uri": "petstore://pets/2", "mimeType": "application/json", "text": compact(TOM)}
        ]
    }


@pytest.mark.parametrize("version", LEGACY)
@pytest.mark.parametrize(
    ("uri", "said"),
    [
        ("petstore://nothing", {}),
        ("petstore://pets/99", {"detail": 'Upstream returned 404 Not Found: {"message":"pet not found"}'}),
        ("petstore://gone", {"detail": 'Upstream returned 404 Not Found: {"message":"no such thing"}'}),
    ],
)  # fmt: skip
def test_resource_not_found_is_32002_in_legacy(
    peer: StdioPeer, version: str, uri: str, said: dict[str, str]
) -> None:
    legacy_peer(peer, version)
    message = f"Resource not found: {said['detail']}" if said else "Resource not found"
    assert peer.request("resources/read", {"uri": uri})["error"] == {
        "code": -32002,
        "message": message,
        "data": {"uri": uri, **said},
    }


def test_prompts_and_completion_legacy(peer: StdioPeer) -> None:
    legacy_peer(peer, "2025-03-26")
    prompts = peer.request("prompts/list")["result"]["prompts"]
    assert prompts[0] == {
        "name": "adopt_pet",
        "description": "Guide an adoption.",
        "arguments": [
            {"name": "species", "description": "Which kind of pet", "required": True},
            {"name": "name", "description": "Name for the pet"},
        ],
    }
    got = peer.request("prompts/get", {"name": "pet_care", "arguments": {"pet_name": "Rex"}})
    assert got["result"] == {
        "description": "Care instructions for one pet.",
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "How do I care for Rex?"}}
        ],
    }
    completed = peer.request(
        "completion/complete",
        {
            "ref": {"type": "ref/prompt", "name": "adopt_pet"},
            "argument": {"name": "species", "value": "d"},
        },
    )
    assert completed["result"] == {"completion": {"values": ["dog"], "total": 1, "hasMore": False}}


@pytest.mark.parametrize("method", ["server/discover", "subscriptions/listen"])
def test_methods_legacy_peers_do_not_have(peer: StdioPeer, method: str) -> None:
    legacy_peer(peer, "2025-11-25")
    assert peer.request(method, {})["error"] == {
        "code": -32601,
        "message": f"Method not found: {method}",
    }


def test_batch_from_a_2025_03_26_peer_gets_an_array(peer: StdioPeer) -> None:
    legacy_peer(peer, "2025-03-26")
    peer.send(
        [
            {"jsonrpc": "2.0", "id": "a", "method": "ping"},
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {}},
            {
                "jsonrpc": "2.0",
                "id": "b",
                "method": "tools/call",
                "params": {"name": "get_pet", "arguments": {"petId": 1}},
            },
            {"jsonrpc": "2.0", "id": "c", "method": "nope"},
            {"jsonrpc": "1.0", "id": "d", "method": "ping"},
        ]
    )
    assert peer.receive() == [
        {"jsonrpc": "2.0", "id": "a", "result": {}},
        {
            "jsonrpc": "2.0",
            "id": "b",
            "result": {"content": [{"type": "text", "text": compact(REX)}]},
        },
        {
            "jsonrpc": "2.0",
            "id": "c",
            "error": {"code": -32601, "message": "Method not found: nope"},
        },
        {
            "jsonrpc": "2.0",
            "id": "d",
            "error": {"code": -32600, "message": 'Invalid request: "jsonrpc" must be "2.0"'},
        },
    ]


def test_batch_of_notifications_gets_no_reply(peer: StdioPeer) -> None:
    legacy_peer(peer, "2025-03-26")
    peer.send([{"jsonrpc": "2.0", "method": "notifications/progress", "params": {}}])
    peer.assert_nothing_pending()


def test_empty_batch_is_invalid(peer: StdioPeer) -> None:
    legacy_peer(peer, "2025-03-26")
    peer.send([])
    assert peer.receive() == {
        "jsonrpc": "2.0",
        "error": {"code": -32600, "message": "Invalid request: empty batch"},
    }


@pytest.mark.parametrize("version", [None, "2025-11-25", "2025-06-18"])
def test_batches_are_refused_otherwise(peer: StdioPeer, version: str | None) -> None:
    if version is not None:
        legacy_peer(peer, version)
    peer.send([{"jsonrpc": "2.0", "id": 1, "method": "ping"}])
    assert peer.receive() == {
        "jsonrpc": "2.0",
        "error": {
            "code": -32600,
            "message": "Invalid request: batches are accepted only from 2025-03-26 clients",
        },
    }
    peer.assert_nothing_pending()


def test_reinitialize_switches_the_process_version(peer: StdioPeer) -> None:
    legacy_peer(peer, "2025-11-25")
    legacy_peer(peer, "2025-03-26")
    tools = peer.request("tools/list")["result"]["tools"]
    assert "outputSchema" not in tools[0]
