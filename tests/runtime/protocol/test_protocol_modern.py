"""2026-07-28 over stdio with raw JSON-RPC: discover, lists, calls, reads, prompts, completion, errors."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from tests.kit.meta import CLIENT_CAPABILITIES, PROTOCOL_VERSION
from tests.runtime.conftest import CATALOG, META, RESULT_META

if TYPE_CHECKING:
    from tests.runtime.conftest import PeerFactory, StdioPeer

STATIC = {"ttlMs": 3600000, "cacheScope": "public"}
PRIVATE = {"ttlMs": 0, "cacheScope": "private"}
LISTS = [
    ("tools/list", "tools"),
    ("resources/list", "resources"),
    ("resources/templates/list", "resourceTemplates"),
    ("prompts/list", "prompts"),
]
REX = {"id": 1, "name": "Rex", "species": "dog"}
TOM = {"id": 2, "name": "Tom", "species": "cat"}


def complete(body: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A modern result: resultType first, serverInfo in _meta."""
    return {"resultType": "complete", **body, **extra, "_meta": RESULT_META}


def error(reply: dict[str, Any]) -> dict[str, Any]:
    assert "result" not in reply, reply
    result: dict[str, Any] = reply["error"]
    return result


def test_discover(peer: StdioPeer) -> None:
    reply = peer.modern("server/discover")
    assert reply == {
        "jsonrpc": "2.0",
        "id": reply["id"],
        "result": {
            "resultType": "complete",
            "supportedVersions": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
            "capabilities": {
                "completions": {},
                "logging": {},
                "prompts": {"listChanged": False},
                "resources": {"listChanged": False},
                "tools": {"listChanged": False},
            },
            "instructions": "Petstore API tools.",
            "ttlMs": 3600000,
            "cacheScope": "public",
            "_meta": RESULT_META,
        },
    }


@pytest.mark.parametrize(("method", "key"), LISTS)
def test_list_returns_the_catalog_objects_in_order(peer: StdioPeer, method: str, key: str) -> None:
    assert peer.modern(method)["result"] == complete({key: CATALOG[key]}, **STATIC)


@pytest.mark.parametrize(("method", "key"), LISTS)
def test_pagination_walks_every_item_once(start_peer: PeerFactory, method: str, key: str) -> None:
    peer = start_peer(FIXTURE_PAGE_SIZE="2")
    seen: list[Any] = []
    pages = 0
    cursor = None
    while True:
        result = peer.modern(method, **({"cursor": cursor} if cursor else {}))["result"]
        pages += 1
        assert result["ttlMs"] == 3600000 and result["cacheScope"] == "public"
        assert len(result[key]) <= 2
        seen.extend(result[key])
        cursor = result.get("nextCursor")
        if cursor is None:
            break
        assert isinstance(cursor, str) and cursor
    assert seen == CATALOG[key]
    assert pages == (len(CATALOG[key]) + 1) // 2


def test_same_cursor_gives_the_same_page(start_peer: PeerFactory) -> None:
    peer = start_peer(FIXTURE_PAGE_SIZE="2")
    cursor = peer.modern("tools/list")["result"]["nextCursor"]
    first = peer.modern("tools/list", cursor=cursor)["result"]
    again = peer.modern("tools/list", cursor=cursor)["result"]
    assert first == again
    assert [tool["name"] for tool in first["tools"]] == ["create_pet", "delete_pet"]


@pytest.mark.parametrize("cursor", ["not-a-cursor", 7, "djE6dG9vbHM6OTk", "djE6cHJvbXB0czoy"])
def test_invalid_cursor(start_peer: PeerFactory, cursor: Any) -> None:
    # the last two are well-formed cursors: past the end of tools, and one for prompts/list
    peer = start_peer(FIXTURE_PAGE_SIZE="2")
    assert error(peer.modern("tools/list", cursor=cursor)) == {
        "code": -32602,
        "message": "Invalid cursor",
    }


