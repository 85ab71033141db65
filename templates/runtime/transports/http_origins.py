"""Which browser origins may call the HTTP endpoint: the ``Origin`` allow-list (mcp-wire §8.2).

A browser page on another site could otherwise reach a server on the user's machine (DNS rebinding),
so every request that carries ``Origin`` must name an allowed origin; requests without one come from
non-browser clients and pass. An allow-list entry is ``scheme://host`` (that origin with its default
port), ``scheme://host:port``, ``scheme://host:*`` (any port) or ``*`` (any origin: only behind a
gateway that checks origins itself). The default allows the loopback names on any port. Stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

ANY_PORT = "*"
DEFAULT_ALLOWED_ORIGINS = (
    "http://localhost:*",
    "https://localhost:*",
    "http://127.0.0.1:*",
    "https://127.0.0.1:*",
    "http://[::1]:*",
    "https://[::1]:*",
)
_DEFAULT_PORTS = {"http": "80", "https": "443"}
# scheme "://" host (a name, an IPv4 address or a bracketed IPv6 address) [":" port]
_ORIGIN = re.compile(
    r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%!$&'()*+,;=-]+)"
    r"(?::(?P<port>[0-9]{1,5}|\*))?"
)


@dataclass(frozen=True, slots=True)
class _Entry:
    scheme: str
    host: str
    port: str  # digits, or ANY_PORT


def _parse(origin: str, *, pattern: bool) -> _Entry | None:
    match = _ORIGIN.fullmatch(origin.strip())
    if match is None:
        return None
    scheme = match["scheme"].lower()
    port = match["port"]
    if port == ANY_PORT and not pattern:
        return None
    if port is None:
        port = _DEFAULT_PORTS.get(scheme, "")
    elif port != ANY_PORT:
        port = str(int(port))
    return _Entry(scheme, match["host"].lower(), port)


class OriginPolicy:
    """Decides whether a request's ``Origin`` header is acceptable."""

    def __init__(self, allowed: Iterable[str] = DEFAULT_ALLOWED_ORIGINS) -> None:
        self._any = False
        self._entries: list[_Entry] = []
        for item in allowed:
            if item.strip() == "*":
                self._any = True
                continue
            entry = _parse(item, pattern=True)
            if entry is None:
                raise ValueError(f"not an origin: {item[:80]!r}")
            self._entries.append(entry)

    def allows(self, origin: str | None) -> bool:
        """``None`` (no header) is a non-browser client; ``"null"`` and garbage are refused."""
        if origin is None or self._any:
            return True
        requested = _parse(origin, pattern=False)
        if requested is None:
            return False
        return any(
            entry.scheme == requested.scheme
            and entry.host == requested.host
            and entry.port in (ANY_PORT, requested.port)
            for entry in self._entries
        )


def parse_allowed_origins(text: str) -> tuple[str, ...]:
    """An allow-list from a setting: entries separated by commas and/or whitespace.

    Raises ``ValueError`` naming the first entry that is not an origin pattern.
    """
    items = tuple(item for item in re.split(r"[\s,]+", text) if item)
    OriginPolicy(items)
    return items
