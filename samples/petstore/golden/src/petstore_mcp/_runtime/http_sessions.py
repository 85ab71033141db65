"""Legacy ``Mcp-Session-Id`` values over HTTP: minted stateless, plus a bounded memo of log levels.

A legacy ``initialize`` answered over HTTP carries an ``Mcp-Session-Id`` (mcp-wire §8.3) so that
clients which need one (to open several streams, to poll) can proceed. The id is stateless: random
bytes followed by their HMAC under a key drawn when the process starts, URL-safe base64 (visible
ASCII). Nothing is stored when one is minted, requests are served the same with or without one, and
the modern path never looks at it. The only use is ``logging/setLevel``: the level a session chose is
remembered per id in a bounded, least-recently-used memo of this process, and only for ids this
process minted (a forged id cannot fill the memo). Behind a load balancer another replica does not
know the level, so that request gets no log notifications, which is the safe direction.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
from collections import OrderedDict
from typing import Final

SESSION_HEADER: Final = "mcp-session-id"
DEFAULT_MEMO_SIZE: Final = 4096
_NONCE_BYTES: Final = 16
_TAG_BYTES: Final = 16


class LegacySessionIds:
    """Mints and recognises this process's session ids; remembers each one's log level."""

    def __init__(self, memo_size: int = DEFAULT_MEMO_SIZE, key: bytes | None = None) -> None:
        self._key = key if key is not None else secrets.token_bytes(32)
        self._memo_size = memo_size
        self._levels: OrderedDict[str, str] = OrderedDict()

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
        if session_id is None or session_id not in self._levels:
            return None
        self._levels.move_to_end(session_id)
        return self._levels[session_id]

    def remember_log_level(self, session_id: str | None, level: str | None) -> None:
        if level is None or not self.minted_here(session_id):
            return
        assert session_id is not None
        self._levels[session_id] = level
        self._levels.move_to_end(session_id)
        while len(self._levels) > self._memo_size:
            self._levels.popitem(last=False)

    def _tag(self, nonce: bytes) -> bytes:
        return hmac.new(self._key, nonce, hashlib.sha256).digest()[:_TAG_BYTES]
