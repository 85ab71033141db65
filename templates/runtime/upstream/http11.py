"""A lean HTTP/1.1 client for the upstream API: httpx's requests, without httpcore and anyio.

``Http11Transport`` is an ``httpx.AsyncBaseTransport``, so request building, event hooks and the
redirect policy stay in ``httpx.AsyncClient``; it only moves bytes. It keeps a pool of keep-alive
connections per origin (at most ``max_connections`` in use, at most ``max_keepalive_connections``
idle, each idle for at most ``keepalive_expiry`` seconds), speaks TLS through the stdlib ``ssl``
module with certificate and host name verification (the CA bundle httpx would use), honours httpx's
connect/read/write/pool timeouts, and reads ``Content-Length``, chunked and read-until-close bodies.
Parsing is strict, so that no response can be read two ways (request smuggling, desynchronised
keep-alive): a CR, LF or NUL inside a header field, a bare LF or CR line ending, a malformed status
line, chunk size or chunk end, whitespace before the first field, a folded ``Content-Length`` or
``Transfer-Encoding``, conflicting ``Content-Length`` values, ``Transfer-Encoding`` other than
``chunked`` or with ``Content-Length`` are ``httpx.RemoteProtocolError`` (other obs-folds become one
space, RFC 9112 §5.2), raised as soon as the bytes received show it, not at the read timeout; a
request header that could split the request is ``httpx.LocalProtocolError``. Header blocks, chunk
lines and bodies are bounded. A connection is reused only after a response that was read to its end
and left nothing unread behind it; a reused connection that turns out closed before any byte of the
response is retried once on a new connection for idempotent methods. ``LeanClient`` is the
``httpx.AsyncClient`` around it: httpx builds each request, and ``send`` hands it straight to the
transport unless event hooks, auth or redirects need httpx's own machinery. ``upstream_client``
picks it, or a plain ``httpx.AsyncClient`` when a transport is given or the environment configures
a proxy (which this transport does not speak). Why: httpcore + anyio cost more per call than the
rest of a ``tools/call``, and httpx's ``send`` machinery about as much as this whole transport
(measured with ``benchmarks/compare_fastmcp.py``). The wire format (the connection and its receive
buffer, response head, field, obs-fold and chunk-size parsing, the early malformed-framing checks,
request head and body framing) lives in ``upstream_http11_parse``; this module keeps the clients,
the response body streams and the connection pool.
"""

from __future__ import annotations

import asyncio
import logging
import os
import ssl
import time
import urllib.request
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx

from .http11_parse import (
    Origin,
    _chunk_size,
    _Connection,
    _describe,
    _fields,
    _Head,
    _request_body,
    _RequestHead,
)

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_HEADER_BYTES",
    "Http11Transport",
    "LeanClient",
    "proxy_configured",
    "upstream_client",
]

MAX_HEADER_BYTES = 64 * 1024
MAX_BODY_BYTES = 64 * 1024 * 1024
# a chunk-size line (with extensions) or one trailer field
MAX_LINE_BYTES = 8 * 1024
KEEPALIVE_EXPIRY = 5.0
_READ_BYTES = 64 * 1024
_MAX_INTERIM_RESPONSES = 16
_NO_BODY_STATUSES = frozenset({204, 304})

# httpx logs each request here at INFO; LeanClient.send does the same
_HTTPX_LOG = logging.getLogger("httpx")


def proxy_configured() -> bool:
    """Whether httpx would send requests through a proxy (``HTTP(S)_PROXY``, ``ALL_PROXY``)."""
    return any(scheme in ("http", "https", "all") for scheme in urllib.request.getproxies())


def upstream_client(
    transport: httpx.AsyncBaseTransport | None, limits: httpx.Limits, **options: Any
) -> httpx.AsyncClient:
    """The upstream API's client: ``LeanClient`` over ``Http11Transport`` with ``limits``.

    A plain ``httpx.AsyncClient`` instead when ``transport`` is given (tests, custom wiring) or a
    proxy is configured (httpx then applies it); ``options`` go to the client either way.
    """
    if transport is not None or proxy_configured():
        return httpx.AsyncClient(transport=transport, limits=limits, **options)
    lean = Http11Transport(
        max_connections=limits.max_connections,
        max_keepalive_connections=limits.max_keepalive_connections,
        keepalive_expiry=limits.keepalive_expiry,
    )
    return LeanClient(lean, limits=limits, **options)


