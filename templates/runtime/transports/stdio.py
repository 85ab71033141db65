"""The stdio transport: newline-delimited JSON-RPC on stdin/stdout (mcp-wire §8.1).

A daemon thread reads stdin line by line (so it works on pipes, files and terminals alike and never
keeps the process alive); each request runs as its own asyncio task, so slow upstream calls do not
hold up others. Replies go through a single daemon writer thread, one compact message per line,
flushed after each: messages never interleave and a slow reader never blocks the event loop.
``notifications/cancelled`` cancels the matching in-flight task, which then sends nothing. A legacy
client that declared ``elicitation`` (or sampling, roots) in ``initialize`` may be sent requests
while a call runs (``client_requests``); its responses are matched to them by id. On stdin
EOF, in-flight requests get a bounded grace period, the rest are cancelled, and ``serve`` returns.
The legacy handshake state of the process is one ``LegacySession``; ``initialize`` and notifications
are handled in arrival order, before later lines are read. Nothing but MCP messages reaches stdout:
``claim_stdout`` points file descriptor 1 and ``sys.stdout`` at stderr for everything else. A line
longer than the limit is discarded as it is read, never parsed; its refusal carries the request's
id when the line's first or last bytes name it where clients put it (``_oversized_id``), so that
the client's call ends with the error rather than waiting for its timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import queue
import re
import sys
import threading
from collections.abc import Coroutine
from typing import Any, BinaryIO

from ..ask.client_requests import ClientRequests
from ..protocol.dispatch import Dispatcher, LegacySession, batch_refused
from ..protocol.jsonrpc import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    JsonObject,
    JsonRpcError,
    RequestId,
    encode,
    failure,
    is_request_id,
    loads,
    readable_id,
)

logger = logging.getLogger(__name__)

DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024
DEFAULT_DRAIN_SECONDS = 2.0
_READ_AHEAD = 64
_DISCARD_CHUNK = 1 << 16


class _Oversized:
    """A line longer than the limit, read and discarded: its size, and its first and last bytes
    (where its id may be read)."""

    __slots__ = ("head", "size", "tail")

    def __init__(self, head: bytes, tail: bytes, size: int) -> None:
        self.head = head
        self.tail = tail
        self.size = size


Line = bytes | _Oversized | None
# how much of an oversized line's start and end is kept to find its id in
_ID_BYTES = 16 * 1024


def _id_key(request_id: RequestId) -> tuple[bool, RequestId]:
    # "1" and 1 are different ids; 1 and 1.0 are the same number
    return (isinstance(request_id, str), request_id)


def _read_lines(
    stream: BinaryIO, limit: int, loop: asyncio.AbstractEventLoop, lines: asyncio.Queue[Line]
) -> None:
    """Thread body: feed stdin lines into ``lines``; ``None`` marks EOF (or an unreadable stdin)."""

    def deliver(item: Line) -> bool:
        try:
            asyncio.run_coroutine_threadsafe(lines.put(item), loop).result()
        except (RuntimeError, asyncio.CancelledError):
            return False  # the server is gone
        return True

    try:
        while True:
            line = stream.readline(limit + 1)
            if not line:
                break
            if len(line) > limit and not line.endswith(b"\n"):
                if not deliver(_discard(stream, line)):
                    return
            elif not deliver(line):
                return
    except (OSError, ValueError) as exc:
        logger.warning("stdin is unreadable: %s", exc)
    deliver(None)


def _discard(stream: BinaryIO, start: bytes) -> _Oversized:
    """The rest of the line that begins with ``start`` read and dropped; what is kept of it."""
    size, tail = len(start), start[-_ID_BYTES:]
    while rest := stream.readline(_DISCARD_CHUNK):
        size += len(rest)
        tail = (tail + rest)[-_ID_BYTES:]
        if rest.endswith(b"\n"):
            break
    ending = len(tail) - len(tail.rstrip(b"\r\n"))
    return _Oversized(start[:_ID_BYTES], tail[: len(tail) - ending], size - ending)


class _Writer:
    """One daemon thread owning stdout: whole lines, in order, flushed one by one."""

    def __init__(self, stream: BinaryIO, loop: asyncio.AbstractEventLoop) -> None:
        self._stream = stream
        self._loop = loop
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._done = asyncio.Event()
        self._broken = False
        self._thread = threading.Thread(target=self._run, name="mcp-stdout", daemon=True)
        self._thread.start()

    def send(self, line: str) -> None:
        self._queue.put(line)

    async def close(self, timeout: float) -> None:
        """Write what is queued (waiting at most ``timeout`` seconds), then stop the thread."""
        self._queue.put(None)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._done.wait(), timeout)

    def _run(self) -> None:
        while (line := self._queue.get()) is not None:
            if self._broken:
                continue
            # a lone surrogate (legal in a JSON string escape, echoed from input) cannot be UTF-8;
            # it only occurs inside strings, where its backslash form is exactly its JSON escape
            data = line.encode("utf-8", errors="backslashreplace") + b"\n"
            try:
                self._stream.write(data)
                self._stream.flush()
            except (OSError, ValueError):
                # the client closed our stdout; keep draining so nobody waits on us
                self._broken = True
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._done.set)


class StdioServer:
    """Serves one ``Dispatcher`` over a pair of byte streams until the input ends."""

    def __init__(
        self,
        dispatcher: Dispatcher,
        *,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        drain_seconds: float = DEFAULT_DRAIN_SECONDS,
    ) -> None:
        self._dispatcher = dispatcher
        self._max_line_bytes = max_line_bytes
        self._drain_seconds = drain_seconds
        self._session = LegacySession()
        self._tasks: set[asyncio.Task[None]] = set()
        self._in_flight: dict[tuple[bool, RequestId], asyncio.Task[Any]] = {}
        self._writer: _Writer | None = None
        # elicitation/create and the like, sent to a legacy client that declared it can answer
        self._client_requests = ClientRequests()
        self._ask = self._client_requests.asker(self._notify)

    async def serve(self, stdin: BinaryIO, stdout: BinaryIO) -> None:
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue[Line] = asyncio.Queue(maxsize=_READ_AHEAD)
        self._writer = _Writer(stdout, loop)
        reader = threading.Thread(
            target=_read_lines,
            args=(stdin, self._max_line_bytes, loop, lines),
            name="mcp-stdin",
            daemon=True,
        )
        reader.start()
        try:
            while (line := await lines.get()) is not None:
                await self._on_line(line)
        finally:
            await self._drain()
            await self._writer.close(self._drain_seconds)

    # -- input ---------------------------------------------------------------------------------

    async def _on_line(self, line: bytes | _Oversized) -> None:
        if isinstance(line, _Oversized):
            self._send(failure(_oversized_id(line), _too_large(line.size, self._max_line_bytes)))
            return
        if not line.strip():
            return
        try:
            message = loads(line)
        except (ValueError, RecursionError):
            self._send_error(PARSE_ERROR, "Parse error: invalid JSON")
            return
        if isinstance(message, list):
            if not self._dispatcher.batch_allowed(self._session):
                self._send(failure(None, batch_refused()))
            elif not message:
                self._send_error(INVALID_REQUEST, "Invalid request: empty batch")
            else:
                self._start_batch(message)
            return
        await self._on_message(message)

    async def _on_message(self, message: Any) -> None:
        if _is_cancellation(message):
            self._cancel(message)
        elif _is_response(message):
            self._client_requests.answer(message)
        elif _is_request(message) and message["method"] != "initialize":
            task = self._spawn(self._run_one(message))
            self._track(message["id"], task)
        else:
            # initialize, notifications and broken messages: in order, before the next line
            reply = await self._dispatcher.handle(message, self._session, self._notify)
            if reply is not None:
                self._send(reply)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _track(self, request_id: RequestId, task: asyncio.Task[Any]) -> None:
        key = _id_key(request_id)
        self._in_flight[key] = task

        def forget(done: asyncio.Task[Any]) -> None:
            if self._in_flight.get(key) is done:
                del self._in_flight[key]

        task.add_done_callback(forget)

    def _cancel(self, message: JsonObject) -> None:
        params = message.get("params")
        request_id = params.get("requestId") if isinstance(params, dict) else None
        if not is_request_id(request_id):
            return  # malformed cancellations are ignored, as the spec asks
        task = self._in_flight.get(_id_key(request_id))
        if task is not None:
            task.cancel()

    # -- requests ------------------------------------------------------------------------------

    async def _run_one(self, message: JsonObject) -> None:
        reply = await self._dispatcher.handle(message, self._session, self._notify, ask=self._ask)
        if reply is not None:
            self._send(reply)

    def _start_batch(self, messages: list[Any]) -> None:
        # parts are registered before the next line is read, so a cancellation cannot miss them
        parts: list[asyncio.Task[JsonObject | None]] = []
        for message in messages:
            if _is_cancellation(message):
                self._cancel(message)
                continue
            part = asyncio.create_task(
                self._dispatcher.handle(message, self._session, self._notify)
            )
            if _is_request(message):
                self._track(message["id"], part)
            parts.append(part)
        self._spawn(self._finish_batch(parts))

    async def _finish_batch(self, parts: list[asyncio.Task[JsonObject | None]]) -> None:
        outcomes = await asyncio.gather(*parts, return_exceptions=True)
        replies = [outcome for outcome in outcomes if isinstance(outcome, dict)]
        if replies:
            self._send_text("[" + ",".join(_encode_safely(reply) for reply in replies) + "]")

    async def _notify(self, message: JsonObject) -> None:
        self._send(message)

    async def _drain(self) -> None:
        pending = {task for task in self._tasks if not task.done()}
        if not pending:
            return
        _, late = await asyncio.wait(pending, timeout=self._drain_seconds)
        if late:
            logger.warning("stdin closed; abandoning %d unfinished request(s)", len(late))
            for task in late:
                task.cancel()
            await asyncio.wait(late, timeout=self._drain_seconds)

    # -- output --------------------------------------------------------------------------------

    def _send(self, message: JsonObject) -> None:
        self._send_text(_encode_safely(message))

    def _send_error(self, code: int, message: str) -> None:
        self._send(failure(None, JsonRpcError(code, message)))

    def _send_text(self, text: str) -> None:
        assert self._writer is not None
        self._writer.send(text)


def _encode_safely(message: JsonObject) -> str:
    """The reply as one line; a reply that is not JSON becomes the request's internal error."""
    try:
        return encode(message)
    except (TypeError, ValueError, RecursionError):
        logger.exception("reply is not serialisable as JSON")
    error = JsonRpcError(INTERNAL_ERROR, "Internal error")
    try:
        return encode(failure(readable_id(message), error))
    except (TypeError, ValueError, RecursionError):
        return encode(failure(None, error))


