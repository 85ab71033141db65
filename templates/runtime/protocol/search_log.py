"""The search log: what dynamic and code modes' search was asked, and which operations were called.

Opt-in (``<PREFIX>_SEARCH_LOG=FILE``). Each ``search_operations`` appends a line with the query and
the names it found, best first; each operation ``call_operation`` or a ``run_code`` program runs
appends a line with its name and whether the API answered with success. ``openapi2mcp examples``
reads such logs back and pairs each successful call with the search that found it: the phrasings
that led to an operation, to review and give the generator as search examples (``--search-examples``),
so that the next generated server finds it first for them.

A line is a JSON object written with one ``write`` to a file opened for appending (replicas may
share the file). No arguments and no results are written, only the query, operation names, the time
and ``by``: a keyed hash of who the caller was (HMAC-SHA256 with ``<PREFIX>_STATE_SECRET`` when
set, else a key of this process): whom the request was authenticated as (issuer and subject, either
era), else its legacy HTTP session. One user's calls pair with that user's searches without the log
saying who anyone is; callers neither authenticated nor in a session (stdio's one client, or
2026-07-28 requests without authentication) have no ``by`` and pair as one. The query is the model's words and
may carry what a user said: the file is created readable by its owner only. A write that fails (a
full disk) is reported once on the server's log and never fails the call.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Sequence
from typing import Any

from ..ask.interaction import Interaction

logger = logging.getLogger(__name__)

# how much of a caller's hash is written: enough to tell callers apart
_BY_HEX = 16
# an authenticated caller: who vouches for them, and who they are (issuer, subject)
Caller = tuple[str, str]
# what stands for the issuer of a caller known by its legacy session only
_SESSION = "mcp-session"


def caller_of(interaction: Interaction) -> Caller | None:
    """Who made a request, for the log: whom it was authenticated as, else its legacy HTTP
    session (an unauthenticated caller is one for as long as its session lasts), else nobody
    known (every such caller pairs as one)."""
    if interaction.caller is not None:
        return interaction.caller
    return (_SESSION, interaction.session_id) if interaction.session_id else None


class SearchLog:
    """Appends search and call records to one file (``<PREFIX>_SEARCH_LOG``)."""

    def __init__(self, path: str, secret: bytes | None = None) -> None:
        """Open ``path`` for appending (``OSError`` if it cannot be)."""
        self.path = path
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        self._fd = os.open(path, flags, 0o600)
        self._key = secret or secrets.token_bytes(32)
        self._lock = threading.Lock()
        self._failed = False

    def searched(self, query: str, found: Sequence[str], caller: Caller | None) -> None:
        self._write({"search": query, "found": list(found)}, caller)

    def called(self, operation: str, ok: bool, caller: Caller | None) -> None:
        self._write({"called": operation, "ok": ok}, caller)

    def close(self) -> None:
        with self._lock:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1

    def _write(self, record: dict[str, Any], caller: Caller | None) -> None:
        line: dict[str, Any] = {"at": round(time.time(), 3), **record}
        if caller is not None:
            line["by"] = self._by(caller)
        data = (json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        with self._lock:
            try:
                if self._fd < 0:
                    raise OSError("the search log is closed")
                os.write(self._fd, data)
            except OSError as exc:
                if not self._failed:
                    self._failed = True
                    logger.warning("search log %s: cannot write (%s); calls go on", self.path, exc)

    def _by(self, caller: Caller) -> str:
        issuer, subject = caller
        who = f"{issuer}\n{subject}".encode()
        return hmac.new(self._key, who, hashlib.sha256).hexdigest()[:_BY_HEX]
