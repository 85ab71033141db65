"""The upstream's OAuth 2.0 authorization-code flow with PKCE, as a client: URLs, code exchange, refresh.

A ``CodeFlow`` is one client registration at the upstream's authorization server. ``new_verifier`` and
``challenge`` make the PKCE pair (RFC 7636, S256 only); ``authorize_url`` is where the user's browser is
sent (RFC 6749 §4.1.1, keeping any query the endpoint already has); ``exchange`` trades the code the
callback received for tokens and ``refresh`` renews them (RFC 6749 §4.1.3, §6), both returning the
``Credential`` the store keeps. A refresh answer without a new refresh token keeps the old one; one with
a new token replaces it (rotation, OAuth 2.1). Token requests are form-encoded POSTs, the client
authenticated with HTTP Basic, in the form, or not at all (a public client), sent without following
redirects and read up to a bound. Every failure is an ``OAuthCodeError`` whose message names the token
endpoint and what it answered (the OAuth ``error`` and its description, bounded and scrubbed), never the
client secret, a code, a verifier or a token. Stdlib + httpx only.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any, Final, Literal
from urllib.parse import parse_qsl, quote, quote_plus, urlencode, urlsplit

import httpx

from ..errors import OAuthCodeError as OAuthCodeError  # noqa: PLC0414 - re-exported
from ..upstream.token_answer import (
    error_detail,
    json_object,
    lifetime,
    read_bounded,
    usable_token,
)
from .sealing import Credential

__all__ = [
    "ClientAuth",
    "CodeFlow",
    "OAuthCodeError",
    "authorize_url",
    "challenge",
    "exchange",
    "new_verifier",
    "refresh",
    "token_client",
]

ClientAuth = Literal["client_secret_basic", "client_secret_post", "none"]

# a whole token request (connect, send, read) gives up after this long
TIMEOUT: Final = 10.0
# RFC 7636 §4.1: 43 to 128 characters of the unreserved set
_VERIFIER: Final = re.compile(r"[A-Za-z0-9\-._~]{43,128}")
_AUTHORIZE_PARAMS: Final = frozenset(
    {"response_type", "client_id", "redirect_uri", "scope", "state"}
    | {"code_challenge", "code_challenge_method"}
)


@dataclass(frozen=True, slots=True)
class CodeFlow:
    """One client registration at the upstream's authorization server.

    ``client_secret`` None is a public client. ``client_auth`` is how the client authenticates at the
    token endpoint: the default, ``client_secret_basic``, becomes ``none`` for a public client;
    ``client_secret_post`` needs a secret, ``none`` refuses one.
    """

    authorization_url: str
    token_url: str
    client_id: str
    client_secret: str | None = field(repr=False)
    redirect_uri: str
    client_auth: ClientAuth = "client_secret_basic"

    def __post_init__(self) -> None:
        for name in ("authorization_url", "token_url", "redirect_uri"):
            parts = urlsplit(getattr(self, name))
            if parts.scheme not in {"http", "https"} or not parts.hostname or parts.fragment:
                raise ValueError(f"{name} must be an http(s) URL without a fragment")
        if not self.client_id:
            raise ValueError("client_id is empty")
        if self.client_secret == "":
            raise ValueError("client_secret is empty; None means a public client")
        if self.client_secret is None and self.client_auth == "client_secret_basic":
            object.__setattr__(self, "client_auth", "none")
        elif self.client_secret is None and self.client_auth != "none":
            raise ValueError(f"client_auth {self.client_auth} needs a client secret")
        elif self.client_secret is not None and self.client_auth == "none":
            raise ValueError("client_auth none is for public clients, but a client secret is set")
        query = {name for name, _ in parse_qsl(urlsplit(self.authorization_url).query)}
        if clash := sorted(query & _AUTHORIZE_PARAMS):
            raise ValueError(f"authorization_url already sets {', '.join(clash)}")


def token_client(
    *, user_agent: str, transport: httpx.AsyncBaseTransport | None = None
) -> httpx.AsyncClient:
    """An HTTP client for token requests: no redirects, no cookies kept, bounded in time."""
    return httpx.AsyncClient(
        transport=transport,
        follow_redirects=False,
        timeout=TIMEOUT,
        headers={"User-Agent": user_agent},
        # no domain is allowed: cookies set by the token endpoint are never kept
        cookies=CookieJar(policy=DefaultCookiePolicy(allowed_domains=[])),
    )


def new_verifier() -> str:
    """A fresh PKCE code verifier: 32 random bytes as base64url without padding (43 characters)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode("ascii")


def challenge(verifier: str) -> str:
    """The S256 code challenge of ``verifier``: base64url(SHA-256(verifier)) without padding."""
    if not _VERIFIER.fullmatch(verifier):
        raise ValueError("a code verifier is 43 to 128 characters of A-Z a-z 0-9 - . _ ~")
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def authorize_url(flow: CodeFlow, *, state: str, verifier: str, scopes: Sequence[str]) -> str:
    """Where to send the user's browser: the authorization endpoint with the request's parameters."""
    scope = [("scope", " ".join(scopes))] if scopes else []
    params = [("response_type", "code"), ("client_id", flow.client_id)]
    params += [("redirect_uri", flow.redirect_uri), *scope, ("state", state)]
    params += [("code_challenge", challenge(verifier)), ("code_challenge_method", "S256")]
    parts = urlsplit(flow.authorization_url)
    ours = urlencode(params, quote_via=quote)
    query = f"{parts.query}&{ours}" if parts.query else ours
    return parts._replace(query=query).geturl()


