"""A request ready to send upstream, and the request a redirect asks for.

``Prepared`` is what ``upstream.Upstream`` assembled for one call: method, URL (with any credential
query parameters), the URL as shown (without them), headers, body and what is secret about it, so
that it can be sent again when retried. ``follow_redirect`` turns a redirect answer into the next
request, or says why there is none: only GET and HEAD follow redirects (and the GET a ``303 See
Other`` asks for); credentials, cookies and the extra headers of ``<PREFIX>_HEADERS`` stay with the
API's own origin; and a public API cannot send a call to a loopback, link-local or private address
(the check looks at literal addresses and ``localhost``, not at what a name resolves to). Stdlib only.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Protocol
from urllib.parse import urlsplit

from .redaction import Redactor

# response headers every result shows when they come: how to page on (RFC 8288's Link, a total,
# the range a 206 or a ranged 200 holds and of how many: PostgREST's "0-1/8"), a download's name
TOLD_HEADERS = ("link", "x-total-count", "content-range", "content-disposition")
MAX_HEADER_CHARS = 2000

__all__ = [
    "MAX_HEADER_CHARS",
    "REDIRECTS",
    "TOLD_HEADERS",
    "Prepared",
    "follow_redirect",
    "origin_of",
]

REDIRECTS = frozenset({301, 302, 303, 307, 308})
_SEE_OTHER = 303
_FOLLOWED_METHODS = frozenset({"GET", "HEAD"})


class RedirectAnswer(Protocol):
    """What ``follow_redirect`` reads of a response."""

    @property
    def status(self) -> int: ...

    @property
    def location(self) -> str: ...


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}"


@dataclass(frozen=True, slots=True)
class Prepared:
    """A request ready to send (again, when retried)."""

    method: str
    url: str
    public_url: str
    headers: list[tuple[bytes, bytes]]
    content: bytes | None
    secrets: list[str]
    # scheme://host:port the request goes to, for messages
    origin: str = ""
    # client-credentials schemes still to authorize, then the (scheme, scopes, token) sent
    oauth: tuple[str, ...] = ()
    tokens: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    # headers (lower-case names) that carry credentials, and the secret query pairs
    credential_headers: frozenset[bytes] = frozenset()
    secret_query: tuple[str, ...] = ()
    auth_hint: str = ""
    sent_credentials: str = ""
    # the method the caller asked for, when a 303 turned this request into a GET
    asked_method: str = ""
    # masks the caller's own credentials (per-user mode) in what comes back; None: the server's
    personal: Redactor | None = None
    # the response headers a result shows beside the body (the operation's documented ones)
    told_headers: tuple[str, ...] = ()

    def mask(self, body: bytes) -> bytes:
        """``body`` with the caller's own credentials masked too (per-user mode)."""
        return body if self.personal is None else self.personal.bytes(body)

    def told(self, headers: Mapping[str, str], redactor: Redactor) -> tuple[tuple[str, str], ...]:
        """The ``told_headers`` an answer has, credentials masked (a Link may carry a query key)."""
        return tuple(
            (name, self.mask(redactor.bytes(value.encode())).decode(errors="replace"))
            for name in self.told_headers
            if (value := headers.get(name, "")[:MAX_HEADER_CHARS])
        )


def follow_redirect(prepared: Prepared, response: RedirectAnswer) -> tuple[Prepared | None, str]:
    """The request the redirect ``response`` asks for, or ``None`` and why it is not made."""
    method = prepared.method
    content = prepared.content
    headers = prepared.headers
    if response.status == _SEE_OTHER and method not in _FOLLOWED_METHODS:
        # "see other": the request was handled; its result is fetched with a GET
        method, content = "GET", None
        headers = [(k, v) for k, v in headers if k.lower() != b"content-type"]
    elif method not in _FOLLOWED_METHODS:
        return None, f"only GET and HEAD requests follow redirects; the {method} was not resent"
    target = response.location
    parts = urlsplit(target)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None, "its Location is not an http(s) URL"
    origin = origin_of(target)
    same_origin = origin == prepared.origin
    secret_query = prepared.secret_query if same_origin else ()
    url = target
    if secret_query:
        url += ("&" if parts.query else "?") + "&".join(secret_query)
    if not same_origin:
        if _private(parts.hostname) and not _private(urlsplit(prepared.url).hostname or ""):
            return None, "it points to a private or loopback address"
        # credentials and the configured extra headers stay with the API's own origin
        dropped = prepared.credential_headers | {b"cookie"}
        headers = [(k, v) for k, v in headers if k.lower() not in dropped]
    followed = replace(
        prepared,
        method=method,
        url=url,
        public_url=target,
        headers=headers,
        content=content,
        origin=origin,
        secret_query=secret_query,
        secrets=prepared.secrets if same_origin else [],
        asked_method=prepared.asked_method or prepared.method,
    )
    return followed, ""


def _private(host: str) -> bool:
    """Whether ``host`` names this machine or a private network (literal addresses and localhost)."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_private or address.is_loopback or address.is_link_local
