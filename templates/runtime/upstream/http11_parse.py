"""The HTTP/1.1 wire format for ``upstream_http11`` (split out of it to keep both modules small).

It owns the connection (an ``asyncio.Protocol``) whose receive buffer hands lines and blocks to the
transport and checks a response head while it is still arriving (bare CR or LF line endings, a
status line that is not HTTP/1.x, a malformed field line, whitespace before the first field), so a
bad response fails as soon as its bytes show it, not at the read timeout; the complete response
head (``_Head``: status line, field count, ``Content-Length``, ``Transfer-Encoding`` and
``Connection``); header and trailer field lines, with obs-folds unfolded to one space (RFC 9112
§5.2) except in the framing fields; chunk-size lines; and the request head and body bytes, checked
before they are sent (``_RequestHead``, ``_request_body``). Response violations are
``httpx.RemoteProtocolError``, request ones ``httpx.LocalProtocolError``. ``upstream_http11`` keeps
the clients, the response body streams and the connection pool.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from typing import Any

import httpx

MAX_HEADER_FIELDS = 128
# stop reading from the socket while this much is buffered and unread
_HIGH_WATER = 256 * 1024
_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
# visible ASCII, obs-text, space and tab: no CR, LF, NUL or other control characters
_FIELD_VALUE = re.compile(rb"[\t\x20-\x7e\x80-\xff]*")
_IDEMPOTENT = frozenset({b"GET", b"HEAD", b"OPTIONS", b"PUT", b"DELETE", b"TRACE"})
# what we send: no whitespace around the value either (RFC 9110 §5.5), as h11 insists
_SENT_VALUE = re.compile(
    rb"(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?"
)
_STATUS_LINE = re.compile(rb"HTTP/1\.([01]) ([1-9][0-9][0-9])(?: ([\t\x20-\x7e\x80-\xff]*))?")
_CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]{1,15})[ \t]*(?:;[\t\x20-\x7e\x80-\xff]*)?")
_DIGITS = re.compile(rb"[0-9]{1,18}")
_OWS = b" \t"
_FOLD_STARTS = (b" ", b"\t")
# LF without CR before it, or CR without LF after it
_BARE_LINE_END = re.compile(rb"\r(?!\n)|(?<!\r)\n")
# a fold in these could make two parsers disagree about where the body ends
_FRAMING_FIELDS = frozenset({b"content-length", b"transfer-encoding"})
_STATUS_PREFIX = b"HTTP/1."

Origin = tuple[str, str, int]


class _Connection(asyncio.Protocol):
    """One TCP or TLS connection; bytes are buffered here and taken by one request at a time."""

    def __init__(self, origin: Origin) -> None:
        self.origin = origin
        self.idle_since = 0.0
        self.reused = False
        self._buffer = bytearray()
        self._waiter: asyncio.Future[None] | None = None
        self._drained: asyncio.Future[None] | None = None
        self._eof = False
        self._error: BaseException | None = None
        self._transport: asyncio.Transport | None = None
        self._reading_paused = False
        self._writing_paused = False

    # -- asyncio.Protocol ------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if len(self._buffer) > _HIGH_WATER and self._transport is not None:
            self._transport.pause_reading()
            self._reading_paused = True
        self._wake()

    def eof_received(self) -> bool:
        self._eof = True
        self._wake()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._eof = True
        self._error = exc
        self._wake()
        drained, self._drained = self._drained, None
        if drained is not None and not drained.done():
            drained.set_result(None)

    def pause_writing(self) -> None:
        self._writing_paused = True

    def resume_writing(self) -> None:
        self._writing_paused = False
        drained, self._drained = self._drained, None
        if drained is not None and not drained.done():
            drained.set_result(None)

    def _wake(self) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    # -- used by the transport -------------------------------------------------------------------

    def usable(self) -> bool:
        """Idle and still open, with nothing unexpected received since the last response."""
        transport = self._transport
        return not (self._eof or self._buffer or transport is None or transport.is_closing())

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()
        self._eof = True

    async def write(self, data: bytes, timeout: float | None) -> None:
        if self._transport is None or self._transport.is_closing():
            raise httpx.WriteError("the connection is closed")
        self._transport.write(data)
        if self._writing_paused:
            self._drained = asyncio.get_running_loop().create_future()
            await _within(self._drained, timeout, httpx.WriteTimeout)
            if self._error is not None or self._transport.is_closing():
                raise httpx.WriteError("the connection was closed while sending")

    async def _more(self, timeout: float | None) -> None:
        """Wait for more bytes (or the end); raises when the connection broke."""
        if self._error is not None:
            raise httpx.ReadError(_describe(self._error)) from self._error
        if self._eof:
            return
        if self._reading_paused and self._transport is not None:
            self._reading_paused = False
            self._transport.resume_reading()
        self._waiter = asyncio.get_running_loop().create_future()
        await _within(self._waiter, timeout, httpx.ReadTimeout)
        if self._error is not None:
            raise httpx.ReadError(_describe(self._error)) from self._error

    async def read_until(
        self, separator: bytes, limit: int, timeout: float | None, what: str, *, head: bool = False
    ) -> bytes | None:
        """Bytes up to ``separator`` (removed), at most ``limit``; ``None`` if the peer closed first.

        Bytes that came before the separator are checked at once (line ends; with ``head``, lines).
        """
        start = scanned = checked = 0
        while True:
            end = self._buffer.find(separator, start)
            if end > limit or (end < 0 and len(self._buffer) > limit):
                raise httpx.RemoteProtocolError(f"the {what} is longer than {limit} bytes")
            if end >= 0:
                data = bytes(self._buffer[:end])
                del self._buffer[: end + len(separator)]
                return data
            scanned = _refuse_bare_line_ends(self._buffer, scanned, what)
            if head:
                checked = _check_partial_head(self._buffer, checked)
            if self._eof:
                if self._buffer:
                    raise httpx.RemoteProtocolError(f"the connection ended inside the {what}")
                return None
            start = max(0, len(self._buffer) - len(separator) + 1)
            await self._more(timeout)

    async def read_line(self, limit: int, timeout: float | None, what: str) -> bytes:
        line = await self.read_until(b"\r\n", limit, timeout, what)
        if line is None:
            raise httpx.RemoteProtocolError(f"the connection ended before the {what}")
        return line

    async def read_some(self, most: int, timeout: float | None) -> bytes:
        """Up to ``most`` bytes as soon as there are any; b"" once the peer has closed."""
        while not self._buffer:
            if self._eof:
                return b""
            await self._more(timeout)
        data = bytes(self._buffer[:most])
        del self._buffer[:most]
        return data


async def _within(
    future: asyncio.Future[None], timeout: float | None, error: type[httpx.TimeoutException]
) -> None:
    if timeout is None:
        await future
        return
    expired: list[bool] = []

    def expire() -> None:
        expired.append(True)
        future.cancel()

    # a timer on the future is cheaper than asyncio.timeout() around every read
    handle = asyncio.get_running_loop().call_later(timeout, expire)
    try:
        await future
    except asyncio.CancelledError:
        if expired:
            raise error(f"no progress for {timeout:g} s") from None
        raise
    finally:
        handle.cancel()


def _describe(error: BaseException) -> str:
    return str(error) or type(error).__name__


class _RequestHead:
    """The request line and header block, checked; what the headers say about the body."""

    __slots__ = ("chunked", "close", "data", "idempotent", "length")

    def __init__(self, request: httpx.Request) -> None:
        target = request.url.raw_path or b"/"
        method = request.method.encode("ascii")
        if not _TOKEN.fullmatch(method) or not _FIELD_VALUE.fullmatch(target) or b" " in target:
            raise httpx.LocalProtocolError("the request method or target cannot be sent")
        self.idempotent = method in _IDEMPOTENT
        self.length: int | None = None
        self.chunked = self.close = False
        lines = [method + b" " + target + b" HTTP/1.1"]
        for name, value in request.headers.raw:
            if not _TOKEN.fullmatch(name) or not _SENT_VALUE.fullmatch(value):
                raise httpx.LocalProtocolError(f"illegal request header {name[:40]!r}")
            lowered = name.lower()
            if lowered == b"content-length":
                if not _DIGITS.fullmatch(value) or self.length not in (None, int(value)):
                    raise httpx.LocalProtocolError("bad Content-Length in the request")
                self.length = int(value)
            elif lowered == b"transfer-encoding":
                if value.lower() != b"chunked" or self.chunked:
                    raise httpx.LocalProtocolError("only Transfer-Encoding: chunked can be sent")
                self.chunked = True
            elif lowered == b"connection":
                self.close = self.close or b"close" in _items(value)
            lines.append(name + b": " + value)
        if self.chunked and self.length is not None:
            raise httpx.LocalProtocolError("Content-Length and Transfer-Encoding in one request")
        self.data = b"\r\n".join(lines) + b"\r\n\r\n"


def _items(value: bytes) -> list[bytes]:
    """A comma-separated header value's items, lower-cased."""
    return [item.strip(_OWS).lower() for item in value.split(b",")]


