"""A fake but real OAuth 2.0 authorization server: an ASGI app under uvicorn on 127.0.0.1.

``with OAuthServer() as server:`` serves on a free port of 127.0.0.1 from a background thread (its own
event loop; started and stopped through events, never polled). Clients are registered with
``register`` (confidential with a secret and an authentication method, or public), each with exact
redirect URIs. ``GET /authorize`` checks the request (RFC 6749 §4.1.1 with PKCE S256, RFC 7636) and
"the user approves" at once as ``signed_in``, answering 302 to the redirect URI with a code and the
state; errors go to the redirect URI (RFC 6749 §4.1.2.1), or are a 400 page when the client or the
redirect URI is bad. ``POST /token`` redeems single-use codes (PKCE verified, redirect URI matched, the
client authenticated) and refresh tokens, rotating them: a refresh token used twice revokes its whole
grant (OAuth 2.0 Security BCP §4.14). ``POST /revoke`` is RFC 7009; the RFC 8414 metadata is served too.
As the identity provider of an MCP server, it also signs RS256 JWT access tokens for an audience
(``issue_jwt``; its key set is served at ``GET /jwks``) and, at ``POST /token``, exchanges an active
access token it issued (a JWT or not) for one of another audience (RFC 8693 token exchange, the
client authenticated; ``exchange_audiences`` limits the audiences it grants).
Every request is kept in ``requests`` (method, path, query, form, headers), every token issued in
``tokens`` with its user (and audience), so a test can ask whose token an API received (``user_of``).
Tokens and codes carry recognisable prefixes (``at-alice-…``, ``rt-alice-…``, ``code-alice-…``,
``xt-alice-…`` for exchanged ones) so leaks are easy to grep.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import hmac
import json
import re
import secrets
import socket
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal, Self
from urllib.parse import parse_qsl, unquote_plus, urlencode

import uvicorn
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

AuthMethod = Literal["client_secret_basic", "client_secret_post", "none"]
Headers = tuple[tuple[str, str], ...]
MAX_BODY = 64 * 1024
_CHALLENGE = re.compile(r"[A-Za-z0-9_-]{43}")
_VERIFIER = re.compile(r"[A-Za-z0-9\-._~]{43,128}")
_NO_STORE: Headers = (("Cache-Control", "no-store"), ("Pragma", "no-cache"))
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"


@dataclass(frozen=True, slots=True)
class Client:
    """A registered client; ``secret`` None is a public client (``auth_method`` none)."""

    client_id: str
    secret: str | None
    redirect_uris: tuple[str, ...]
    auth_method: AuthMethod


@dataclass(frozen=True, slots=True)
class Seen:
    """One request as the server got it (header names lower-case, as ASGI gives them)."""

    method: str
    path: str
    query: tuple[tuple[str, str], ...]
    form: tuple[tuple[str, str], ...]
    headers: Headers

    def header(self, name: str) -> str | None:
        values = [v for k, v in self.headers if k == name.lower()]
        assert len(values) <= 1, f"header {name} sent {len(values)} times"
        return values[0] if values else None


@dataclass(slots=True)
class Grant:
    """What one approval produced: the tokens of one user for one client, revoked as a whole."""

    user: str
    client_id: str
    scopes: tuple[str, ...]
    refresh_token: str | None = None  # the current one; older ones are in ``retired``
    retired: set[str] = field(default_factory=set)
    revoked: bool = False


@dataclass(slots=True)
class Issued:
    """One token issued: ``kind`` access or refresh, whose, and until when (access tokens)."""

    kind: Literal["access", "refresh"]
    user: str
    client_id: str
    scopes: tuple[str, ...]
    grant: Grant
    expires_at: float | None
    revoked: bool = False
    # who the token is for (JWTs and exchanged tokens); None: any resource
    audience: str | None = None


@dataclass(slots=True)
class _Code:
    client_id: str
    redirect_uri: str
    challenge: str
    user: str
    scopes: tuple[str, ...]
    expires_at: float
    grant: Grant | None = None  # set when redeemed
    used: bool = False


class _Refusal(Exception):
    """An OAuth error answer: RFC 6749 §5.2 at the token endpoint."""

    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(description)
        self.error, self.description, self.status = error, description, status


class OAuthServer:
    """The authorization server; ``url`` is its issuer once started (``with`` or ``start``)."""

    def __init__(
        self,
        *,
        expires_in: int | None = 3600,
        code_lifetime: float = 60.0,
        scopes_supported: Collection[str] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.expires_in = expires_in  # None: token answers carry no expires_in
        self.code_lifetime = code_lifetime
        self.scopes_supported = None if scopes_supported is None else set(scopes_supported)
        self.clock = clock
        self.signed_in: str | None = "alice"  # who approves at /authorize; None: nobody
        self.approve = True  # False: the user denies (access_denied)
        self.rotate_refresh_tokens = True  # False: a refresh answer carries no new refresh token
        self.echo_scope = True  # False: token answers leave out ``scope``
        self.quote_requests_in_errors = False  # True: a careless AS that echoes what it got
        self.exchange_audiences: set[str] | None = None  # token exchange: None grants any audience
        self._signing_key: rsa.RSAPrivateKey | None = None
        self.clients: dict[str, Client] = {}
        self.requests: list[Seen] = []
        self.tokens: dict[str, Issued] = {}
        self.codes: dict[str, _Code] = {}
        self._scripted: list[tuple[int, bytes, Headers]] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self.url = ""

    # -- set-up and questions of tests ------------------------------------------------------------

    def register(
        self,
        client_id: str,
        secret: str | None = None,
        redirect_uris: Collection[str] = ("http://127.0.0.1/callback",),
        auth_method: AuthMethod | None = None,
    ) -> Client:
        method = auth_method or ("none" if secret is None else "client_secret_basic")
        assert (method == "none") == (secret is None), "public clients, and only they, use none"
        client = Client(client_id, secret, tuple(redirect_uris), method)
        self.clients[client_id] = client
        return client

    def script_token_reply(self, status: int, payload: Any, headers: Headers = ()) -> None:
        """Answer the next token request with this instead (a broken or odd server)."""
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self._scripted.append((status, body, headers))

    @property
    def authorization_url(self) -> str:
        return f"{self.url}/authorize"

    @property
    def token_url(self) -> str:
        return f"{self.url}/token"

    @property
    def revocation_url(self) -> str:
        return f"{self.url}/revoke"

    @property
    def jwks_url(self) -> str:
        return f"{self.url}/jwks"

    def issue_jwt(
        self,
        user: str,
        audience: str,
        *,
        scopes: Collection[str] = (),
        lifetime: int = 3600,
        client_id: str = "mcp-client",
    ) -> str:
        """An RS256 access token (``typ`` at+jwt) of this issuer for ``user`` and ``audience``."""
        now = self.clock()
        claims = {
            "iss": self.url,
            "sub": user,
            "aud": audience,
            "exp": int(now + lifetime),
            "iat": int(now),
            "scope": " ".join(scopes),
            "client_id": client_id,
            "jti": secrets.token_urlsafe(8),
        }
        header = {"alg": "RS256", "typ": "at+jwt", "kid": "fake-as-key"}
        signing_input = f"{_b64json(header)}.{_b64json(claims)}"
        signature = self._key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
        token = f"{signing_input}.{_b64(signature)}"
        with self._lock:
            grant = Grant(user, client_id, tuple(scopes))
            self.tokens[token] = Issued(
                "access", user, client_id, tuple(scopes), grant, now + lifetime, audience=audience
            )
        return token

    @property
    def _key(self) -> rsa.RSAPrivateKey:
        # made on first use: most tests of this server never sign anything
        if self._signing_key is None:
            self._signing_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        return self._signing_key

    def user_of(self, access_token: str) -> str | None:
        """Whose ``access_token`` is, if it is one this server issued and still honours."""
        with self._lock:
            issued = self.tokens.get(access_token)
            if issued is None or issued.kind != "access" or not self._active(issued):
                return None
            return issued.user

    def access_tokens_of(self, user: str) -> list[str]:
        """Every access token issued for ``user``, active or not, oldest first."""
        with self._lock:
            return [t for t, i in self.tokens.items() if i.kind == "access" and i.user == user]

    def requests_to(self, path: str) -> list[Seen]:
        return [r for r in self.requests if r.path == path]

    # -- serving ----------------------------------------------------------------------------------

    def start(self) -> Self:
        self._ready.clear()
        self._failure = None
        # proto named: asyncio disables Nagle only on sockets that say they are TCP (no 40 ms stalls)
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        self.url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        self._thread = threading.Thread(
            target=asyncio.run, args=(self._serve(listener),), name="fake-oauth", daemon=True
        )
        self._thread.start()
        self._ready.wait(10)
        if self._failure is not None or not self._ready.is_set():
            self.stop()
            raise RuntimeError("the fake authorization server did not start") from self._failure
        return self

    async def _serve(self, listener: socket.socket) -> None:
        try:
            config = uvicorn.Config(
                self, interface="asgi3", lifespan="off", log_config=None, access_log=False
            )
            config.load()
            server = uvicorn.Server(config)
            server.lifespan = config.lifespan_class(config)
            self._loop, self._stopping = asyncio.get_running_loop(), asyncio.Event()
            await server.startup(sockets=[listener])
            await server.on_tick(0)
        except BaseException as error:
            listener.close()
            self._failure = error
            self._ready.set()
            raise
        self._ready.set()
        await self._stopping.wait()
        # uvicorn's own shutdown sleeps; closing the listeners and idle connections is enough here
        for each in server.servers:
            each.close()
        for connection in list(server.server_state.connections):
            connection.shutdown()
        for each in server.servers:
            await each.wait_closed()

    def stop(self) -> None:
        if self._loop is not None and self._stopping is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stopping.set)
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body") or len(body) > MAX_BODY:
                break
        headers = tuple((k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"])
        query = scope["query_string"].decode("latin-1")
        form = body.decode("utf-8", "replace") if scope["method"] == "POST" else ""
        seen = Seen(
            scope["method"],
            scope["path"],
            tuple(parse_qsl(query, keep_blank_values=True)),
            tuple(parse_qsl(form, keep_blank_values=True)),
            headers,
        )
        self.requests.append(seen)
        with self._lock:
            status, content, extra = self._route(seen)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (k.lower().encode("latin-1"), v.encode("latin-1"))
                    for k, v in (*extra, ("Content-Length", str(len(content))))
                ],
            }
        )
        await send({"type": "http.response.body", "body": content})

    def _route(self, seen: Seen) -> tuple[int, bytes, Headers]:
        handlers: dict[tuple[str, str], Callable[[Seen], tuple[int, bytes, Headers]]] = {
            ("GET", "/authorize"): self._authorize,
            ("POST", "/token"): self._token_endpoint,
            ("POST", "/revoke"): self._revoke_endpoint,
            ("GET", "/jwks"): self._jwks,
            ("GET", "/.well-known/oauth-authorization-server"): self._metadata,
        }
        handler = handlers.get((seen.method, seen.path))
        if handler is not None:
            return handler(seen)
        if any(path == seen.path for _, path in handlers):
            return 405, b"method not allowed", (("Content-Type", "text/plain"),)
        return 404, b"not found", (("Content-Type", "text/plain"),)

    # -- the endpoints ----------------------------------------------------------------------------

    def _metadata(self, seen: Seen) -> tuple[int, bytes, Headers]:
        document = {
            "issuer": self.url,
            "authorization_endpoint": self.authorization_url,
            "token_endpoint": self.token_url,
            "revocation_endpoint": self.revocation_url,
            "jwks_uri": self.jwks_url,
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token", TOKEN_EXCHANGE],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": [
                "client_secret_basic",
                "client_secret_post",
                "none",
            ],
        }
        return 200, json.dumps(document).encode(), (("Content-Type", "application/json"),)

    def _jwks(self, seen: Seen) -> tuple[int, bytes, Headers]:
        numbers = self._key.public_key().public_numbers()
        key = {
            "kty": "RSA",
            "use": "sig",
            "alg": "RS256",
            "kid": "fake-as-key",
            "n": _b64(numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big")),
            "e": _b64(numbers.e.to_bytes((numbers.e.bit_length() + 7) // 8, "big")),
        }
        return 200, json.dumps({"keys": [key]}).encode(), (("Content-Type", "application/json"),)

    def _authorize(self, seen: Seen) -> tuple[int, bytes, Headers]:
        names = [name for name, _ in seen.query]
        params = dict(seen.query)
        client = self.clients.get(params.get("client_id", ""))
        redirect_uri = params.get("redirect_uri", "")
        if names.count("client_id") != 1 or client is None:
            return _page(400, "unknown or missing client_id")
        if names.count("redirect_uri") != 1 or redirect_uri not in client.redirect_uris:
            return _page(400, "redirect_uri is missing or not registered for this client")
        back: list[tuple[str, str]] = []
        try:
            if len(set(names)) != len(names):
                raise _Refusal("invalid_request", "a parameter is repeated")
            if params.get("response_type") != "code":
                raise _Refusal("unsupported_response_type", "only response_type=code is supported")
            if "code_challenge" not in params:
                raise _Refusal("invalid_request", "code_challenge is required (PKCE)")
            if params.get("code_challenge_method") != "S256":
                raise _Refusal("invalid_request", "transform algorithm not supported")
            if not _CHALLENGE.fullmatch(params["code_challenge"]):
                raise _Refusal("invalid_request", "code_challenge is not an S256 challenge")
            scopes = tuple(params.get("scope", "").split())
            if self.scopes_supported is not None and not set(scopes) <= self.scopes_supported:
                raise _Refusal("invalid_scope", "a requested scope is not supported")
            if self.signed_in is None or not self.approve:
                raise _Refusal("access_denied", "the user did not approve the request")
            user = self.signed_in
            code = f"code-{user}-{secrets.token_urlsafe(16)}"
            self.codes[code] = _Code(
                client.client_id,
                redirect_uri,
                params["code_challenge"],
                user,
                scopes,
                self.clock() + self.code_lifetime,
            )
            back.append(("code", code))
        except _Refusal as refusal:
            back += [("error", refusal.error), ("error_description", refusal.description)]
        if "state" in params:
            back.append(("state", params["state"]))
        location = redirect_uri + ("&" if "?" in redirect_uri else "?") + urlencode(back)
        return 302, b"", (("Location", location), *_NO_STORE)

    def _token_endpoint(self, seen: Seen) -> tuple[int, bytes, Headers]:
        if self._scripted:
            return self._scripted.pop(0)
        try:
            client = self._authenticate(seen)
            params = dict(seen.form)
            grant_type = params.get("grant_type")
            if grant_type == "authorization_code":
                answer = self._redeem_code(client, params)
            elif grant_type == "refresh_token":
                answer = self._redeem_refresh_token(client, params)
            elif grant_type == TOKEN_EXCHANGE:
                answer = self._exchange(client, params)
            elif grant_type is None:
                raise _Refusal("invalid_request", "grant_type is missing")
            else:
                raise _Refusal(
                    "unsupported_grant_type", f"grant_type {grant_type} is not supported"
                )
        except _Refusal as refusal:
            return self._refuse(seen, refusal)
        return 200, json.dumps(answer).encode(), (("Content-Type", "application/json"), *_NO_STORE)

    def _revoke_endpoint(self, seen: Seen) -> tuple[int, bytes, Headers]:
        try:
            client = self._authenticate(seen)
            token = dict(seen.form).get("token")
            if not token:
                raise _Refusal("invalid_request", "token is missing")
            issued = self.tokens.get(token)
            if issued is not None and issued.client_id != client.client_id:
                raise _Refusal("unauthorized_client", "the token was issued to another client")
        except _Refusal as refusal:
            return self._refuse(seen, refusal)
        if issued is not None and issued.kind == "refresh":
            issued.grant.revoked = True  # RFC 7009 §2.1: the grant's access tokens go too
        elif issued is not None:
            issued.revoked = True
        return 200, b"", _NO_STORE  # unknown tokens too (RFC 7009 §2.2)

    # -- the work ---------------------------------------------------------------------------------

    def _authenticate(self, seen: Seen) -> Client:
        """The client of a token or revocation request, authenticated as it is registered."""
        kind = (seen.header("content-type") or "").split(";")[0].strip().lower()
        if kind != "application/x-www-form-urlencoded":
            raise _Refusal("invalid_request", "the body must be application/x-www-form-urlencoded")
        names = [name for name, _ in seen.form]
        if len(set(names)) != len(names):
            raise _Refusal("invalid_request", "a parameter is repeated")
        params = dict(seen.form)
        authorization = seen.header("authorization") or ""
        method: AuthMethod
        if authorization[:6].lower() == "basic ":
            if "client_secret" in params:
                raise _Refusal("invalid_request", "more than one client authentication method")
            try:
                pair = base64.b64decode(authorization[6:].strip(), validate=True).decode()
                client_id, secret = (unquote_plus(part) for part in pair.split(":", 1))
            except (binascii.Error, UnicodeDecodeError, ValueError):
                raise _Refusal("invalid_client", "malformed Basic credentials", 401) from None
            if params.get("client_id", client_id) != client_id:
                raise _Refusal("invalid_request", "client_id differs from the Basic credentials")
            method = "client_secret_basic"
        elif "client_secret" in params:
            client_id, secret, method = (
                params.get("client_id", ""),
                params["client_secret"],
                "client_secret_post",
            )
        else:
            client_id, secret, method = params.get("client_id", ""), None, "none"
        client = self.clients.get(client_id)
        if client is None:
            raise _Refusal("invalid_client", "unknown client", 401)
        if method != client.auth_method:
            raise _Refusal(
                "invalid_client", f"this client must authenticate with {client.auth_method}", 401
            )
        if client.secret is not None and not hmac.compare_digest(
            (secret or "").encode(), client.secret.encode()
        ):
            raise _Refusal("invalid_client", "client authentication failed", 401)
        return client

    def _redeem_code(self, client: Client, params: dict[str, str]) -> dict[str, Any]:
        for name in ("code", "redirect_uri", "code_verifier"):
            if not params.get(name):
                raise _Refusal("invalid_request", f"{name} is missing")
        code = self.codes.get(params["code"])
        if code is None:
            raise _Refusal("invalid_grant", "unknown authorization code")
        if code.client_id != client.client_id:
            raise _Refusal("invalid_grant", "the code was issued to another client")
        if code.used:
            # RFC 6749 §4.1.2: the tokens issued for a code used twice are revoked
            if code.grant is not None:
                code.grant.revoked = True
            raise _Refusal("invalid_grant", "the authorization code was already used")
        code.used = True
        if self.clock() >= code.expires_at:
            raise _Refusal("invalid_grant", "the authorization code expired")
        if params["redirect_uri"] != code.redirect_uri:
            raise _Refusal("invalid_grant", "redirect_uri differs from the authorization request")
        verifier = params["code_verifier"]
        digest = hashlib.sha256(verifier.encode()).digest()
        computed = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
        if not _VERIFIER.fullmatch(verifier) or not hmac.compare_digest(computed, code.challenge):
            raise _Refusal(
                "invalid_grant",
                "PKCE verification failed: the code_verifier does not match the code_challenge",
            )
        code.grant = Grant(code.user, client.client_id, code.scopes)
        return self._issue(code.grant, code.scopes, new_refresh_token=True)

    def _redeem_refresh_token(self, client: Client, params: dict[str, str]) -> dict[str, Any]:
        token = params.get("refresh_token")
        if not token:
            raise _Refusal("invalid_request", "refresh_token is missing")
        issued = self.tokens.get(token)
        if issued is None or issued.kind != "refresh":
            raise _Refusal("invalid_grant", "unknown refresh token")
        grant = issued.grant
        if grant.client_id != client.client_id:
            raise _Refusal("invalid_grant", "the refresh token was issued to another client")
        if grant.revoked:
            raise _Refusal("invalid_grant", "the grant was revoked")
        if token in grant.retired:
            grant.revoked = True  # a rotated-away token came back: someone else may hold it
            raise _Refusal(
                "invalid_grant", "the refresh token was already used; the grant is revoked"
            )
        scopes = tuple(params["scope"].split()) if "scope" in params else grant.scopes
        if not set(scopes) <= set(grant.scopes):
            raise _Refusal("invalid_scope", "a requested scope exceeds the grant")
        return self._issue(grant, scopes, new_refresh_token=self.rotate_refresh_tokens)

    def _exchange(self, client: Client, params: dict[str, str]) -> dict[str, Any]:
        """RFC 8693 §2.1: an active access token of this server for one of the asked audience."""
        subject_token = params.get("subject_token")
        if not subject_token:
            raise _Refusal("invalid_request", "subject_token is missing")
        if params.get("subject_token_type") != ACCESS_TOKEN_TYPE:
            raise _Refusal("invalid_request", "subject_token_type must be an access token")
        if params.get("requested_token_type", ACCESS_TOKEN_TYPE) != ACCESS_TOKEN_TYPE:
            raise _Refusal("invalid_request", "only access tokens are issued")
        subject = self.tokens.get(subject_token)
        if subject is None or subject.kind != "access" or not self._active(subject):
            raise _Refusal("invalid_grant", "the subject_token is not an active access token")
        audience = params.get("audience") or params.get("resource")
        if audience is None:
            raise _Refusal("invalid_target", "an audience or a resource is required")
        if self.exchange_audiences is not None and audience not in self.exchange_audiences:
            raise _Refusal("invalid_target", f"the audience {audience} is not allowed")
        scopes = tuple(params.get("scope", "").split())
        if self.scopes_supported is not None and not set(scopes) <= self.scopes_supported:
            raise _Refusal("invalid_scope", "a requested scope is not supported")
        now = self.clock()
        access = f"xt-{subject.user}-{secrets.token_urlsafe(16)}"
        grant = Grant(subject.user, client.client_id, scopes)
        expires_at = None if self.expires_in is None else now + self.expires_in
        self.tokens[access] = Issued(
            "access", subject.user, client.client_id, scopes, grant, expires_at, audience=audience
        )
        answer: dict[str, Any] = {
            "access_token": access,
            "issued_token_type": ACCESS_TOKEN_TYPE,
            "token_type": "Bearer",
        }
        if self.expires_in is not None:
            answer["expires_in"] = self.expires_in
        if self.echo_scope and scopes:
            answer["scope"] = " ".join(scopes)
        return answer

    def _issue(
        self, grant: Grant, scopes: tuple[str, ...], *, new_refresh_token: bool
    ) -> dict[str, Any]:
        now = self.clock()
        access = f"at-{grant.user}-{secrets.token_urlsafe(16)}"
        expires_at = None if self.expires_in is None else now + self.expires_in
        self.tokens[access] = Issued(
            "access", grant.user, grant.client_id, scopes, grant, expires_at
        )
        answer: dict[str, Any] = {"access_token": access, "token_type": "Bearer"}
        if self.expires_in is not None:
            answer["expires_in"] = self.expires_in
        if new_refresh_token:
            if grant.refresh_token is not None:
                grant.retired.add(grant.refresh_token)
            grant.refresh_token = f"rt-{grant.user}-{secrets.token_urlsafe(16)}"
            self.tokens[grant.refresh_token] = Issued(
                "refresh", grant.user, grant.client_id, grant.scopes, grant, None
            )
            answer["refresh_token"] = grant.refresh_token
        if self.echo_scope:
            answer["scope"] = " ".join(scopes)
        return answer

    def _active(self, issued: Issued) -> bool:
        if issued.revoked or issued.grant.revoked:
            return False
        return issued.expires_at is None or self.clock() < issued.expires_at

    def _refuse(self, seen: Seen, refusal: _Refusal) -> tuple[int, bytes, Headers]:
        description = refusal.description
        if self.quote_requests_in_errors:
            description += f" (received {urlencode(seen.form)}; {seen.header('authorization')})"
            basic = (seen.header("authorization") or "")[6:]
            if basic:
                decoded = base64.b64decode(basic + "==", validate=False)
                description += " " + decoded.decode("utf-8", "replace")
        body = json.dumps({"error": refusal.error, "error_description": description}).encode()
        headers: Headers = (("Content-Type", "application/json"), *_NO_STORE)
        if refusal.status == 401 and (seen.header("authorization") or "").lower().startswith(
            "basic"
        ):
            headers += (("WWW-Authenticate", 'Basic realm="fake-oauth"'),)
        return refusal.status, body, headers


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64json(value: Any) -> str:
    return _b64(json.dumps(value, separators=(",", ":")).encode())


def _page(status: int, text: str) -> tuple[int, bytes, Headers]:
    return status, text.encode(), (("Content-Type", "text/plain; charset=utf-8"),)