class LeanClient(httpx.AsyncClient):
    """An ``httpx.AsyncClient`` whose ``send`` hands a request straight to ``Http11Transport``.

    ``build_request`` is httpx's, so requests are exactly what httpx would send. When ``send`` has
    nothing to do but call the transport (no event hooks, no auth, redirects not followed: the
    upstream client without custom ``before_request`` code), it skips httpx's auth and redirect
    machinery and elapsed-time stream, which cost about as much as the transport itself; cookies
    are still offered to the client's jar when the response sets any, and the request is logged as
    httpx logs it. Everything else takes httpx's own ``send``.
    """

    def __init__(self, transport: Http11Transport, **options: Any) -> None:
        if "mounts" in options or "proxy" in options:
            raise TypeError("LeanClient sends every request through its one transport")
        super().__init__(transport=transport, **options)
        self._lean = transport

    async def send(
        self,
        request: httpx.Request,
        *,
        stream: bool = False,
        auth: Any = httpx.USE_CLIENT_DEFAULT,
        follow_redirects: Any = httpx.USE_CLIENT_DEFAULT,
    ) -> httpx.Response:
        hooks = self.event_hooks
        follow = (
            self.follow_redirects
            if follow_redirects is httpx.USE_CLIENT_DEFAULT
            else follow_redirects
        )
        if (
            self.is_closed
            or follow
            or auth is not httpx.USE_CLIENT_DEFAULT
            or self.auth is not None
            or hooks["request"]
            or hooks["response"]
        ):
            return await super().send(
                request, stream=stream, auth=auth, follow_redirects=follow_redirects
            )
        response = await self._lean.handle_async_request(request)
        response.request = request
        if "set-cookie" in response.headers:
            self.cookies.extract_cookies(response)
        if _HTTPX_LOG.isEnabledFor(logging.INFO):
            _HTTPX_LOG.info(
                'HTTP Request: %s %s "%s %d %s"',
                request.method,
                request.url,
                response.http_version,
                response.status_code,
                response.reason_phrase,
            )
        if not stream:
            try:
                await response.aread()
            except BaseException:
                await response.aclose()
                raise
        return response


def default_ssl_context() -> ssl.SSLContext:
    """Verification on, with the CA bundle httpx uses (``SSL_CERT_FILE``/``SSL_CERT_DIR``, certifi)."""
    cafile, capath = os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR")
    if cafile:
        context = ssl.create_default_context(cafile=cafile)
    elif capath:
        context = ssl.create_default_context(capath=capath)
    else:
        try:
            import certifi  # noqa: PLC0415 - httpx depends on it; needed for the first https origin
        except ImportError:
            context = ssl.create_default_context()
        else:
            context = ssl.create_default_context(cafile=certifi.where())
    context.set_alpn_protocols(["http/1.1"])
    return context


