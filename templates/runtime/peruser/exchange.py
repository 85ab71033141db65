"""Token exchange (RFC 8693): each call carries a token the identity provider issued for the API,
in trade for the caller's own access token, which is never forwarded.

With ``<PREFIX>_CREDENTIALS=exchange`` (HTTP with OAuth inbound authentication, ``AUTH_JWKS_URL``,
only), an API behind the same identity provider as this server is called with a token of its own
audience: :meth:`TokenExchange.credentials` posts the caller's inbound access token to
``<PREFIX>_EXCHANGE_TOKEN_URL`` as the ``subject_token`` (grant type ``token-exchange``, subject and
requested token types ``access_token``), with ``audience`` (``<PREFIX>_EXCHANGE_AUDIENCE``, a
logical name the identity provider knows the API by), ``resource`` (``<PREFIX>_EXCHANGE_RESOURCE``,
the API's URI, RFC 8707; at least one of the two must be set, so the token is never one for this
server) and ``scope`` (the operation's scopes for the scheme, space separated, when it declares any).
The client authenticates with HTTP Basic when ``<PREFIX>_EXCHANGE_CLIENT_SECRET`` is set, sends only
its ``client_id`` when just ``<PREFIX>_EXCHANGE_CLIENT_ID`` is, and nothing otherwise. The answer
(§2.2.1) must carry an ``access_token`` that is not the caller's own, an ``issued_token_type`` of
``access_token`` when it names one, and a ``token_type`` of ``Bearer`` (``N_A`` is refused: RFC 8693
gives it to tokens that are not usable as access tokens; a missing one is taken as Bearer). Issued
tokens are cached per principal (issuer, subject) and scope set, in this process's memory only (each
replica exchanges for itself; restarts start empty), until shortly before ``expires_in`` runs out; an
answer without ``expires_in`` serves its one call. Concurrent calls of one principal share one
exchange. The exchanged token goes into the operation's bearer-type schemes (``http`` bearer,
``oauth2``, ``openIdConnect``; an ``oauth2`` client-credentials scheme takes it in place of the
server's own token). An operation whose every alternative needs an ``apiKey`` or ``basic`` scheme
cannot be called in this mode; one that also allows anonymous access is sent without credentials.
Every failure is an ``UpstreamError`` (the call's ``isError`` result) naming the token endpoint and
its ``error``/``error_description`` (§2.2.2, bounded, printable, scrubbed): never the inbound token,
the issued token or the client secret. stdio keeps the environment's credentials.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final
from urllib.parse import quote_plus, urlencode, urlsplit

import httpx

from ..auth.jwks import is_loopback_host
from ..catalog.model import OperationSpec, SecurityScheme, UpstreamInfo
from ..environment import name as env_name
from ..errors import UpstreamError
from ..upstream.token_answer import error_detail, json_object, lifetime, read_bounded
from .oauth_code import TIMEOUT, token_client
from .service import EXCHANGE, credentials_mode

if TYPE_CHECKING:
    from ..auth.bearer import InboundToken

__all__ = [
    "ACCESS_TOKEN_TYPE",
    "GRANT_TYPE",
    "ExchangeSettings",
    "TokenExchange",
    "exchange_from_env",
]

logger = logging.getLogger(__name__)

GRANT_TYPE: Final = "urn:ietf:params:oauth:grant-type:token-exchange"
ACCESS_TOKEN_TYPE: Final = "urn:ietf:params:oauth:token-type:access_token"  # noqa: S105 - a name
# a cached token is reused until this long before it expires (half its lifetime when shorter)
EXPIRY_MARGIN: Final = 30.0
# principals x scope sets kept at most; the oldest entry goes first
MAX_CACHED: Final = 10_000
# catalog scheme types that send an access token as Authorization: Bearer
BEARER_TYPES: Final = frozenset({"bearer", "oauth2ClientCredentials", "oauth2Password"})
NOTHING_SENT: Final = "nothing was sent to the API"
# what an access token printed by a careless server may look like, even cut short: a JWT's parts
Caller = tuple[str, str]
_Key = tuple[str, str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class ExchangeSettings:
    """Where and how to exchange: the token endpoint, the API's audience and/or resource, the
    client's registration (no id: no client authentication; a secret: HTTP Basic)."""

    token_url: str
    audience: str | None = None
    resource: str | None = None
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)

    @classmethod
    def from_env(cls, environ: Mapping[str, str], prefix: str) -> ExchangeSettings:
        """The settings of ``<PREFIX>_EXCHANGE_*``; ``ValueError`` names the unusable variable."""
        names = {
            key: env_name(prefix, f"EXCHANGE_{key}")
            for key in ("TOKEN_URL", "AUDIENCE", "RESOURCE", "CLIENT_ID", "CLIENT_SECRET")
        }
        values = {key: (environ.get(var) or "").strip() or None for key, var in names.items()}
        mode = env_name(prefix, "CREDENTIALS")
        token_url = values["TOKEN_URL"]
        if token_url is None:
            raise ValueError(
                f"{mode}=exchange trades each caller's access token at the identity provider's "
                f"token endpoint: set {names['TOKEN_URL']}"
            )
        problem = _url_problem(token_url, loopback_http=True)
        if problem is not None:
            raise ValueError(f"{names['TOKEN_URL']} {problem}")
        if values["AUDIENCE"] is None and values["RESOURCE"] is None:
            raise ValueError(
                f"{mode}=exchange asks for a token of the API's audience: set "
                f"{names['AUDIENCE']} (the name the identity provider knows the API by) or "
                f"{names['RESOURCE']} (the API's URI)"
            )
        resource = values["RESOURCE"]
        if resource is not None and (problem := _url_problem(resource)) is not None:
            raise ValueError(f"{names['RESOURCE']} {problem}")
        if values["CLIENT_SECRET"] is not None and values["CLIENT_ID"] is None:
            raise ValueError(f"{names['CLIENT_SECRET']} is set but {names['CLIENT_ID']} is not")
        return cls(
            token_url,
            values["AUDIENCE"],
            resource,
            values["CLIENT_ID"],
            values["CLIENT_SECRET"],
        )


