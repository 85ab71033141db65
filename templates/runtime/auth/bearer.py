"""Inbound authentication for the HTTP transport: who may call this MCP server, decided per request.

Off unless configured through the environment (variable names carry the server's prefix, e.g.
``PETSTORE_``): ``AUTH_TOKENS`` holds static bearer tokens, compared in constant time, whose callers are
named ``token-<digest of the token>`` (``static_subject``); ``AUTH_JWKS_URL`` + ``AUTH_ISSUER`` (+
``AUTH_AUDIENCE``,
``AUTH_REQUIRED_SCOPES``, ``AUTH_AUTHORIZATION_SERVERS``) make the server an OAuth 2.1 resource server
that accepts JWT access tokens (RS/PS 256/384/512 and ES256, verified with ``cryptography``, which
the ``http`` extra installs: a server configured for them without it refuses to start) issued for its
canonical URL, with the scopes it requires (``AUTH_SCOPE_HIERARCHY`` lets ``repo`` cover ``repo:read``),
and publishes RFC 9728 Protected Resource Metadata. Both may be set at once. Failures are values
(``AuthFailure``) carrying the HTTP status and the exact ``WWW-Authenticate`` challenge of MCP
authorization (2026-07-28) and RFC 6750; their messages are fixed sentences that never contain the token,
and tokens are never logged. A verified caller becomes a ``Principal`` (subject and scopes only): the
inbound token never goes to the upstream API. Token exchange (``<PREFIX>_CREDENTIALS=exchange``,
``peruser.exchange``) is the one place that reads it again, to trade it at the identity provider for
a token of the API's audience: the transport carries it there in an ``InboundToken``, a holder whose
``repr`` and ``str`` never show the value and which cannot be pickled.
"""

from __future__ import annotations

import hashlib
import hmac
import importlib.metadata
import importlib.util
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import httpx

from ..environment import name as env_name
from ..errors import CryptographyUnavailable
from .config import (
    NOT_QUOTABLE,
    TOKEN68,
    OAuthSettings,
    oauth_settings_from_env,
    static_tokens_from_env,
)
from .jwks import (
    DEFAULT_MIN_REFRESH_SECONDS,
    DEFAULT_TTL_SECONDS,
    JwksCache,
    KeysUnavailable,
)
from .jwt import (
    MAX_TOKEN_LENGTH,
    JwtError,
    check_claims,
    parse_jws,
    scopes_satisfy,
    token_scopes,
)

__all__ = [
    "AuthFailure",
    "Authenticator",
    "BearerAuthenticator",
    "CryptographyUnavailable",
    "InboundToken",
    "OAuthSettings",
    "Principal",
    "authenticator_from_env",
    "inbound_token",
    "protected_resource_metadata",
    "protected_resource_metadata_paths",
    "protected_resource_metadata_url",
]

logger = logging.getLogger(__name__)

WELL_KNOWN_PRM: Final = "/.well-known/oauth-protected-resource"
QUERY_STRING_REFUSAL: Final = (
    "access tokens are not accepted in the query string; send them in the Authorization header"
)


# the issuer of the principals static tokens name (they are not JWTs: no iss of their own)
STATIC_ISSUER: Final = "urn:openapi2mcp:static-token"