async def exchange(
    http: httpx.AsyncClient,
    flow: CodeFlow,
    *,
    code: str,
    verifier: str,
    now: float,
    scopes: Sequence[str] = (),
    timeout: float = TIMEOUT,
) -> Credential:
    """The credential for the ``code`` the callback received; ``scopes`` (those asked for) are kept
    when the answer names none. ``now`` is the Unix time ``expires_in`` counts from."""
    form = [("grant_type", "authorization_code"), ("code", code)]
    form += [("redirect_uri", flow.redirect_uri), ("code_verifier", verifier)]
    failed = f"could not get an access token from the token endpoint {_endpoint(flow.token_url)}"
    answer = await _request(http, flow, form, failed, (code, verifier), timeout)
    return _credential(answer, failed, now, tuple(scopes), None)


async def refresh(
    http: httpx.AsyncClient,
    flow: CodeFlow,
    credential: Credential,
    *,
    now: float,
    timeout: float = TIMEOUT,
) -> Credential:
    """A renewed ``credential``: its refresh token rotated when the answer carries a new one."""
    failed = f"could not refresh the access token at the token endpoint {_endpoint(flow.token_url)}"
    old = credential.values.get("refresh_token") if credential.kind == "oauth2" else None
    if not old:
        raise OAuthCodeError(f"{failed}: the stored credential has no refresh token; sign in again")
    form = [("grant_type", "refresh_token"), ("refresh_token", old)]
    hidden = (old, credential.values["access_token"])
    answer = await _request(http, flow, form, failed, hidden, timeout)
    return _credential(answer, failed, now, credential.scopes, old)


def _endpoint(url: str) -> str:
    """The token URL without query or fragment, for messages."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


async def _request(
    http: httpx.AsyncClient,
    flow: CodeFlow,
    form: list[tuple[str, str]],
    failed: str,
    hidden: tuple[str, ...],
    timeout: float,
) -> dict[str, Any]:
    """POST ``form`` with the client's authentication; the answer's JSON object, or a refusal."""
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}
    secret, basic = flow.client_secret, ""
    if flow.client_auth == "client_secret_basic" and secret is not None:
        # RFC 6749 §2.3.1: both are form-encoded before they are joined for Basic
        pair = f"{quote_plus(flow.client_id, safe='')}:{quote_plus(secret, safe='')}"
        basic = base64.b64encode(pair.encode()).decode("ascii")
        headers["Authorization"] = f"Basic {basic}"
    else:
        form = [*form, ("client_id", flow.client_id)]
        if flow.client_auth == "client_secret_post" and secret is not None:
            form.append(("client_secret", secret))
    # what a careless server might echo: each value as sent, form-encoded, and the Basic credentials
    raw = [value for value in (*hidden, secret) if value]
    secrets_in_play = (*raw, *(quote_plus(value, safe="") for value in raw), basic)
    content = urlencode(form).encode("ascii")
    request = http.build_request("POST", flow.token_url, headers=headers, content=content)
    try:
        async with asyncio.timeout(timeout):
            response = await http.send(request, stream=True, follow_redirects=False)
            try:
                body = await read_bounded(response)
            finally:
                await response.aclose()
    except (TimeoutError, httpx.TimeoutException):
        raise OAuthCodeError(f"{failed}: timed out after {timeout:g} s") from None
    except httpx.HTTPError as error:
        cause = "could not connect" if isinstance(error, httpx.ConnectError) else "request failed"
        raise OAuthCodeError(f"{failed}: {cause} ({type(error).__name__})") from None
    if not 200 <= response.status_code < 300:
        detail = error_detail(json_object(body), secrets_in_play)
        raise OAuthCodeError(f"{failed}: HTTP {response.status_code}{detail}")
    answer = json_object(body)
    if answer is None:
        raise OAuthCodeError(f"{failed}: the answer is not a JSON object")
    return answer


def _credential(
    answer: Mapping[str, Any], failed: str, now: float, scopes: tuple[str, ...], old: str | None
) -> Credential:
    access = usable_token(answer.get("access_token"))
    if access is None:
        raise OAuthCodeError(f"{failed}: the answer has no usable access_token")
    kind = answer.get("token_type", "Bearer")
    if not isinstance(kind, str) or kind.lower() != "bearer":
        shown = "".join(c for c in str(kind)[:40] if c.isprintable())
        raise OAuthCodeError(f"{failed}: the token_type is {shown!r}, not bearer")
    values = {"access_token": access, "token_type": kind}
    new = old  # RFC 6749 §6: without a new refresh token the old one stays valid
    if answer.get("refresh_token") is not None:
        new = usable_token(answer["refresh_token"])
        if new is None:
            raise OAuthCodeError(f"{failed}: the answer's refresh_token is not usable")
    if new is not None:
        values["refresh_token"] = new
    seconds = lifetime(answer.get("expires_in"))
    granted = answer.get("scope")
    if isinstance(granted, str):
        scopes = tuple(granted.split())
    return Credential("oauth2", values, None if seconds is None else now + seconds, scopes)
