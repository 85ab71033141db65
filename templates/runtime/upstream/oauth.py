"""OAuth2 access tokens the server fetches for the upstream API: requested, cached and refreshed.

``OAuthTokens`` gets the tokens of every ``oauth2ClientCredentials`` and ``oauth2Password`` scheme
of one ``Upstream``: it POSTs ``grant_type=client_credentials``, or ``grant_type=password`` with the
user name and password (RFC 6749 §4.4, §4.3), and the scopes an operation needs, to the scheme's
token URL, form-encoded, authenticating the client with HTTP Basic (§2.3.1; for a password grant
only when a client id is set). A token is cached per scheme and scope set until shortly before its
``expires_in`` (without one, until the API rejects it); ``invalidate`` drops a token the API
rejected (``rejected``: a 401, or a 403 that names the token), so the next call fetches a fresh one.
However many calls need a token at once, one request is made and all of them share its outcome (a
failure too). Token requests use their own small client (no custom hooks, no cookies, no redirects),
bounded in time and size. A failure is a ``TokenError`` whose message names the scheme, the token
endpoint and what it answered (the OAuth ``error`` code and description, scrubbed), never a secret,
a password or a token; every token obtained is handed to ``on_token`` so the caller can keep it out
of results and logs. Stdlib + httpx only.
"""

from __future__ import annotations

import asyncio
import base64
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http.cookiejar import CookieJar, DefaultCookiePolicy
from urllib.parse import quote_plus, urlencode, urlsplit

import httpx

from ..catalog.model import OAuth2ClientCredentialsScheme, OAuth2PasswordScheme, SecurityScheme
from ..errors import TokenError
from .token_answer import (
    error_detail,
    json_object,
    lifetime,
    malformed,
    read_bounded,
    usable_token,
)

__all__ = ["FetchedScheme", "OAuthTokens", "TokenError", "clock", "fetched", "rejected"]

# the clock token lifetimes are measured with (replaced in tests)
clock: Callable[[], float] = time.monotonic
# a token is renewed this long before it expires (at most a tenth of its lifetime)
REFRESH_MARGIN = 30.0

Scopes = tuple[str, ...]
# a 403 that speaks of the token itself (Airflow's "Invalid JWT token" to one revoked at sign-out or
# signed with a rotated key, dstack's to a wrong one), not of a permission it lacks
_TOKEN_REFUSED = re.compile(rb"token|jwt|expired|signature", re.IGNORECASE)


def rejected(status: int, body: bytes) -> bool:
    """Whether an answer rejects the token it was sent with, so that a fresh one may be asked
    for: a 401, or a 403 whose body names the token."""
    return status == 401 or (status == 403 and _TOKEN_REFUSED.search(body[:4096]) is not None)


# the schemes whose tokens the server fetches itself
FetchedScheme = OAuth2ClientCredentialsScheme | OAuth2PasswordScheme


def fetched(scheme: SecurityScheme) -> FetchedScheme:
    """``scheme``, one whose tokens the server fetches (an ``AssertionError`` for another)."""
    assert scheme["type"] == "oauth2ClientCredentials" or scheme["type"] == "oauth2Password"
    return scheme


@dataclass(frozen=True, slots=True)
class _Token:
    value: str
    # clock() value after which the token is renewed; None: until the API rejects it
    renew_at: float | None


