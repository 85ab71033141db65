"""HTTP replies of the MCP endpoint: content negotiation, JSON bodies, SSE streams (mcp-wire §8.2).

The ASGI protocol is spelled as type aliases here. ``accepts`` and ``json_content`` check what a
client offers and sends; ``send_body``/``send_error`` write a complete response (JSON-RPC errors
without an id when the request's id is unknown); ``ReplyStream`` answers one request as JSON, or as a
``text/event-stream`` (``X-Accel-Buffering: no``, ``Cache-Control: no-cache``) of ``data: <json>``
events once a notification must go out before the response, and stops writing the moment the client
is gone. Replies are encoded once, compactly; an unserialisable reply becomes an internal error.
The endpoint's defaults (path, body limit) live here too, so settings and the command line can name
them without importing the app (and its authentication code) on the stdio path.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any, Final

from ..protocol.jsonrpc import (
    INTERNAL_ERROR,
    JsonObject,
    JsonRpcError,
    RequestId,
    encode,
    encode_batch,
    failure,
    readable_id,
)

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
AsgiApp = Callable[[Scope, Receive, Send], Awaitable[None]]

DEFAULT_PATH: Final = "/mcp"
DEFAULT_MAX_BODY_BYTES: Final = 4 * 1024 * 1024
JSON: Final = b"application/json"
EVENT_STREAM: Final = b"text/event-stream"
_SSE_HEADERS = [
    (b"content-type", EVENT_STREAM),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
]


def _media_type(value: str) -> str:
    return value.split(";", 1)[0].strip().lower()


def accepts(accept: str | None) -> bool:
    """Whether ``Accept`` admits both reply forms (wildcards count; no header admits anything)."""
    if accept is None:
        return True
    ranges = {_media_type(item) for item in accept.split(",")}
    json_ok = bool(ranges & {"application/json", "application/*", "*/*"})
    sse_ok = bool(ranges & {"text/event-stream", "text/*", "*/*"})
    return json_ok and sse_ok


def json_content(content_type: str | None) -> bool:
    """Whether ``Content-Type`` says JSON (in UTF-8, the only charset JSON-RPC bodies may use)."""
    if content_type is None or _media_type(content_type) != "application/json":
        return False
    for parameter in content_type.split(";")[1:]:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset" and value.strip().strip('"').lower() != "utf-8":
            return False
    return True


def _to_bytes(text: str) -> bytes:
    # a lone surrogate echoed from input cannot be UTF-8; inside JSON strings its escape is the same
    return text.encode("utf-8", errors="backslashreplace")


def encode_reply(reply: JsonObject | list[JsonObject]) -> bytes:
    """One reply (or a batch's replies) as compact UTF-8 JSON."""
    try:
        return _to_bytes(encode_batch(reply) if isinstance(reply, list) else encode(reply))
    except (TypeError, ValueError, RecursionError):
        logger.exception("reply is not serialisable as JSON")
        request_id = None if isinstance(reply, list) else readable_id(reply)
        error = JsonRpcError(INTERNAL_ERROR, "Internal error")
        return _to_bytes(encode(failure(request_id, error)))


class ReplyStream:
    """The response to one request: JSON, or an SSE stream started by its first notification.

    ``headers`` are extra response headers, in either form; they can be set until the reply starts.
    """

    def __init__(self, send: Send, headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
        self._send = send
        self.headers = list(headers)
        self.streaming = False
        # set once the client is gone: nothing more may be written for this request
        self.closed = False

    async def notify(self, message: JsonObject) -> None:
        if self.closed:
            return
        try:
            if not self.streaming:
                self.streaming = True
                await self._send(
                    {
                        "type": "http.response.start",
                        "status": 200,
                        "headers": [*_SSE_HEADERS, *self.headers],
                    }
                )
            await self._event(encode_reply(message), more=True)
        except OSError:
            # some ASGI servers raise once the client is gone; the handler must not notice
            self.closed = True

    async def finish(self, status: int, body: bytes) -> None:
        if self.closed:
            return
        try:
            if self.streaming:
                await self._event(body, more=False)
            else:
                await send_body(self._send, status, body, headers=self.headers)
        except OSError:
            self.closed = True

    async def _event(self, data: bytes, *, more: bool) -> None:
        await self._send(
            {"type": "http.response.body", "body": b"data: " + data + b"\n\n", "more_body": more}
        )


async def send_body(
    send: Send,
    status: int,
    body: bytes,
    content_type: bytes = JSON,
    headers: Iterable[tuple[bytes, bytes]] = (),
) -> None:
    head = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": [*head, *headers]})
    await send({"type": "http.response.body", "body": body})


async def send_error(
    send: Send,
    status: int,
    request_id: RequestId | None,
    error: JsonRpcError,
    headers: Iterable[tuple[bytes, bytes]] = (),
) -> None:
    await send_body(send, status, encode_reply(failure(request_id, error)), headers=headers)
