"""Requests this server sends to a legacy client, and the responses that come back.

Legacy revisions (2025-06-18, 2025-11-25) ask the user through server-initiated requests:
``elicitation/create`` (and ``sampling/createMessage``, ``roots/list``) sent while a ``tools/call`` is
in flight. A transport sends the request its own way (a stdout line; an event on the call's SSE
stream) and hands every response it receives to ``answer``. Request ids are random, so a response
cannot be guessed or confused with another; an ``owner`` (the legacy HTTP session id) must match
too. A request that gets no response within the timeout, or whose transport closes, fails with
``AskError``. 2026-07-28 never uses this: it asks with ``input_required`` results instead.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Final

from ..protocol.jsonrpc import JsonObject
from .interaction import Asker, AskError

DEFAULT_ASK_TIMEOUT: Final = 600.0

Send = Callable[[JsonObject], Awaitable[None]]


class ClientRequests:
    """The server-initiated requests awaiting a response, keyed by request id."""

    def __init__(self, timeout: float = DEFAULT_ASK_TIMEOUT) -> None:
        self._timeout = timeout
        self._waiting: dict[str, tuple[str | None, asyncio.Future[JsonObject]]] = {}

    def asker(
        self, send: Send, owner: str | None = None, gone: Callable[[], bool] | None = None
    ) -> Asker:
        """An ``Asker`` that sends with ``send``; ``gone`` says the channel closed meanwhile."""

        async def ask(method: str, params: JsonObject) -> JsonObject:
            request_id = "s-" + secrets.token_urlsafe(12)
            future: asyncio.Future[JsonObject] = asyncio.get_running_loop().create_future()
            self._waiting[request_id] = (owner, future)
            try:
                await send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
                if gone is not None and gone():
                    raise AskError("the client is no longer connected")
                return await asyncio.wait_for(future, self._timeout)
            except TimeoutError:
                raise AskError(f"no answer to {method} in {self._timeout:g} s") from None
            finally:
                self._waiting.pop(request_id, None)

        return ask

    def answer(self, message: Any, owner: str | None = None) -> bool:
        """Deliver a response; ``False`` when it answers nothing this server is waiting for."""
        if not isinstance(message, dict) or not isinstance(message.get("id"), str):
            return False
        entry = self._waiting.get(message["id"])
        if entry is None or entry[0] != owner or entry[1].done():
            return False
        future = entry[1]
        result, error = message.get("result"), message.get("error")
        if isinstance(result, dict):
            future.set_result(result)
        elif isinstance(error, dict):
            text = error.get("message")
            future.set_exception(AskError(f"the client answered with an error: {text}"[:300]))
        else:
            future.set_exception(AskError("the client's answer has no result"))
        return True
