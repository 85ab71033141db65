"""The lean HTTP/1.1 transport against a scripted asyncio server on 127.0.0.1.

Each test scripts what the server does per connection (answer, keep the connection, close it, send
something malformed) and asserts what a caller of the transport notices: the exact request bytes the
server read, the response as httpx presents it, how many connections were opened, and which error a
broken answer becomes. TLS tests use a throw-away self-signed certificate.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import gzip
import ipaddress
import logging
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from templates.runtime.catalog.model import OperationSpec, UpstreamInfo
from templates.runtime.upstream.client import Upstream, UpstreamError
from templates.runtime.upstream.http11 import Http11Transport, LeanClient, upstream_client

# generous: only reached when something is broken, never a timing assertion
TIMEOUT = 10.0


@dataclass
class Received:
    """One request as the server read it off the wire."""

    head: bytes
    body: bytes

    @property
    def request_line(self) -> bytes:
        return self.head.split(b"\r\n", 1)[0]

    def header(self, name: bytes) -> bytes | None:
        for line in self.head.split(b"\r\n")[1:]:
            key, _, value = line.partition(b":")
            if key.lower() == name.lower():
                return value.strip()
        return None


class Peer:
    """The server's side of one connection."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, index: int
    ) -> None:
        self.reader, self.writer, self.index = reader, writer, index
        self.received: list[Received] = []

    async def request(self) -> Received | None:
        """The next request, or ``None`` when the client closed the connection."""
        try:
            head = await self.reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError):
            return None
        seen = Received(head[:-4], b"")
        length = seen.header(b"content-length")
        if length is not None:
            seen.body = await self.reader.readexactly(int(length))
        elif (seen.header(b"transfer-encoding") or b"").lower() == b"chunked":
            seen.body = await _dechunk(self.reader)
        self.received.append(seen)
        return seen

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()


async def _dechunk(reader: asyncio.StreamReader) -> bytes:
    body = b""
    while size := int((await reader.readuntil(b"\r\n"))[:-2], 16):
        body += await reader.readexactly(size)
        assert await reader.readexactly(2) == b"\r\n"
    assert await reader.readuntil(b"\r\n") == b"\r\n"
    return body


def response(
    body: bytes = b"ok",
    status: bytes = b"200 OK",
    headers: tuple[bytes, ...] = (),
    *,
    length: bool = True,
) -> bytes:
    lines = [b"HTTP/1.1 " + status, *headers]
    if length:
        lines.append(b"Content-Length: %d" % len(body))
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


Script = Callable[[Peer], Awaitable[None]]


async def answer_all(peer: Peer) -> None:
    """A polite keep-alive server: answers every request with its own body, or ``ok``."""
    while (seen := await peer.request()) is not None:
        await peer.send(response(seen.body or b"ok"))


@dataclass
class Server:
    script: Script
    tls: ssl.SSLContext | None = None
    peers: list[Peer] = field(default_factory=list)
    url: str = ""
    _server: asyncio.Server | None = None

    @property
    def connections(self) -> int:
        return len(self.peers)

    @property
    def received(self) -> list[Received]:
        return [seen for peer in self.peers for seen in peer.received]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = Peer(reader, writer, len(self.peers))
        self.peers.append(peer)
        try:
            await self.script(peer)
        except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError, ssl.SSLError):
                await writer.wait_closed()

    async def __aenter__(self) -> Server:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self.tls)
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"{'https' if self.tls else 'http'}://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for peer in self.peers:
            peer.writer.close()
        await self._server.wait_closed()


@pytest.fixture
async def transport() -> AsyncIterator[Http11Transport]:
    lean = Http11Transport(max_connections=4, max_keepalive_connections=4)
    yield lean
    await lean.aclose()


async def fetch(
    lean: httpx.AsyncBaseTransport, method: str, url: str, **kwargs: object
) -> tuple[httpx.Response, bytes]:
    # not closed: closing a client closes its transport, which the next call reuses
    client = httpx.AsyncClient(transport=lean, timeout=TIMEOUT)
    response = await client.request(method, url, **kwargs)  # type: ignore[arg-type]
    return response, response.content


# -- requests and responses --------------------------------------------------------------------