class _Head:
    """A parsed response head: status, reason, raw headers and how the body is framed.

    ``length`` is the ``Content-Length``; ``chunked`` or neither (then the body ends with the
    connection); ``keep_alive`` is what the version and ``Connection`` allow.
    """

    __slots__ = ("chunked", "headers", "keep_alive", "length", "minor", "reason", "status")

    def __init__(self, block: bytes) -> None:
        lines = block.split(b"\r\n")
        match = _STATUS_LINE.fullmatch(lines[0])
        if match is None:
            raise httpx.RemoteProtocolError("malformed status line" + _bare_hint(lines[0]))
        self.minor = int(match.group(1))
        self.status = int(match.group(2))
        self.reason = match.group(3) or b""
        if len(lines) > MAX_HEADER_FIELDS + 1:
            raise httpx.RemoteProtocolError(f"more than {MAX_HEADER_FIELDS} header fields")
        # each field is checked: a CR or LF left inside a line after the split is refused there
        self.headers = _fields(lines[1:], "response head")
        self.length: int | None = None
        connection: list[bytes] = []
        encodings: list[bytes] = []
        for name, value in self.headers:
            lowered = name.lower()
            if lowered == b"content-length":
                for item in _items(value):
                    self._set_length(item)
            elif lowered == b"transfer-encoding":
                encodings += _items(value)
            elif lowered == b"connection":
                connection += _items(value)
        self.chunked = bool(encodings)
        if encodings and (encodings != [b"chunked"] or self.length is not None or not self.minor):
            raise httpx.RemoteProtocolError("unsupported or conflicting Transfer-Encoding")
        self.keep_alive = (
            b"keep-alive" in connection if self.minor == 0 else b"close" not in connection
        )

    def _set_length(self, value: bytes) -> None:
        if not _DIGITS.fullmatch(value):
            raise httpx.RemoteProtocolError("malformed Content-Length")
        if self.length is not None and self.length != int(value):
            raise httpx.RemoteProtocolError("conflicting Content-Length values")
        self.length = int(value)