def _too_large(size: int, limit: int) -> JsonRpcError:
    """The refusal of a message of ``size`` bytes, said so that a model knows what to do instead."""
    shown = f"{limit} bytes" + (f" ({limit >> 20} MiB)" if limit and limit % (1 << 20) == 0 else "")
    return JsonRpcError(
        INVALID_REQUEST,
        f"Invalid request: the message has {size} bytes, more than the {shown} this server reads "
        "in one message on stdio; it was not read, and nothing was done. Send less in one "
        "request: content this large (a file, a long document) must be split up or passed "
        "another way (a URL or a path, if the tool takes one).",
        {"messageBytes": size, "maxBytes": limit},
    )


_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"
# a member named "id" of an object, in an oversized line's last bytes
_ID_MEMBER = re.compile(rb'[{,][ \t\r\n]*"id"[ \t\r\n]*:')


def _oversized_id(line: _Oversized) -> RequestId | None:
    """The id of an oversized request, read without parsing the line: the top-level ``id`` member
    among the members the line starts with (Python's SDK writes ``jsonrpc``, ``id``, ``method``
    first), or the last member when it is ``id`` (TypeScript's writes it last), of a message whose
    first members name its ``method`` (a response's id is the server's own); ``None`` when not so
    (a notification, an id in between), as for any message whose id is unreadable. An ``"id"``
    inside ``params`` is never taken: members are read whole, one level only."""
    names, found = _leading_members(line.head)
    if "method" not in names:
        return None
    return found if found is not None else _trailing_id(line.tail)


