"""The stdio transport as a client sees it: framing, broken input, concurrency, cancellation, EOF."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import TYPE_CHECKING, Any

import pytest

from tests.kit.stdio import TIMEOUT
from tests.runtime.conftest import LAUNCHER, META

if TYPE_CHECKING:
    from tests.runtime.conftest import PeerFactory, StdioPeer


def slow_call(request_id: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"_meta": META, "name": "slow_operation", "arguments": {}},
    }


def test_invalid_json_is_a_parse_error_without_id(peer: StdioPeer) -> None:
    peer.send_line(b'{"jsonrpc": "2.0", "id": 1, "method": ')
    assert peer.receive() == {
        "jsonrpc": "2.0",
        "error": {"code": -32700, "message": "Parse error: invalid JSON"},
    }
    peer.send_line(b"\xff\xfe not utf-8")
    peer.send_line(b"NaN")
    assert peer.receive()["error"]["code"] == -32700
    assert peer.receive()["error"]["code"] == -32700
    peer.assert_nothing_pending()


@pytest.mark.parametrize("message", [42, "tools/list", None, True])
def test_non_object_messages_are_invalid_requests(peer: StdioPeer, message: Any) -> None:
    peer.send(message)
    assert peer.receive() == {
        "jsonrpc": "2.0",
        "error": {"code": -32600, "message": "Invalid request: a message must be a JSON object"},
    }


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        (
            {"jsonrpc": "1.0", "id": 5, "method": "tools/list"},
            {
                "jsonrpc": "2.0",
                "id": 5,
                "error": {"code": -32600, "message": 'Invalid request: "jsonrpc" must be "2.0"'},
            },
        ),
        (
            {"jsonrpc": "2.0", "id": None, "method": "tools/list"},
            {
                "jsonrpc": "2.0",
                "error": {
                    "code": -32600,
                    "message": "Invalid request: id must be a string or a number",
                },
            },
        ),
        (
            {"jsonrpc": "2.0", "id": 6, "method": 7},
            {
                "jsonrpc": "2.0",
                "id": 6,
                "error": {"code": -32600, "message": 'Invalid request: "method" must be a string'},
            },
        ),
        (
            {"jsonrpc": "2.0", "id": 7},
            {
                "jsonrpc": "2.0",
                "id": 7,
                "error": {"code": -32600, "message": 'Invalid request: "method" is missing'},
            },
        ),
    ],
)
def test_malformed_envelopes(peer: StdioPeer, message: Any, reply: Any) -> None:
    peer.send(message)
    assert peer.receive() == reply


def test_responses_notifications_and_blank_lines_get_no_reply(peer: StdioPeer) -> None:
    peer.send({"jsonrpc": "2.0", "id": 99, "result": {}})
    peer.send({"jsonrpc": "2.0", "id": 98, "error": {"code": 1, "message": "x"}})
    peer.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    peer.send({"jsonrpc": "2.0", "method": "notifications/whatever", "params": {"_meta": META}})
    peer.send_line(b"")
    peer.send_line(b"   ")
    peer.assert_nothing_pending()


def test_ids_are_echoed_with_their_type(peer: StdioPeer) -> None:
    for request_id in ["1", 1, "x-y", 2.5]:
        peer.send(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "method": "server/discover",
                "params": {"_meta": META},
            }
        )
        reply = peer.receive()
        assert reply["id"] == request_id and type(reply["id"]) is type(request_id)


def test_a_line_over_the_limit_is_refused_and_the_next_one_served(start_peer: PeerFactory) -> None:
    peer = start_peer(FIXTURE_MAX_LINE_BYTES="2000")
    padding = "x" * 5000
    peer.send(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/list",
            "params": {"_meta": META, "pad": padding},
        }
    )
    reply = peer.receive()
    # the refusal answers the request (more in test_stdio_oversized.py)
    assert reply["id"] == 1
    assert reply["error"]["code"] == -32600
    assert reply["error"]["data"]["maxBytes"] == 2000
    reply = peer.modern("tools/list", pad="x" * 1000)
    assert reply["result"]["tools"]


def test_requests_run_concurrently(peer: StdioPeer) -> None:
    peer.send(slow_call("slow"))
    # answered while the slow call is still waiting on the upstream
    assert (
        peer.modern("tools/call", name="get_pet", arguments={"petId": 1})["result"][
            "structuredContent"
        ]["name"]
        == "Rex"
    )
    peer.send(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "slow"}}
    )
    peer.assert_nothing_pending()


def test_cancellation_right_behind_its_request_is_honoured(peer: StdioPeer) -> None:
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}
    peer.send_line(json.dumps(slow_call(7)).encode() + b"\n" + json.dumps(cancel).encode())
    peer.assert_nothing_pending()
    assert peer.close() == 0
    assert peer.remaining() == []
    assert "abandoning" not in peer.stderr


def test_cancelled_request_gets_no_reply(peer: StdioPeer) -> None:
    peer.send(slow_call(41))
    peer.send(slow_call("41"))
    peer.assert_nothing_pending()  # both calls are in flight
    peer.send(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": 41, "reason": "user"},
        }
    )
    peer.send(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "41"}}
    )
    # unknown, finished and malformed cancellations are ignored
    peer.send(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "nope"}}
    )
    peer.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}})
    peer.send({"jsonrpc": "2.0", "method": "notifications/cancelled"})
    peer.assert_nothing_pending()
    assert peer.close() == 0
    assert peer.remaining() == []
    assert [r["url"] for r in peer.upstream_requests()] == [
        "https://petstore.example/api/v3/slow"
    ] * 2


def test_eof_exits_after_answering(peer: StdioPeer) -> None:
    peer.send(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"_meta": META, "name": "get_pet", "arguments": {"petId": 1}},
        }
    )
    assert peer.close() == 0
    [reply] = peer.remaining()
    assert reply["id"] == 1 and reply["result"]["structuredContent"]["id"] == 1


def test_eof_with_a_hung_request_still_exits(peer: StdioPeer) -> None:
    peer.send(slow_call(1))
    peer.assert_nothing_pending()
    assert peer.close() == 0
    assert peer.remaining() == []
    assert "abandoning 1 unfinished request" in peer.stderr


def test_stdout_carries_only_mcp_messages(peer: StdioPeer) -> None:
    # the fake upstream prints to stdout while serving this resource
    result = peer.modern("resources/read", uri="petstore://store/inventory")["result"]
    assert result["contents"][0]["text"] == '{"available":1,"sold":1}'
    assert peer.close() == 0
    assert peer.remaining() == []
    assert "stray output on stdout" in peer.stderr


def test_internal_messages_are_single_lines(peer: StdioPeer) -> None:
    # a prompt with a newline in an argument still comes back as one line
    reply = peer.modern("prompts/get", name="pet_care", arguments={"pet_name": "Rex\nthe dog"})
    assert reply["result"]["messages"][0]["content"]["text"] == "How do I care for Rex\nthe dog?"


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, str(LAUNCHER), *args],
        input=b"",
        capture_output=True,
        timeout=TIMEOUT,
        env=env,
        check=False,
    )


def test_cli_explicit_stdio_serves_until_eof() -> None:
    done = run_cli("stdio")
    assert (done.returncode, done.stdout) == (0, b"")


def test_cli_bad_setting_is_reported_on_stderr() -> None:
    done = run_cli(env={"PETSTORE_TIMEOUT": "soon"})
    assert done.returncode == 1
    assert done.stdout == b""
    assert done.stderr.decode().strip() == (
        "petstore-mcp: PETSTORE_TIMEOUT must be a positive number of seconds, got 'soon'"
    )


def test_cli_rejects_unknown_transport() -> None:
    done = run_cli("carrier-pigeon")
    assert done.returncode == 2
    assert done.stdout == b""


def test_lone_surrogate_echoed_in_an_error_keeps_the_stream_alive(peer: StdioPeer) -> None:
    peer.send_line(
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":'
        + json.dumps(META).encode()
        + b',"name":"\\ud800x"}}'
    )
    assert peer.receive()["error"] == {"code": -32602, "message": "Unknown tool: \ud800x"}
    peer.assert_nothing_pending()


def test_cancelling_a_request_inside_a_batch_drops_only_its_reply(peer: StdioPeer) -> None:
    peer.initialize("2025-03-26")
    slow = {
        "jsonrpc": "2.0",
        "id": "s",
        "method": "tools/call",
        "params": {"name": "slow_operation"},
    }
    batch = [slow, {"jsonrpc": "2.0", "id": "p", "method": "ping"}]
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "s"}}
    # one write: the cancellation is read right behind the batch
    peer.send_line(json.dumps(batch).encode() + b"\n" + json.dumps(cancel).encode())
    assert peer.receive() == [{"jsonrpc": "2.0", "id": "p", "result": {}}]