async def test_a_request_goes_out_exactly_and_its_response_comes_back(
    transport: Http11Transport,
) -> None:
    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(response(b'{"id": 1}', headers=(b"Content-Type: application/json",)))

    async with Server(script) as server:
        reply, body = await fetch(
            transport, "GET", server.url + "/v1/pets/1?x=%2F&y=a+b", headers={"X-Key": "k3y"}
        )
    assert server.received[0].request_line == b"GET /v1/pets/1?x=%2F&y=a+b HTTP/1.1"
    assert server.received[0].header(b"host") == server.url.removeprefix("http://").encode()
    assert server.received[0].header(b"x-key") == b"k3y"
    assert (reply.status_code, reply.reason_phrase, reply.http_version) == (200, "OK", "HTTP/1.1")
    assert reply.headers["content-type"] == "application/json"
    assert body == b'{"id": 1}'


async def test_keep_alive_reuses_one_connection(transport: Http11Transport) -> None:
    async with Server(answer_all) as server:
        bodies = [(await fetch(transport, "GET", server.url + f"/{i}"))[1] for i in range(5)]
    assert bodies == [b"ok"] * 5
    assert server.connections == 1
    assert [seen.request_line for seen in server.received] == [
        f"GET /{i} HTTP/1.1".encode() for i in range(5)
    ]


async def test_connection_close_in_a_response_is_honoured(transport: Http11Transport) -> None:
    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(response(headers=(b"Connection: close",)))

    async with Server(script) as server:
        for _ in range(3):
            assert (await fetch(transport, "GET", server.url))[1] == b"ok"
    assert server.connections == 3


async def test_http_1_0_responses_are_not_kept_alive(transport: Http11Transport) -> None:
    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok")

    async with Server(script) as server:
        for _ in range(2):
            assert (await fetch(transport, "GET", server.url))[1] == b"ok"
    assert server.connections == 2


async def test_request_bodies_are_sent_with_their_length(transport: Http11Transport) -> None:
    async with Server(answer_all) as server:
        _, body = await fetch(transport, "POST", server.url + "/pets", content=b'{"name":"Rex"}')
    seen = server.received[0]
    assert seen.request_line == b"POST /pets HTTP/1.1"
    assert seen.header(b"content-length") == b"14"
    assert (seen.body, body) == (b'{"name":"Rex"}', b'{"name":"Rex"}')


async def test_streamed_request_bodies_are_sent_chunked(transport: Http11Transport) -> None:
    async def parts() -> AsyncIterator[bytes]:
        for part in (b"hello ", b"", b"world"):
            yield part

    async with Server(answer_all) as server:
        _, body = await fetch(transport, "PUT", server.url, content=parts())
    assert server.received[0].header(b"transfer-encoding") == b"chunked"
    assert body == b"hello world"


async def test_chunked_responses_with_extensions_and_trailers(transport: Http11Transport) -> None:
    async def script(peer: Peer) -> None:
        while await peer.request() is not None:
            await peer.send(
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                b"5;name=value\r\nhello\r\n1\r\n \r\nA \r\n0123456789\r\n"
                b"0\r\nX-Checksum: 42\r\n\r\n"
            )

    async with Server(script) as server:
        first = (await fetch(transport, "GET", server.url))[1]
        second = (await fetch(transport, "GET", server.url))[1]
    assert first == second == b"hello 0123456789"
    assert server.connections == 1


async def test_a_body_without_length_ends_with_the_connection(transport: Http11Transport) -> None:
    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(response(b"until the end", length=False))

    async with Server(script) as server:
        bodies = [(await fetch(transport, "GET", server.url))[1] for _ in range(2)]
    assert bodies == [b"until the end"] * 2
    assert server.connections == 2


