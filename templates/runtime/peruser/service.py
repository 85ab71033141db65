"""Per-user credentials at work: which credentials a caller's call carries, and the sign-in links.

With ``<PREFIX>_CREDENTIALS=per-user`` (HTTP with inbound authentication only), a call carries the
caller's own credentials from the encrypted store (``store.py``), keyed by (issuer, subject, scheme);
the server's environment credentials are never used for an API scheme. :meth:`PerUser.credentials`
returns them as the variables the security-scheme strategies read (``upstream/schemes.py``), an OAuth
token refreshed (and its refresh token rotated) when it has expired; or, when the caller has none
for any alternative of the operation's security, a :class:`SignIn`: a single-use link (10 minutes)
to a page this server serves under ``<public URL>-signin/``. The link is a random nonce and nothing
else: no credential, no personal data.

The pages (:meth:`PerUser.asgi`): opening the link consumes it and shows a form bound to a new
single-use token. The person first proves they are the caller the link was made for: they enter the
MCP access token their client uses for this server, which is authenticated as the transport does
and must name the same (issuer, subject), else nothing is stored. Then they enter an API key, a
bearer token or a user name and password, or, for an ``oauth2`` scheme with an authorization-code
flow, are sent to the API's authorization server (PKCE, ``state`` single-use and tied to this
browser by a cookie) and back to ``-signin/callback``. ``POST -signin/revoke`` with the MCP bearer
token deletes every credential stored for its caller. No page or log line ever holds a credential.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import parse_qsl, urlsplit

import httpx

from ..catalog.model import AuthorizationCodeSpec, OperationSpec, SecurityScheme, UpstreamInfo
from ..environment import name as env_name
from ..errors import OAuthCodeError, TokenStoreError
from .oauth_code import CodeFlow, authorize_url, exchange, refresh, token_client
from .pages import Field, done_page, problem_page, security_headers, signin_page
from .sealing import Credential, CredentialKind, parse_store_key
from .store import CredentialStore, LazyStore

if TYPE_CHECKING:
    from ..auth.bearer import InboundToken

logger = logging.getLogger(__name__)

LINK_SECONDS: Final = 600
SIGNIN_SUFFIX: Final = "-signin"
_COOKIE: Final = "mcp_signin"
_MAX_FORM_BYTES: Final = 16 * 1024
# what a key-entry page asks for, per kind: (form field, label, secret)
_FIELDS: Final[Mapping[str, tuple[Field, ...]]] = {
    "apiKey": (Field("value", "API key", secret=True),),
    "bearer": (Field("token", "Access token", secret=True),),
    "basic": (Field("username", "User name", secret=False), Field("password", "Password", True)),
}
Caller = tuple[str, str]
# authenticates an MCP bearer token as the transport does: (issuer, subject), or None
Verify = Callable[[str], Any]


@dataclass(frozen=True, slots=True)
class SignIn:
    """The caller has no usable credentials: the link to give them, and why."""

    url: str
    message: str
    scheme: str


@dataclass(frozen=True, slots=True)
class _Principal:
    issuer: str
    subject: str


class PerUser:
    """The per-user credentials of one server: lookups for calls, and the sign-in pages."""

    def __init__(
        self,
        info: UpstreamInfo,
        store: CredentialStore | LazyStore,
        *,
        verify: Verify,
        public_url: str,
        api: str,
        environ: Mapping[str, str],
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._schemes: Mapping[str, SecurityScheme] = info["securitySchemes"]
        self._store = store
        self._verify = verify
        self._signin_url = public_url.rstrip("/") + SIGNIN_SUFFIX
        self._path = urlsplit(self._signin_url).path
        self._secure = urlsplit(public_url).scheme == "https"
        self._api = api
        self._environ = environ
        self._transport = transport
        self._clock = clock

    @property
    def path(self) -> str:
        """Where the pages live (``/mcp-signin``), below which the transport routes to them."""
        return self._path

    @property
    def redirect_uri(self) -> str:
        return self._signin_url + "/callback"

    async def start(self) -> None:
        """Open the store (at start-up: an unusable one stops the server there)."""
        if isinstance(self._store, LazyStore):
            await self._store.start()

    async def aclose(self) -> None:
        await self._store.close()

    # -- calls ---------------------------------------------------------------------------------

    async def credentials(
        self, caller: Caller, spec: OperationSpec, *, inbound: InboundToken | None = None
    ) -> dict[str, str] | SignIn:
        """The variables the first alternative the caller can satisfy needs, or where to sign in.

        An alternative without schemes (anonymous access) is taken when no other one is satisfied.
        ``inbound`` (the caller's MCP token) is not used: stored credentials are the caller's own.
        """
        owner = _Principal(*caller)
        anonymous, first_missing = False, ""
        scopes = spec.get("scopes", {})
        for alternative in spec["security"]:
            if not alternative:
                anonymous = True
                continue
            found: dict[str, str] = {}
            for name in alternative:
                values = await self._values(owner, name)
                if values is None:
                    first_missing = first_missing or name
                    break
                found.update(values)
            else:
                return found
        if anonymous or not first_missing:
            return {}
        return await self._link(owner, first_missing, scopes.get(first_missing, []))

    async def _values(self, owner: _Principal, name: str) -> dict[str, str] | None:
        scheme = self._schemes.get(name)
        if scheme is None:
            return None
        if scheme["type"] == "oauth2ClientCredentials":
            # the server's own client identity, not a user's: from the environment
            names = (scheme["clientIdEnv"], scheme["clientSecretEnv"], scheme["env"])
            return {env: self._environ[env] for env in names if env in self._environ}
        stored = await self._store.get(owner, name)
        if stored is None:
            return None
        if stored.kind == "oauth2" and stored.expired(self._clock()):
            stored = await self._refreshed(owner, name, scheme, stored)
            if stored is None:
                return None
        return _as_variables(scheme, stored)

    async def _refreshed(
        self, owner: _Principal, name: str, scheme: SecurityScheme, stored: Credential
    ) -> Credential | None:
        flow = self._flow(scheme, refreshing=True)
        if flow is None or "refresh_token" not in stored.values:
            return None
        try:
            async with self._http() as http:
                fresh = await refresh(http, flow, stored, now=self._clock())
        except OAuthCodeError as exc:
            logger.info("refreshing the %s token of a caller failed: %s", name, exc)
            await self._store.delete(owner, name)
            return None
        await self._store.put(owner, name, fresh)
        return fresh

    async def _link(self, owner: _Principal, scheme: str, scopes: list[str]) -> SignIn:
        nonce = secrets.token_urlsafe(32)
        record = {
            "issuer": owner.issuer,
            "subject": owner.subject,
            "scheme": scheme,
            # what the operation needs of an OAuth scheme; asked for at its authorization server
            "scopes": sorted(set(scopes)),
        }
        await self._store.put_pending("link:" + nonce, record, LINK_SECONDS)
        minutes = LINK_SECONDS // 60
        message = (
            f"This call needs your own {self._api} credentials ({scheme}). Open the link to "
            f"connect your account (it works once, for {minutes} minutes), then retry the request."
        )
        return SignIn(f"{self._signin_url}/{nonce}", message, scheme)

    def _flow(self, scheme: SecurityScheme, *, refreshing: bool = False) -> CodeFlow | None:
        """The scheme's authorization-code flow (for a refresh: its ``refreshUrl``, if any)."""
        if scheme["type"] != "bearer" or "authorizationCode" not in scheme:
            return None
        code: AuthorizationCodeSpec = scheme["authorizationCode"]
        secret = (self._environ.get(code["clientSecretEnv"]) or "").strip() or None
        token_url = code["tokenUrl"]
        if refreshing:
            token_url = code.get("refreshUrl") or token_url
        return CodeFlow(
            authorization_url=code["authorizationUrl"],
            token_url=token_url,
            client_id=(self._environ.get(code["clientIdEnv"]) or "").strip(),
            client_secret=secret,
            redirect_uri=self.redirect_uri,
            client_auth="client_secret_basic" if secret else "none",
        )

    def _http(self) -> httpx.AsyncClient:
        # no redirects followed, no cookies kept
        return token_client(user_agent=f"{self._api} MCP server", transport=self._transport)

    # -- the pages -----------------------------------------------------------------------------

    async def asgi(self, scope: Mapping[str, Any], receive: Any, send: Any) -> None:
        """Serve one request below :attr:`path`."""
        rest = str(scope.get("path", "")).removeprefix(self._path)
        method = scope.get("method", "GET")
        try:
            if method == "GET" and rest == "/callback":
                await self._callback(scope, send)
            elif method == "POST" and rest == "/submit":
                await self._submit(scope, receive, send)
            elif method == "POST" and rest == "/revoke":
                await self._revoke(scope, send)
            elif method == "GET" and rest.startswith("/") and "/" not in rest[1:]:
                await self._open(rest[1:], send)
            else:
                await _page(send, 404, problem_page(title="Not found", message="No such page."))
        except TokenStoreError as exc:
            logger.error("per-user sign-in: %s", exc)
            page = problem_page(title="Try again later", message="The server cannot store it now.")
            await _page(send, 503, page)

    async def _open(self, nonce: str, send: Any) -> None:
        record = await self._store.take_pending("link:" + nonce)
        if record is None:
            await _page(send, 410, _expired())
            return
        await self._form(send, record)

    async def _form(self, send: Any, record: Mapping[str, Any], error: str = "") -> None:
        scheme = self._schemes[record["scheme"]]
        token = secrets.token_urlsafe(32)
        await self._store.put_pending("form:" + token, dict(record), LINK_SECONDS)
        oauth = self._flow(scheme) is not None
        page = signin_page(
            api=self._api,
            scheme=record["scheme"],
            action=f"{self._path}/submit",
            form_token=token,
            fields=() if oauth else _FIELDS.get(_kind(scheme), ()),
            identity=True,
            oauth=oauth,
            error=error,
        )
        await _page(send, 200 if not error else 400, page, self._form_action(scheme))

    def _form_action(self, scheme: SecurityScheme) -> str:
        flow = self._flow(scheme)
        if flow is None:
            return "'self'"
        parts = urlsplit(flow.authorization_url)
        return f"'self' {parts.scheme}://{parts.netloc}"

    async def _submit(self, scope: Mapping[str, Any], receive: Any, send: Any) -> None:
        form = await _read_form(receive)
        record = await self._store.take_pending("form:" + form.get("form_token", ""))
        if record is None:
            await _page(send, 410, _expired())
            return
        caller = await self._verify(form.get("mcp_token", "").strip())
        if caller != (record["issuer"], record["subject"]):
            # a wrong token, or another person's: nothing is stored and the link is spent
            page = problem_page(
                title="Not your link",
                message="This link was made for someone else's request, or the MCP access token "
                "is not the one your client uses. Nothing was saved. Retry the request to get a "
                "new link.",
            )
            await _page(send, 403, page)
            return
        owner, name = _Principal(*caller), record["scheme"]
        scheme = self._schemes[name]
        flow = self._flow(scheme)
        if flow is not None:
            await self._authorize(send, dict(record), flow, scheme)
            return
        kind = _kind(scheme)
        values = {f.name: form.get(f.name, "").strip() for f in _FIELDS[kind]}
        if not all(values.values()) or any(c in v for v in values.values() for c in "\r\n\0"):
            await self._form(send, record, "Fill in every field, each on one line.")
            return
        await self._store.put(owner, name, Credential(kind, values))
        logger.info("per-user credentials stored for scheme %s", name)
        await _page(send, 200, done_page(api=self._api, scheme=name))

    async def _authorize(
        self, send: Any, record: dict[str, Any], flow: CodeFlow, scheme: SecurityScheme
    ) -> None:
        state, verifier, browser = (secrets.token_urlsafe(32) for _ in range(3))
        record.update(verifier=verifier, browser=browser)
        await self._store.put_pending("state:" + state, record, LINK_SECONDS)
        scopes = record.get("scopes", ())
        location = authorize_url(flow, state=state, verifier=verifier, scopes=scopes)
        cookie = f"{_COOKIE}={browser}; Path={self._path}; Max-Age={LINK_SECONDS}; HttpOnly"
        cookie += "; SameSite=Lax" + ("; Secure" if self._secure else "")
        headers = [
            *security_headers(self._form_action(scheme)),
            (b"location", location.encode("ascii")),
            (b"set-cookie", cookie.encode("ascii")),
        ]
        await send({"type": "http.response.start", "status": 303, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    async def _callback(self, scope: Mapping[str, Any], send: Any) -> None:
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        record = await self._store.take_pending("state:" + query.get("state", ""))
        if record is None:
            await _page(send, 410, _expired())
            return
        if not hmac.compare_digest(_cookie(scope).encode(), str(record["browser"]).encode()):
            page = problem_page(
                title="Not your link",
                message="This sign-in was started in another browser. Nothing was saved.",
            )
            await _page(send, 403, page)
            return
        name = record["scheme"]
        flow = self._flow(self._schemes[name])
        if "code" not in query or flow is None:
            why = query.get("error_description") or query.get("error") or "no authorization code"
            page = problem_page(title="Not connected", message=f"The sign-in failed: {why[:200]}")
            await _page(send, 400, page)
            return
        try:
            async with self._http() as http:
                credential = await exchange(
                    http,
                    flow,
                    code=query["code"],
                    verifier=record["verifier"],
                    now=self._clock(),
                    scopes=record.get("scopes", ()),
                )
        except OAuthCodeError as exc:
            await _page(send, 502, problem_page(title="Not connected", message=str(exc)))
            return
        await self._store.put(_Principal(record["issuer"], record["subject"]), name, credential)
        logger.info("per-user OAuth tokens stored for scheme %s", name)
        await _page(send, 200, done_page(api=self._api, scheme=name))

    async def _revoke(self, scope: Mapping[str, Any], send: Any) -> None:
        headers = dict(scope.get("headers", []))
        authorization = headers.get(b"authorization", b"").decode("latin-1")
        kind, _, token = authorization.partition(" ")
        caller = await self._verify(token.strip()) if kind.lower() == "bearer" else None
        if caller is None:
            body = b'{"error":"invalid_token"}'
            await _json(send, 401, body, [(b"www-authenticate", b"Bearer")])
            return
        removed = await self._store.revoke_all(_Principal(*caller))
        await _json(send, 200, b'{"revoked":%d}' % removed)


def _kind(scheme: SecurityScheme) -> CredentialKind:
    match scheme["type"]:
        case "apiKey" | "bearer" | "basic" as kind:
            return kind
        case "oauth2Password":
            return "bearer"  # a user's own access token, as for any sign-in the server cannot run
        case other:
            raise ValueError(f"a {other} scheme takes no per-user credentials")


def _as_variables(scheme: SecurityScheme, stored: Credential) -> dict[str, str] | None:
    """The stored credential as the variables the scheme's strategy reads."""
    values = stored.values
    if scheme["type"] == "apiKey" and stored.kind == "apiKey":
        return {scheme["env"]: values["value"]}
    if scheme["type"] in ("bearer", "oauth2Password") and stored.kind in ("bearer", "oauth2"):
        return {scheme["env"]: values.get("token") or values["access_token"]}
    if scheme["type"] == "basic" and stored.kind == "basic":
        return {
            scheme["usernameEnv"]: values["username"],
            scheme["passwordEnv"]: values["password"],
        }
    return None


def _expired() -> bytes:
    return problem_page(
        title="This link has expired",
        message="Sign-in links work once, for a few minutes. Retry the request in your MCP client "
        "to get a new one.",
    )


def _cookie(scope: Mapping[str, Any]) -> str:
    jar: SimpleCookie = SimpleCookie()
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            with contextlib.suppress(CookieError):  # a malformed cookie header is no cookie
                jar.load(value.decode("latin-1"))
    morsel = jar.get(_COOKIE)
    return morsel.value if morsel is not None else ""


async def _read_form(receive: Any) -> dict[str, str]:
    chunks: list[bytes] = []
    size = 0
    while True:
        event = await receive()
        chunk = event.get("body", b"")
        size += len(chunk)
        if size > _MAX_FORM_BYTES:
            return {}
        chunks.append(chunk)
        if not event.get("more_body", False):
            break
    text = b"".join(chunks).decode("utf-8", "replace")
    return dict(parse_qsl(text, keep_blank_values=True))


async def _page(send: Any, status: int, body: bytes, form_action: str = "'self'") -> None:
    headers = list(security_headers(form_action))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _json(
    send: Any, status: int, body: bytes, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    headers = [(b"content-type", b"application/json"), (b"cache-control", b"no-store")]
    await send(
        {"type": "http.response.start", "status": status, "headers": headers + (extra or [])}
    )
    await send({"type": "http.response.body", "body": body})


ENVIRONMENT: Final = "environment"
PER_USER: Final = "per-user"
# the caller's inbound token traded for one of the API's audience (RFC 8693): peruser.exchange
EXCHANGE: Final = "exchange"
MODES: Final = (ENVIRONMENT, PER_USER, EXCHANGE)


def credentials_mode(info: UpstreamInfo, environ: Mapping[str, str], prefix: str) -> str:
    """``<PREFIX>_CREDENTIALS``, else the generated default, else ``environment``."""
    variable = env_name(prefix, "CREDENTIALS")
    mode = (environ.get(variable) or "").strip() or info.get("credentials", ENVIRONMENT)
    if mode not in MODES:
        raise ValueError(f"{variable} must be one of {', '.join(MODES)}, got {mode[:40]!r}")
    return mode


def default_store(server_name: str, environ: Mapping[str, str]) -> str:
    """``sqlite:`` in the user's data directory (``$XDG_DATA_HOME`` or ``~/.local/share``)."""
    base = (environ.get("XDG_DATA_HOME") or "").strip()
    root = Path(base) if base else Path.home() / ".local" / "share"
    return f"sqlite:///{(root / server_name / 'tokens.db').resolve().as_posix().lstrip('/')}"


def per_user_from_env(
    info: UpstreamInfo,
    environ: Mapping[str, str],
    *,
    prefix: str,
    server_name: str,
    api: str,
    public_url: str,
    verify: Verify | None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> PerUser | None:
    """Per-user mode as the environment configures it (None: environment credentials).

    Raises ``ValueError`` naming the variable for anything unusable, before any request: per-user
    mode needs inbound authentication (``verify``) and the store key.
    """
    if credentials_mode(info, environ, prefix) != PER_USER:
        return None
    mode_var = env_name(prefix, "CREDENTIALS")
    if verify is None:
        tokens, jwks = env_name(prefix, "AUTH_TOKENS"), env_name(prefix, "AUTH_JWKS_URL")
        raise ValueError(
            f"{mode_var}=per-user keeps credentials per caller, so callers must be authenticated: "
            f"set {tokens} or {jwks}"
        )
    key_var, store_var = env_name(prefix, "TOKEN_STORE_KEY"), env_name(prefix, "TOKEN_STORE")
    raw_key = (environ.get(key_var) or "").strip()
    if not raw_key:
        raise ValueError(f"{mode_var}=per-user stores credentials encrypted: set {key_var}")
    key = parse_store_key(raw_key, key_var)
    url = (environ.get(store_var) or "").strip() or default_store(server_name, environ)
    return PerUser(
        info,
        LazyStore(url, key, setting=store_var, namespace=prefix),
        verify=verify,
        public_url=public_url,
        api=api,
        environ=environ,
        transport=transport,
    )