def test_call_tool_with_array_output(peer: StdioPeer) -> None:
    reply = peer.modern("tools/call", name="list_pets", arguments={"limit": 1})
    assert reply["result"] == complete(
        {"content": [{"type": "text", "text": json.dumps([REX], separators=(",", ":"))}]},
        structuredContent=[REX],
    )
    assert peer.upstream_requests() == [
        {
            "method": "GET",
            "url": "https://petstore.example/api/v3/pets?limit=1",
            "apiKey": None,
            "body": None,
        }
    ]


def test_call_tool_with_object_output(peer: StdioPeer) -> None:
    reply = peer.modern("tools/call", name="get_pet", arguments={"petId": 2})
    assert reply["result"] == complete(
        {"content": [{"type": "text", "text": json.dumps(TOM, separators=(",", ":"))}]},
        structuredContent=TOM,
    )


def test_call_tool_sends_body_and_credentials(peer: StdioPeer) -> None:
    reply = peer.modern(
        "tools/call", name="create_pet", arguments={"name": "Kit", "species": "cat"}
    )
    created = {"id": 3, "name": "Kit", "species": "cat"}
    assert json.loads(reply["result"]["content"][0]["text"]) == created
    assert "isError" not in reply["result"]
    [sent] = peer.upstream_requests()
    assert sent["method"] == "POST"
    assert sent["url"] == "https://petstore.example/api/v3/pets"
    assert sent["apiKey"] == "secret-key"
    assert json.loads(sent["body"]) == {"name": "Kit", "species": "cat"}


def test_base_url_comes_from_the_environment(start_peer: PeerFactory) -> None:
    peer = start_peer(PETSTORE_BASE_URL="https://staging.example/api/v3")
    peer.modern("tools/call", name="list_pets", arguments={})
    assert [r["url"] for r in peer.upstream_requests()] == ["https://staging.example/api/v3/pets"]


def test_invalid_arguments_are_a_tool_error_naming_each_argument(peer: StdioPeer) -> None:
    reply = peer.modern("tools/call", name="create_pet", arguments={"species": "cow", "age": 3})
    result = reply["result"]
    assert result["isError"] is True
    assert result["resultType"] == "complete" and result["_meta"] == RESULT_META
    [block] = result["content"]
    lines = block["text"].splitlines()
    assert lines[0] == "Invalid arguments for tool 'create_pet':"
    assert any(line.startswith("- species: ") for line in lines)
    assert any("name" in line for line in lines[1:])
    assert any("age" in line for line in lines[1:])
    assert peer.upstream_requests() == []


def test_upstream_error_status_is_a_tool_error(peer: StdioPeer) -> None:
    result = peer.modern("tools/call", name="get_pet", arguments={"petId": 99})["result"]
    assert result == complete(
        {
            "isError": True,
            "content": [
                {
                    "type": "text",
                    "text": 'Upstream returned 404 Not Found: {"message":"pet not found"}',
                }
            ],
        }
    )


def test_unknown_tool(peer: StdioPeer) -> None:
    reply = peer.modern("tools/call", name="feed_pet", arguments={})
    assert error(reply) == {"code": -32602, "message": "Unknown tool: feed_pet"}


@pytest.mark.parametrize("arguments", [[1], "petId=1", 3])
def test_arguments_must_be_an_object(peer: StdioPeer, arguments: Any) -> None:
    reply = peer.modern("tools/call", name="get_pet", arguments=arguments)
    assert error(reply)["code"] == -32602


def test_read_static_resource(peer: StdioPeer) -> None:
    result = peer.modern("resources/read", uri="petstore://pets")["result"]
    text = json.dumps([REX, TOM], separators=(",", ":"))
    assert result == complete(
        {"contents": [{"uri": "petstore://pets", "mimeType": "application/json", "text": text}]},
        **PRIVATE,
    )