def _leading_members(head: bytes) -> tuple[set[str], RequestId | None]:
    """The names of the top-level members ``head`` holds whole, and the ``id`` among them."""
    text, found = _text(head), None
    names: set[str] = set()
    try:
        at = _skip(text, 0)
        if text[at] != "{":
            return names, None
        at += 1
        while True:
            key, at = _DECODER.raw_decode(text, _skip(text, at))
            at = _skip(text, at)
            if not isinstance(key, str) or text[at] != ":":
                return names, found
            value, at = _DECODER.raw_decode(text, _skip(text, at + 1))
            # a number the cut may have shortened is no id: something must follow it
            if key == "id" and is_request_id(value) and at < len(text):
                found = value
            names.add(key)
            at = _skip(text, at)
            if text[at] != ",":
                return names, found
            at += 1
    except (ValueError, IndexError, RecursionError):
        return names, found  # cut short inside a member, or no JSON object at all


def _trailing_id(tail: bytes) -> RequestId | None:
    # quotes inside strings are escaped: the last `"id":` the bytes hold is a member's name
    last = None
    for last in _ID_MEMBER.finditer(tail):  # noqa: B007 - the last one is wanted
        pass
    if last is None:
        return None
    text = _text(tail[last.end() :])
    try:
        value, at = _DECODER.raw_decode(text, _skip(text, 0))
    except (ValueError, RecursionError):
        return None
    # only the outermost object's last member is followed by one brace and the end of the line
    closed = text[at:].strip(_SPACE) == "}"
    return value if closed and is_request_id(value) else None


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _SPACE:
        at += 1
    return at


