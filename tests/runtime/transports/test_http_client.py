"""The generated Petstore server over HTTP (uvicorn) with real clients.

The official MCP client in both eras, raw JSON-RPC for 2025-06-18 and 2025-03-26, and two server
processes behind a round-robin proxy serving one client: the modern path keeps no state, so any
replica answers any request. Tool calls are checked by the exact request the fake Petstore received.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client

from tests.runtime.transports.kit import (
    BASE_HEADERS,
    MODERN,
    TIMEOUT,
    RoundRobinProxy,
    ServerProcess,
    initialize,
    legacy,
    modern,
    running,
    server_env,
)


@pytest.fixture
def server(petstore_package: Path, fake_petstore: Any) -> Iterator[ServerProcess]:
    process = ServerProcess(
        server_env(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    )
    yield process
    process.stop()


async def check_read_and_write_calls(client: Client, fake_petstore: Any) -> None:
    fake_petstore.clear()
    listed = await client.call_tool("list_pets", {"limit": 2, "status": ["available", "sold"]})
    assert not listed.is_error, listed
    (sent,) = fake_petstore.requests
    assert (sent.method, sent.raw_path) == ("GET", "/v1/pets")
    assert sent.query_params == [("limit", "2"), ("status", "available"), ("status", "sold")]
    assert sent.headers["x-api-key"] == fake_petstore.api_key
    # the inbound MCP request's headers never reach the upstream
    assert not any(name.startswith("mcp-") for name in sent.headers)

    fake_petstore.clear()
    created = await client.call_tool(
        "create_pet",
        {"name": "Rex II", "status": "pending", "photoUrls": ["https://img.example/r.png"]},
    )
    assert not created.is_error, created
    (sent,) = fake_petstore.requests
    assert (sent.method, sent.raw_path) == ("POST", "/v1/pets")
    assert sent.headers["content-type"] == "application/json"
    assert sent.json() == {
        "name": "Rex II",
        "status": "pending",
        "photoUrls": ["https://img.example/r.png"],
    }


async def test_modern_client_over_http(server: ServerProcess, fake_petstore: Any) -> None:
    async with Client(server.url, mode="auto") as client:
        assert client.protocol_version == "2026-07-28"
        assert client.server_info is not None and client.server_info.name == "petstore-mcp"
        tools = {tool.name for tool in (await client.list_tools()).tools}
        assert {"list_pets", "create_pet", "get_pet_by_id", "delete_pet"} <= tools
        await check_read_and_write_calls(client, fake_petstore)
        read = await client.read_resource("petstore://pets/1")
        assert '"Rex"' in getattr(read.contents[0], "text", "")


async def test_modern_client_sends_param_headers_the_server_accepts(
    server: ServerProcess, fake_petstore: Any
) -> None:
    request_id = "0e6f8e0c-4d1b-4a55-9a8f-62f4c0d3b1a2"
    async with Client(server.url, mode="auto") as client:
        await client.list_tools()
        fake_petstore.clear()
        result = await client.call_tool("list_pets", {"limit": 1, "X-Request-ID": request_id})
        assert not result.is_error, result
    assert fake_petstore.requests[-1].headers["x-request-id"] == request_id


async def test_legacy_client_over_http(server: ServerProcess, fake_petstore: Any) -> None:
    async with Client(server.url, mode="legacy") as client:
        assert client.protocol_version == "2025-11-25"
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        schema = tools["list_pets"].output_schema
        assert schema is not None and schema["type"] == "object"
        await check_read_and_write_calls(client, fake_petstore)


async def test_progress_reaches_the_client_callback(server: ServerProcess) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with Client(server.url, mode="auto") as client:
        result = await client.call_tool(
            "get_pet_by_id", {"petId": 1}, progress_callback=on_progress
        )
    assert not result.is_error
    assert seen == [
        (0, 2, "Calling GET /pets/{petId}"),
        (1, 2, "GET /pets/{petId} answered 200"),
        (2, 2, "Done"),
    ]


@pytest.fixture
async def raw(server: ServerProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        base_url=server.url.removesuffix("/mcp"), timeout=TIMEOUT
    ) as client:
        yield client


async def rpc(
    client: httpx.AsyncClient, body: Any, version: str | None, **headers: str
) -> httpx.Response:
    sent = {**BASE_HEADERS, **headers}
    if version is not None:
        sent["mcp-protocol-version"] = version
    return await client.post("/mcp", content=json.dumps(body).encode(), headers=sent)


async def test_raw_2025_06_18_session(raw: httpx.AsyncClient, fake_petstore: Any) -> None:
    started = await rpc(raw, initialize("2025-06-18"), None)
    assert started.status_code == 200
    # a session id is minted, but the session works the same without sending it back
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", started.headers["mcp-session-id"])
    result = started.json()["result"]
    assert result["protocolVersion"] == "2025-06-18"
    assert set(result["serverInfo"]) == {"name", "title", "version"}
    initialized = await rpc(
        raw, {"jsonrpc": "2.0", "method": "notifications/initialized"}, "2025-06-18"
    )
    assert initialized.status_code == 202
    assert (await rpc(raw, legacy("ping", 2), "2025-06-18")).json() == {
        "jsonrpc": "2.0",
        "id": 2,
        "result": {},
    }
    listed = (await rpc(raw, legacy("tools/list", 3), "2025-06-18")).json()["result"]
    assert "resultType" not in listed and "ttlMs" not in listed
    by_name = {tool["name"]: tool for tool in listed["tools"]}
    assert by_name["list_pets"]["title"] == "List pets" and "icons" not in by_name["list_pets"]
    fake_petstore.clear()
    called = await rpc(
        raw, legacy("tools/call", 4, name="list_pets", arguments={"limit": 1}), "2025-06-18"
    )
    assert set(called.json()["result"]["structuredContent"]) == {"result"}
    assert fake_petstore.requests[-1].query == "limit=1"
    missing = await rpc(raw, legacy("resources/read", 5, uri="petstore://pets/99999"), "2025-06-18")
    assert (missing.status_code, missing.json()["error"]["code"]) == (200, -32002)


async def test_raw_2025_03_26_session_without_version_headers(raw: httpx.AsyncClient) -> None:
    started = await rpc(raw, initialize("2025-03-26"), None)
    assert started.json()["result"]["protocolVersion"] == "2025-03-26"
    tools = (await rpc(raw, legacy("tools/list", 2), None)).json()["result"]["tools"]
    tool = next(t for t in tools if t["name"] == "get_pet_by_id")
    assert "title" not in tool and "outputSchema" not in tool
    assert tool["annotations"]["title"] == "Get a pet"
    batch = [
        legacy("tools/call", "a", name="get_pet_by_id", arguments={"petId": 1}),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        legacy("prompts/list", "b"),
    ]
    replies = (await rpc(raw, batch, None)).json()
    assert [reply["id"] for reply in replies] == ["a", "b"]
    called = replies[0]["result"]
    assert "structuredContent" not in called
    assert json.loads(called["content"][0]["text"])["id"] == 1


@pytest.fixture
def replicas(petstore_package: Path, fake_petstore: Any) -> Iterator[RoundRobinProxy]:
    env = server_env(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    first, second = ServerProcess(env), ServerProcess(env)
    with running(first, second):
        proxy = RoundRobinProxy([first.url, second.url])
        try:
            yield proxy
        finally:
            proxy.close()


@pytest.mark.parametrize(
    "method",
    ["server/discover", "tools/list", "resources/list", "resources/templates/list", "prompts/list"],
)
async def test_replicas_answer_lists_identically(replicas: RoundRobinProxy, method: str) -> None:
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{replicas.port}", timeout=TIMEOUT
    ) as client:
        replies = [
            await rpc(client, modern(method, 1), MODERN, **{"mcp-method": method}) for _ in range(2)
        ]
    assert [backend for backend, _ in replicas.served] == [0, 1]
    assert replies[0].status_code == replies[1].status_code == 200
    assert replies[0].content == replies[1].content


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_two_replicas_behind_a_round_robin_proxy_serve_one_client(
    replicas: RoundRobinProxy, fake_petstore: Any, mode: str
) -> None:
    async with Client(f"http://127.0.0.1:{replicas.port}/mcp", mode=mode) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        assert "get_pet_by_id" in tools
        fake_petstore.clear()
        for pet_id in (1, 2, 1, 2):
            result = await client.call_tool("get_pet_by_id", {"petId": pet_id})
            assert not result.is_error, result
            assert result.structured_content is not None
    assert [r.raw_path for r in fake_petstore.requests] == ["/v1/pets/1", "/v1/pets/2"] * 2
    backends_by_method: dict[str, set[int]] = {}
    for backend, method in replicas.served:
        backends_by_method.setdefault(method, set()).add(backend)
    if mode == "auto":
        assert backends_by_method["tools/call"] == {0, 1}
    else:
        # legacy clients send no Mcp-Method header: every request is counted under "-"
        assert backends_by_method["-"] == {0, 1}