def test_read_template_converts_variables_to_the_tool_argument_types(peer: StdioPeer) -> None:
    result = peer.modern("resources/read", uri="petstore://pets/1")["result"]
    assert result["contents"] == [
        {
            "uri": "petstore://pets/1",
            "mimeType": "application/json",
            "text": json.dumps(REX, separators=(",", ":")),
        }
    ]
    assert result["ttlMs"] == 0 and result["cacheScope"] == "private"
    assert [r["url"] for r in peer.upstream_requests()] == [
        "https://petstore.example/api/v3/pets/1"
    ]


def test_read_template_with_query_variable(peer: StdioPeer) -> None:
    peer.modern("resources/read", uri="petstore://owners/alice/pets?limit=2")
    peer.modern("resources/read", uri="petstore://pets/findByStatus/sold")
    assert [r["url"] for r in peer.upstream_requests()] == [
        "https://petstore.example/api/v3/owners/alice/pets?limit=2",
        "https://petstore.example/api/v3/pets/findByStatus/sold",
    ]


PET_404 = 'Upstream returned 404 Not Found: {"message":"pet not found"}'
GONE_404 = 'Upstream returned 404 Not Found: {"message":"no such thing"}'


@pytest.mark.parametrize(
    ("uri", "said"),
    [
        ("petstore://nothing", {}),
        # the template matches, but petId is an integer
        ("petstore://pets/rex", {"detail": "petId: 'rex' is not an integer"}),
        # the API's 404: what it said of it, beside the URI
        ("petstore://pets/99", {"detail": PET_404}),
        ("petstore://gone", {"detail": GONE_404}),  # static resource
    ],
)
def test_resource_not_found(peer: StdioPeer, uri: str, said: dict[str, str]) -> None:
    # the why in the message too: a client may show the message alone
    message = f"Resource not found: {said['detail']}" if said else "Resource not found"
    assert error(peer.modern("resources/read", uri=uri)) == {
        "code": -32602,
        "message": message,
        "data": {"uri": uri, **said},
    }


def test_a_resource_read_the_api_refuses_as_invalid_is_invalid_params(peer: StdioPeer) -> None:
    # what the URI asked is the reader's to change, not an internal error of this server
    assert error(peer.modern("resources/read", uri="petstore://pets/-1")) == {
        "code": -32602,
        "message": 'Upstream returned 422 Unprocessable Entity: {"detail":"petId must be positive"}',
    }


def test_get_prompt_concatenates_parts_without_formatting(peer: StdioPeer) -> None:
    reply = peer.modern(
        "prompts/get", name="adopt_pet", arguments={"species": "cat", "name": "{0}"}
    )
    assert reply["result"] == complete(
        {
            "description": "Guide an adoption.",
            "messages": [
                {
                    "role": "user",
                    "content": {
                        "type": "text",
                        "text": "I want to adopt a cat called {name} (literally: {0}).",
                    },
                },
                {
                    "role": "assistant",
                    "content": {"type": "text", "text": "Use list_pets, then create_pet."},
                },
            ],
        }
    )


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"name": "adopt_pet"}, "Missing required argument for prompt adopt_pet: species"),
        (
            {"name": "adopt_pet", "arguments": {"name": "x"}},
            "Missing required argument for prompt adopt_pet: species",
        ),
        ({"name": "walk_pet"}, "Unknown prompt: walk_pet"),
        (
            {"name": "adopt_pet", "arguments": {"species": 3}},
            "Prompt argument species must be a string",
        ),
    ],
)
def test_get_prompt_errors(peer: StdioPeer, params: dict[str, Any], message: str) -> None:
    assert error(peer.modern("prompts/get", **params)) == {"code": -32602, "message": message}


def test_complete_prompt_argument_is_prefix_filtered_case_insensitively(peer: StdioPeer) -> None:
    reply = peer.modern(
        "completion/complete",
        ref={"type": "ref/prompt", "name": "adopt_pet"},
        argument={"name": "species", "value": "CA"},
    )
    assert reply["result"] == complete(
        {"completion": {"values": ["cat", "Canary", "capybara"], "total": 3, "hasMore": False}}
    )