async def test_responses_without_a_body_keep_the_connection(transport: Http11Transport) -> None:
    async def script(peer: Peer) -> None:
        while (seen := await peer.request()) is not None:
            if seen.request_line.startswith(b"HEAD"):
                await peer.send(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
            else:
                await peer.send(b"HTTP/1.1 204 No Content\r\n\r\n")

    async with Server(script) as server:
        head, head_body = await fetch(transport, "HEAD", server.url)
        empty, empty_body = await fetch(transport, "DELETE", server.url)
        again, _ = await fetch(transport, "HEAD", server.url)
    assert (head.status_code, head_body, head.headers["content-length"]) == (200, b"", "1000")
    assert (empty.status_code, empty_body, again.status_code) == (204, b"", 200)
    assert server.connections == 1


async def test_interim_responses_are_skipped(transport: Http11Transport) -> None:
    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(
            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
            + response(b"final", b"201 Created")
        )

    async with Server(script) as server:
        reply, body = await fetch(transport, "POST", server.url, content=b"x")
    assert (reply.status_code, reply.reason_phrase, body) == (201, "Created", b"final")


async def test_compressed_bodies_are_decoded_by_httpx(transport: Http11Transport) -> None:
    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(response(gzip.compress(b"x" * 1000), headers=(b"Content-Encoding: gzip",)))

    async with Server(script) as server:
        assert (await fetch(transport, "GET", server.url))[1] == b"x" * 1000


async def test_large_bodies_stream_through(transport: Http11Transport) -> None:
    big = bytes(range(256)) * 8192  # 2 MiB: more than the transport buffers at once

    async def script(peer: Peer) -> None:
        while await peer.request() is not None:
            await peer.send(response(big))

    async with Server(script) as server:
        assert (await fetch(transport, "GET", server.url))[1] == big
        assert (await fetch(transport, "GET", server.url))[1] == big
    assert server.connections == 1


async def test_bytes_after_a_body_are_never_read_as_a_response(
    transport: Http11Transport,
) -> None:
    smuggled = response(b"forged")

    async def script(peer: Peer) -> None:
        while await peer.request() is not None:
            await peer.send(response(b"real") + smuggled if peer.index == 0 else response())

    async with Server(script) as server:
        first = (await fetch(transport, "GET", server.url))[1]
        await asyncio.sleep(0.05)  # let the extra bytes arrive before the next request
        second = (await fetch(transport, "GET", server.url))[1]
    assert (first, second) == (b"real", b"ok")
    assert server.connections == 2


async def test_idle_connections_expire(transport: Http11Transport) -> None:
    lean = Http11Transport(keepalive_expiry=0.0)
    try:
        async with Server(answer_all) as server:
            for _ in range(2):
                await fetch(lean, "GET", server.url)
                await asyncio.sleep(0.01)
    finally:
        await lean.aclose()
    assert server.connections == 2


async def test_a_closed_idle_connection_is_not_reused(transport: Http11Transport) -> None:
    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(response())  # keep-alive in words, then closed

    async with Server(script) as server:
        await fetch(transport, "GET", server.url)
        await asyncio.sleep(0.05)
        _, body = await fetch(transport, "POST", server.url, content=b"once")
    assert body == b"ok"
    assert [len(peer.received) for peer in server.peers] == [1, 1]


async def test_a_reused_connection_closed_before_answering_is_retried_for_idempotent_methods(
    transport: Http11Transport,
) -> None:
    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(response())
        if peer.index == 0:
            await peer.request()  # read the second request, then hang up without an answer

    async with Server(script) as server:
        await fetch(transport, "GET", server.url)
        _, body = await fetch(transport, "GET", server.url + "/again")
    assert body == b"ok"
    assert [seen.request_line for seen in server.received] == [
        b"GET / HTTP/1.1",
        b"GET /again HTTP/1.1",
        b"GET /again HTTP/1.1",
    ]


async def test_a_post_is_never_sent_twice(transport: Http11Transport) -> None:
    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(response())
        await peer.request()

    async with Server(script) as server:
        await fetch(transport, "GET", server.url)
        with pytest.raises(httpx.RemoteProtocolError, match="disconnected without sending"):
            await fetch(transport, "POST", server.url, content=b"pay once")
    assert [seen.body for seen in server.received] == [b"", b"pay once"]


# -- limits, timeouts and failures -------------------------------------------------------------


async def test_connection_refused_is_a_connect_error(transport: Http11Transport) -> None:
    async with Server(answer_all) as server:
        url = server.url
    with pytest.raises(httpx.ConnectError) as caught:
        await fetch(transport, "GET", url)
    assert isinstance(caught.value.__cause__, ConnectionRefusedError)


async def test_a_silent_server_is_a_read_timeout(transport: Http11Transport) -> None:
    async def script(peer: Peer) -> None:
        await peer.request()
        await asyncio.sleep(TIMEOUT)

    client = httpx.AsyncClient(transport=transport, timeout=0.2)
    async with Server(script) as server:
        with pytest.raises(httpx.ReadTimeout):
            await client.get(server.url)


async def test_a_stalled_body_is_a_read_timeout(transport: Http11Transport) -> None:
    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf")
        await asyncio.sleep(TIMEOUT)

    client = httpx.AsyncClient(transport=transport, timeout=0.2)
    async with Server(script) as server:
        with pytest.raises(httpx.ReadTimeout):
            await client.get(server.url)


async def test_waiting_for_a_free_connection_is_bounded() -> None:
    lean = Http11Transport(max_connections=1)
    try:
        client = httpx.AsyncClient(transport=lean, timeout=0.2)
        async with Server(answer_all) as server:
            held = await client.send(client.build_request("GET", server.url), stream=True)
            with pytest.raises(httpx.PoolTimeout):
                await client.get(server.url)
            await held.aclose()
            assert (await client.get(server.url)).content == b"ok"
    finally:
        await lean.aclose()


async def test_a_body_over_the_limit_is_refused() -> None:
    lean = Http11Transport(max_body_bytes=100)

    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(response(b"x" * 101))

    try:
        async with Server(script) as server:
            with pytest.raises(httpx.RemoteProtocolError, match="larger than 100 bytes"):
                await fetch(lean, "GET", server.url)
    finally:
        await lean.aclose()


async def test_closing_the_transport_closes_its_connections() -> None:
    lean = Http11Transport()
    async with Server(answer_all) as server:
        await fetch(lean, "GET", server.url)
        await lean.aclose()
        # the server sees the client go away: its read of the next request ends
        await asyncio.wait_for(_closed(server.peers[0]), TIMEOUT)
        with pytest.raises(RuntimeError, match="closed"):
            await lean.handle_async_request(httpx.Request("GET", server.url))


async def _closed(peer: Peer) -> None:
    while not peer.reader.at_eof():
        await asyncio.sleep(0.01)


MALFORMED = {
    "no response at all": (b"", "disconnected without sending a response"),
    "garbage status line": (b"HTTP/1.1 OK\r\n\r\n", "malformed status line"),
    "HTTP/2 status line": (b"HTTP/2 200 OK\r\n\r\n", "malformed status line"),
    "space before colon": (b"HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\nok", "malformed header"),
    "whitespace after the status line": (
        b"HTTP/1.1 200 OK\r\n X-A: 1\r\nContent-Length: 0\r\n\r\n",
        "a line starting with whitespace comes before the first field",
    ),
    "whitespace before the first trailer": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n x: 1\r\n\r\n",
        "malformed trailer section: a line starting with whitespace comes before the first field",
    ),
    "folded Content-Length": (
        b"HTTP/1.1 200 OK\r\nContent-Length:\r\n 2\r\n\r\nok",
        "folded Content-Length header",
    ),
    "folded Transfer-Encoding": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip,\r\n chunked\r\n\r\n0\r\n\r\n",
        "folded Transfer-Encoding header",
    ),
    "bare LF line end": (b"HTTP/1.1 200 OK\nContent-Length: 2\r\n\r\nok", "malformed status"),
    "bare CR in a value": (b"HTTP/1.1 200 OK\r\nX-A: a\rb\r\nContent-Length: 0\r\n\r\n", "invalid"),
    "bare LF in a value": (
        b"HTTP/1.1 200 OK\r\nX-A: a\nb: c\r\nContent-Length: 0\r\n\r\n",
        "invalid",
    ),
    "NUL in a value": (b"HTTP/1.1 200 OK\r\nX-A: a\x00b\r\nContent-Length: 0\r\n\r\n", "invalid"),
    "conflicting lengths": (
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok",
        "conflicting Content-Length",
    ),
    "conflicting length list": (
        b"HTTP/1.1 200 OK\r\nContent-Length: 2, 3\r\n\r\nok",
        "conflicting Content-Length",
    ),
    "negative length": (b"HTTP/1.1 200 OK\r\nContent-Length: -2\r\n\r\nok", "malformed Content"),
    "length with a sign": (b"HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nok", "malformed Content"),
    "length and chunked": (
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
        "Transfer-Encoding",
    ),
    "unknown transfer coding": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
        "Transfer-Encoding",
    ),
    "chunked twice": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "Transfer-Encoding",
    ),
    "non-hex chunk size": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "malformed chunk size",
    ),
    "0x chunk size": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0x2\r\nok\r\n0\r\n\r\n",
        "malformed chunk size",
    ),
    "signed chunk size": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-2\r\nok\r\n0\r\n\r\n",
        "malformed chunk size",
    ),
    "huge chunk size": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\n",
        "malformed chunk size",
    ),
    "chunk longer than its size": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokay\r\n0\r\n\r\n",
        "chunk end",
    ),
    "body cut short": (b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "mid-body"),
    "chunked body cut short": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
        "mid-body",
    ),
    "switching protocols": (b"HTTP/1.1 101 Switching Protocols\r\n\r\n", "switched protocols"),
    "head cut short": (b"HTTP/1.1 200 OK\r\nContent-Len", "ended inside the response head"),
}


