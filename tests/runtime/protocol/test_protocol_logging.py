"""Log notifications and the other legacy utilities: ``logging/setLevel``, ``resources/(un)subscribe``.

Log messages are opt-in in both eras: a modern request names a level in ``_meta``, a legacy session
calls ``logging/setLevel``; without either nothing is sent. Messages go on the request's channel
(the ``notify`` given to the dispatcher), before its reply, and never carry argument values.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pytest

from templates.runtime.catalog.model import Catalog
from templates.runtime.protocol.dispatch import Dispatcher, LegacySession
from templates.runtime.upstream.client import UpstreamError, UpstreamResponse
from tests.runtime.conftest import CATALOG, META

if TYPE_CHECKING:
    from tests.runtime.conftest import StdioPeer

REX = UpstreamResponse(200, "OK", "application/json", b'{"id":1,"name":"Rex","species":"dog"}', "u")
MISSING = UpstreamResponse(404, "Not Found", "application/json", b'{"message":"no"}', "u")
GET_PET = {"name": "get_pet", "arguments": {"petId": 1}}


class FakeUpstream:
    def __init__(self, answer: UpstreamResponse | Exception) -> None:
        self.answer = answer

    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


class Channel:
    """Collects what the server sends on the request's channel."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def __call__(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def logs(self) -> list[tuple[str, str]]:
        return [
            (m["params"]["level"], m["params"]["data"])
            for m in self.sent
            if m["method"] == "notifications/message"
        ]


def dispatcher(answer: UpstreamResponse | Exception = REX) -> Dispatcher:
    return Dispatcher(copy.deepcopy(CATALOG), FakeUpstream(answer))


def modern(method: str, request_id: Any = 1, level: Any = None, **params: Any) -> dict[str, Any]:
    meta = dict(META)
    if level is not None:
        meta["io.modelcontextprotocol/logLevel"] = level
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": method,
        "params": {"_meta": meta, **params},
    }


