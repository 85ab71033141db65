"""Legacy sessions over HTTP: a minted ``Mcp-Session-Id``, the log level it carries, 405 for GET/DELETE.

The id is stateless (requests are served the same without it); ``logging/setLevel`` in a session is
remembered for the ids this process minted, so a later ``tools/call`` in that session streams its log
messages before the result. Modern requests and forged ids get none of this.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from templates.runtime.transports.http_sessions import LegacySessionIds
from tests.runtime.transports.conftest import body_of
from tests.runtime.transports.kit import (
    BASE_HEADERS,
    initialize,
    legacy,
    modern,
    modern_headers,
    sse_events,
)

VERSION = "2025-11-25"
GET_PET = {"name": "get_pet_by_id", "arguments": {"petId": 1}}


async def post(client: httpx.AsyncClient, body: Any, headers: dict[str, str]) -> httpx.Response:
    return await client.post("/mcp", content=json.dumps(body).encode(), headers=headers)


def in_session(session_id: str | None) -> dict[str, str]:
    headers = {**BASE_HEADERS, "mcp-protocol-version": VERSION}
    if session_id is not None:
        headers["mcp-session-id"] = session_id
    return headers


async def start_session(client: httpx.AsyncClient) -> str:
    started = await post(client, initialize(VERSION), dict(BASE_HEADERS))
    session_id: str = started.headers["mcp-session-id"]
    done = await post(
        client, {"jsonrpc": "2.0", "method": "notifications/initialized"}, in_session(session_id)
    )
    assert done.status_code == 202
    return session_id


def log_levels(events: list[Any]) -> list[str]:
    return [e["params"]["level"] for e in events if e.get("method") == "notifications/message"]


async def test_set_level_makes_later_calls_in_the_session_stream_their_logs(
    endpoint: httpx.AsyncClient,
) -> None:
    session_id = await start_session(endpoint)
    set_level = await post(
        endpoint, legacy("logging/setLevel", 1, level="info"), in_session(session_id)
    )
    assert body_of(set_level) == {"jsonrpc": "2.0", "id": 1, "result": {}}
    called = await post(endpoint, legacy("tools/call", 2, **GET_PET), in_session(session_id))
    assert called.headers["content-type"] == "text/event-stream"
    *notes, final = sse_events(called.text)
    assert log_levels(notes) == ["info", "info", "info"]
    assert notes[0]["params"]["data"] == "Tool get_pet_by_id: calling GET /pets/{petId}"
    assert final["id"] == 2 and final["result"]["structuredContent"]["name"] == "Rex"
    # each session has its own level: a fresh session is quiet
    other = await start_session(endpoint)
    quiet = await post(endpoint, legacy("tools/call", 3, **GET_PET), in_session(other))
    assert body_of(quiet)["result"]["structuredContent"]["name"] == "Rex"


async def test_a_lower_level_adds_debug_messages(asgi: httpx.AsyncClient) -> None:
    session_id = await start_session(asgi)
    await post(asgi, legacy("logging/setLevel", 1, level="debug"), in_session(session_id))
    called = await post(asgi, legacy("tools/call", 2, **GET_PET), in_session(session_id))
    *notes, _ = sse_events(called.text)
    assert log_levels(notes) == ["info", "debug", "info", "debug", "info"]


@pytest.mark.parametrize("session_id", [None, "made-up", "A" * 43])
async def test_without_a_minted_session_id_no_level_is_remembered(
    asgi: httpx.AsyncClient, session_id: str | None
) -> None:
    await start_session(asgi)
    set_level = await post(
        asgi, legacy("logging/setLevel", 1, level="debug"), in_session(session_id)
    )
    assert body_of(set_level)["result"] == {}
    called = await post(asgi, legacy("tools/call", 2, **GET_PET), in_session(session_id))
    assert body_of(called)["result"]["structuredContent"]["name"] == "Rex"


async def test_a_session_id_never_reaches_the_modern_path(asgi: httpx.AsyncClient) -> None:
    session_id = await start_session(asgi)
    await post(asgi, legacy("logging/setLevel", 1, level="debug"), in_session(session_id))
    headers = modern_headers("tools/call", "get_pet_by_id", **{"mcp-session-id": session_id})
    called = await post(asgi, modern("tools/call", 2, **GET_PET), headers)
    assert "mcp-session-id" not in called.headers
    assert body_of(called)["result"]["resultType"] == "complete"


async def test_a_modern_call_with_a_log_level_streams_its_logs(asgi: httpx.AsyncClient) -> None:
    body = modern(
        "tools/call", 4, meta_extra={"io.modelcontextprotocol/logLevel": "info"}, **GET_PET
    )
    called = await post(asgi, body, modern_headers("tools/call", "get_pet_by_id"))
    assert called.headers["content-type"] == "text/event-stream"
    *notes, final = sse_events(called.text)
    assert log_levels(notes) == ["info", "info", "info"]
    assert final["result"]["resultType"] == "complete"


async def test_an_invalid_modern_log_level_is_400(asgi: httpx.AsyncClient) -> None:
    body = modern(
        "tools/call", 5, meta_extra={"io.modelcontextprotocol/logLevel": "loud"}, **GET_PET
    )
    called = await post(asgi, body, modern_headers("tools/call", "get_pet_by_id"))
    assert called.status_code == 400
    assert body_of(called)["error"] == {
        "code": -32602,
        "message": "Invalid _meta field io.modelcontextprotocol/logLevel",
    }


@pytest.mark.parametrize("method", ["GET", "DELETE"])
async def test_get_and_delete_in_a_session_are_405(
    endpoint: httpx.AsyncClient, method: str
) -> None:
    session_id = await start_session(endpoint)
    headers = {"accept": "text/event-stream", "mcp-session-id": session_id}
    response = await endpoint.request(
        method, "/mcp", headers={**headers, "mcp-protocol-version": VERSION}
    )
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    # the session goes on: there is nothing to end
    ping = await post(endpoint, legacy("ping", 9), in_session(session_id))
    assert body_of(ping) == {"jsonrpc": "2.0", "id": 9, "result": {}}


def test_the_level_memo_is_bounded_and_keeps_recently_used_sessions() -> None:
    ids = LegacySessionIds(memo_size=2)
    first, second, third = ids.mint(), ids.mint(), ids.mint()
    ids.remember_log_level(first, "debug")
    ids.remember_log_level(second, "info")
    assert ids.log_level(first) == "debug"  # now the most recently used
    ids.remember_log_level(third, "error")
    assert [ids.log_level(i) for i in (first, second, third)] == ["debug", None, "error"]


def test_ids_minted_by_another_process_are_not_recognised() -> None:
    here, elsewhere = LegacySessionIds(), LegacySessionIds()
    assert here.minted_here(here.mint())
    assert not here.minted_here(elsewhere.mint())
    assert not here.minted_here("")
    assert not here.minted_here("%%%")