# answers that are broken because the server hangs up in the middle
CUT_SHORT = {"no response at all", "body cut short", "chunked body cut short", "head cut short"}


@pytest.mark.parametrize("case", sorted(MALFORMED))
async def test_malformed_responses_are_protocol_errors(
    case: str, transport: Http11Transport
) -> None:
    data, message = MALFORMED[case]

    async def script(peer: Peer) -> None:
        if peer.index > 0:
            await answer_all(peer)
            return
        await peer.request()
        await peer.send(data)
        if case not in CUT_SHORT:
            await peer.request()  # the connection stays open: the client must not use it again

    async with Server(script) as server:
        with pytest.raises(httpx.RemoteProtocolError, match=message):
            await fetch(transport, "GET", server.url)
        assert (await fetch(transport, "GET", server.url))[1] == b"ok"
    assert [len(peer.received) for peer in server.peers] == [1, 1]


async def test_folded_header_lines_are_unfolded(transport: Http11Transport) -> None:
    # RFC 9112 §5.2: a user agent replaces each obs-fold with a space; the body framing is unaffected
    folded = (
        b"HTTP/1.1 200 OK\r\nX-A: one  \r\n two \r\n\tthree\r\nX-Empty:\r\n  x\r\n"
        b"X-B: b\r\nContent-Length: 2\r\n\r\nok"
    )
    chunked = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"2\r\nok\r\n0\r\nX-Trailer: a\r\n b\r\n\r\n"
    )

    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(folded)
        await peer.request()
        await peer.send(chunked)
        await answer_all(peer)

    async with Server(script) as server:
        response, body = await fetch(transport, "GET", server.url)
        assert body == b"ok"
        assert response.headers.raw == [
            (b"X-A", b"one two three"),
            (b"X-Empty", b"x"),
            (b"X-B", b"b"),
            (b"Content-Length", b"2"),
        ]
        assert (await fetch(transport, "GET", server.url))[1] == b"ok"
        assert (await fetch(transport, "GET", server.url))[1] == b"ok"
    assert server.connections == 1  # both folded answers were read to their end and kept alive