def _field(line: bytes) -> tuple[bytes, bytes]:
    name, colon, value = line.partition(b":")
    # a name with whitespace could be read two ways
    if not colon or not _TOKEN.fullmatch(name):
        raise httpx.RemoteProtocolError("malformed header field" + _bare_hint(line))
    return name, _value(name, value)


def _value(name: bytes, value: bytes) -> bytes:
    value = value.strip(_OWS)
    if not _FIELD_VALUE.fullmatch(value):
        raise httpx.RemoteProtocolError(
            f"invalid characters in header {name[:40].decode()!r}{_bare_hint(value)}"
        )
    return value


def _fields(lines: Iterable[bytes], what: str) -> list[tuple[bytes, bytes]]:
    """Header (or trailer) field lines, with obs-fold continuation lines unfolded (RFC 9112 §5.2)."""
    fields: list[tuple[bytes, bytes]] = []
    for line in lines:
        if not line.startswith(_FOLD_STARTS):
            fields.append(_field(line))
            continue
        # RFC 9112 §2.2: whitespace before the first field could hide a field from one reader
        if not fields:
            raise httpx.RemoteProtocolError(
                f"malformed {what}: a line starting with whitespace comes before the first field"
            )
        name, value = fields[-1]
        if name.lower() in _FRAMING_FIELDS:
            raise httpx.RemoteProtocolError(f"folded {name[:40].decode()} header")
        # the fold (OWS CRLF RWS) is replaced by a single space
        fields[-1] = (name, (value + b" " + _value(name, line)).strip(_OWS))
    return fields