def _url_problem(url: str, *, loopback_http: bool = False) -> str | None:
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return "is not a valid URL"
    if not host or "#" in url or any(c.isspace() or not c.isprintable() for c in url):
        return "must be an absolute URL without a fragment"
    if not loopback_http:
        return None if parts.scheme in ("http", "https") else "must be an http(s) URL"
    if parts.scheme == "https" or (parts.scheme == "http" and is_loopback_host(host)):
        return None
    # the endpoint receives every caller's access token: as the JWKS URL, https only
    return "must be an https:// URL (plain http is allowed only for 127.0.0.1, ::1 and localhost)"


@dataclass(frozen=True, slots=True)
class _Cached:
    token: str
    reuse_until: float


class TokenExchange:
    """The ``UserCredentials`` of exchange mode: each caller's exchanged tokens, cached."""

    def __init__(
        self,
        info: UpstreamInfo,
        settings: ExchangeSettings,
        *,
        issuer: str,
        api: str,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.monotonic,
        timeout: float = TIMEOUT,
    ) -> None:
        self._schemes: Mapping[str, SecurityScheme] = info["securitySchemes"]
        self._settings = settings
        # the identity provider whose access tokens can be exchanged (the inbound JWT issuer)
        self._issuer = issuer
        self._api = api
        self._transport = transport
        self._clock = clock
        self._timeout = timeout
        self._cache: dict[_Key, _Cached] = {}
        self._pending: dict[_Key, asyncio.Future[str]] = {}
        self._http: httpx.AsyncClient | None = None
        parts = urlsplit(settings.token_url)
        self._endpoint = f"{parts.scheme}://{parts.netloc}{parts.path}"

    async def credentials(
        self, caller: Caller, spec: OperationSpec, *, inbound: InboundToken | None = None
    ) -> dict[str, str]:
        """The variables of the operation's first all-bearer alternative, each holding a token
        exchanged for the caller's; ``{}`` when the operation may go anonymously instead.

        Raises ``UpstreamError`` when the operation needs another kind of scheme, the request was
        not authenticated by the identity provider, or the exchange fails.
        """
        chosen = self._alternative(spec)
        if not chosen:
            return {}
        if inbound is None or caller[0] != self._issuer:
            raise UpstreamError(
                f"This server calls {self._api} with a token exchanged for your own access token "
                f"from {self._issuer}, and this request was not authenticated with one; "
                f"{NOTHING_SENT}."
            )
        scopes = spec.get("scopes", {})
        values: dict[str, str] = {}
        for name in chosen:
            wanted = tuple(sorted(set(scopes.get(name, ()))))
            variable = _token_variable(self._schemes[name])
            values[variable] = await self._token(caller, wanted, inbound)
        return values

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    def _alternative(self, spec: OperationSpec) -> list[str]:
        """The first alternative whose every scheme takes a bearer token; ``[]`` for anonymous
        access or no security at all."""
        anonymous, refused = False, ""
        for alternative in spec["security"]:
            if not alternative:
                anonymous = True
                continue
            other = [n for n in alternative if self._kind(n) not in BEARER_TYPES]
            if not other:
                return list(alternative)
            refused = refused or other[0]
        if anonymous or not refused:
            return []
        kind = self._kind(refused) or "unknown"
        raise UpstreamError(
            f"This operation needs the {refused} scheme ({kind}), which this server cannot fill: "
            f"it calls {self._api} with tokens exchanged for each caller's, and exchange mode "
            f"issues bearer tokens only; {NOTHING_SENT}."
        )

    def _kind(self, name: str) -> str | None:
        scheme = self._schemes.get(name)
        return None if scheme is None else scheme["type"]

    # -- the cache -----------------------------------------------------------------------------

    async def _token(self, caller: Caller, scopes: tuple[str, ...], inbound: InboundToken) -> str:
        key: _Key = (caller[0], caller[1], scopes)
        cached = self._cache.get(key)
        if cached is not None and self._clock() < cached.reuse_until:
            return cached.token
        pending = self._pending.get(key)
        if pending is None:
            # one exchange per principal and scope set at a time; a caller who goes away does not
            # cancel it for the others
            pending = asyncio.ensure_future(self._exchange(key, scopes, inbound))
            self._pending[key] = pending

            def settled(done: asyncio.Future[str]) -> None:
                self._pending.pop(key, None)
                if not done.cancelled():
                    done.exception()  # seen here, so an abandoned failure is not reported again

            pending.add_done_callback(settled)
        return await asyncio.shield(pending)

    def _remember(self, key: _Key, token: str, lifetime: float | None) -> None:
        if lifetime is None:
            return
        margin = min(EXPIRY_MARGIN, lifetime / 2)
        now = self._clock()
        self._cache.pop(key, None)
        if len(self._cache) >= MAX_CACHED:
            for stale in [k for k, v in self._cache.items() if v.reuse_until <= now]:
                del self._cache[stale]
            while len(self._cache) >= MAX_CACHED:
                del self._cache[next(iter(self._cache))]
        self._cache[key] = _Cached(token, now + lifetime - margin)

    # -- the request ---------------------------------------------------------------------------

    async def _exchange(self, key: _Key, scopes: tuple[str, ...], inbound: InboundToken) -> str:
        subject_token = inbound.reveal()
        settings = self._settings
        form = [
            ("grant_type", GRANT_TYPE),
            ("subject_token", subject_token),
            ("subject_token_type", ACCESS_TOKEN_TYPE),
            ("requested_token_type", ACCESS_TOKEN_TYPE),
        ]
        if settings.audience is not None:
            form.append(("audience", settings.audience))
        if settings.resource is not None:
            form.append(("resource", settings.resource))
        if scopes:
            form.append(("scope", " ".join(scopes)))
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
        }
        basic = ""
        if settings.client_secret is not None and settings.client_id is not None:
            # RFC 6749 §2.3.1: both are form-encoded before they are joined for Basic
            pair = f"{quote_plus(settings.client_id, safe='')}:"
            pair += quote_plus(settings.client_secret, safe="")
            basic = base64.b64encode(pair.encode()).decode("ascii")
            headers["Authorization"] = f"Basic {basic}"
        elif settings.client_id is not None:
            form.append(("client_id", settings.client_id))
        raw = [value for value in (subject_token, settings.client_secret) if value]
        hidden = (*raw, *(quote_plus(value, safe="") for value in raw), basic)
        failed = (
            f"Could not exchange your access token for a {self._api} token at the token endpoint "
            f"{self._endpoint}"
        )
        try:
            status, body = await self._post(urlencode(form).encode("ascii"), headers, failed)
            token, lifetime = _issued(status, body, failed, subject_token, hidden)
        except UpstreamError as exc:
            logger.warning("token exchange failed: %s", exc)
            raise
        self._remember(key, token, lifetime)
        logger.info("token exchanged for a caller (scopes: %s)", " ".join(scopes) or "none")
        return token

    async def _post(
        self, content: bytes, headers: dict[str, str], failed: str
    ) -> tuple[int, bytes]:
        if self._http is None:
            self._http = token_client(
                user_agent=f"{self._api} MCP server", transport=self._transport
            )
        http = self._http
        request = http.build_request(
            "POST", self._settings.token_url, headers=headers, content=content
        )
        try:
            async with asyncio.timeout(self._timeout):
                response = await http.send(request, stream=True, follow_redirects=False)
                try:
                    body = await read_bounded(response)
                finally:
                    await response.aclose()
        except (TimeoutError, httpx.TimeoutException):
            raise UpstreamError(
                f"{failed}: timed out after {self._timeout:g} s; {NOTHING_SENT}"
            ) from None
        except httpx.HTTPError as error:
            cause = "could not connect" if isinstance(error, httpx.ConnectError) else "failed"
            raise UpstreamError(
                f"{failed}: {cause} ({type(error).__name__}); {NOTHING_SENT}"
            ) from None
        return response.status_code, body