# every answer stops short of ending its head or chunk line, and the server keeps the connection
BROKEN_WHILE_OPEN = {
    "bare LF head": (
        b"HTTP/1.1 200 OK\nContent-Length: 2\n\nok",
        "malformed response head: a line ends in a bare LF (no CR)",
    ),
    "bare LF after a CRLF status line": (
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\n\nok",
        "malformed response head: a line ends in a bare LF (no CR)",
    ),
    "bare CR head": (
        b"HTTP/1.1 200 OK\rContent-Length: 2\r\r",
        "malformed response head: a line ends in a bare CR (no LF)",
    ),
    "bare LF chunk size line": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\nok\n0\n\n",
        "malformed chunk size line: a line ends in a bare LF (no CR)",
    ),
    "not HTTP": (
        b"SSH-2.0-OpenSSH_9.6",
        "malformed status line: this is not an HTTP/1.x response",
    ),
    "bad status line": (b"HTTP/1.1 OK\r\nContent-Length: 2\r\n", "malformed status line"),
    "whitespace after the status line": (
        b"HTTP/1.1 200 OK\r\n X-A: 1\r\n",
        "malformed response head: a line starting with whitespace comes before the first field",
    ),
    "bad field name": (b"HTTP/1.1 200 OK\r\nBad Name: x\r\n", "malformed header field"),
    "NUL in a value": (
        b"HTTP/1.1 200 OK\r\nX-A: a\x00b\r\n",
        "invalid characters in header 'X-A'",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN_WHILE_OPEN))
