"""The generated Petstore server with the official MCP client, both eras, over stdio.

Every tool call goes to the fake Petstore on 127.0.0.1; the tests assert the exact HTTP request it got.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from tests.e2e.helpers import stdio_params


async def test_modern_session_discovers_lists_and_calls(
    petstore_package: Path, fake_petstore: Any
) -> None:
    params = stdio_params(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode="auto") as client:
        assert client.protocol_version == "2026-07-28"
        assert client.server_info is not None and client.server_info.name == "petstore-mcp"

        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert {"list_pets", "create_pet", "get_pet_by_id", "delete_pet"} <= set(tools)
        listed = tools["list_pets"]
        assert listed.annotations is not None
        assert (listed.annotations.read_only_hint, listed.annotations.open_world_hint) == (
            True,
            True,
        )
        deleting = tools["delete_pet"].annotations
        assert deleting is not None and deleting.destructive_hint and deleting.idempotent_hint

        fake_petstore.clear()
        result = await client.call_tool("list_pets", {"limit": 2, "status": ["available", "sold"]})
        assert not result.is_error, result
        assert isinstance(result.structured_content, list) and len(result.structured_content) <= 2
        (sent,) = fake_petstore.requests
        assert (sent.method, sent.raw_path) == ("GET", "/v1/pets")
        assert sent.query_params == [("limit", "2"), ("status", "available"), ("status", "sold")]
        assert sent.headers["x-api-key"] == fake_petstore.api_key
        assert sent.headers["accept"] == "application/json"

        fake_petstore.clear()
        created = await client.call_tool(
            "create_pet",
            {"name": "Rex", "status": "available", "photoUrls": ["https://img.example/rex.png"]},
        )
        assert not created.is_error, created
        (sent,) = fake_petstore.requests
        assert (sent.method, sent.raw_path) == ("POST", "/v1/pets")
        assert sent.headers["content-type"] == "application/json"
        assert sent.json() == {
            "name": "Rex",
            "status": "available",
            "photoUrls": ["https://img.example/rex.png"],
        }
        assert isinstance(created.structured_content, dict)
        assert created.structured_content["name"] == "Rex"
        new_id = created.structured_content["id"]

        read = await client.read_resource(f"petstore://pets/{new_id}")
        (content,) = read.contents
        assert '"Rex"' in getattr(content, "text", "")
        assert fake_petstore.requests[-1].raw_path == f"/v1/pets/{new_id}"


async def test_legacy_session_gets_legacy_shapes(
    petstore_package: Path, fake_petstore: Any
) -> None:
    params = stdio_params(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode="legacy") as client:
        assert client.protocol_version == "2025-11-25"
        tools = {t.name: t for t in (await client.list_tools()).tools}
        schema = tools["list_pets"].output_schema
        assert (
            schema is not None and schema["type"] == "object"
        )  # arrays are wrapped for legacy peers
        result = await client.call_tool("list_pets", {"limit": 1})
        assert not result.is_error, result
        assert isinstance(result.structured_content, dict)
        assert isinstance(result.structured_content["result"], list)
        assert fake_petstore.requests[-1].query == "limit=1"


async def test_upstream_errors_become_tool_errors(
    petstore_package: Path, fake_petstore: Any
) -> None:
    params = stdio_params(petstore_package, fake_petstore.base_url, "wrong-key")
    async with Client(params, mode="auto") as client:
        result = await client.call_tool("get_pet_by_id", {"petId": 1})
        assert result.is_error
        text = result.content[0].text  # type: ignore[union-attr]
        assert "401" in text


async def test_invalid_arguments_are_reported_and_not_sent(
    petstore_package: Path, fake_petstore: Any
) -> None:
    params = stdio_params(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode="auto") as client:
        fake_petstore.clear()
        result = await client.call_tool("get_pet_by_id", {"petId": "not-a-number"})
        assert result.is_error
        assert "petId" in result.content[0].text  # type: ignore[union-attr]
        assert fake_petstore.requests == []


async def test_an_optional_argument_given_as_null_is_left_out(
    petstore_package: Path, fake_petstore: Any
) -> None:
    # models write null for what they leave out (ZenML's lists: "size": null); null is no limit
    params = stdio_params(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode="auto") as client:
        fake_petstore.clear()
        result = await client.call_tool("list_pets", {"limit": None, "status": ["sold"]})
        assert not result.is_error
        (sent,) = fake_petstore.requests
        assert sent.query_params == [("status", "sold")]
        # a whole number written 2.0 is 2 (Mayan answered page=2.0 "Invalid page.")
        fake_petstore.clear()
        result = await client.call_tool("list_pets", {"limit": 2.0})
        assert not result.is_error
        (sent,) = fake_petstore.requests
        assert sent.query_params == [("limit", "2")]
        # a required argument given as null is still refused, and nothing is sent
        fake_petstore.clear()
        result = await client.call_tool("get_pet_by_id", {"petId": None})
        assert result.is_error
        assert "petId: null is not of type" in result.content[0].text  # type: ignore[union-attr]
        assert fake_petstore.requests == []
        # a body's field given as null asks to clear it: refused where the schema has no null,
        # never dropped (the call would report a success that cleared nothing)
        result = await client.call_tool("create_pet", {"name": "Rex", "tags": None})
        assert result.is_error
        assert "tags: null is not of type" in result.content[0].text  # type: ignore[union-attr]
        assert fake_petstore.requests == []


async def test_a_list_resource_takes_its_operations_query_parameters(
    petstore_package: Path, fake_petstore: Any
) -> None:
    # Phoenix's lists page with a cursor: a fixed URI could only ever read the first page
    params = stdio_params(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode="auto") as client:
        listed = {r.uri for r in (await client.list_resources()).resources}
        assert "petstore://pets" in {str(uri) for uri in listed}
        fake_petstore.clear()
        read = await client.read_resource("petstore://pets?limit=1&status=available,sold")
        (content,) = read.contents
        assert content.mime_type == "application/json"
        (sent,) = fake_petstore.requests
        assert (sent.method, sent.raw_path) == ("GET", "/v1/pets")
        assert sent.query_params == [("limit", "1"), ("status", "available"), ("status", "sold")]
        fake_petstore.clear()
        # the key repeated, as the API's own query takes an array
        await client.read_resource("petstore://pets?status=available&status=sold")
        (sent,) = fake_petstore.requests
        assert sent.query_params == [("status", "available"), ("status", "sold")]
        fake_petstore.clear()
        # a comma written %2C is the value's own: one status, which the API does not have
        refused = await _read_error(client, "petstore://pets?status=available%2Csold")
        assert refused.error.data == {
            "uri": "petstore://pets?status=available%2Csold",
            "detail": 'status[0]: "available,sold" is not one of "available", "pending" or "sold"',
        }
        assert fake_petstore.requests == []
        # a key repeated where its parameter takes one value names nothing
        refused = await _read_error(client, "petstore://pets?limit=1&limit=2")
        assert refused.error.data == {
            "uri": "petstore://pets?limit=1&limit=2",
            "detail": "limit: given 2 times; it takes one value",
        }
        # a name the operation does not take is no resource of this server
        missing = await _read_error(client, "petstore://pets?colour=red")
        assert missing.error.code == -32602  # 2026-07-28
        # and the data says which name, and what it takes
        assert missing.error.data == {
            "uri": "petstore://pets?colour=red",
            "detail": "colour: not a parameter of petstore://pets{?limit,status} (it takes limit,"
            " status)",
        }
        # a value its parameter's type refuses: not found, and the data says why
        refused = await _read_error(client, "petstore://pets?limit=abc")
        assert refused.error.data == {
            "uri": "petstore://pets?limit=abc",
            "detail": "limit: 'abc' is not an integer",
        }
        # a template's required query variable left out: said without an empty place before it
        refused = await _read_error(client, "petstore://pets/findByStatus")
        assert refused.error.data == {
            "uri": "petstore://pets/findByStatus",
            "detail": '"status" is a required property',
        }
        # a value the tool would refuse is refused for the read too
        refused = await _read_error(client, "petstore://pets/0")
        assert refused.error.data == {
            "uri": "petstore://pets/0",
            "detail": "petId: 0 is less than the minimum of 1",
        }
        # and none of them was sent
        assert fake_petstore.requests == []


async def _read_error(client: Client, uri: str) -> MCPError:
    """The MCP error reading ``uri`` ends in (the client raises it inside exception groups)."""
    with pytest.raises(BaseException) as raised:
        await client.read_resource(uri)
    caught: BaseException = raised.value
    while isinstance(caught, BaseExceptionGroup):
        caught = caught.exceptions[0]
    assert isinstance(caught, MCPError)
    return caught