def legacy(method: str, request_id: Any = 1, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


DEBUG_TRAIL = [
    ("info", "Tool get_pet: calling GET /pets/{petId}"),
    ("debug", "Tool get_pet: arguments petId"),
    ("info", "Tool get_pet: GET /pets/{petId} answered 200 OK"),
    ("debug", "Tool get_pet: 37 bytes of application/json"),
    ("info", "Tool get_pet: returning a result"),
]


async def test_a_modern_call_with_a_log_level_logs_its_upstream_call() -> None:
    channel = Channel()
    reply = await dispatcher().handle(modern("tools/call", level="debug", **GET_PET), None, channel)
    assert reply is not None and reply["result"]["structuredContent"]["name"] == "Rex"
    assert channel.logs() == DEBUG_TRAIL
    assert channel.sent[0] == {
        "jsonrpc": "2.0",
        "method": "notifications/message",
        "params": {
            "level": "info",
            "data": "Tool get_pet: calling GET /pets/{petId}",
            "logger": "petstore-mcp",
        },
    }


async def test_messages_below_the_level_are_left_out() -> None:
    channel = Channel()
    await dispatcher(MISSING).handle(modern("tools/call", level="notice", **GET_PET), None, channel)
    assert channel.logs() == [("warning", "Tool get_pet: GET /pets/{petId} answered 404 Not Found")]


async def test_a_modern_call_without_a_log_level_sends_no_message() -> None:
    channel = Channel()
    reply = await dispatcher().handle(modern("tools/call", **GET_PET), None, channel)
    assert reply is not None and "result" in reply
    assert channel.sent == []


async def test_argument_values_never_reach_a_log_message() -> None:
    channel = Channel()
    call = modern("tools/call", level="debug", name="get_pet", arguments={"petId": 987654})
    await dispatcher().handle(call, None, channel)
    assert channel.logs() and not any("987654" in data for _, data in channel.logs())


async def test_a_failed_upstream_call_is_logged_as_an_error() -> None:
    channel = Channel()
    failing = dispatcher(UpstreamError("could not reach the API: timed out"))
    await failing.handle(modern("tools/call", level="error", **GET_PET), None, channel)
    assert channel.logs() == [
        ("error", "Tool get_pet: GET /pets/{petId} failed: could not reach the API: timed out")
    ]


async def test_invalid_arguments_are_logged_as_a_warning_without_a_call() -> None:
    channel = Channel()
    call = modern("tools/call", level="warning", name="get_pet", arguments={"petId": "x"})
    await dispatcher().handle(call, None, channel)
    assert channel.logs() == [("warning", "Tool get_pet: invalid arguments, nothing was called")]


@pytest.mark.parametrize("level", ["verbose", "INFO", 3, "warn"])
async def test_an_invalid_modern_log_level_is_invalid_params(level: Any) -> None:
    reply = await dispatcher().handle(modern("tools/call", level=level, **GET_PET), None, Channel())
    assert reply == {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {
            "code": -32602,
            "message": "Invalid _meta field io.modelcontextprotocol/logLevel",
        },
    }


async def test_set_level_is_legacy_only() -> None:
    reply = await dispatcher().handle(modern("logging/setLevel", level="info"), None, Channel())
    assert reply is not None and reply["error"]["code"] == -32601


async def test_a_legacy_session_logs_only_after_set_level() -> None:
    server, session = dispatcher(), LegacySession("2025-11-25", initialized=True)
    quiet = Channel()
    await server.handle(legacy("tools/call", 1, **GET_PET), session, quiet)
    assert quiet.sent == []
    set_level = await server.handle(legacy("logging/setLevel", 2, level="info"), session, quiet)
    assert set_level == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert session.log_level == "info"
    loud = Channel()
    await server.handle(legacy("tools/call", 3, **GET_PET), session, loud)
    assert loud.logs() == [entry for entry in DEBUG_TRAIL if entry[0] == "info"]


@pytest.mark.parametrize("params", [{}, {"level": "loud"}, {"level": ["info"]}])
async def test_set_level_needs_a_known_level(params: dict[str, Any]) -> None:
    session = LegacySession("2025-06-18", initialized=True, log_level="error")
    reply = await dispatcher().handle(legacy("logging/setLevel", 4, **params), session, Channel())
    assert reply is not None and reply["error"]["code"] == -32602
    assert (
        "debug, info, notice, warning, error, critical, alert, emergency"
        in (reply["error"]["message"])
    )
    assert session.log_level == "error"


async def test_initialize_forgets_the_previous_level() -> None:
    session = LegacySession("2025-11-25", initialized=True, log_level="debug")
    init = legacy("initialize", 0, protocolVersion="2025-11-25", capabilities={})
    await dispatcher().handle(init, session, Channel())
    assert session.log_level is None


@pytest.mark.parametrize("method", ["resources/subscribe", "resources/unsubscribe"])
@pytest.mark.parametrize("uri", ["petstore://pets", "petstore://pets/7"])
async def test_legacy_subscriptions_are_accepted_for_known_resources(method: str, uri: str) -> None:
    session = LegacySession("2025-11-25", initialized=True)
    reply = await dispatcher().handle(legacy(method, 5, uri=uri), session, Channel())
    assert reply == {"jsonrpc": "2.0", "id": 5, "result": {}}


async def test_subscribing_to_an_unknown_resource_is_resource_not_found() -> None:
    session = LegacySession("2025-11-25", initialized=True)
    subscribe = legacy("resources/subscribe", 6, uri="petstore://nowhere")
    assert await dispatcher().handle(subscribe, session, Channel()) == {
        "jsonrpc": "2.0",
        "id": 6,
        "error": {
            "code": -32002,
            "message": "Resource not found",
            "data": {"uri": "petstore://nowhere"},
        },
    }
    unnamed = await dispatcher().handle(legacy("resources/subscribe", 7), session, Channel())
    assert unnamed is not None and unnamed["error"]["code"] == -32602


@pytest.mark.parametrize("method", ["resources/subscribe", "resources/unsubscribe"])
async def test_subscriptions_are_not_modern_methods(method: str) -> None:
    reply = await dispatcher().handle(modern(method, uri="petstore://pets"), None, Channel())
    assert reply is not None and reply["error"]["code"] == -32601


async def test_subscribe_is_advertised_only_to_legacy_peers() -> None:
    server = dispatcher()
    init = legacy("initialize", 0, protocolVersion="2025-11-25", capabilities={})
    legacy_caps = (await server.handle(init, LegacySession(), Channel()) or {})["result"]
    discover = (await server.handle(modern("server/discover"), None, Channel()) or {})["result"]
    assert legacy_caps["capabilities"]["resources"] == {"listChanged": False, "subscribe": True}
    assert discover["capabilities"]["resources"] == {"listChanged": False}
    assert discover["capabilities"]["logging"] == legacy_caps["capabilities"]["logging"] == {}


def test_stdio_interleaves_log_messages_before_the_reply(peer: StdioPeer) -> None:
    peer.initialize("2025-11-25")
    assert peer.request("logging/setLevel", {"level": "info"})["result"] == {}
    peer.send({"jsonrpc": "2.0", "id": "call", "method": "tools/call", "params": GET_PET})
    first, second, third, reply = (peer.receive() for _ in range(4))
    assert [m["method"] for m in (first, second, third)] == ["notifications/message"] * 3
    assert [m["params"]["level"] for m in (first, second, third)] == ["info"] * 3
    assert reply["id"] == "call" and reply["result"]["structuredContent"]["name"] == "Rex"


def catalog_without_tools() -> Catalog:
    bare: Catalog = copy.deepcopy(CATALOG)
    bare["tools"] = []
    return bare


async def test_a_server_without_tools_does_not_advertise_logging() -> None:
    server = Dispatcher(catalog_without_tools(), FakeUpstream(REX))
    discover = await server.handle(modern("server/discover"), None, Channel())
    assert discover is not None and "logging" not in discover["result"]["capabilities"]
    session = LegacySession("2025-11-25", initialized=True)
    set_level = await server.handle(legacy("logging/setLevel", 2, level="info"), session, Channel())
    assert set_level is not None and set_level["error"]["code"] == -32601