def static_subject(token: str) -> str:
    """``token-<16 hex digits>``: the caller a static token names. Derived from the token, not its
    place in the list, so that removing or reordering tokens never hands one caller another's
    identity (and, with per-user credentials, another's stored credentials)."""
    return "token-" + hashlib.sha256(b"openapi2mcp static token " + token.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Principal:
    """The authenticated caller: a subject, the scopes it was granted and who vouches for it, the
    token's issuer (:data:`STATIC_ISSUER` for a static token); never the token itself."""

    subject: str
    scopes: frozenset[str]
    issuer: str = ""


class InboundToken:
    """The bearer token of an authenticated request, kept out of sight.

    It travels from the transport to the credentials source of token exchange and nowhere else:
    ``repr`` and ``str`` show no value (so a log line, a traceback's locals or a dataclass's repr
    holding it leak nothing), it cannot be pickled, and two holders are equal only when they are the
    same object. :meth:`reveal` is the one way to the value.
    """

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The token, for the one request that needs it (the exchange at the identity provider)."""
        return self._value

    def __repr__(self) -> str:
        return "InboundToken(<hidden>)"

    __str__ = __repr__

    def __reduce__(self) -> Any:
        raise TypeError("an inbound token is not to be pickled")


def inbound_token(authorization: str | None) -> InboundToken | None:
    """The bearer token of an ``Authorization`` header that ``authenticate`` accepted, held."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return InboundToken(token)


@dataclass(frozen=True, slots=True)
class AuthFailure:
    """A refused request: HTTP status (400, 401 or 403), ``WWW-Authenticate`` value, safe message."""

    status: int
    www_authenticate: str
    message: str


class Authenticator(Protocol):
    """What the ASGI app calls for every request: the Authorization header and the raw query string."""

    async def authenticate(
        self, authorization: str | None, query_string: bytes
    ) -> Principal | AuthFailure: ...


class BearerAuthenticator:
    """Checks ``Authorization: Bearer`` against static tokens and/or JWT access tokens.

    A token in the query string (``access_token=``) is refused with **400** ``invalid_request`` even when
    a valid header is present: RFC 6750 §3.1 gives 400 for an unsupported way of sending the token and
    for using more than one, and OAuth 2.1 / MCP forbid the query string altogether, so such a request is
    malformed rather than unauthenticated. No token → 401 without an error code (RFC 6750 §3.1); a bad,
    expired or unverifiable token → 401 ``invalid_token``; a valid token lacking a required scope → 403
    ``insufficient_scope``.
    """

    def __init__(
        self,
        *,
        static_tokens: Sequence[str] = (),
        oauth: OAuthSettings | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        jwks_ttl: float = DEFAULT_TTL_SECONDS,
        jwks_min_refresh_interval: float = DEFAULT_MIN_REFRESH_SECONDS,
    ) -> None:
        if oauth is not None:
            _require_cryptography()
        self._static = tuple(hashlib.sha256(t.encode()).digest() for t in static_tokens)
        self._oauth = oauth
        self._clock = clock
        self._jwks = (
            None
            if oauth is None
            else JwksCache(
                oauth.jwks_url,
                ttl=jwks_ttl,
                min_refresh_interval=jwks_min_refresh_interval,
                transport=transport,
                monotonic=monotonic,
            )
        )

    @property
    def oauth(self) -> OAuthSettings | None:
        return self._oauth

    async def authenticate(
        self, authorization: str | None, query_string: bytes
    ) -> Principal | AuthFailure:
        if _has_query_token(query_string):
            return self._failure(400, "invalid_request", QUERY_STRING_REFUSAL)
        scheme, _, token = (authorization or "").strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            message = (
                "the Authorization header does not carry a Bearer token"
                if scheme and scheme.lower() != "bearer"
                else "this server requires a bearer token"
            )
            return AuthFailure(401, self._bare_challenge(), message)
        if len(token) > MAX_TOKEN_LENGTH or not TOKEN68.fullmatch(token):
            return self._failure(401, "invalid_token", "the bearer token is malformed")
        index = self._static_index(token)
        if index:
            scopes = frozenset(self._oauth.required_scopes) if self._oauth else frozenset()
            return Principal(static_subject(token), scopes, STATIC_ISSUER)
        if self._oauth is None or self._jwks is None:
            return self._failure(401, "invalid_token", "the bearer token is not accepted")
        return await self._check_jwt(token, self._oauth, self._jwks)

    def _static_index(self, token: str) -> int:
        # compare with every configured token, digests of equal length, no early exit
        presented = hashlib.sha256(token.encode()).digest()
        found = 0
        for index, digest in enumerate(self._static, start=1):
            if hmac.compare_digest(presented, digest) and not found:
                found = index
        return found

    async def _check_jwt(
        self, token: str, oauth: OAuthSettings, jwks: JwksCache
    ) -> Principal | AuthFailure:
        try:
            jws = parse_jws(token)
            jwk = await jwks.key_for(jws.kid, jws.alg)
            if not jwk.verify(jws.alg, jws.signing_input, jws.signature):
                raise JwtError("the token's signature does not verify")
            subject = check_claims(
                jws.claims, issuer=oauth.issuer, audience=oauth.audience, now=self._clock()
            )
        except JwtError as exc:
            logger.debug("bearer token refused: %s", exc)
            return self._failure(401, "invalid_token", str(exc))
        except KeysUnavailable:
            return self._failure(
                401,
                "invalid_token",
                "the token cannot be verified now: the authorization server's keys are unavailable",
            )
        scopes = token_scopes(jws.claims)
        if not scopes_satisfy(scopes, oauth.required_scopes, oauth.scope_separator):
            return self._failure(
                403, "insufficient_scope", "the token lacks a scope this server requires"
            )
        return Principal(subject=subject, scopes=scopes, issuer=oauth.issuer)

    def _bare_challenge(self) -> str:
        # the MCP example for 401: resource_metadata first, then scope; no error code without a token
        if self._oauth is None:
            return "Bearer"
        params = [("resource_metadata", protected_resource_metadata_url(self._oauth.resource_url))]
        if self._oauth.required_scopes:
            params.append(("scope", " ".join(self._oauth.required_scopes)))
        return _challenge(params)

    def _failure(self, status: int, error: str, message: str) -> AuthFailure:
        # the MCP example for 403: error, scope, resource_metadata, error_description
        params = [("error", error)]
        if self._oauth is not None:
            if self._oauth.required_scopes:
                params.append(("scope", " ".join(self._oauth.required_scopes)))
            url = protected_resource_metadata_url(self._oauth.resource_url)
            params.append(("resource_metadata", url))
        params.append(("error_description", message))
        return AuthFailure(status, _challenge(params), message)


def _require_cryptography() -> None:
    # only looked up here, so a misinstalled server stops at start-up; imported on the first token
    if importlib.util.find_spec("cryptography") is not None:
        return
    top = (__package__ or __name__).partition(".")[0]
    distribution = next(iter(importlib.metadata.packages_distributions().get(top, [])), top)
    raise CryptographyUnavailable(
        "verifying OAuth access tokens (AUTH_JWKS_URL) needs the 'cryptography' package of the "
        f"'http' extra: pip install '{distribution}[http]'"
    )


def _challenge(params: list[tuple[str, str]]) -> str:
    quoted = (f'{name}="{NOT_QUOTABLE.sub("?", value)}"' for name, value in params)
    return "Bearer " + ", ".join(quoted)


def _has_query_token(query_string: bytes) -> bool:
    if not query_string:
        return False
    pairs = parse_qsl(query_string.decode("latin-1"), keep_blank_values=True)
    return any(name == "access_token" for name, _ in pairs)


def authenticator_from_env(
    environ: Mapping[str, str],
    *,
    resource_url: str,
    prefix: str = "",
    transport: httpx.AsyncBaseTransport | None = None,
    clock: Callable[[], float] = time.time,
    monotonic: Callable[[], float] = time.monotonic,
) -> BearerAuthenticator | None:
    """The authenticator the environment asks for, or None when authentication is off.

    ``resource_url`` is this server's canonical MCP endpoint URL (e.g. ``https://mcp.example.com/mcp``);
    it is the default audience and the PRM ``resource``. Misconfiguration raises ``ValueError`` naming
    the variable, so it surfaces at start-up rather than on the first request; so does OAuth without
    ``cryptography`` installed (``CryptographyUnavailable``, a ``ValueError`` naming the extra).
    """
    tokens = static_tokens_from_env(environ, env_name(prefix, "AUTH_TOKENS"))
    oauth = oauth_settings_from_env(environ, resource_url=resource_url, prefix=prefix)
    if not tokens and oauth is None:
        return None
    if oauth is not None:
        logger.info("HTTP authentication: OAuth access tokens from issuer %s", oauth.issuer)
    if tokens:
        logger.info("HTTP authentication: %d static bearer token(s)", len(tokens))
    return BearerAuthenticator(
        static_tokens=tokens, oauth=oauth, transport=transport, clock=clock, monotonic=monotonic
    )


# -- Protected Resource Metadata (RFC 9728) --------------------------------------------------------


def protected_resource_metadata_url(resource_url: str) -> str:
    """The PRM URL for a resource: the well-known suffix inserted before the path (RFC 9728 §3.1)."""
    parts = urlsplit(resource_url)
    path = "" if parts.path in ("", "/") else parts.path
    return urlunsplit((parts.scheme, parts.netloc, WELL_KNOWN_PRM + path, parts.query, ""))


def protected_resource_metadata_paths(endpoint: str) -> tuple[str, ...]:
    """The paths the ASGI app serves PRM at, for an endpoint path (``/mcp``) or URL: both forms."""
    path = urlsplit(endpoint).path if "://" in endpoint else endpoint
    path = path.strip("/")
    return (f"{WELL_KNOWN_PRM}/{path}", WELL_KNOWN_PRM) if path else (WELL_KNOWN_PRM,)


def protected_resource_metadata(
    source: Authenticator | Mapping[str, str] | None,
    *,
    resource_url: str | None = None,
    prefix: str = "",
) -> dict[str, Any] | None:
    """The RFC 9728 document, or None when OAuth is not configured (static tokens have no PRM).

    ``source`` is the authenticator from ``authenticator_from_env`` or the environment itself (then
    ``resource_url`` and ``prefix`` are needed, as for ``authenticator_from_env``).
    """
    if isinstance(source, Mapping):
        if resource_url is None:
            raise TypeError(
                "resource_url is required when the metadata is built from the environment"
            )
        oauth = oauth_settings_from_env(source, resource_url=resource_url, prefix=prefix)
    elif isinstance(source, BearerAuthenticator):
        oauth = source.oauth
    else:
        oauth = None
    if oauth is None:
        return None
    document: dict[str, Any] = {
        "resource": oauth.resource_url,
        "authorization_servers": list(oauth.authorization_servers),
    }
    if oauth.required_scopes:
        document["scopes_supported"] = list(oauth.required_scopes)
    document["bearer_methods_supported"] = ["header"]
    return document
