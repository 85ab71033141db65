"""The request ``_meta`` envelope of the 2026-07-28 revision, as a conforming client sends it.

Every modern request carries the protocol version and the client's capabilities in ``params._meta``
(mcp-wire §1.2); a client may add its name. ``meta()`` builds that envelope, fresh on each call so that
a test may change its copy, with the keys in the order clients send them and ``extra`` keys (a
progress token, an overridden version) merged last.
"""

from __future__ import annotations

from typing import Any

MODERN = "2026-07-28"
PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO = "io.modelcontextprotocol/clientInfo"


def meta(client: str | None = None, **extra: Any) -> dict[str, Any]:
    """The envelope; ``client`` adds ``clientInfo`` naming that client (version ``"1"``)."""
    envelope: dict[str, Any] = {PROTOCOL_VERSION: MODERN, CLIENT_CAPABILITIES: {}}
    if client is not None:
        envelope[CLIENT_INFO] = {"name": client, "version": "1"}
    envelope.update(extra)
    return envelope