def _bare_hint(line: bytes) -> str:
    bare = "LF (no CR)" if b"\n" in line else "CR (no LF)" if b"\r" in line else ""
    return f": a line ends in a bare {bare}" if bare else ""


def _refuse_bare_line_ends(buffer: bytearray, scanned: int, what: str) -> int:
    """Raise if an incomplete ``what`` has a line ending other than CRLF; return how far it looked."""
    # a CR at the very end may still be followed by its LF
    stop = len(buffer) - 1 if buffer.endswith(b"\r") else len(buffer)
    bare = _BARE_LINE_END.search(buffer, scanned, stop)
    if bare is not None:
        ending = "a bare LF (no CR)" if bare.group() == b"\n" else "a bare CR (no LF)"
        raise httpx.RemoteProtocolError(f"malformed {what}: a line ends in {ending}")
    return stop


def _check_partial_head(buffer: bytearray, checked: int) -> int:
    """Check the complete lines of a head still arriving from ``checked`` on; return where it stopped."""
    if checked == 0 and buffer[: len(_STATUS_PREFIX)] != _STATUS_PREFIX[: len(buffer)]:
        raise httpx.RemoteProtocolError("malformed status line: this is not an HTTP/1.x response")
    first_field = buffer.find(b"\r\n") + 2
    while (end := buffer.find(b"\r\n", checked)) >= 0:
        line = bytes(buffer[checked:end])
        if checked == 0:
            if _STATUS_LINE.fullmatch(line) is None:
                raise httpx.RemoteProtocolError("malformed status line")
        elif not line.startswith(_FOLD_STARTS):
            _field(line)
        elif checked == first_field:
            _fields([line], "response head")  # raises: whitespace right after the status line
        checked = end + 2
    return checked


def _chunk_size(line: bytes) -> int:
    """The size a chunk-size line gives (chunk extensions are ignored)."""
    match = _CHUNK_SIZE.fullmatch(line)
    if match is None:
        raise httpx.RemoteProtocolError("malformed chunk size")
    return int(match.group(1), 16)


async def _request_body(stream: Any, head: _RequestHead) -> list[bytes]:
    """The body as the bytes to send (chunk framing included), checked against its length."""
    parts: list[bytes] = []
    if isinstance(stream, httpx.AsyncByteStream):
        parts = [bytes(part) async for part in stream]
    elif isinstance(stream, Iterable):
        parts = [bytes(part) for part in stream]
    parts = [part for part in parts if part]
    if head.chunked:
        framed = [b"%x\r\n%s\r\n" % (len(part), part) for part in parts]
        return [*framed, b"0\r\n\r\n"]
    if sum(map(len, parts)) != (head.length or 0):
        raise httpx.LocalProtocolError("the request body does not match its Content-Length")
    return parts