async def test_malformed_framing_fails_without_waiting_for_the_read_timeout(
    case: str, transport: Http11Transport
) -> None:
    data, message = BROKEN_WHILE_OPEN[case]

    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(data)
        await peer.request()  # holds the connection open until the client gives it up

    async with Server(script) as server:
        client = httpx.AsyncClient(transport=transport, timeout=30.0)
        # a guard, not a timing assertion: with the old behaviour this waited the 30 s read timeout
        with pytest.raises(httpx.RemoteProtocolError) as caught:
            await asyncio.wait_for(client.get(server.url), 5)
        assert str(caught.value) == message
    assert server.connections == 1


async def test_oversized_heads_are_refused(transport: Http11Transport) -> None:
    huge = b"X-Big: " + b"a" * 70_000
    many = b"\r\n".join(b"X-%d: 1" % i for i in range(200))

    async def script(peer: Peer) -> None:
        await peer.request()
        await peer.send(b"HTTP/1.1 200 OK\r\n" + (huge if peer.index == 0 else many) + b"\r\n\r\n")

    async with Server(script) as server:
        with pytest.raises(httpx.RemoteProtocolError, match="longer than 65536 bytes"):
            await fetch(transport, "GET", server.url)
        with pytest.raises(httpx.RemoteProtocolError, match="more than 128 header fields"):
            await fetch(transport, "GET", server.url)


@pytest.mark.parametrize(
    "headers",
    [
        {"X-Trace": "a\r\nHost: evil.example.com"},
        {"X-Trace": "a\nX-Injected: 1"},
        {"X-Trace": "a\x00b"},
        {"X-Trace": " padded"},
        {"Bad Name": "x"},
    ],
)
async def test_request_headers_that_could_split_the_request_are_refused(
    headers: dict[str, str], transport: Http11Transport
) -> None:
    async with Server(answer_all) as server:
        request = httpx.Request("GET", server.url, headers=headers)
        with pytest.raises(httpx.LocalProtocolError):
            await transport.handle_async_request(request)
        assert (await fetch(transport, "GET", server.url))[1] == b"ok"
    assert len(server.received) == 1  # only the well-formed request reached the server


# -- TLS -------------------------------------------------------------------------------------


