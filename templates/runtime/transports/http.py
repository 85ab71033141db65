"""The Streamable HTTP transport: a pure ASGI app serving MCP on one endpoint (mcp-wire §8.2, §8.3).

``McpHttpApp`` answers POSTs on one path (``/mcp`` by default) and keeps no state between requests,
so any number of processes behind a load balancer serve one client. Each request goes through, in
order: the ``Origin`` allow-list (403), the method (405 with ``Allow: POST``), inbound authentication
when configured (401/403 with ``WWW-Authenticate``), ``Content-Type`` (415) and ``Accept`` (406), the
body size limit (413) and JSON parsing (400). Then the era (mcp-wire §2.4): ``initialize`` and
requests without modern ``_meta`` are legacy (the version from ``MCP-Protocol-Version``, 2025-03-26
when absent, the only revision allowing batches; legacy errors are HTTP 200); everything else is
2026-07-28, whose header/body checks, ``_meta`` and version failures are 400 and unknown methods 404,
each with a JSON-RPC body. A legacy ``initialize`` result carries a stateless ``Mcp-Session-Id``
(``http_sessions``), which later requests may send or not; it only carries the level a session set
with ``logging/setLevel``. GET and DELETE stay 405 in every era: there is no server-to-client stream
and no session to end. Notifications get 202. A reply is ``application/json`` unless the request
produces notifications (a ``tools/call`` with a progress token or a log level): then it becomes a
``text/event-stream`` of ``data: <json>`` events ending with the response.
A client that disconnects cancels its modern request (and so the upstream call); nothing more is sent
for it. Protected Resource Metadata is served under ``/.well-known/oauth-protected-resource``.
Replies are written by ``http_responses``; ``serve_http`` (in ``http_serve``) runs the app with
uvicorn.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any, TypeVar

from ..ask.client_requests import ClientRequests
from ..auth.bearer import Authenticator, AuthFailure, InboundToken, Principal, inbound_token
from ..protocol.dispatch import (
    PROTOCOL_VERSION_KEY,
    Dispatcher,
    LegacySession,
    batch_refused,
    check_modern_meta,
)
from ..protocol.jsonrpc import (
    HEADER_MISMATCH,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    PARSE_ERROR,
    UNSUPPORTED_PROTOCOL_VERSION,
    JsonObject,
    JsonRpcError,
    check_envelope,
    failure,
    loads,
    readable_id,
)
from ..protocol.shaping import LEGACY_VERSIONS, MODERN, V2025_03_26
from .http_headers import PROTOCOL_VERSION_HEADER, RequestHeaders, ToolHeaders, check_modern_headers
from .http_origins import DEFAULT_ALLOWED_ORIGINS, OriginPolicy
from .http_responses import (
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_PATH,
    AsgiApp,
    Receive,
    ReplyStream,
    Scope,
    Send,
    accepts,
    encode_reply,
    json_content,
    send_body,
    send_error,
)
from .http_sessions import SESSION_HEADER, LegacySessionIds

logger = logging.getLogger(__name__)

T = TypeVar("T")

_MODERN_400 = frozenset(
    (HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION)
)


class _TooLarge(Exception):
    """The request body exceeds the limit."""


class _Gone(Exception):
    """The client disconnected: nothing more may be sent for its request."""


def era_of(message: JsonObject, headers: RequestHeaders) -> str | None:
    """``MODERN``, the legacy revision to serve, or ``None`` for a legacy ``initialize``.

    Raises ``-32020`` when ``MCP-Protocol-Version`` is repeated (the era would be ambiguous).
    """
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    if isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta:
        return MODERN
    if message.get("method") == "initialize":
        return None
    version = headers.single(PROTOCOL_VERSION_HEADER)
    if version is None:
        return V2025_03_26
    return version if version in LEGACY_VERSIONS else MODERN


async def _wait_for_disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


class McpHttpApp:
    """An ASGI application serving one ``Dispatcher`` on one endpoint path."""

    def __init__(
        self,
        dispatcher: Dispatcher,
        tools: Iterable[JsonObject] | ToolHeaders,
        *,
        path: str = DEFAULT_PATH,
        allowed_origins: Iterable[str] = DEFAULT_ALLOWED_ORIGINS,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        authenticator: Authenticator | None = None,
        resource_metadata: JsonObject | None = None,
        metadata_paths: Iterable[str] = (),
        pages: tuple[str, AsgiApp] | None = None,
        startup: Iterable[Callable[[], Awaitable[None]]] = (),
        shutdown: Iterable[Callable[[], Awaitable[None]]] = (),
    ) -> None:
        self._dispatcher = dispatcher
        # the tools' x-mcp-header declarations (http_serve passes ones read lazily, tool by tool)
        self._tool_headers = tools if isinstance(tools, ToolHeaders) else ToolHeaders(tools)
        self._path = path
        self._origins = OriginPolicy(allowed_origins)
        self._max_body_bytes = max_body_bytes
        self._authenticator = authenticator
        self._metadata = None if resource_metadata is None else encode_reply(resource_metadata)
        self._metadata_paths = frozenset(metadata_paths) if resource_metadata else frozenset()
        # (path, app): pages served below path by another app (per-user sign-in), beside MCP
        self._pages = pages
        self._startup, self._shutdown = tuple(startup), tuple(shutdown)
        self._sessions = LegacySessionIds()
        # elicitation/create sent on a legacy request's SSE stream, answered by a later POST
        self._client_requests = ClientRequests()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send, self._startup, self._shutdown)
        elif scope["type"] == "http":
            try:
                await self._http(scope, receive, send)
            except _Gone:
                return

    @staticmethod
    async def _lifespan(
        receive: Receive,
        send: Send,
        startup: tuple[Callable[[], Awaitable[None]], ...],
        shutdown: tuple[Callable[[], Awaitable[None]], ...],
    ) -> None:
        while True:
            event = (await receive())["type"]
            if event == "lifespan.startup":
                try:
                    for step in startup:
                        await step()
                except Exception as exc:
                    await send({"type": "lifespan.startup.failed", "message": str(exc)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif event == "lifespan.shutdown":
                for step in shutdown:
                    await step()
                await send({"type": "lifespan.shutdown.complete"})
                return

    # -- the HTTP layer ------------------------------------------------------------------------

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path, method = _route_path(scope), scope["method"]
        if path in self._metadata_paths:
            await self._serve_metadata(method, send)
            return
        if self._pages is not None and (
            path == self._pages[0] or path.startswith(self._pages[0] + "/")
        ):
            await self._pages[1](scope, receive, send)
            return
        if path != self._path:
            await send_body(send, 404, b"Not Found", b"text/plain; charset=utf-8")
            return
        headers = RequestHeaders(scope["headers"])
        if not self._origins.allows(headers.get("origin")):
            error = JsonRpcError(INVALID_REQUEST, "Forbidden: this Origin is not allowed")
            await send_error(send, 403, None, error)
            return
        if method != "POST":
            error = JsonRpcError(INVALID_REQUEST, f"Method Not Allowed: {method}; use POST")
            await send_error(send, 405, None, error, [(b"allow", b"POST")])
            return
        caller: Principal | None = None
        inbound: InboundToken | None = None
        if self._authenticator is not None:
            outcome = await self._authenticate(scope, headers, send)
            if outcome is None:
                return
            # the token itself, held out of sight: only token exchange reads it (peruser.exchange)
            caller, inbound = outcome, inbound_token(headers.get("authorization"))
        if not json_content(headers.get("content-type")):
            error = JsonRpcError(INVALID_REQUEST, "Unsupported Media Type: send application/json")
            await send_error(send, 415, None, error)
            return
        if not accepts(headers.get("accept")):
            error = JsonRpcError(
                INVALID_REQUEST, "Not Acceptable: accept application/json and text/event-stream"
            )
            await send_error(send, 406, None, error)
            return
        try:
            body = await self._read_body(receive, headers)
        except _TooLarge:
            limit = self._max_body_bytes
            error = JsonRpcError(INVALID_REQUEST, f"Payload Too Large: the limit is {limit} bytes")
            await send_error(send, 413, None, error)
            return
        try:
            message = loads(body)
        except (ValueError, RecursionError):
            await send_error(
                send, 400, None, JsonRpcError(PARSE_ERROR, "Parse error: invalid JSON")
            )
            return
        await self._serve(message, headers, receive, send, caller, inbound)

    async def _serve_metadata(self, method: str, send: Send) -> None:
        assert self._metadata is not None
        cors = [(b"access-control-allow-origin", b"*")]
        if method in ("GET", "HEAD"):
            await send_body(send, 200, self._metadata, headers=cors)
        else:
            await send_body(send, 405, b"", b"text/plain", [(b"allow", b"GET, HEAD"), *cors])

    async def _authenticate(
        self, scope: Scope, headers: RequestHeaders, send: Send
    ) -> Principal | None:
        """The caller, or ``None`` once refused."""
        assert self._authenticator is not None
        outcome = await self._authenticator.authenticate(
            headers.get("authorization"), scope.get("query_string", b"")
        )
        if not isinstance(outcome, AuthFailure):
            return outcome
        challenge = [(b"www-authenticate", outcome.www_authenticate.encode("latin-1", "replace"))]
        error = JsonRpcError(INVALID_REQUEST, outcome.message)
        await send_error(send, outcome.status, None, error, challenge)
        return None

    async def _read_body(self, receive: Receive, headers: RequestHeaders) -> bytes:
        declared = headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self._max_body_bytes:
            raise _TooLarge
        chunks: list[bytes] = []
        size = 0
        while True:
            event = await receive()
            if event["type"] == "http.disconnect":
                raise _Gone
            chunk = event.get("body", b"")
            size += len(chunk)
            if size > self._max_body_bytes:
                raise _TooLarge
            chunks.append(chunk)
            if not event.get("more_body", False):
                return b"".join(chunks)

    # -- the JSON-RPC layer --------------------------------------------------------------------

    async def _serve(
        self,
        message: Any,
        headers: RequestHeaders,
        receive: Receive,
        send: Send,
        caller: Principal | None = None,
        inbound: InboundToken | None = None,
    ) -> None:
        if isinstance(message, list):
            await self._serve_batch(message, headers, receive, send, caller, inbound)
            return
        try:
            envelope = check_envelope(message)
            if envelope.kind != "request":
                # notifications and (legacy) responses need no answer; a response may answer a
                # question this server asked on a request's stream
                if envelope.kind == "response":
                    self._client_requests.answer(message, headers.get(SESSION_HEADER))
                await send_body(send, 202, b"")
                return
            era = era_of(message, headers)
            if era == MODERN:
                self._check_modern(message, headers)
        except JsonRpcError as exc:
            await send_error(send, 400, readable_id(message), exc)
            return
        assert envelope.id is not None
        if era == MODERN and envelope.method == "initialize":
            # 2026-07-28 has no handshake: a modern-framed initialize names a removed method
            error = JsonRpcError(METHOD_NOT_FOUND, "Method not found: initialize")
            await send_error(send, 404, envelope.id, error)
            return
        session_id = None if era == MODERN else headers.get(SESSION_HEADER)
        level = self._sessions.log_level(session_id)
        session = None
        if era != MODERN:
            session = LegacySession(version=era, initialized=era is not None, log_level=level)
            session.id = session_id
            session.client_capabilities = self._sessions.capabilities(session_id)
        reply = ReplyStream(send)
        ask = None
        if session is not None and session.client_capabilities:
            ask = self._client_requests.asker(reply.notify, session_id, lambda: reply.closed)
        identity = _identity(caller, inbound)
        work = self._dispatcher.handle(message, session, reply.notify, ask=ask, **identity)
        answer = await self._run(work, receive, reply, cancel_on_disconnect=era == MODERN)
        if answer is None:  # only notifications have no answer, and they never get here
            answer = failure(envelope.id, JsonRpcError(INTERNAL_ERROR, "Internal error"))
        if session is not None and era is None and "result" in answer:
            minted = self._sessions.mint()
            self._sessions.remember_capabilities(minted, session.client_capabilities)
            reply.headers.append((SESSION_HEADER.encode(), minted.encode()))
        elif session is not None and session.log_level != level:
            self._sessions.remember_log_level(session_id, session.log_level)
        await reply.finish(_status(answer, era == MODERN), encode_reply(answer))

    def _check_modern(self, message: JsonObject, headers: RequestHeaders) -> None:
        """Failures before dispatch, all HTTP 400: ``_meta`` present, headers, version, capabilities."""
        params = message.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        if not isinstance(meta, dict) or PROTOCOL_VERSION_KEY not in meta:
            raise JsonRpcError(
                INVALID_PARAMS, f"Missing required _meta field {PROTOCOL_VERSION_KEY}"
            )
        check_modern_headers(headers, message, meta[PROTOCOL_VERSION_KEY], self._tool_headers)
        check_modern_meta(meta)

    async def _serve_batch(
        self,
        messages: list[Any],
        headers: RequestHeaders,
        receive: Receive,
        send: Send,
        caller: Principal | None,
        inbound: InboundToken | None = None,
    ) -> None:
        try:
            version = headers.single(PROTOCOL_VERSION_HEADER)
        except JsonRpcError as exc:
            await send_error(send, 400, None, exc)
            return
        if version not in (None, V2025_03_26):
            await send_error(send, 400, None, batch_refused())
            return
        session_id = headers.get(SESSION_HEADER)
        level = self._sessions.log_level(session_id)
        session = LegacySession(version=V2025_03_26, initialized=True, log_level=level)
        session.id = session_id

        async def no_progress(message: JsonObject) -> None:
            return None

        identity = _identity(caller, inbound)
        work = self._dispatcher.handle_batch(messages, session, no_progress, **identity)
        answer = await self._run(work, receive, ReplyStream(send), cancel_on_disconnect=False)
        if session.log_level != level:
            self._sessions.remember_log_level(session_id, session.log_level)
        if isinstance(answer, list):
            await send_body(send, 200, encode_reply(answer))
        elif answer is not None:
            await send_body(send, 400, encode_reply(answer))
        else:
            await send_body(send, 202, b"")

    async def _run(
        self,
        work: Coroutine[Any, Any, T],
        receive: Receive,
        reply: ReplyStream,
        *,
        cancel_on_disconnect: bool,
    ) -> T:
        """The handler's answer; ``_Gone`` when the client went away first.

        A modern request is cancelled on disconnect (mcp-wire §7.2); a legacy one runs to its end
        (a disconnect is not a cancellation there) but its answer is dropped.
        """
        handler = asyncio.ensure_future(work)
        watcher = asyncio.ensure_future(_wait_for_disconnect(receive))
        try:
            await asyncio.wait((handler, watcher), return_when=asyncio.FIRST_COMPLETED)
            if handler.done():
                return handler.result()
            reply.closed = True
            if cancel_on_disconnect:
                handler.cancel()
            # wait() neither raises the handler's outcome nor hides our own cancellation
            await asyncio.wait((handler,))
            raise _Gone
        finally:
            pending = [task for task in (handler, watcher) if not task.done()]
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending)


def _identity(caller: Principal | None, inbound: InboundToken | None = None) -> dict[str, Any]:
    """What the dispatcher knows of the caller: its subject (requestState is bound to it),
    (issuer, subject), which per-user credentials are stored under, and its token, held, which
    token exchange trades for the API's."""
    if caller is None or not caller.subject:
        return {}
    return {
        "subject": caller.subject,
        "caller": (caller.issuer, caller.subject),
        "inbound": inbound,
    }


def _route_path(scope: Scope) -> str:
    """The request path below the point where the app is mounted (``root_path``)."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path


def _status(reply: JsonObject, modern: bool) -> int:
    """200, except the statuses 2026-07-28 gives some errors (404 in legacy means "session gone")."""
    error = reply.get("error")
    if not modern or not isinstance(error, dict):
        return 200
    code = error.get("code")
    if code == METHOD_NOT_FOUND:
        return 404
    return 400 if code in _MODERN_400 else 200
