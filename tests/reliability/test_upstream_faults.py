"""Upstream faults end as tool errors in bounded time; retries, the circuit and the limits hold.

Each row of the fault matrix calls one tool of a hand-built catalog against ``FaultServer`` on
127.0.0.1 and checks what a user would notice: ``isError`` and its message, and how many requests
reached the upstream (idempotent methods retried, others never). The matrix, with the time each row
took, is printed in the run's closing summary; times are reported, never asserted (a generous
``wait_for`` only guards against a hang).
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from templates.runtime.server import SettingsError
from tests.reliability import fault_server as fs
from tests.reliability.kit import META, call_tool, catalog, operation, record, server, texts, tool

HANG_GUARD = 60.0
ENV = {
    "REL_TIMEOUT": "0.5",
    "REL_RETRY_BACKOFF": "0.01",
    "REL_CIRCUIT_THRESHOLD": "0",
    "REL_RATE_LIMIT": "0",
}
OBJECT_OUTPUT = {"outputSchema": {"type": "object"}}


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        yield fake


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


MAYBE = "; the request was sent, and the API may have made the change: check before repeating it"
RESET = "connection reset"
# (row name, behaviour, method, output schema?, isError, upstream hits, message fragment)
MATRIX: list[tuple[str, fs.Behaviour | None, str, bool, bool, int, str]] = [
    ("slow but in time", fs.slow(0.05), "GET", False, False, 1, '{"ok":true}'),
    ("slow past the timeout", fs.slow(30), "GET", False, True, 3, "timed out after 0.5 s (3 attempts)"),
    # a write that timed out may have been made (NocoDB's had): the model must not repeat it blind
    ("slow past the timeout", fs.slow(30), "POST", False, True, 1, f"timed out after 0.5 s{MAYBE}"),
    # a PUT is meant to be repeatable, an API's may not be (Signal K's next point of a route,
    # sent three times, moved the boat three legs on): sent once, and said so
    ("slow past the timeout", fs.slow(30), "PUT", False, True, 1, f"timed out after 0.5 s{MAYBE}"),
    ("reset mid-body", fs.reset_mid_body, "DELETE", False, True, 1, f"{MAYBE}"),
    ("connection refused", None, "PUT", False, True, 0, "connection refused (3 attempts)"),
    ("never answers", fs.hang, "GET", False, True, 3, "timed out after 0.5 s (3 attempts)"),
    ("connection refused", None, "GET", False, True, 0, "connection refused (3 attempts)"),
    ("connection refused", None, "POST", False, True, 0, "connection refused"),
    ("reset before the reply", fs.reset_before_reply, "GET", False, True, 3, "(3 attempts)"),
    ("reset before the reply", fs.reset_before_reply, "PATCH", False, True, 1, f"failed: {RESET}{MAYBE}"),
    ("reset mid-body", fs.reset_mid_body, "GET", False, True, 3, "(3 attempts)"),
    ("reset mid-body", fs.reset_mid_body, "POST", False, True, 1, f"{MAYBE}"),
    ("429, Retry-After 1", fs.burst(429, 1, {"Retry-After": "1"}), "GET", False, False, 2, '"attempt":2'),
    ("429, Retry-After 1", fs.burst(429, 1, {"Retry-After": "1"}), "POST", False, False, 2,
     '"attempt":2'),
    ("429, Retry-After 3600", fs.status(429, {"Retry-After": "3600"}), "GET", False, True, 1,
     "Upstream returned 429 Too Many Requests (it asks to retry after 3600 s)"),
    ("503 burst of 2", fs.burst(503, 2), "GET", False, False, 3, '"attempt":3'),
    ("503 burst of 2", fs.burst(503, 2), "PUT", False, False, 3, '"attempt":3'),
    ("503 burst of 2", fs.burst(503, 2), "DELETE", False, False, 3, '"attempt":3'),
    ("503 burst of 2", fs.burst(503, 2), "POST", False, True, 1, "Upstream returned 503"),
    ("500 for ever", fs.status(500), "GET", False, True, 1, "Upstream returned 500"),
    ("500 once", fs.burst(500, 1), "GET", False, True, 1, "Upstream returned 500"),
    ("504 burst of 1", fs.burst(504, 1), "GET", False, False, 2, '"attempt":2'),
    ("502 for ever", fs.status(502), "HEAD", False, True, 3, "Upstream returned 502"),
    # the API answered 200 with more than is read: the start of it, once, and not a failure
    ("huge body (12 MiB)", fs.huge, "GET", False, False, 1,
     "The call succeeded (HTTP 200 OK). The API's text/plain answer is larger than the 10 MiB "
     "this server reads; this is its start (10485760 bytes).\nxxxx"),
    ("endless body", fs.endless, "GET", False, False, 1,
     "The API's text/plain answer is larger than the 10 MiB this server reads"),
    ("huge body (12 MiB)", fs.huge, "POST", False, False, 1,
     "the change was made, so do not repeat it. The API's text/plain answer is larger"),
    # the API answered 200 and is still sending: what arrived, once, and not a failure
    ("body dripping for ever", fs.drip, "GET", False, False, 1,
     "The call succeeded (HTTP 200 OK). The API was still sending its text/plain after 0.5 s"),
    ("body dripping for ever", fs.drip, "POST", False, False, 1,
     "the change was made, so do not repeat it. The API was still sending"),
    ("event stream", fs.events, "GET", True, False, 1,
     'by then (32 bytes).\ndata: {"n": 1}\n\ndata: {"n": 2}\n\n'),
    ("HTML where JSON is documented", fs.content(b"<h1>oops</h1>", "text/html"), "GET", True, False,
     1, "The API answered with a web page, not the JSON its output schema describes (a sign-in "
        "page, or a web application's page for an address its API does not serve); its text "
        "follows.\n(an HTML page) oops"),
    ("invalid JSON labelled JSON", fs.content(b'{"a": ', "application/json"), "GET", False, False, 1,
     '{"a":'),
    ("invalid JSON, schema promised", fs.content(b"nope", "application/json"), "GET", True, False,
     1, "The API's answer is not the JSON its Content-Type (application/json) says; the body "
        "follows as it came."),
]  # fmt: skip


@pytest.mark.parametrize(
    ("row", "behaviour", "method", "schema", "is_error", "hits", "fragment"),
    MATRIX,
    ids=[f"{m[0]}-{m[2]}" for m in MATRIX],
)
async def test_fault_matrix(
    upstream: fs.FaultServer,
    row: str,
    behaviour: fs.Behaviour | None,
    method: str,
    schema: bool,
    is_error: bool,
    hits: int,
    fragment: str,
) -> None:
    if behaviour is not None:
        upstream.script["/fault"] = behaviour
    base = upstream.url if behaviour is not None else f"http://127.0.0.1:{_closed_port()}"
    cat = catalog(
        {"fault": operation(method, "/fault")},
        [{**tool("fault"), **(OBJECT_OUTPUT if schema else {})}],
    )
    srv = server(cat, {"REL_BASE_URL": base, **ENV})
    started = time.monotonic()
    try:
        reply = await asyncio.wait_for(call_tool(srv, "fault", {}), HANG_GUARD)
    finally:
        await srv.aclose()
    elapsed = time.monotonic() - started
    result = reply["result"]
    text = texts(reply)
    assert result.get("isError", False) is is_error, text
    assert fragment in text
    assert upstream.hits("/fault") == hits
    if is_error:
        assert "structuredContent" not in result
    shown = text.replace("\n", " ")[:110]
    record(
        "fault matrix (fault | method | upstream requests | isError | seconds | message)",
        f"{row:30} | {method:6} | {hits} | {is_error!s:5} | {elapsed:5.2f} | {shown}",
    )


def _always_503_catalog(method: str = "GET") -> Any:
    return catalog({"flaky": operation(method, "/flaky")}, [tool("flaky")])


async def test_circuit_opens_pauses_and_recovers_through_one_probe(
    upstream: fs.FaultServer,
) -> None:
    upstream.script["/flaky"] = fs.status(503)
    env = {
        "REL_BASE_URL": upstream.url,
        "REL_RETRIES": "0",
        "REL_CIRCUIT_THRESHOLD": "3",
        "REL_CIRCUIT_COOLDOWN": "0.3",
    }
    srv = server(_always_503_catalog(), env)
    try:
        for _ in range(3):
            assert "Upstream returned 503" in texts(await call_tool(srv, "flaky", {}))
        paused = await call_tool(srv, "flaky", {})
        assert paused["result"]["isError"] is True
        assert texts(paused) == (
            f"GET /flaky at {upstream.url} is failing (3 failed attempts in a row, the last: "
            "HTTP 503 Service Unavailable: status 503); calls to it are paused for another 1 s "
            "(other operations are not affected)"
        )
        assert upstream.hits("/flaky") == 3  # the open circuit sent nothing
        upstream.script["/flaky"] = fs.ok
        await asyncio.sleep(0.35)  # the cool-down (not a timing assertion)
        probe = await call_tool(srv, "flaky", {})
        assert probe["result"].get("isError") is None
        after = await call_tool(srv, "flaky", {})
        assert after["result"].get("isError") is None
        assert upstream.hits("/flaky") == 5
    finally:
        await srv.aclose()


async def test_failed_probe_opens_the_circuit_again(upstream: fs.FaultServer) -> None:
    upstream.script["/flaky"] = fs.status(502)
    env = {
        "REL_BASE_URL": upstream.url,
        "REL_RETRIES": "0",
        "REL_CIRCUIT_THRESHOLD": "2",
        "REL_CIRCUIT_COOLDOWN": "0.2",
    }
    srv = server(_always_503_catalog(), env)
    try:
        for _ in range(2):
            await call_tool(srv, "flaky", {})
        await asyncio.sleep(0.25)
        probe = await call_tool(srv, "flaky", {})
        assert "Upstream returned 502" in texts(probe)
        refused = await call_tool(srv, "flaky", {})
        assert "calls to it are paused" in texts(refused)
        assert upstream.hits("/flaky") == 3
    finally:
        await srv.aclose()


async def test_circuit_stops_hammering_a_dead_upstream(upstream: fs.FaultServer) -> None:
    """Ten calls of a retried GET: 30 requests without a circuit, 5 with the default one."""
    upstream.script["/flaky"] = fs.status(503)
    counts = {}
    for label, threshold in (("no circuit", "0"), ("default circuit", "")):
        upstream.requests.clear()
        env = {
            "REL_BASE_URL": upstream.url,
            "REL_RETRY_BACKOFF": "0.001",
            "REL_CIRCUIT_THRESHOLD": threshold,
        }
        srv = server(_always_503_catalog(), env)
        try:
            replies = [await call_tool(srv, "flaky", {}) for _ in range(10)]
        finally:
            await srv.aclose()
        assert all(reply["result"]["isError"] is True for reply in replies)
        counts[label] = upstream.hits("/flaky")
    assert counts == {"no circuit": 30, "default circuit": 5}
    record(
        "circuit breaker",
        f"10 calls to an upstream answering 503: {counts['no circuit']} requests without the "
        f"circuit, {counts['default circuit']} with it (threshold 5)",
    )


async def test_failing_writes_never_pause_healthy_reads(upstream: fs.FaultServer) -> None:
    """The API's own 500s to bad PUTs are answers, not outages; a gateway failing one route pauses
    only that route."""
    upstream.script["/pets/1"] = fs.status(500)
    upstream.script["/pets"] = fs.ok
    cat = catalog(
        {"put": operation("PUT", "/pets/1"), "list": operation("GET", "/pets")},
        [tool("put"), tool("list")],
    )
    env = {"REL_BASE_URL": upstream.url, "REL_RETRY_BACKOFF": "0.001", "REL_CIRCUIT_THRESHOLD": "2"}
    srv = server(cat, env)
    try:
        writes = [await call_tool(srv, "put", {}) for _ in range(4)]
        read = await call_tool(srv, "list", {})
        upstream.script["/pets/1"] = fs.status(502)
        broken = [await call_tool(srv, "put", {}) for _ in range(2)]
        read_again = await call_tool(srv, "list", {})
    finally:
        await srv.aclose()
    assert [texts(w).split(":")[0] for w in writes] == [
        "Upstream returned 500 Internal Server Error"
    ] * 4
    assert upstream.hits("/pets/1") == 4 + 2  # each 500 once; the first 502 PUT tried twice
    assert read["result"].get("isError") is None and read_again["result"].get("isError") is None
    assert texts(broken[1]).startswith(f"PUT /pets/1 at {upstream.url} is failing (2 failed ")


async def test_a_burst_over_the_rate_limit_waits_instead_of_failing(
    upstream: fs.FaultServer,
) -> None:
    cat = catalog({"op": operation("GET", "/op")}, [tool("op")])
    srv = server(cat, {"REL_BASE_URL": upstream.url, "REL_RATE_LIMIT": "20"})
    try:
        replies = await asyncio.wait_for(
            asyncio.gather(*(call_tool(srv, "op", {}, i) for i in range(30))), HANG_GUARD
        )
    finally:
        await srv.aclose()
    assert [reply["result"].get("isError") for reply in replies] == [None] * 30
    assert upstream.hits("/op") == 30


async def test_rate_limit_refuses_with_a_clear_error(upstream: fs.FaultServer) -> None:
    cat = catalog({"op": operation("GET", "/op")}, [tool("op")])
    env = {"REL_BASE_URL": upstream.url, "REL_RATE_LIMIT": "2", "REL_LIMIT_WAIT": "0"}
    srv = server(cat, env)
    try:
        first = [await call_tool(srv, "op", {}) for _ in range(2)]
        limited = await call_tool(srv, "op", {})
    finally:
        await srv.aclose()
    assert all(reply["result"].get("isError") is None for reply in first)
    assert limited["result"]["isError"] is True
    assert texts(limited).startswith(
        "rate limit reached: at most 2 upstream calls per second; try again in "
    )
    assert upstream.hits("/op") == 2


async def test_concurrency_limit_refuses_while_calls_are_in_flight(
    upstream: fs.FaultServer,
) -> None:
    upstream.script["/op"] = fs.slow(0.5)
    cat = catalog({"op": operation("GET", "/op")}, [tool("op")])
    env = {"REL_BASE_URL": upstream.url, "REL_MAX_CONCURRENCY": "2", "REL_LIMIT_WAIT": "0"}
    srv = server(cat, env)
    try:
        running = [asyncio.create_task(call_tool(srv, "op", {}, i)) for i in range(2)]
        while upstream.hits("/op") < 2:
            await asyncio.sleep(0.01)
        refused = await call_tool(srv, "op", {}, 3)
        done = await asyncio.wait_for(asyncio.gather(*running), HANG_GUARD)
        again = await call_tool(srv, "op", {}, 4)
    finally:
        await srv.aclose()
    assert texts(refused) == (
        "too many calls to the upstream at once (the limit is 2); try again when one has finished"
    )
    assert [reply["result"].get("isError") for reply in [*done, again]] == [None, None, None]
    assert upstream.hits("/op") == 3


async def test_resource_reads_fail_in_bounded_time_too(upstream: fs.FaultServer) -> None:
    upstream.script["/pets"] = fs.hang
    cat = catalog({"list": operation("GET", "/pets")}, [tool("list")])
    cat["resources"] = [{"uri": "rel://pets", "name": "pets"}]
    cat["resourceBindings"] = {"rel://pets": {"operation": "list"}}
    srv = server(cat, {"REL_BASE_URL": upstream.url, **ENV, "REL_RETRIES": "0"})

    async def no_notify(message: dict[str, Any]) -> None:
        return None

    message = {
        "jsonrpc": "2.0",
        "id": 9,
        "method": "resources/read",
        "params": {"_meta": META, "uri": "rel://pets"},
    }
    try:
        reply = await asyncio.wait_for(srv.dispatcher.handle(message, None, no_notify), HANG_GUARD)
    finally:
        await srv.aclose()
    assert reply == {
        "jsonrpc": "2.0",
        "id": 9,
        "error": {"code": -32603, "message": "upstream timed out after 0.5 s"},
    }


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("REL_RETRIES", "many", "REL_RETRIES must be a whole number from 0 to 10, got 'many'"),
        ("REL_RETRIES", "11", "REL_RETRIES must be a whole number from 0 to 10, got '11'"),
        ("REL_RATE_LIMIT", "-1", "REL_RATE_LIMIT must be a number of calls (0 or more), got '-1'"),
        ("REL_CIRCUIT_COOLDOWN", "inf", "REL_CIRCUIT_COOLDOWN must be a number of seconds"),
    ],
)
async def test_unusable_settings_are_named(
    upstream: fs.FaultServer, name: str, value: str, message: str
) -> None:
    """A bad retry/limit setting stops start-up with a message naming it (not an error per call)."""
    cat = catalog({"op": operation("GET", "/op")}, [tool("op")])
    with pytest.raises(SettingsError) as info:
        server(cat, {"REL_BASE_URL": upstream.url, name: value})
    assert str(info.value).startswith(message)
    assert upstream.requests == []