def _text(data: bytes) -> str:
    """``data`` as text; a character the cut split at the end is left out."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return data[: exc.start].decode("utf-8") if exc.start >= len(data) - 3 else ""


def _is_request(message: Any) -> bool:
    return (
        isinstance(message, dict)
        and isinstance(message.get("method"), str)
        and is_request_id(message.get("id"))
        and message.get("jsonrpc") == "2.0"
    )


def _is_response(message: Any) -> bool:
    return (
        isinstance(message, dict)
        and "method" not in message
        and is_request_id(message.get("id"))
        and ("result" in message or "error" in message)
        and message.get("jsonrpc") == "2.0"
    )


def _is_cancellation(message: Any) -> bool:
    return (
        isinstance(message, dict)
        and message.get("method") == "notifications/cancelled"
        and "id" not in message
        and message.get("jsonrpc") == "2.0"
    )


def claim_stdout() -> BinaryIO:
    """A private handle on the real stdout; fd 1 and ``sys.stdout`` now lead to stderr.

    Stray ``print`` calls or native libraries writing to fd 1 would corrupt the JSON-RPC stream; after
    this they land on stderr, where clients expect logs.
    """
    sys.stdout.flush()
    try:
        original = sys.stdout.fileno()
        private = os.dup(original)
        os.dup2(sys.stderr.fileno(), original)
    except (OSError, ValueError, AttributeError):
        stream: BinaryIO = sys.stdout.buffer
    else:
        stream = os.fdopen(private, "wb")
    sys.stdout = sys.stderr
    return stream


async def serve_stdio(
    dispatcher: Dispatcher,
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    drain_seconds: float = DEFAULT_DRAIN_SECONDS,
) -> None:
    """Serve on the given streams, or on the process's stdin/stdout (claimed for MCP only)."""
    owned = stdout is None
    output = claim_stdout() if stdout is None else stdout
    server = StdioServer(dispatcher, max_line_bytes=max_line_bytes, drain_seconds=drain_seconds)
    try:
        await server.serve(stdin if stdin is not None else sys.stdin.buffer, output)
    finally:
        if owned:
            with contextlib.suppress(OSError):
                output.close()
