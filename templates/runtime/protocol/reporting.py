"""What one request tells its client while it runs: ``notifications/progress`` (``Progress``) and
``notifications/message`` (``RequestLog``), each silent unless the client asked for it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .jsonrpc import JsonObject

__all__ = ["LOG_LEVELS", "NO_LOG", "NO_PROGRESS", "Notify", "Progress", "RequestLog"]

# sends one server notification on the channel of the request being answered
Notify = Callable[[JsonObject], Awaitable[None]]


class Progress:
    """``notifications/progress`` for one request; silent when the client sent no progress token.

    Values that do not increase are dropped, so a caller can never make progress go backwards.
    """

    __slots__ = ("_last", "_notify", "_token")

    def __init__(self, token: str | int | None, notify: Notify | None) -> None:
        self._token = token
        self._notify = notify
        self._last: float | None = None

    @classmethod
    def for_request(cls, params: Any, notify: Notify) -> Progress:
        """The reporter for a request whose ``params._meta.progressToken`` may ask for progress."""
        meta = params.get("_meta") if isinstance(params, dict) else None
        token = meta.get("progressToken") if isinstance(meta, dict) else None
        if isinstance(token, bool) or not isinstance(token, str | int):
            return NO_PROGRESS
        return cls(token, notify)

    @property
    def enabled(self) -> bool:
        return self._token is not None and self._notify is not None

    async def report(
        self, progress: float, *, total: float | None = None, message: str | None = None
    ) -> None:
        if self._token is None or self._notify is None:
            return
        if self._last is not None and progress <= self._last:
            return
        self._last = progress
        params: JsonObject = {"progressToken": self._token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message is not None:
            params["message"] = message
        await self._notify({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})


NO_PROGRESS = Progress(None, None)

# notifications/message severities, least severe first (RFC 5424 names, as MCP uses them)
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


class RequestLog:
    """``notifications/message`` for one request, at or above the level the client chose.

    Silent when the client chose no level: log messages are opt-in on both eras (a modern request's
    ``_meta`` log level, a legacy session's ``logging/setLevel``).
    """

    __slots__ = ("_logger", "_minimum", "_notify")

    def __init__(self, level: str | None, notify: Notify | None, logger: str = "") -> None:
        self._minimum = LOG_LEVELS.index(level) if level in LOG_LEVELS else None
        self._notify = notify
        self._logger = logger

    async def log(self, level: str, data: str) -> None:
        if self._minimum is None or self._notify is None:
            return
        if LOG_LEVELS.index(level) < self._minimum:
            return
        params: JsonObject = {"level": level, "data": data}
        if self._logger:
            params["logger"] = self._logger
        await self._notify({"jsonrpc": "2.0", "method": "notifications/message", "params": params})


NO_LOG = RequestLog(None, None)