def _certificate(tmp_path: Path, name: str) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """A server context with a self-signed certificate for ``name``, and a client trusting it."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    try:
        alternative: x509.GeneralName = x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        alternative = x509.DNSName(name)
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([alternative]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server.load_cert_chain(cert_file, key_file)
    client = ssl.create_default_context(cafile=str(cert_file))
    return server, client


async def test_tls_with_a_trusted_certificate(tmp_path: Path) -> None:
    server_context, client_context = _certificate(tmp_path, "127.0.0.1")
    lean = Http11Transport(ssl_context=client_context)
    try:
        async with Server(answer_all, tls=server_context) as server:
            bodies = [(await fetch(lean, "POST", server.url, content=b"s3"))[1] for _ in range(2)]
    finally:
        await lean.aclose()
    assert bodies == [b"s3", b"s3"]
    assert server.connections == 1


async def test_tls_verification_is_on_by_default(tmp_path: Path) -> None:
    server_context, _ = _certificate(tmp_path, "127.0.0.1")
    lean = Http11Transport()
    try:
        async with Server(answer_all, tls=server_context) as server:
            with pytest.raises(httpx.ConnectError) as caught:
                await fetch(lean, "GET", server.url)
    finally:
        await lean.aclose()
    assert isinstance(caught.value.__cause__, ssl.SSLCertVerificationError)
    assert server.received == []


async def test_tls_checks_the_host_name(tmp_path: Path) -> None:
    server_context, client_context = _certificate(tmp_path, "api.example.com")
    lean = Http11Transport(ssl_context=client_context)
    try:
        async with Server(answer_all, tls=server_context) as server:
            with pytest.raises(httpx.ConnectError, match=r"match|mismatch"):
                await fetch(lean, "GET", server.url)
    finally:
        await lean.aclose()
    assert server.received == []


# -- inside the upstream client ----------------------------------------------------------------

INFO: UpstreamInfo = {
    "baseUrl": "http://127.0.0.1:9",
    "baseUrlEnv": "PET_BASE_URL",
    "timeoutEnv": "PET_TIMEOUT",
    "timeoutSeconds": 10.0,
    "securitySchemes": {},
}
GET_PET: OperationSpec = {
    "method": "GET",
    "path": "/pets/{petId}",
    "parameters": [
        {
            "name": "petId",
            "location": "path",
            "argument": "petId",
            "required": True,
            "style": "simple",
            "explode": False,
        }
    ],
    "security": [],
    "responseMediaType": "application/json",
    "pointer": "#/paths/~1pets~1{petId}/get",
}


def _upstream(base_url: str) -> Upstream:
    environ = {"PET_BASE_URL": base_url, "PET_RETRIES": "0"}
    return Upstream(INFO, {"getPet": GET_PET}, environ=environ, user_agent="pets/1.0")


PROXY_VARIABLES = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
)


@pytest.fixture
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


async def test_the_upstream_client_calls_over_the_lean_client(
    no_proxy: pytest.MonkeyPatch,
) -> None:
    async def script(peer: Peer) -> None:
        while await peer.request() is not None:
            await peer.send(response(b'{"id": 7}', headers=(b"Content-Type: application/json",)))

    async with Server(script) as server:
        upstream = _upstream(server.url + "/v1")
        try:
            replies = [await upstream.call("getPet", {"petId": 7}) for _ in range(3)]
            assert isinstance(upstream._http, LeanClient)
        finally:
            await upstream.aclose()
    assert [(r.status, r.body) for r in replies] == [(200, b'{"id": 7}')] * 3
    seen = server.received[0]
    assert seen.request_line == b"GET /v1/pets/7 HTTP/1.1"
    assert (seen.header(b"user-agent"), seen.header(b"accept")) == (
        b"pets/1.0",
        b"application/json",
    )
    assert server.connections == 1


async def test_the_upstream_client_keeps_no_cookies(no_proxy: pytest.MonkeyPatch) -> None:
    async def script(peer: Peer) -> None:
        while await peer.request() is not None:
            await peer.send(response(b"{}", headers=(b"Set-Cookie: session=abc; Path=/",)))

    async with Server(script) as server:
        upstream = _upstream(server.url)
        try:
            for _ in range(2):
                await upstream.call("getPet", {"petId": 1})
        finally:
            await upstream.aclose()
    assert [seen.header(b"cookie") for seen in server.received] == [None, None]


async def test_the_upstream_client_reports_a_broken_answer_safely(
    no_proxy: pytest.MonkeyPatch,
) -> None:
    async def script(peer: Peer) -> None:
        await peer.request()

    async with Server(script) as server:
        upstream = _upstream(server.url)
        try:
            with pytest.raises(UpstreamError) as caught:
                await upstream.call("getPet", {"petId": 1})
        finally:
            await upstream.aclose()
    assert str(caught.value) == (
        f"request to {server.url} failed: the server closed the connection without answering"
    )


async def test_the_lean_client_is_used_unless_a_transport_or_proxy_is_given(
    no_proxy: pytest.MonkeyPatch,
) -> None:
    limits = httpx.Limits(max_connections=3, max_keepalive_connections=3)
    clients = [upstream_client(None, limits)]
    assert type(clients[0]) is LeanClient
    clients.append(upstream_client(httpx.MockTransport(lambda r: httpx.Response(204)), limits))
    assert type(clients[1]) is httpx.AsyncClient
    for name in ("HTTPS_PROXY", "http_proxy", "ALL_PROXY"):
        no_proxy.setenv(name, "http://127.0.0.1:9")
        clients.append(upstream_client(None, limits))
        assert type(clients[-1]) is httpx.AsyncClient
        no_proxy.delenv(name)
    for client in clients:
        await client.aclose()


async def test_requests_go_through_a_configured_proxy(no_proxy: pytest.MonkeyPatch) -> None:
    async def proxy(peer: Peer) -> None:
        while await peer.request() is not None:
            await peer.send(response(b'{"via": "proxy"}'))

    async with Server(proxy) as server:
        no_proxy.setenv("HTTP_PROXY", server.url)
        no_proxy.delenv("NO_PROXY", raising=False)
        no_proxy.delenv("no_proxy", raising=False)
        upstream = _upstream("http://api.example.com/v1")
        try:
            reply = await upstream.call("getPet", {"petId": 2})
        finally:
            await upstream.aclose()
    assert reply.body == b'{"via": "proxy"}'
    assert server.received[0].request_line == b"GET http://api.example.com/v1/pets/2 HTTP/1.1"


# -- LeanClient: httpx's behaviour, by the shorter way when nothing else applies ---------------


@pytest.fixture
async def lean_client() -> AsyncIterator[LeanClient]:
    client = LeanClient(Http11Transport(), timeout=TIMEOUT)
    yield client
    await client.aclose()


async def test_the_lean_client_sends_what_httpx_builds(
    lean_client: LeanClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def refuse(*args: object, **kwargs: object) -> httpx.Response:
        raise AssertionError("httpx's send machinery was used")

    monkeypatch.setattr(httpx.AsyncClient, "send", refuse)
    async with Server(answer_all) as server:
        reply = await lean_client.post(server.url + "/a?b=c", content=b"body", headers={"X-A": "1"})
    assert (reply.status_code, reply.content, reply.request.url) == (
        200,
        b"body",
        httpx.URL(server.url + "/a?b=c"),
    )
    seen = server.received[0]
    assert seen.request_line == b"POST /a?b=c HTTP/1.1"
    assert [line.split(b":")[0] for line in seen.head.split(b"\r\n")[1:]] == [
        b"Host",
        b"Accept",
        b"Accept-Encoding",
        b"Connection",
        b"User-Agent",
        b"X-A",
        b"Content-Length",
    ]


async def test_the_lean_client_logs_requests_like_httpx(
    lean_client: LeanClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="httpx")
    async with Server(answer_all) as server:
        await lean_client.get(server.url + "/logged")
    assert caplog.messages == [f'HTTP Request: GET {server.url}/logged "HTTP/1.1 200 OK"']


async def test_the_lean_client_stores_cookies_when_its_jar_takes_them(
    lean_client: LeanClient,
) -> None:
    async def script(peer: Peer) -> None:
        while await peer.request() is not None:
            await peer.send(response(headers=(b"Set-Cookie: session=abc; Path=/",)))

    async with Server(script) as server:
        await lean_client.get(server.url)
        await lean_client.get(server.url)
    assert [seen.header(b"cookie") for seen in server.received] == [None, b"session=abc"]


async def test_event_hooks_and_redirects_take_httpx_path() -> None:
    seen_by_hook: list[str] = []

    async def hook(request: httpx.Request) -> None:
        request.headers["X-Hooked"] = "yes"
        seen_by_hook.append(str(request.url))

    async def script(peer: Peer) -> None:
        while (seen := await peer.request()) is not None:
            if seen.request_line.startswith(b"GET /old"):
                await peer.send(response(b"", b"302 Found", (b"Location: /new",)))
            else:
                await peer.send(response())

    client = LeanClient(Http11Transport(), event_hooks={"request": [hook]})
    try:
        async with Server(script) as server:
            hooked = await client.get(server.url + "/hooked")
            moved = await client.get(server.url + "/old", follow_redirects=True)
    finally:
        await client.aclose()
    assert hooked.content == b"ok"
    assert [seen.header(b"x-hooked") for seen in server.received] == [b"yes"] * 3
    assert (moved.status_code, moved.url.path) == (200, "/new")
    assert seen_by_hook == [server.url + "/hooked", server.url + "/old", server.url + "/new"]