def _token_variable(scheme: SecurityScheme) -> str:
    """The variable whose value the scheme's strategy sends as ``Authorization: Bearer``."""
    match scheme["type"]:
        case "bearer" | "oauth2ClientCredentials" | "oauth2Password":
            # a scheme that fetches its tokens sends a token found there as is, instead
            return scheme["env"]
        case other:
            raise ValueError(f"a {other} scheme takes no bearer token")


def _issued(
    status: int, body: bytes, failed: str, subject_token: str, hidden: Sequence[str]
) -> tuple[str, float | None]:
    """The issued token and its lifetime from the endpoint's answer (RFC 8693 §2.2)."""
    answer = json_object(body)
    if not 200 <= status < 300:
        raise UpstreamError(
            f"{failed}: HTTP {status}{error_detail(answer, hidden)}; {NOTHING_SENT}"
        )
    if answer is None:
        raise UpstreamError(f"{failed}: the answer is not a JSON object; {NOTHING_SENT}")
    token = answer.get("access_token")
    if not isinstance(token, str) or not token.strip() or any(c in token for c in "\r\n\0"):
        raise UpstreamError(f"{failed}: the answer has no usable access_token; {NOTHING_SENT}")
    token = token.strip()
    if token == subject_token:
        # an endpoint that hands the caller's token back would make this server forward it
        raise UpstreamError(
            f"{failed}: the answer holds your own access token, which is never forwarded; "
            f"{NOTHING_SENT}"
        )
    issued_type = answer.get("issued_token_type", ACCESS_TOKEN_TYPE)
    if issued_type != ACCESS_TOKEN_TYPE:
        raise UpstreamError(
            f"{failed}: the issued_token_type is {_shown(issued_type)}, not an access token; "
            f"{NOTHING_SENT}"
        )
    kind = answer.get("token_type", "Bearer")
    if not isinstance(kind, str) or kind.lower() != "bearer":
        raise UpstreamError(
            f"{failed}: the token_type is {_shown(kind)}, not Bearer; {NOTHING_SENT}"
        )
    return token, lifetime(answer.get("expires_in"))


