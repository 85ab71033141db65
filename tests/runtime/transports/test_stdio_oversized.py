"""A message over the stdio size limit is answered so that the client's request ends.

The line is never parsed (it is discarded as it is read); its id is read from where clients put it,
the start (``jsonrpc``, ``id``, ``method`` first: the Python SDK) or the end (``method``,
``params``, ``jsonrpc``, ``id``: the TypeScript SDK), and never from inside ``params``. Without an id
the error had no ``id`` at all, the official client could not match it, and its call waited for its
timeout; now the call fails at once with a message a model can act on.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from tests.kit.stdio import TIMEOUT
from tests.runtime.conftest import LAUNCHER, META

if TYPE_CHECKING:
    from tests.runtime.conftest import PeerFactory

LIMIT = 2000
PAD = "x" * 5000


def refusal(size: int, limit: int = LIMIT) -> dict[str, Any]:
    shown = f"{limit} bytes" + (f" ({limit // 2**20} MiB)" if limit % 2**20 == 0 else "")
    return {
        "code": -32600,
        "message": (
            f"Invalid request: the message has {size} bytes, more than the {shown} this server "
            "reads in one message on stdio; it was not read, and nothing was done. Send less in "
            "one request: content this large (a file, a long document) must be split up or "
            "passed another way (a URL or a path, if the tool takes one)."
        ),
        "data": {"messageBytes": size, "maxBytes": limit},
    }


def line(*members: tuple[str, Any]) -> bytes:
    """A message with its members in this order, as one line."""
    return json.dumps(dict(members), separators=(",", ":")).encode()


CALL = ("method", "tools/call")
PARAMS = ("params", {"_meta": META, "name": "create_pet", "arguments": {"id": 9, "name": PAD}})


@pytest.mark.parametrize(
    ("message", "request_id"),
    [
        (line(("jsonrpc", "2.0"), ("id", 1), CALL, PARAMS), 1),
        (line(("jsonrpc", "2.0"), ("id", "req-7"), CALL, PARAMS), "req-7"),
        (line(CALL, PARAMS, ("jsonrpc", "2.0"), ("id", 12)), 12),
        (line(CALL, PARAMS, ("jsonrpc", "2.0"), ("id", 'a"b')), 'a"b'),
        (line(("jsonrpc", "2.0"), CALL, PARAMS, ("id", 3)), 3),
        (line(("id", 0), ("jsonrpc", "2.0"), CALL, PARAMS), 0),
    ],
    ids=["python-sdk", "string-id", "typescript-sdk", "escaped-string-id", "id-last", "zero"],
)
def test_the_refusal_answers_the_request_by_its_id(
    start_peer: PeerFactory, message: bytes, request_id: Any
) -> None:
    peer = start_peer(FIXTURE_MAX_LINE_BYTES=str(LIMIT))
    peer.send_line(message)
    assert peer.receive() == {"jsonrpc": "2.0", "id": request_id, "error": refusal(len(message))}
    assert peer.upstream_requests() == []
    peer.assert_nothing_pending()


@pytest.mark.parametrize(
    "message",
    [
        # a notification: the "id" in its params is no id of its own
        line(("jsonrpc", "2.0"), ("method", "notifications/x"), ("params", {"id": 9, "p": PAD})),
        line(("jsonrpc", "2.0"), ("method", "notifications/x"), ("params", {"p": PAD, "id": 9})),
        # the id neither in the first nor in the last bytes
        line(("jsonrpc", "2.0"), ("params", {"p": PAD}), ("id", 4), ("params2", {"p": PAD})),
        b"[" + line(("jsonrpc", "2.0"), ("id", 5), CALL, PARAMS) + b"]",
        b"not json " + PAD.encode(),
        # a response (to a question the server asked): its id is the server's, not the client's
        line(("jsonrpc", "2.0"), ("id", "s-1"), ("result", {"content": PAD})),
        line(("result", {"content": PAD}), ("jsonrpc", "2.0"), ("id", "s-1")),
    ],
    ids=[
        "id-in-params-first",
        "id-in-params-last",
        "id-in-the-middle",
        "batch",
        "not-json",
        "response",
        "response-id-last",
    ],
)
def test_without_a_readable_id_the_refusal_has_none(
    start_peer: PeerFactory, message: bytes
) -> None:
    peer = start_peer(FIXTURE_MAX_LINE_BYTES=str(LIMIT))
    peer.send_line(message)
    assert peer.receive() == {"jsonrpc": "2.0", "error": refusal(len(message))}
    peer.assert_nothing_pending()


async def test_the_official_client_gets_the_error_instead_of_waiting() -> None:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PETSTORE_API_KEY": "secret-key",
        "FIXTURE_MAX_LINE_BYTES": "100000",
    }
    server = StdioServerParameters(command=sys.executable, args=[str(LAUNCHER)], env=env)
    async with Client(server, mode="auto") as client:
        with pytest.raises(MCPError) as raised:
            # the guard only turns a hang into a failure (the client's default is 60 s)
            await client.call_tool(
                "create_pet", {"name": "x" * 200_000}, read_timeout_seconds=TIMEOUT
            )
        assert (await client.call_tool("get_pet", {"petId": 1})).structured_content == {
            "id": 1,
            "name": "Rex",
            "species": "dog",
        }
    assert raised.value.code == -32600
    assert raised.value.message.startswith("Invalid request: the message has ")
    assert "more than the 100000 bytes this server reads in one message on stdio" in (
        raised.value.message
    )


def test_an_id_the_limit_cuts_short_is_not_guessed(start_peer: PeerFactory) -> None:
    message = line(CALL, ("jsonrpc", "2.0"), ("id", 1234567), PARAMS)
    limit = message.index(b"1234567") + 2  # the first line read ends inside the id: "123"
    peer = start_peer(FIXTURE_MAX_LINE_BYTES=str(limit))
    peer.send_line(message)
    assert peer.receive() == {"jsonrpc": "2.0", "error": refusal(len(message), limit)}