class _Stale(Exception):
    """A reused connection was closed by the peer before any byte of the response came."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


_DISCONNECTED = "Server disconnected without sending a response."


def _timeouts(request: httpx.Request) -> Mapping[str, float | None]:
    timeouts = request.extensions.get("timeout")
    return timeouts if isinstance(timeouts, dict) else {}


class _Body(httpx.AsyncByteStream):
    """The response body, read from the connection as it is consumed; gives the connection back."""

    def __init__(
        self,
        pool: Http11Transport,
        connection: _Connection,
        head: _Head,
        has_body: bool,
        timeout: float | None,
    ) -> None:
        self._pool = pool
        self._connection = connection
        self._head = head
        self._has_body = has_body
        self._timeout = timeout
        self._total = 0
        self._complete = False
        self._released = False
        # without a length the body ends with the connection
        self._until_close = has_body and not head.chunked and head.length is None
        self._reusable = head.keep_alive and not self._until_close

    async def __aiter__(self) -> AsyncIterator[bytes]:
        if self._released:
            raise httpx.StreamClosed()
        if self._has_body:
            if self._head.chunked:
                chunks = self._chunked()
            elif self._until_close:
                chunks = self._rest()
            else:
                chunks = self._sized(self._head.length or 0)
            async for chunk in chunks:
                yield chunk
        self._complete = True
        self._release()

    def _count(self, chunk: bytes) -> bytes:
        self._total += len(chunk)
        if self._total > self._pool.max_body_bytes:
            raise httpx.RemoteProtocolError(
                f"the response body is larger than {self._pool.max_body_bytes} bytes"
            )
        return chunk

    async def _sized(self, remaining: int) -> AsyncIterator[bytes]:
        while remaining:
            chunk = await self._connection.read_some(min(remaining, _READ_BYTES), self._timeout)
            if not chunk:
                raise httpx.RemoteProtocolError("the server closed the connection mid-body")
            remaining -= len(chunk)
            yield self._count(chunk)

    async def _rest(self) -> AsyncIterator[bytes]:
        while chunk := await self._connection.read_some(_READ_BYTES, self._timeout):
            yield self._count(chunk)

    async def _chunked(self) -> AsyncIterator[bytes]:
        connection, timeout = self._connection, self._timeout
        while True:
            line = await connection.read_line(MAX_LINE_BYTES, timeout, "chunk size line")
            size = _chunk_size(line)
            if size == 0:
                break
            async for chunk in self._sized(size):
                yield chunk
            if await connection.read_line(2, timeout, "chunk end") != b"":
                raise httpx.RemoteProtocolError("malformed chunk end")
        trailer_bytes = 0
        trailers: list[bytes] = []
        while line := await connection.read_line(MAX_LINE_BYTES, timeout, "trailer section"):
            trailer_bytes += len(line)
            if trailer_bytes > MAX_HEADER_BYTES:
                raise httpx.RemoteProtocolError("the trailer section is too large")
            trailers.append(line)
        # checked, then dropped: httpx has no place for trailers
        _fields(trailers, "trailer section")

    async def aclose(self) -> None:
        self._release()

    def _release(self) -> None:
        if self._released:
            return
        self._released = True
        self._pool.release(self._connection, self._complete and self._reusable)


class Http11Transport(httpx.AsyncBaseTransport):
    """HTTP/1.1 over a pool of keep-alive connections (see the module docstring)."""

    def __init__(
        self,
        *,
        max_connections: int | None = None,
        max_keepalive_connections: int | None = None,
        keepalive_expiry: float | None = KEEPALIVE_EXPIRY,
        ssl_context: ssl.SSLContext | None = None,
        max_body_bytes: int = MAX_BODY_BYTES,
    ) -> None:
        self.max_body_bytes = max_body_bytes
        self._max_idle = max_keepalive_connections
        self._expiry = keepalive_expiry
        self._ssl_context = ssl_context
        self._slots = asyncio.Semaphore(max_connections) if max_connections else None
        self._idle: dict[Origin, list[_Connection]] = {}
        self._open: set[_Connection] = set()
        self._closed = False

    async def aclose(self) -> None:
        self._closed = True
        for connection in list(self._open):
            connection.close()
        self._open.clear()
        self._idle.clear()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self._closed:
            raise RuntimeError("the transport is closed")
        url = request.url
        if url.scheme not in ("http", "https") or not url.host:
            raise httpx.UnsupportedProtocol(f"cannot send a request to {url.scheme!r} URLs")
        head = _RequestHead(request)
        host = url.raw_host.decode("ascii")
        origin: Origin = (url.scheme, host, url.port or (443 if url.scheme == "https" else 80))
        timeouts = _timeouts(request)
        body = await _request_body(request.stream, head)
        await self._take_slot(timeouts.get("pool"))
        try:
            connection = await self._connection(origin, timeouts.get("connect"))
            try:
                return await self._exchange(request, connection, head, body, timeouts)
            except _Stale as stale:
                if not head.idempotent:
                    raise httpx.RemoteProtocolError(stale.message) from stale.__cause__
            # the peer had closed the idle connection: the same request on a new one, once
            connection = await self._connection(origin, timeouts.get("connect"), reuse=False)
            return await self._exchange(request, connection, head, body, timeouts)
        except BaseException:
            self._give_slot()
            raise

    async def _exchange(
        self,
        request: httpx.Request,
        connection: _Connection,
        head: _RequestHead,
        body: list[bytes],
        timeouts: Mapping[str, float | None],
    ) -> httpx.Response:
        """Send the request and read the response head; the body is read by the caller."""
        try:
            await _send(connection, head.data, body, timeouts.get("write"))
            parsed = await self._response_head(connection, timeouts.get("read"))
        except (httpx.ReadError, httpx.WriteError) as exc:
            self._discard(connection)
            if connection.reused:
                raise _Stale(str(exc)) from exc
            raise
        except BaseException:
            self._discard(connection)
            raise
        if head.close:
            parsed.keep_alive = False
        has_body = request.method != "HEAD" and parsed.status not in _NO_BODY_STATUSES
        stream = _Body(self, connection, parsed, has_body, timeouts.get("read"))
        return httpx.Response(
            parsed.status,
            headers=parsed.headers,
            stream=stream,
            extensions={
                "http_version": b"HTTP/1.%d" % parsed.minor,
                "reason_phrase": parsed.reason,
            },
        )

    async def _response_head(self, connection: _Connection, timeout: float | None) -> _Head:
        for _ in range(_MAX_INTERIM_RESPONSES):
            block = await connection.read_until(
                b"\r\n\r\n", MAX_HEADER_BYTES, timeout, "response head", head=True
            )
            if block is None:
                if connection.reused:
                    raise _Stale(_DISCONNECTED)
                raise httpx.RemoteProtocolError(_DISCONNECTED)
            connection.reused = False  # bytes came: a failure now is not a stale connection
            parsed = _Head(block)
            if parsed.status == 101:
                raise httpx.RemoteProtocolError("the server switched protocols")
            if parsed.status >= 200:
                return parsed
        raise httpx.RemoteProtocolError("too many interim (1xx) responses")

    # -- the pool --------------------------------------------------------------------------------

    async def _take_slot(self, timeout: float | None) -> None:
        if self._slots is None:
            return
        if not self._slots.locked():
            await self._slots.acquire()
            return
        try:
            async with asyncio.timeout(timeout):
                await self._slots.acquire()
        except TimeoutError:
            raise httpx.PoolTimeout("no connection became free in time") from None

    def _give_slot(self) -> None:
        if self._slots is not None:
            self._slots.release()

    async def _connection(
        self, origin: Origin, timeout: float | None, *, reuse: bool = True
    ) -> _Connection:
        idle = self._idle.get(origin)
        now = time.monotonic()
        while reuse and idle:
            connection = idle.pop()
            if connection.usable() and (
                self._expiry is None or now - connection.idle_since <= self._expiry
            ):
                connection.reused = True
                return connection
            self._discard(connection)
        return await self._connect(origin, timeout)

    async def _connect(self, origin: Origin, timeout: float | None) -> _Connection:
        scheme, host, port = origin
        context: ssl.SSLContext | None = None
        if scheme == "https":
            if self._ssl_context is None:
                self._ssl_context = default_ssl_context()
            context = self._ssl_context
        loop = asyncio.get_running_loop()
        connection = _Connection(origin)
        try:
            async with asyncio.timeout(timeout):
                await loop.create_connection(
                    lambda: connection,
                    host,
                    port,
                    ssl=context,
                    server_hostname=host if context is not None else None,
                )
        except TimeoutError:
            connection.close()
            raise httpx.ConnectTimeout(
                f"no connection to {host}:{port} within {timeout:g} s"
            ) from None
        except (OSError, ssl.SSLError) as exc:
            connection.close()
            raise httpx.ConnectError(_describe(exc)) from exc
        self._open.add(connection)
        return connection

    def release(self, connection: _Connection, reusable: bool) -> None:
        """A response is done with ``connection``: keep it for the next request, or close it."""
        self._give_slot()
        if not reusable or self._closed or not connection.usable():
            self._discard(connection)
            return
        idle = self._idle.setdefault(connection.origin, [])
        if self._max_idle is not None and sum(map(len, self._idle.values())) >= self._max_idle:
            self._discard(connection)
            return
        connection.idle_since = time.monotonic()
        idle.append(connection)

    def _discard(self, connection: _Connection) -> None:
        connection.close()
        self._open.discard(connection)


async def _send(
    connection: _Connection, head: bytes, body: list[bytes], timeout: float | None
) -> None:
    # one write for a small request: one segment on the wire, no delayed-ACK stall
    if sum(map(len, body)) <= _READ_BYTES:
        await connection.write(head + b"".join(body), timeout)
        return
    await connection.write(head, timeout)
    for part in body:
        await connection.write(part, timeout)