def _shown(value: object) -> str:
    return repr("".join(c for c in str(value)[:60] if c.isprintable()))


def exchange_from_env(
    info: UpstreamInfo,
    environ: Mapping[str, str],
    *,
    prefix: str,
    api: str,
    issuer: str | None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> TokenExchange | None:
    """Exchange mode as the environment configures it (None: another mode).

    ``issuer`` is the inbound OAuth (JWT) issuer, None when callers are not authenticated with the
    identity provider's tokens. Raises ``ValueError`` naming the variables for anything unusable,
    before any request.
    """
    if credentials_mode(info, environ, prefix) != EXCHANGE:
        return None
    if issuer is None:
        mode = env_name(prefix, "CREDENTIALS")
        jwks, iss = env_name(prefix, "AUTH_JWKS_URL"), env_name(prefix, "AUTH_ISSUER")
        tokens = env_name(prefix, "AUTH_TOKENS")
        raise ValueError(
            f"{mode}=exchange trades each caller's OAuth access token at the identity provider, "
            f"so callers must sign in with its tokens: set {jwks} and {iss} (static tokens of "
            f"{tokens} are not the identity provider's and cannot be exchanged)"
        )
    settings = ExchangeSettings.from_env(environ, prefix)
    logger.info("upstream credentials: tokens exchanged at %s", urlsplit(settings.token_url).netloc)
    return TokenExchange(info, settings, issuer=issuer, api=api, transport=transport)
