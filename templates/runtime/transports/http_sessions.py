"""Legacy ``Mcp-Session-Id`` values over HTTP: minted stateless, plus a bounded memo of log levels.

A legacy ``initialize`` answered over HTTP carries an ``Mcp-Session-Id`` (mcp-wire §8.3) so that
clients which need one (to open several streams, to poll) can proceed. The id is stateless: random
bytes followed by their HMAC under a key drawn when the process starts, URL-safe base64 (visible
ASCII). Nothing is stored when one is minted, requests are served the same with or without one, and
the modern path never looks at it. Two things are remembered per id, in a bounded, least-recently-used
memo of this process and only for ids this process minted (a forged id cannot fill the memo): the
level ``logging/setLevel`` chose and the capabilities the client declared in ``initialize`` (so it
can be asked, with ``elicitation/create``, on a request's SSE stream). Behind a load balancer another
replica knows neither, so that request gets no log notifications and no questions: the old
behaviour, which is the safe direction.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final

SESSION_HEADER: Final = "mcp-session-id"
DEFAULT_MEMO_SIZE: Final = 4096
_NONCE_BYTES: Final = 16
_TAG_BYTES: Final = 16


@dataclass(slots=True)
class _Memo:
    level: str | None = None
    capabilities: dict[str, Any] | None = None


class LegacySessionIds:
    """Mints and recognises this process's session ids; remembers each one's log level."""

    def __init__(self, memo_size: int = DEFAULT_MEMO_SIZE, key: bytes | None = None) -> None:
        self._key = key if key is not None else secrets.token_bytes(32)
        self._memo_size = memo_size
        self._memos: OrderedDict[str, _Memo] = OrderedDict()

    def mint(self) -> str:
        nonce = secrets.token_bytes(_NONCE_BYTES)
        return base64.urlsafe_b64encode(nonce + self._tag(nonce)).decode("ascii").rstrip("=")

    def minted_here(self, session_id: str | None) -> bool:
        if session_id is None or len(session_id) > 64:
            return False
        try:
            raw = base64.urlsafe_b64decode(session_id + "=" * (-len(session_id) % 4))
        except (binascii.Error, ValueError):
            return False
        nonce, tag = raw[:_NONCE_BYTES], raw[_NONCE_BYTES:]
        return len(nonce) == _NONCE_BYTES and hmac.compare_digest(tag, self._tag(nonce))

    def log_level(self, session_id: str | None) -> str | None:
        memo = self._recall(session_id)
        return memo.level if memo is not None else None

    def remember_log_level(self, session_id: str | None, level: str | None) -> None:
        if level is not None:
            memo = self._memo_for(session_id)
            if memo is not None:
                memo.level = level

    def capabilities(self, session_id: str | None) -> dict[str, Any] | None:
        """What the client declared in ``initialize`` (elicitation, sampling, roots...)."""
        memo = self._recall(session_id)
        return memo.capabilities if memo is not None else None

    def remember_capabilities(self, session_id: str | None, declared: Any) -> None:
        if isinstance(declared, dict):
            memo = self._memo_for(session_id)
            if memo is not None:
                memo.capabilities = declared

    def _recall(self, session_id: str | None) -> _Memo | None:
        if session_id is None or session_id not in self._memos:
            return None
        self._memos.move_to_end(session_id)
        return self._memos[session_id]

    def _memo_for(self, session_id: str | None) -> _Memo | None:
        if not self.minted_here(session_id):
            return None
        assert session_id is not None
        memo = self._memos.get(session_id) or _Memo()
        self._memos[session_id] = memo
        self._memos.move_to_end(session_id)
        while len(self._memos) > self._memo_size:
            self._memos.popitem(last=False)
        return memo

    def _tag(self, nonce: bytes) -> bytes:
        return hmac.new(self._key, nonce, hashlib.sha256).digest()[:_TAG_BYTES]