def _endpoint(url: str) -> str:
    """The token URL without query or fragment, for messages."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


class OAuthTokens:
    """Access tokens of an API's client-credentials and password schemes, per scheme and scope
    set."""

    def __init__(
        self,
        *,
        environ: Mapping[str, str],
        user_agent: str,
        timeout: float,
        transport: httpx.AsyncBaseTransport | None,
        describe: Callable[[BaseException], str],
        on_token: Callable[[str], None],
    ) -> None:
        self._environ = environ
        self._user_agent = user_agent
        self._timeout = timeout
        self._transport = transport
        # a short cause for a transport failure ("connection refused"), as upstream words it
        self._describe = describe
        self._on_token = on_token
        self._tokens: dict[tuple[str, Scopes], _Token] = {}
        self._inflight: dict[tuple[str, Scopes], asyncio.Task[_Token]] = {}
        self._http: httpx.AsyncClient | None = None

    async def aclose(self) -> None:
        for task in self._inflight.values():
            task.cancel()
        self._inflight.clear()
        if self._http is not None:
            client, self._http = self._http, None
            await client.aclose()

    async def token(self, name: str, scheme: FetchedScheme, token_url: str, scopes: Scopes) -> str:
        """A valid token for ``scopes``: cached, or fetched once for every caller waiting on it."""
        key = (name, scopes)
        cached = self._tokens.get(key)
        if cached is not None and (cached.renew_at is None or clock() < cached.renew_at):
            return cached.value
        task = self._inflight.get(key)
        if task is None:
            task = asyncio.get_running_loop().create_task(
                self._fetch(name, scheme, token_url, scopes)
            )
            self._inflight[key] = task
            task.add_done_callback(lambda done: self._settle(key, done))
        # a caller that gives up (cancellation) must not cancel the request the others wait for
        token = await asyncio.shield(task)
        return token.value

    def invalidate(self, name: str, scopes: Scopes, value: str) -> None:
        """Forget ``value`` if it is still the cached token (the API rejected it)."""
        cached = self._tokens.get((name, scopes))
        if cached is not None and cached.value == value:
            del self._tokens[(name, scopes)]

    def _settle(self, key: tuple[str, Scopes], task: asyncio.Task[_Token]) -> None:
        if self._inflight.get(key) is task:
            del self._inflight[key]
        if task.cancelled():
            return
        if task.exception() is None:  # retrieving the exception also marks it as seen
            self._tokens[key] = task.result()

    def _client(self) -> httpx.AsyncClient:
        if self._http is None:
            self._http = httpx.AsyncClient(
                transport=self._transport,
                follow_redirects=False,
                timeout=self._timeout,
                headers={"User-Agent": self._user_agent},
                # no domain is allowed: cookies set by the token endpoint are never kept
                cookies=CookieJar(policy=DefaultCookiePolicy(allowed_domains=[])),
            )
        return self._http

    def _read(self, env: str) -> str:
        return (self._environ.get(env) or "").strip()

    async def _fetch(
        self, name: str, scheme: FetchedScheme, token_url: str, scopes: Scopes
    ) -> _Token:
        client_id = self._read(scheme["clientIdEnv"])
        secret = self._read(scheme["clientSecretEnv"])
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
        }
        if client_id or scheme["type"] == "oauth2ClientCredentials":
            # RFC 6749 §2.3.1: both are form-encoded before they are joined for Basic
            pair = f"{quote_plus(client_id, safe='')}:{quote_plus(secret, safe='')}"
            basic = base64.b64encode(pair.encode("utf-8")).decode("ascii")
            headers["Authorization"] = f"Basic {basic}"
        hidden = [secret]
        if scheme["type"] == "oauth2Password":
            password = self._read(scheme["passwordEnv"])
            hidden.append(password)
            form = [
                ("grant_type", "password"),
                ("username", self._read(scheme["usernameEnv"])),
                ("password", password),
            ]
        else:
            form = [("grant_type", "client_credentials")]
        if scopes:
            form.append(("scope", " ".join(scopes)))
        where = f"the token endpoint {_endpoint(token_url)}"
        failed = f"could not get an access token for {name!r} from {where}"
        started = clock()
        try:
            async with asyncio.timeout(self._timeout):
                response = await self._client().send(
                    self._client().build_request(
                        "POST",
                        token_url,
                        headers=headers,
                        content=urlencode(form).encode("ascii"),
                    ),
                    stream=True,
                )
                try:
                    body = await read_bounded(response)
                finally:
                    await response.aclose()
        except (TimeoutError, httpx.TimeoutException):
            raise TokenError(f"{failed}: timed out after {self._timeout:g} s") from None
        except httpx.HTTPError as exc:
            raise TokenError(f"{failed}: {self._scrub(self._describe(exc), hidden)}") from None
        if not 200 <= response.status_code < 300:
            answer = json_object(body)
            told = f"{failed}: HTTP {response.status_code}{error_detail(answer, tuple(hidden))}"
            if response.status_code in (400, 422) and malformed(answer):
                # LNbits declares the password flow and reads a JSON body at its endpoint
                told += (
                    "; the endpoint did not read the form an OAuth 2.0 token request is, so the "
                    "credentials were not checked"
                )
            elif response.status_code in (400, 401, 403):  # the credentials sent, refused
                told += f"; check {' and '.join(_signed_in_with(scheme, client_id))}"
            raise TokenError(told)
        token = _parse(body, started)
        if token is None:
            raise TokenError(
                f"{failed}: the answer is not a JSON object with a bearer access_token"
            )
        self._on_token(token.value)
        return token

    @staticmethod
    def _scrub(text: str, hidden: list[str]) -> str:
        for secret in hidden:
            text = text.replace(secret, "***") if secret else text
        return text


def _parse(body: bytes, started: float) -> _Token | None:
    value = json_object(body)
    if value is None:
        return None
    token = usable_token(value.get("access_token"))
    kind = value.get("token_type", "bearer")
    if token is None or not isinstance(kind, str) or kind.lower() != "bearer":
        return None
    seconds = lifetime(value.get("expires_in"))
    renew_at = None
    if seconds is not None:
        renew_at = started + seconds - min(REFRESH_MARGIN, seconds / 10)
    return _Token(token, renew_at)


def _signed_in_with(scheme: FetchedScheme, client_id: str) -> list[str]:
    """The variables whose values a token request sent: the user's name and password (and the
    client's, when set) in the password flow, the client's id and secret otherwise."""
    client = [scheme["clientIdEnv"], scheme["clientSecretEnv"]]
    if scheme["type"] == "oauth2Password":
        return [scheme["usernameEnv"], scheme["passwordEnv"], *(client if client_id else [])]
    return client
