"""The app as an ASGI citizen: mounting under a root path, lifespan, other scopes, vanished clients."""

from __future__ import annotations

import json
from typing import Any

import httpx

from templates.runtime.transports.http_responses import ReplyStream
from tests.runtime.transports.conftest import AppFactory
from tests.runtime.transports.kit import modern, modern_headers

DISCOVER = json.dumps(modern("server/discover")).encode()


async def test_the_endpoint_is_found_below_a_root_path(make_app: AppFactory) -> None:
    transport = httpx.ASGITransport(app=make_app(), root_path="/tenant-a")
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        mounted = await client.post(
            "/tenant-a/mcp", content=DISCOVER, headers=modern_headers("server/discover")
        )
        assert mounted.status_code == 200
        assert (await client.post("/tenant-a/other", content=DISCOVER)).status_code == 404


async def test_lifespan_events_are_acknowledged(make_app: AppFactory) -> None:
    app = make_app()
    incoming = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])
    sent: list[Any] = []

    async def receive() -> Any:
        return next(incoming)

    async def send(message: Any) -> None:
        sent.append(message)

    await app({"type": "lifespan"}, receive, send)
    assert sent == [{"type": "lifespan.startup.complete"}, {"type": "lifespan.shutdown.complete"}]


async def test_other_scopes_are_left_alone(make_app: AppFactory) -> None:
    async def receive() -> Any:
        raise AssertionError("nothing to receive")

    async def send(message: Any) -> None:
        raise AssertionError(f"nothing to send: {message}")

    await make_app()({"type": "websocket", "path": "/mcp"}, receive, send)


async def test_a_server_raising_on_a_gone_client_stops_the_stream_quietly() -> None:
    attempts: list[Any] = []

    async def send(message: Any) -> None:
        attempts.append(message)
        raise ConnectionResetError("client went away")

    reply = ReplyStream(send)
    await reply.notify({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}})
    assert reply.closed
    await reply.notify({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}})
    await reply.finish(200, b"{}")
    assert len(attempts) == 1
