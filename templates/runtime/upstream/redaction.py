"""Keeping the upstream credentials out of everything a server says: results, messages and logs.

A ``Redactor`` knows the credential values this server was configured with and replaces them, in
every form they travel in (as is, percent-encoded, JSON-escaped, inside a Basic token), with
``***``: in upstream response bodies before they become tool results, in error messages, and in
every log record of the process (``install_log_redaction`` wraps the log record factory once, so
httpx's request log lines, which show full URLs, are covered too). ``scrub_credentials`` also blanks
credential-looking fields (``Authorization: ...``, ``api_key=...``, JWTs) in the excerpts of upstream
error bodies, where an API echoing a request is common. Values shorter than ``MIN_SECRET_LENGTH`` are
not treated as secrets: replacing them would mangle ordinary data. Stdlib only.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

from ..sensitive import scrub_fields

__all__ = [
    "MASK",
    "MIN_SECRET_LENGTH",
    "Redactor",
    "install_log_redaction",
    "scrub_credentials",
]

MIN_SECRET_LENGTH = 6
MASK = "***"

_JWT = re.compile(r"\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*")


def scrub_credentials(text: str) -> str:
    """``text`` with credential-looking fields and JWTs masked (for upstream error excerpts)."""
    text = scrub_fields(text, MASK)
    return _JWT.sub(MASK, text)


def _forms(secret: str) -> set[str]:
    return {
        secret,
        quote(secret, safe=""),
        quote(secret, safe="/:@"),
        json.dumps(secret, ensure_ascii=False)[1:-1],
        json.dumps(secret)[1:-1],
    }


class Redactor:
    """Masks a fixed set of secret values (and their encodings) in text and bytes."""

    def __init__(self, secrets: Iterable[str]) -> None:
        forms: set[str] = set()
        for secret in secrets:
            if len(secret) >= MIN_SECRET_LENGTH:
                forms |= _forms(secret)
        # longest first, so a secret containing another one is masked whole
        self._texts = sorted(forms, key=lambda s: (-len(s), s))
        self._bytes = [form.encode("utf-8") for form in self._texts]

    def __bool__(self) -> bool:
        return bool(self._texts)

    @property
    def secrets(self) -> tuple[str, ...]:
        return tuple(self._texts)

    def text(self, value: str) -> str:
        for secret in self._texts:
            if secret in value:
                value = value.replace(secret, MASK)
        return value

    def bytes(self, value: bytes) -> bytes:
        for secret in self._bytes:
            if secret in value:
                value = value.replace(secret, MASK.encode())
        return value


_lock = threading.Lock()
_log_secrets: set[str] = set()
_installed = False


def _scrub_record(record: logging.LogRecord) -> None:
    with _lock:
        secrets = sorted(_log_secrets, key=lambda s: (-len(s), s))
    if not secrets:
        return
    try:
        message = record.getMessage()
    except Exception:  # a broken log call must not break its caller
        message = str(record.msg)
    for secret in secrets:
        message = message.replace(secret, MASK)
    record.msg, record.args = message, None
    if record.exc_info and not record.exc_text:
        text = logging.Formatter().formatException(record.exc_info)
        for secret in secrets:
            text = text.replace(secret, MASK)
        record.exc_text = text


def install_log_redaction(redactor: Redactor) -> None:
    """Mask ``redactor``'s secrets in every log record created from now on, in any logger."""
    global _installed  # noqa: PLW0603 - one record factory per process
    with _lock:
        _log_secrets.update(redactor.secrets)
        if _installed:
            return
        _installed = True
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        _scrub_record(record)
        return record

    logging.setLogRecordFactory(factory)