def test_complete_returns_at_most_100_values(peer: StdioPeer) -> None:
    reply = peer.modern(
        "completion/complete",
        ref={"type": "ref/prompt", "name": "pet_care"},
        argument={"name": "pet_name", "value": ""},
    )
    completion = reply["result"]["completion"]
    assert completion["values"] == [f"pet-{i:03d}" for i in range(100)]
    assert completion["total"] == 150 and completion["hasMore"] is True


def test_complete_template_variable(peer: StdioPeer) -> None:
    reply = peer.modern(
        "completion/complete",
        ref={"type": "ref/resource", "uri": "petstore://pets/findByStatus/{status}"},
        argument={"name": "status", "value": "s"},
    )
    assert reply["result"]["completion"] == {"values": ["sold"], "total": 1, "hasMore": False}


@pytest.mark.parametrize(
    ("ref", "argument", "message"),
    [
        ({"type": "ref/prompt", "name": "walk"}, "species", "Unknown prompt: walk"),
        (
            {"type": "ref/prompt", "name": "adopt_pet"},
            "colour",
            "Prompt adopt_pet has no argument colour",
        ),
        (
            {"type": "ref/resource", "uri": "petstore://x/{y}"},
            "y",
            "Unknown resource template: petstore://x/{y}",
        ),
        ({"type": "ref/tool", "name": "x"}, "y", "Unsupported completion reference type: ref/tool"),
    ],
)
def test_complete_unknown_reference(
    peer: StdioPeer, ref: dict[str, Any], argument: str, message: str
) -> None:
    reply = peer.modern("completion/complete", ref=ref, argument={"name": argument, "value": ""})
    assert error(reply) == {"code": -32602, "message": message}


PV = PROTOCOL_VERSION
CC = CLIENT_CAPABILITIES


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (None, f"Missing required _meta field {PV}"),
        ({}, f"Missing required _meta field {PV}"),
        ({"_meta": {CC: {}}}, f"Missing required _meta field {PV}"),
        ({"_meta": {PV: "2026-07-28"}}, f"Missing required _meta field {CC}"),
        ({"_meta": {PV: "2026-07-28", CC: []}}, f"Invalid _meta field {CC}: not an object"),
        ({"_meta": {PV: 20260728, CC: {}}}, f"Invalid _meta field {PV}: not a string"),
    ],
)
def test_missing_or_mistyped_meta(peer: StdioPeer, params: Any, message: str) -> None:
    reply = peer.request("tools/list", params)
    assert error(reply) == {"code": -32602, "message": message}


@pytest.mark.parametrize(
    ("version", "message"),
    [
        ("1999-01-01", "Unsupported protocol version"),
        ("2025-11-25", "Unsupported protocol version: 2025-11-25 is served only after initialize"),
    ],
)
def test_unsupported_version(peer: StdioPeer, version: str, message: str) -> None:
    reply = peer.request("tools/list", {"_meta": {**META, PV: version}})
    assert error(reply) == {
        "code": -32022,
        "message": message,
        "data": {
            "supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
            "requested": version,
        },
    }


@pytest.mark.parametrize(
    "method",
    [
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "tasks/list",
        "no/such",
    ],
)
def test_removed_and_unknown_methods(peer: StdioPeer, method: str) -> None:
    assert error(peer.modern(method)) == {"code": -32601, "message": f"Method not found: {method}"}


def test_modern_requests_ignore_an_earlier_legacy_handshake(peer: StdioPeer) -> None:
    peer.initialize("2025-03-26")
    assert peer.modern("tools/list")["result"] == complete({"tools": CATALOG["tools"]}, **STATIC)
    result = peer.modern("tools/call", name="list_pets", arguments={"limit": 1})["result"]
    assert result["structuredContent"] == [REX]
