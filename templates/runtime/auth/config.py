"""Inbound-authentication settings read from the environment, checked once at start-up.

Variable names are built from the server's prefix (``PETSTORE_`` gives ``PETSTORE_AUTH_TOKENS``…). Empty
values count as unset. Anything unusable raises ``ValueError`` with a message that names the variable
and never repeats a token, so a misconfigured server refuses to start instead of failing (or, worse,
accepting) on its first request. Defaults: the audience is the server's canonical resource URL, the
authorization servers listed in the metadata are the issuer, and scopes match exactly unless
``AUTH_SCOPE_HIERARCHY`` says they form a hierarchy (``true`` for ``:``-separated scopes, or the
separator itself: ``:``, ``.`` or ``/``), in which a granted ``repo`` covers a required ``repo:read``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from ..environment import name as env_name
from .jwks import jwks_url_problem
from .jwt import MAX_TOKEN_LENGTH

MIN_STATIC_TOKEN_LENGTH: Final = 16
# RFC 9110 token68: what fits after "Bearer " in an Authorization header
TOKEN68: Final = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
# RFC 6749 scope-token: printable ASCII except space, '"' and '\'
_SCOPE_TOKEN: Final = re.compile(r"[\x21\x23-\x5b\x5d-\x7e]+")
# RFC 6750 §3: characters allowed inside the quoted challenge parameters
NOT_QUOTABLE: Final = re.compile(r"[^\x20\x21\x23-\x5b\x5d-\x7e]")
SCOPE_SEPARATORS: Final = (":", ".", "/")
_TRUE: Final = frozenset({"true", "yes", "on", "1"})
_FALSE: Final = frozenset({"false", "no", "off", "0"})


@dataclass(frozen=True, slots=True)
class OAuthSettings:
    """The resource-server configuration: where keys come from and what a token must say."""

    resource_url: str  # canonical URL of the MCP endpoint (RFC 8707 resource, RFC 9728 resource)
    jwks_url: str
    issuer: str
    audience: str
    required_scopes: tuple[str, ...]
    authorization_servers: tuple[str, ...]
    # scopes form a hierarchy along this separator ("repo" covers "repo:read"); None: exact match
    scope_separator: str | None = None


def _value(environ: Mapping[str, str], name: str) -> str | None:
    value = environ.get(name, "").strip()
    return value or None


def _words(value: str | None) -> tuple[str, ...]:
    """Space- or comma-separated items, de-duplicated, in their given order."""
    return tuple(dict.fromkeys(w for w in re.split(r"[\s,]+", value or "") if w))


def url_problem(url: str) -> str | None:
    """Why ``url`` cannot be a resource or issuer URL (and be quoted in a challenge), or None."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return "is not a valid URL"
    if parts.scheme not in ("http", "https") or not host:
        return "must be an absolute http(s) URL"
    if "#" in url:
        return "must not have a fragment"
    if NOT_QUOTABLE.search(url) or " " in url:
        return "contains characters that are not allowed in a URL"
    return None


def static_tokens_from_env(environ: Mapping[str, str], var: str) -> tuple[str, ...]:
    """The comma-separated tokens of ``var`` (none when unset); each a usable, not too short token."""
    raw = _value(environ, var)
    if raw is None:
        return ()
    tokens = tuple(t.strip() for t in raw.split(",") if t.strip())
    if not tokens:
        raise ValueError(f"{var} is set but holds no token (expected comma-separated tokens)")
    for position, token in enumerate(tokens, start=1):
        if not TOKEN68.fullmatch(token) or len(token) > MAX_TOKEN_LENGTH:
            raise ValueError(
                f"{var}: token {position} has characters a bearer token cannot carry "
                "(allowed: letters, digits, - . _ ~ + / and trailing =)"
            )
        if len(token) < MIN_STATIC_TOKEN_LENGTH:
            raise ValueError(
                f"{var}: token {position} is shorter than {MIN_STATIC_TOKEN_LENGTH} characters"
            )
    if len(set(tokens)) != len(tokens):
        raise ValueError(f"{var}: the same token is listed twice")
    return tokens


def oauth_settings_from_env(
    environ: Mapping[str, str], *, resource_url: str, prefix: str
) -> OAuthSettings | None:
    """The OAuth settings, or None when ``<prefix>AUTH_JWKS_URL`` and its companions are all unset."""
    names = {
        key: env_name(prefix, f"AUTH_{key}")
        for key in (
            "JWKS_URL",
            "ISSUER",
            "AUDIENCE",
            "REQUIRED_SCOPES",
            "AUTHORIZATION_SERVERS",
            "SCOPE_HIERARCHY",
        )
    }
    jwks_url = _value(environ, names["JWKS_URL"])
    if jwks_url is None:
        stray = [names[k] for k in names if k != "JWKS_URL" and _value(environ, names[k])]
        if stray:
            raise ValueError(f"{stray[0]} is set but {names['JWKS_URL']} is not (OAuth needs both)")
        return None
    problem = jwks_url_problem(jwks_url)
    if problem is not None:
        raise ValueError(f"{names['JWKS_URL']} {problem}")
    issuer = _value(environ, names["ISSUER"])
    if issuer is None:
        raise ValueError(f"{names['ISSUER']} is required when {names['JWKS_URL']} is set")
    problem = url_problem(resource_url)
    if problem is not None:
        raise ValueError(f"the server's resource URL {problem}")
    scopes = _words(_value(environ, names["REQUIRED_SCOPES"]))
    for scope in scopes:
        if not _SCOPE_TOKEN.fullmatch(scope):
            raise ValueError(f"{names['REQUIRED_SCOPES']}: a scope contains '\"' or '\\'")
        if scope == "offline_access":
            raise ValueError(
                f"{names['REQUIRED_SCOPES']}: offline_access is not a resource scope; remove it"
            )
    servers_var = names["AUTHORIZATION_SERVERS"]
    servers_raw = _value(environ, servers_var)
    servers = _words(servers_raw or issuer)
    for server in servers:
        if url_problem(server) is not None:
            hint = "" if servers_raw else f" (it defaults to {names['ISSUER']}, which is not a URL)"
            raise ValueError(f"{servers_var} must list http(s) issuer URLs{hint}")
    return OAuthSettings(
        resource_url=resource_url,
        jwks_url=jwks_url,
        issuer=issuer,
        audience=_value(environ, names["AUDIENCE"]) or resource_url,
        required_scopes=scopes,
        authorization_servers=servers,
        scope_separator=_scope_separator(environ, names["SCOPE_HIERARCHY"]),
    )


def _scope_separator(environ: Mapping[str, str], var: str) -> str | None:
    """The hierarchy separator ``var`` asks for: ``true`` means ``:``; unset or ``false``, none."""
    raw = _value(environ, var)
    if raw is None or raw.lower() in _FALSE:
        return None
    if raw.lower() in _TRUE:
        return ":"
    if raw in SCOPE_SEPARATORS:
        return raw
    raise ValueError(
        f"{var} must be true, false or one of the separators {' '.join(SCOPE_SEPARATORS)}"
    )
