"""A client disconnect cancels its 2026-07-28 request and the upstream call; nothing more is sent.

The upstream is ``SlowUpstream``: it reads the request and never answers, and records when the
generated server gives up on it (closes the connection). Legacy requests are not cancelled by a
disconnect (legacy clients cancel with a notification); stdio keeps cancelling on
``notifications/cancelled``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.helpers import RawServer
from tests.kit.meta import meta
from tests.runtime.transports.conftest import AppFactory
from tests.runtime.transports.kit import (
    BASE_HEADERS,
    TIMEOUT,
    ServerProcess,
    SlowUpstream,
    legacy,
    modern,
    modern_headers,
    server_env,
)

INVENTORY = {"name": "get_inventory", "arguments": {}}


@pytest.fixture
def slow() -> Iterator[SlowUpstream]:
    upstream = SlowUpstream()
    yield upstream
    upstream.close()


async def acquired(semaphore: Any, timeout: float = TIMEOUT) -> bool:
    return bool(await asyncio.to_thread(semaphore.acquire, True, timeout))


class Exchange:
    """One request driven through the ASGI app by hand, so the client can vanish mid-way."""

    def __init__(self, app: Any, body: Any, headers: dict[str, str]) -> None:
        self.sent: list[dict[str, Any]] = []
        self._gone = asyncio.Event()
        self._delivered = False
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/mcp",
            "raw_path": b"/mcp",
            "query_string": b"",
            "root_path": "",
            "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
            "server": ("127.0.0.1", 8000),
            "client": ("127.0.0.1", 50000),
        }
        self._body = json.dumps(body).encode()
        self.task = asyncio.ensure_future(app(scope, self._receive, self._send))

    async def _receive(self) -> dict[str, Any]:
        if not self._delivered:
            self._delivered = True
            return {"type": "http.request", "body": self._body, "more_body": False}
        await self._gone.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def disconnect(self) -> None:
        self._gone.set()

    def events(self) -> list[Any]:
        chunks = [m["body"] for m in self.sent if m["type"] == "http.response.body"]
        return [json.loads(c.removeprefix(b"data: ")) for c in chunks]


@pytest.fixture
async def slow_app(make_app: AppFactory, slow: SlowUpstream) -> Any:
    return make_app(PETSTORE_BASE_URL=slow.base_url)


async def test_disconnect_cancels_a_streaming_call_and_its_upstream_request(
    slow_app: Any, slow: SlowUpstream
) -> None:
    body = modern("tools/call", 1, meta_extra={"progressToken": "p"}, **INVENTORY)
    exchange = Exchange(slow_app, body, modern_headers("tools/call", "get_inventory"))
    assert await acquired(slow.received)
    assert exchange.sent[0]["status"] == 200
    assert [e["params"]["progress"] for e in exchange.events()] == [0]
    exchange.disconnect()
    await asyncio.wait_for(exchange.task, TIMEOUT)
    assert await acquired(slow.abandoned)
    # nothing after the disconnect: no final progress, no response, no end of stream
    assert len(exchange.sent) == 2 and exchange.sent[1]["more_body"] is True


async def test_disconnect_cancels_a_json_call_and_sends_nothing(
    slow_app: Any, slow: SlowUpstream
) -> None:
    exchange = Exchange(
        slow_app,
        modern("tools/call", 2, **INVENTORY),
        modern_headers("tools/call", "get_inventory"),
    )
    assert await acquired(slow.received)
    exchange.disconnect()
    await asyncio.wait_for(exchange.task, TIMEOUT)
    assert await acquired(slow.abandoned)
    assert exchange.sent == []


async def test_a_legacy_call_outlives_a_disconnect_but_its_answer_is_dropped(
    slow_app: Any, slow: SlowUpstream
) -> None:
    body = legacy("tools/call", 3, _meta={"progressToken": "p"}, **INVENTORY)
    exchange = Exchange(slow_app, body, {**BASE_HEADERS, "mcp-protocol-version": "2025-11-25"})
    assert await acquired(slow.received)
    exchange.disconnect()
    # the upstream request stays open: a disconnect is not a cancellation in legacy revisions
    assert not await acquired(slow.abandoned, timeout=0.3)
    assert not exchange.task.done()
    slow.release()
    await asyncio.wait_for(exchange.task, TIMEOUT)
    assert [e["params"]["progress"] for e in exchange.events()] == [0]
    assert len(exchange.sent) == 2


@pytest.fixture
def slow_server(petstore_package: Path, slow: SlowUpstream) -> Iterator[ServerProcess]:
    server = ServerProcess(server_env(petstore_package, slow.base_url, "key"))
    yield server
    server.stop()


@pytest.fixture
async def http(slow_server: ServerProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=TIMEOUT) as client:
        yield client


async def test_closing_the_event_stream_cancels_the_upstream_call_over_uvicorn(
    slow_server: ServerProcess, slow: SlowUpstream, http: httpx.AsyncClient
) -> None:
    body = modern("tools/call", 4, meta_extra={"progressToken": "p"}, **INVENTORY)
    headers = modern_headers("tools/call", "get_inventory")
    async with http.stream("POST", slow_server.url, json=body, headers=headers) as response:
        assert response.headers["content-type"] == "text/event-stream"
        lines = response.aiter_lines()
        first = await anext(lines)
        assert json.loads(first.removeprefix("data: "))["params"]["progress"] == 0
        assert await acquired(slow.received)
    assert await acquired(slow.abandoned)
    # the server is still serving
    discover = await http.post(
        slow_server.url, json=modern("server/discover"), headers=modern_headers("server/discover")
    )
    assert discover.status_code == 200


async def test_abandoning_a_json_request_cancels_the_upstream_call_over_uvicorn(
    slow_server: ServerProcess, slow: SlowUpstream, http: httpx.AsyncClient
) -> None:
    request = asyncio.ensure_future(
        http.post(
            slow_server.url,
            json=modern("tools/call", 5, **INVENTORY),
            headers=modern_headers("tools/call", "get_inventory"),
        )
    )
    assert await acquired(slow.received)
    request.cancel()
    with pytest.raises(asyncio.CancelledError):
        await request
    assert await acquired(slow.abandoned)


def test_stdio_cancellation_still_cancels_the_upstream_call(
    petstore_package: Path, slow: SlowUpstream
) -> None:
    server = RawServer(petstore_package, slow.base_url, "key")
    try:
        server.send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"_meta": meta("raw-test", progressToken="p"), **INVENTORY},
            }
        )
        assert server.receive()["params"]["progress"] == 0
        assert slow.received.acquire(timeout=TIMEOUT)
        server.send(
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}
        )
        assert slow.abandoned.acquire(timeout=TIMEOUT)
        # the next message is the reply to the next request: nothing more for the cancelled one
        server.send(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "server/discover",
                "params": {"_meta": meta("raw-test")},
            }
        )
        assert server.receive()["id"] == 2
    finally:
        assert server.close() == 0
