"""Progress: a tool call with a progress token is answered as an SSE stream of progress, then result.

The same notifications come from the transport-independent core, so stdio interleaves them on stdout.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.helpers import RawServer
from tests.kit.meta import meta
from tests.runtime.transports.conftest import AppFactory, body_of
from tests.runtime.transports.kit import BASE_HEADERS, legacy, modern, modern_headers, sse_events

GET_PET = {"name": "get_pet_by_id", "arguments": {"petId": 1}}


def progress(token: Any, value: int, message: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "notifications/progress",
        "params": {"progressToken": token, "progress": value, "total": 2, "message": message},
    }


async def call(client: httpx.AsyncClient, body: Any, headers: dict[str, str]) -> httpx.Response:
    return await client.post("/mcp", content=json.dumps(body).encode(), headers=headers)


@pytest.mark.parametrize("token", ["tok-1", 7])
async def test_a_progress_token_turns_the_reply_into_an_event_stream(
    endpoint: httpx.AsyncClient, token: Any
) -> None:
    body = modern("tools/call", 11, meta_extra={"progressToken": token}, **GET_PET)
    response = await call(endpoint, body, modern_headers("tools/call", "get_pet_by_id"))
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/event-stream"
    assert response.headers["cache-control"] == "no-cache"
    assert response.headers["x-accel-buffering"] == "no"
    first, second, third, final = sse_events(response.text)
    assert first == progress(token, 0, "Calling GET /pets/{petId}")
    assert second == progress(token, 1, "GET /pets/{petId} answered 200")
    assert third == progress(token, 2, "Done")
    assert final["id"] == 11
    assert final["result"]["resultType"] == "complete"
    assert final["result"]["structuredContent"]["name"] == "Rex"


async def test_legacy_calls_stream_progress_too(endpoint: httpx.AsyncClient) -> None:
    body = legacy("tools/call", 12, _meta={"progressToken": "old"}, **GET_PET)
    headers = {**BASE_HEADERS, "mcp-protocol-version": "2025-06-18"}
    response = await call(endpoint, body, headers)
    assert response.headers["content-type"] == "text/event-stream"
    *notes, final = sse_events(response.text)
    assert [note["params"]["progress"] for note in notes] == [0, 1, 2]
    assert "resultType" not in final["result"]


@pytest.mark.parametrize(
    "meta_extra", [{}, {"progressToken": True}, {"progressToken": 1.5}, {"progressToken": None}]
)
async def test_without_a_valid_token_the_reply_is_json(
    endpoint: httpx.AsyncClient, meta_extra: dict[str, Any]
) -> None:
    body = modern("tools/call", 13, meta_extra=meta_extra, **GET_PET)
    response = await call(endpoint, body, modern_headers("tools/call", "get_pet_by_id"))
    assert response.status_code == 200
    assert body_of(response)["result"]["structuredContent"]["id"] == 1


async def test_a_call_refused_before_the_upstream_sends_no_progress(
    endpoint: httpx.AsyncClient,
) -> None:
    body = modern(
        "tools/call",
        14,
        meta_extra={"progressToken": "t"},
        name="get_pet_by_id",
        arguments={"petId": "x"},
    )
    response = await call(endpoint, body, modern_headers("tools/call", "get_pet_by_id"))
    result = body_of(response)["result"]
    assert result["isError"] is True


async def test_progress_names_a_failed_upstream_call(make_app: AppFactory) -> None:
    app = make_app(PETSTORE_BASE_URL="http://127.0.0.1:9/v1")
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1:8000"
    ) as client:
        body = modern(
            "tools/call", 15, meta_extra={"progressToken": "t"}, name="get_inventory", arguments={}
        )
        response = await call(client, body, modern_headers("tools/call", "get_inventory"))
    first, second, final = sse_events(response.text)
    assert first == progress("t", 0, "Calling GET /store/inventory")
    assert second == progress("t", 2, "GET /store/inventory failed")
    assert final["result"]["isError"] is True


@pytest.fixture
def stdio_server(petstore_package: Path, fake_petstore: Any) -> Iterator[RawServer]:
    server = RawServer(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    yield server
    assert server.close() == 0


def test_stdio_interleaves_the_same_progress_before_the_reply(stdio_server: RawServer) -> None:
    stdio_server.send(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"_meta": meta("raw-test", progressToken="p"), **GET_PET},
        }
    )
    assert stdio_server.receive() == progress("p", 0, "Calling GET /pets/{petId}")
    assert stdio_server.receive() == progress("p", 1, "GET /pets/{petId} answered 200")
    assert stdio_server.receive() == progress("p", 2, "Done")
    reply = stdio_server.receive()
    assert reply["id"] == 1 and reply["result"]["structuredContent"]["name"] == "Rex"
