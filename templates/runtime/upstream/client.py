"""The HTTP client side of a generated server: from tool arguments to one upstream request.

``Upstream`` owns one lazily built ``httpx.AsyncClient`` per API and turns an ``OperationSpec`` plus
the tool's (already validated) arguments into a request (``upstream_encoding`` writes the parameters
and the body) with credentials picked from the environment per security scheme and the extra headers
of ``<PREFIX>_HEADERS`` (``upstream_credentials``; without credentials a request still goes out and
the API decides); OAuth2 tokens the server fetches itself come from ``upstream_oauth`` (after the
limits let the call through, refreshed once when the API rejects one: a 401, or a 403 naming the
token). The request always goes to the scheme, host and port of the operation's server, whatever the
arguments: the base URL (``<PREFIX>_BASE_URL``, else the spec's first server with each
``{variable}`` from its ``<PREFIX>_SERVER_<NAME>`` variable or its default, checked against the
allowed values), or the operation's own ``servers`` entry, whose variables are set the same way and
which, when relative, is resolved against the base URL (RFC 3986: ``/files`` replaces the base URL's
path, ``files`` is appended to it); the base URL variable does not change an operation's own
absolute server. Each call is bounded: the timeout covers the whole attempt (connecting, sending,
reading a body of at most ``MAX_RESPONSE_BYTES`` as sent and as decoded, ``upstream_decoding``),
failed attempts are retried with backoff when that is safe, and ``resilience.Guard`` applies the
rate and concurrency limits and the operation's circuit breaker. Redirects of GET and HEAD requests
(and the GET a 303 asks for) are followed for ``MAX_REDIRECTS`` hops, but for a redirect that is the
answer of an operation documenting no 2xx (``redirectAnswers``); credentials and extra headers
never go to another origin, and a public API cannot redirect a call to a loopback or private
address. Other redirects come back with their ``Location``. Failures become ``UpstreamError`` with a
short message that is safe to show a model; no credential ever appears in it, in a response body
handed back (``redaction``) or in a log line. Cookies set by the upstream are never stored, so no
state leaks from one caller to the next. Stdlib + httpx only.
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from http.cookiejar import CookieJar, CookiePolicy
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from ..catalog.model import (
    BodySpec,
    OperationSpec,
    ParameterSpec,
    ServerSpec,
    UpstreamInfo,
    documented_redirect,
)
from ..errors import UpstreamError
from .bodies import encode_body, gives_file
from .credentials import Credentials, ExtraHeaders, RequestParts
from .decoding import Decoded, TooLarge, accept_encoding, decode_body, decode_start, read_raw
from .encoding import (
    ARRAY_MODES,
    INDEXED,
    EncodingRefused,
    cookie_pairs,
    encode_path,
    header_value,
    is_json,
    media_type,
    query_pairs,
)
from .http11 import upstream_client
from .negotiation import accept_header
from .oauth import OAuthTokens, TokenError, fetched, rejected
from .redaction import Redactor, install_log_redaction
from .request import REDIRECTS, TOLD_HEADERS, Prepared, follow_redirect, origin_of
from .resilience import (
    FAILURE_STATUSES,
    RETRY_STATUSES,
    SAFE_METHODS,
    THROTTLED,
    CircuitBreaker,
    Guard,
    Policy,
    PolicyError,
    Refused,
    answer_failure,
    failure_reason,
    maybe_done,
)
from .resilience import parse_retry_after as _parse_retry_after
from .response import UpstreamResponse
from .settings import (
    env_prefix,
    expand_server,
    headers_env,
    server_override,
    upstream_headers,
    with_defaults,
)

__all__ = [
    "MAX_REDIRECTS",
    "MAX_RESPONSE_BYTES",
    "Upstream",
    "UpstreamError",
    "UpstreamResponse",
    "expand_server",
    "headers_env",
    "upstream_headers",
]

MAX_RESPONSE_BYTES = 10 * 1024 * 1024
MAX_REDIRECTS = 5
# OpenAPI ignores header parameters with these names; they are set from the spec itself.
_IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})
_UNSUPPORTED_MEDIA_TYPE = 415
# what a request without a body declares when the API refused it for declaring nothing
_BARE_RETRY_TYPE = b"application/json"


class _RefuseCookies(CookiePolicy):
    """Neither store nor send cookies: a shared client must not carry one caller's session."""

    netscape = True
    rfc2965 = False
    hide_cookie2 = False

    def set_ok(self, cookie: Any, request: Any) -> bool:
        return False

    def return_ok(self, cookie: Any, request: Any) -> bool:
        return False

    def domain_return_ok(self, domain: str, request: Any) -> bool:
        return False

    def path_return_ok(self, path: str, request: Any) -> bool:
        return False


class _Failed(Exception):
    """One attempt failed in transport; ``retryable`` failures also count against the circuit.
    One that failed after the request went out (``sent``: a timeout, a reset) is sent again only
    for a method that changes nothing (``SAFE_METHODS``): the API may have acted on it."""

    def __init__(self, message: str, reason: str, *, retryable: bool, sent: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason
        self.retryable = retryable
        self.sent = sent


def _pool_limits(policy: Policy) -> httpx.Limits:
    size = policy.max_concurrency or None
    return httpx.Limits(max_connections=size, max_keepalive_connections=size)


class Upstream:
    """Calls the API's operations; one instance (and one connection pool) per server."""

    def __init__(
        self,
        info: UpstreamInfo,
        operations: Mapping[str, OperationSpec],
        *,
        environ: Mapping[str, str],
        user_agent: str,
        transport: httpx.AsyncBaseTransport | None = None,
        event_hooks: Mapping[str, list[Callable[..., Any]]] | None = None,
    ) -> None:
        self._info = info
        self._operations = operations
        self._environ = environ
        self._user_agent = user_agent
        self._transport = transport
        # httpx event hooks, e.g. the package's custom ``before_request`` (hooks.py)
        self._event_hooks = event_hooks
        self._http: httpx.AsyncClient | None = None
        # the base URL, or why there is none (only operations that need it fail)
        self._base_url: str | None = None
        self._base_error = ""
        # an operation's own server (by its spec, as JSON) -> its resolved URL
        self._server_urls: dict[str, str] = {}
        self._timeout = 30.0
        # built with the client, kept across aclose(): the circuit remembers a failing upstream
        self._guard: Guard | None = None
        self._redactor = Redactor(())
        self._credentials = Credentials(info, environ, ExtraHeaders(env=headers_env(info)))
        self._oauth: OAuthTokens | None = None
        # tokens fetched lately: kept out of results and messages like the configured credentials
        self._fetched_tokens: list[str] = []
        arrays = info.get("deepObjectArrays", INDEXED)
        self._arrays = arrays if arrays in ARRAY_MODES else INDEXED

    async def aclose(self) -> None:
        if self._oauth is not None:
            oauth, self._oauth = self._oauth, None
            await oauth.aclose()
        if self._http is not None:
            client, self._http = self._http, None
            await client.aclose()

    def _client(self) -> httpx.AsyncClient:
        if self._http is None:
            try:
                self._base_url, self._base_error = self._resolve_base_url(), ""
            except UpstreamError as exc:
                self._base_url, self._base_error = None, str(exc)
            self._server_urls.clear()
            self._timeout = self._resolve_timeout()
            if self._guard is None:
                try:
                    policy = Policy.from_env(self._environ, env_prefix(self._info))
                except PolicyError as exc:
                    raise UpstreamError(str(exc)) from None
                label = origin_of(self._base_url) if self._base_url else "API"
                self._guard = Guard(policy, label)
            extra = upstream_headers(self._info, self._environ)
            self._credentials = Credentials(self._info, self._environ, extra)
            self._redactor = Redactor(self._credentials.values() + self._fetched_tokens)
            if self._redactor:
                install_log_redaction(self._redactor)
            # our lean HTTP/1.1 client unless a test passed a transport or a proxy is configured
            self._http = upstream_client(
                self._transport,
                # keep as many connections alive as calls may be in flight: reopening them under
                # load costs more than the calls themselves
                _pool_limits(self._guard.policy),
                http2=False,
                follow_redirects=False,
                timeout=self._timeout,
                # only the codings upstream_decoding can undo (bodies are read as sent)
                headers={"User-Agent": self._user_agent, "Accept-Encoding": accept_encoding()},
                cookies=CookieJar(policy=_RefuseCookies()),
                event_hooks=self._event_hooks,
            )
        return self._http

    def _remember_token(self, token: str) -> None:
        """A token just fetched: masked from now on, like the configured credentials."""
        self._fetched_tokens = [*self._fetched_tokens[-15:], token]
        self._redactor = Redactor(self._credentials.values() + self._fetched_tokens)
        install_log_redaction(Redactor([token]))

    def _expand(self, server: ServerSpec) -> str:
        return expand_server(server, self._environ)

    def _resolve_base_url(self) -> str:
        env = self._info["baseUrlEnv"]
        override = (self._environ.get(env) or "").strip()
        url = override or self._info["baseUrl"]
        server = self._info.get("server")
        # the variables fill in the spec's server, not a base URL configured instead of it
        if server is not None and not override and url == with_defaults(server):
            url = self._expand(server)
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            shown = repr(origin_of(url)) if parts.scheme and parts.hostname else "a relative URL"
            raise UpstreamError(
                f"the upstream base URL is {shown}, not an http(s) URL; set {env} to the "
                "API's base URL (for example https://api.example.com)"
            )
        if parts.query or parts.fragment:
            raise UpstreamError(
                f"the upstream base URL must not have a query or fragment; check {env}"
            )
        return url.rstrip("/")

    def _require_base(self) -> str:
        if self._base_url is None:
            raise UpstreamError(self._base_error)
        return self._base_url

    def _server_base(self, spec: OperationSpec) -> str:
        """Where the operation's requests go: its own server, else the base URL."""
        server = spec.get("server")
        if server is None:
            return self._require_base()
        key = json.dumps(server, sort_keys=True)
        known = self._server_urls.get(key)
        if known is None:
            url = server_override(self._info, self._environ, server["url"]) or self._expand(server)
            if not urlsplit(url).scheme:
                url = urljoin(self._require_base() + "/", url)
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise UpstreamError(
                    f"the operation's server {server['url']!r} does not give an http(s) URL"
                )
            if parts.query or parts.fragment:
                raise UpstreamError(
                    f"the operation's server {server['url']!r} must not have a query or fragment"
                )
            known = self._server_urls[key] = url.rstrip("/")
        return known

    def _resolve_timeout(self) -> float:
        env = self._info["timeoutEnv"]
        raw = (self._environ.get(env) or "").strip()
        if not raw:
            return float(self._info["timeoutSeconds"])
        try:
            seconds = float(raw)
        except ValueError:
            seconds = -1.0
        if not 0 < seconds < float("inf"):
            raise UpstreamError(f"{env} must be a positive number of seconds, got {raw[:40]!r}")
        return seconds

    def redirects(self, operation: str) -> Sequence[str]:
        """The redirects ``operation`` documents as its answer (status codes, ``3XX``)."""
        spec = self._operations.get(operation)
        return spec.get("redirects", []) if spec is not None else []

    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
        """Send one operation's request and read the (bounded) response, retrying if allowed.

        Arguments are placed (and refused) before anything is sent; the operation's circuit and the
        guard's limits are checked next, so a refused call never reaches the upstream. Redirects are
        followed as the module docstring says. ``user``: the caller's own credentials, as the
        variables the security schemes read (per-user mode); the environment's are then not used.
        """
        spec = self._operations.get(operation)
        if spec is None:
            raise UpstreamError(f"unknown operation {operation!r}")
        client = self._client()
        guard = self._guard
        assert guard is not None
        prepared = self._prepare(spec, arguments, user)
        circuit = guard.circuit(operation, f"{prepared.method} {spec['path']}")
        try:
            circuit.check()
            await guard.enter()
        except Refused as exc:
            raise UpstreamError(str(exc)) from None
        try:
            signed = await self._signed(spec, arguments, user, prepared)
            response = await self._send(client, guard, circuit, signed)
            if signed.tokens and rejected(response.status, response.body):
                # the API rejected a token it issued (revoked, keys rotated): a new one, once
                tokens = self._tokens()
                for name, scopes, token in signed.tokens:
                    tokens.invalidate(name, scopes, token)
                signed = await self._signed(spec, arguments, user, prepared)
                response = await self._send(client, guard, circuit, signed)
            if response.status == _UNSUPPORTED_MEDIA_TYPE and _declares_nothing(signed):
                # a route that checks the Content-Type before anything else (Express middleware,
                # Spring's `consumes`) refuses a request that has no body to declare, though its
                # document gives it none: the same request once more, declared JSON and empty (a
                # 415 is a refusal before the request is acted on, so sending it again is safe)
                headers = [*signed.headers, (b"Content-Type", _BARE_RETRY_TYPE)]
                signed = replace(signed, headers=headers, content=b"")
                response = await self._send(client, guard, circuit, signed)
            answers = spec.get("redirects", []) if spec.get("redirectAnswers") else []
            if documented_redirect(response.status, answers):
                return response  # Strapi's email confirmation is done: its site is not fetched
            return await self._redirected(client, guard, circuit, signed, response)
        finally:
            guard.leave()

    async def _redirected(
        self,
        client: httpx.AsyncClient,
        guard: Guard,
        circuit: CircuitBreaker,
        prepared: Prepared,
        response: UpstreamResponse,
    ) -> UpstreamResponse:
        """The answer once the redirects that may be followed have been followed."""
        seen = {prepared.public_url}
        hops = 0
        while response.status in REDIRECTS and response.location:
            follow, why = follow_redirect(prepared, response)
            if follow is not None and follow.public_url in seen:
                follow, why = None, "it leads back to an address already visited"
            elif follow is not None and hops >= MAX_REDIRECTS:
                follow, why = None, f"it is the {hops + 1}th redirect in a row"
            if follow is None:
                return replace(response, not_followed=why)
            hops += 1
            seen.add(follow.public_url)
            prepared = follow
            last = f"{response.status} redirect to {follow.public_url}"
            followed = f"a {last}" if hops == 1 else f"{hops} redirects, the last a {last}"
            try:
                response = await self._send(client, guard, circuit, prepared)
            except UpstreamError as exc:
                # LNbits's short URL to a host this machine cannot reach: say it was followed
                raise UpstreamError(
                    f"the API answered with {followed}; following it: {exc}"
                ) from None
            response = replace(response, followed=followed)
        return response

    def _tokens(self) -> OAuthTokens:
        if self._oauth is None:
            self._oauth = OAuthTokens(
                environ=self._environ,
                user_agent=self._user_agent,
                timeout=self._timeout,
                transport=self._transport,
                describe=failure_reason,
                on_token=self._remember_token,
            )
        return self._oauth

    async def _signed(
        self,
        spec: OperationSpec,
        arguments: Mapping[str, Any],
        user: Mapping[str, str] | None,
        prepared: Prepared,
    ) -> Prepared:
        """``prepared`` with its fetched tokens; when one cannot be had, the request made with the
        next alternative of the operation's security whose credentials are set (LNbits's bearer
        token beside a refused password), or with none where it may go so (ZenML's health check,
        of unsaid security), else the failure."""
        security = spec["security"]
        while True:
            try:
                return await self._authorize(spec, prepared)
            except _NoToken as failed:
                security = [alt for alt in security if failed.scheme not in alt]
                other = None
                if security:
                    other = self._prepare({**spec, "security": security}, arguments, user)
                if other is not None and not other.sent_credentials and [] in security:
                    why = f"it was sent without credentials, as it may be: {failed.message}"
                    return replace(other, auth_hint=why)  # a 401 or 403 then says why
                if other is None or not other.sent_credentials:
                    raise UpstreamError(failed.message) from None  # credentials are required
                prepared = other

    async def _authorize(self, spec: OperationSpec, prepared: Prepared) -> Prepared:
        """``prepared`` with a bearer token for each scheme it needs whose tokens are fetched;
        ``_NoToken`` names the scheme whose token cannot be had."""
        if not prepared.oauth:
            return prepared
        headers, secrets = list(prepared.headers), list(prepared.secrets)
        sent: list[tuple[str, tuple[str, ...], str]] = []
        for name in prepared.oauth:
            scheme = fetched(self._info["securitySchemes"][name])
            scopes = tuple(sorted(set(spec.get("scopes", {}).get(name, []))))
            try:
                token = await self._tokens().token(name, scheme, self._token_url(name), scopes)
            except TokenError as exc:
                raise _NoToken(name, self._redactor.text(str(exc))) from None
            headers.insert(0, (b"Authorization", f"Bearer {token}".encode()))
            secrets.append(token)
            sent.append((name, scopes, token))
        return replace(prepared, headers=headers, secrets=secrets, oauth=(), tokens=tuple(sent))

    def _token_url(self, name: str) -> str:
        url = fetched(self._info["securitySchemes"][name])["tokenUrl"]
        if not urlsplit(url).scheme:
            url = urljoin(self._require_base() + "/", url)
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise UpstreamError(f"the token URL of {name!r} is not an http(s) URL")
        return url

    async def _send(
        self, client: httpx.AsyncClient, guard: Guard, circuit: CircuitBreaker, prepared: Prepared
    ) -> UpstreamResponse:
        attempt = 0
        while True:
            try:
                circuit.admit()
            except Refused as exc:
                raise UpstreamError(str(exc)) from None
            try:
                response = await self._attempt(client, prepared)
            except _Failed as failure:
                if failure.retryable:
                    circuit.record(False, failure.reason)
                else:
                    circuit.abandon()
                delay = None
                again = failure.retryable and (
                    not failure.sent or prepared.method.upper() in SAFE_METHODS
                )
                if again and self._may_retry(guard, circuit, prepared, attempt):
                    delay = guard.retry_delay(attempt)
                if delay is None:
                    tries = f" ({attempt + 1} attempts)" if attempt else ""
                    raise UpstreamError(failure.message + tries) from None
            except BaseException:
                # not the upstream's failure (an oversized body, a cancellation)
                circuit.abandon()
                raise
            else:
                failed = response.status in FAILURE_STATUSES
                # any other answer, a 500 or a 4xx included, shows the route is up; a failing one
                # is named with its reason (Open WebUI's "The Ollama API is disabled…")
                said = (response.body, response.content_type) if failed else (b"", "")
                circuit.record(not failed, answer_failure(response.status, response.reason, *said))
                again = response.status in RETRY_STATUSES or response.status == THROTTLED
                if not again or not self._may_retry(
                    guard, circuit, prepared, attempt, response.status
                ):
                    return response
                delay = guard.retry_delay(attempt, response.retry_after)
                if delay is None:
                    return response
            await asyncio.sleep(delay)
            attempt += 1

    @staticmethod
    def _may_retry(
        guard: Guard,
        circuit: CircuitBreaker,
        prepared: Prepared,
        attempt: int,
        status: int | None = None,
    ) -> bool:
        return guard.may_retry(prepared.method, attempt, status) and circuit.state == "closed"

    async def _attempt(self, client: httpx.AsyncClient, prepared: Prepared) -> UpstreamResponse:
        """One request and its whole body, within the timeout; transport failures are ``_Failed``.
        A 2xx body still arriving when the time is up (a stream), or larger than is read, is what
        arrived, not a failure."""
        origin, method = prepared.origin, prepared.method
        chunks: list[bytes] = []
        response: httpx.Response | None = None
        cut_after, cut_short = None, False
        try:
            async with asyncio.timeout(self._timeout):
                request = client.build_request(
                    prepared.method,
                    prepared.url,
                    headers=prepared.headers,
                    content=prepared.content,
                )
                response = await client.send(request, stream=True)
                try:
                    raw, coding = await read_raw(response, chunks, MAX_RESPONSE_BYTES)
                finally:
                    await response.aclose()
        except (TimeoutError, httpx.TimeoutException) as exc:
            if response is None or not 200 <= response.status_code < 300:
                # a connection that never opened sent nothing; a timeout after it may have
                sent = not isinstance(exc, httpx.ConnectTimeout)
                message = f"upstream timed out after {self._timeout:g} s"
                message += maybe_done(method) if sent else ""
                raise _Failed(message, "timeout", retryable=True, sent=sent) from None
            raw, coding = b"".join(chunks), response.headers.get("content-encoding", "")
            cut_after = self._timeout
        except TooLarge:
            assert response is not None  # only its body is read past the limit
            if not 200 <= response.status_code < 300:
                raise UpstreamError(_too_large(response.status_code)) from None
            # the API answered and sends more than is read: what was read, not a failure
            raw, coding = b"".join(chunks), response.headers.get("content-encoding", "")
            cut_short = True
        except httpx.ConnectError as exc:
            message = self._scrub(f"could not reach {origin}: {failure_reason(exc)}", prepared)
            raise _Failed(message, failure_reason(exc), retryable=True) from None
        except (httpx.NetworkError, httpx.RemoteProtocolError) as exc:
            failed = f"request to {origin} failed: {failure_reason(exc)}{maybe_done(method)}"
            message = self._scrub(failed, prepared)
            reason = self._scrub(failure_reason(exc), prepared)
            raise _Failed(message, reason, retryable=True, sent=True) from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            message = self._scrub(f"request to {origin} failed: {failure_reason(exc)}", prepared)
            raise _Failed(message, "", retryable=False) from None
        return self._answer(prepared, response, raw, coding, cut_after, cut_short=cut_short)

    def _answer(
        self,
        prepared: Prepared,
        response: httpx.Response,
        raw: bytes,
        coding: str,
        cut_after: float | None,
        *,
        cut_short: bool,
    ) -> UpstreamResponse:
        """What the upstream answered, its body decoded: a 2xx body larger than is read (as
        sent or as decoded) is its start, a larger other one a failure; a stream cut at the
        timeout is decoded as far as what arrived goes (Langflow's gzip events)."""
        decoded: Decoded | None = None
        if cut_after is not None:
            decoded = decode_start(raw, coding, MAX_RESPONSE_BYTES)
        elif not cut_short:
            with contextlib.suppress(TooLarge):
                decoded = decode_body(raw, coding, MAX_RESPONSE_BYTES)
        if decoded is None:
            if not 200 <= response.status_code < 300:
                raise UpstreamError(_too_large(response.status_code))
            decoded, cut_short = decode_start(raw, coding, MAX_RESPONSE_BYTES), True
        reason = self._redactor.text(response.reason_phrase)
        if not reason:
            try:
                reason = http.HTTPStatus(response.status_code).phrase
            except ValueError:
                reason = ""
        location = response.headers.get("location", "").strip()
        if location and response.status_code in REDIRECTS | {201}:
            # resolved against the address asked for (without credentials in its query)
            location = self._redactor.text(urljoin(prepared.public_url, location))
        return UpstreamResponse(
            response.status_code,
            reason,
            response.headers.get("content-type", ""),
            prepared.mask(self._redactor.bytes(decoded.body)),
            prepared.public_url,
            _parse_retry_after(response.headers.get("retry-after")),
            method=prepared.asked_method or prepared.method,
            location=location,
            encoding=decoded.undecoded,
            auth_hint=self._credentials.answered(
                prepared, response.status_code, response.headers.get("www-authenticate", "")
            ),
            headers=prepared.told(response.headers, self._redactor),
            cut_after=cut_after,
            cut_short=cut_short,
        )

    def _scrub(self, message: str, prepared: Prepared) -> str:
        for secret in prepared.secrets:
            message = message.replace(secret, "***")
        return self._redactor.text(message)

    # -- request parts -------------------------------------------------------------------------

    def _prepare(
        self, spec: OperationSpec, arguments: Mapping[str, Any], user: Mapping[str, str] | None
    ) -> Prepared:
        """The request for ``arguments``, or ``UpstreamError`` naming the argument that cannot be sent."""
        base = self._server_base(spec)
        parts = RequestParts()
        credentials = self._credentials if user is None else self._credentials.of(user)
        try:
            credentials.apply(spec["security"], parts, spec["path"])
            path = self._parameters(spec, arguments, parts)
            content = self._body(spec, arguments, parts)
        except (EncodingRefused, ValueError) as exc:
            raise UpstreamError(str(exc)) from None
        public = base + path + ("?" + "&".join(parts.query) if parts.query else "")
        query = parts.query + parts.secret_query
        url = base + path + ("?" + "&".join(query) if query else "")
        self._check_destination(url, base)
        parts.headers.append(("Accept", accept_header(spec, arguments)))
        if parts.cookies:
            parts.headers.append(("Cookie", "; ".join(parts.cookies)))
        extra = self._credentials.extra
        if extra.headers:
            # the configured headers replace any header of the same name
            replaced = extra.names()
            parts.headers = [(k, v) for k, v in parts.headers if k.lower() not in replaced]
            parts.headers += extra.headers
            parts.credential_headers |= extra.secret_names
            parts.secrets += extra.secret
        return Prepared(
            spec["method"].upper(),
            url,
            public,
            parts.raw_headers(),
            content,
            parts.secrets,
            origin=origin_of(base),
            oauth=tuple(parts.oauth),
            credential_headers=frozenset(name.encode() for name in parts.credential_headers),
            secret_query=tuple(parts.secret_query),
            auth_hint=parts.auth_hint,
            sent_credentials=parts.sent_credentials,
            personal=None if user is None else Redactor(credentials.values()),
            told_headers=tuple(dict.fromkeys((*spec.get("responseHeaders", ()), *TOLD_HEADERS))),
        )

    @staticmethod
    def _check_destination(url: str, base_url: str) -> None:
        """Defence in depth: nothing an argument holds may change the scheme, host or port."""
        try:
            target, base = httpx.URL(url), httpx.URL(base_url)
        except httpx.InvalidURL:
            raise UpstreamError("the arguments do not form a valid request URL") from None
        if (target.scheme, target.host, target.port) != (base.scheme, base.host, base.port):
            raise UpstreamError(f"refused: the request would not go to {origin_of(base_url)}")

    def _parameters(
        self, spec: OperationSpec, arguments: Mapping[str, Any], parts: RequestParts
    ) -> str:
        """Place every parameter; returns the expanded, encoded path."""
        path_params: dict[str, ParameterSpec] = {}
        narrowed = spec["method"].upper() in ("DELETE", "PATCH", "PUT")
        for param in spec["parameters"]:
            value = arguments.get(param["argument"])
            if param["argument"] not in arguments and "default" in param:
                value = param["default"]  # required, documented with a default the tool left out
            location = param["location"]
            if location == "path":
                path_params[param["name"]] = param
                continue
            if value is None:
                if param["required"]:
                    raise UpstreamError(f"missing required argument {param['argument']!r}")
                if location == "query" and param["argument"] in arguments and narrowed:
                    # a filter of a DELETE left out widens it (PostgREST's deleted every row)
                    raise UpstreamError(
                        f"argument {param['argument']!r} is null, which a query cannot send, and "
                        f"a {spec['method'].upper()} without it may act on more than asked; "
                        "nothing was sent. Give it a value, or leave it out to act on all it "
                        "would narrow"
                    )
                continue
            if location == "query":
                parts.query += query_pairs(param, value, self._arrays_of(spec))
            elif location == "header":
                if param["name"].lower() not in _IGNORED_HEADERS:
                    parts.headers.append((param["name"], header_value(param, value)))
            else:
                parts.cookies += cookie_pairs(param, value)
        return encode_path(spec["path"], path_params, arguments)

    def _arrays_of(self, spec: OperationSpec) -> str:
        arrays = spec.get("deepObjectArrays", self._arrays)
        return arrays if arrays in ARRAY_MODES else INDEXED

    def _body(
        self, operation: OperationSpec, arguments: Mapping[str, Any], parts: RequestParts
    ) -> bytes | None:
        """The request body, its Content-Type among ``parts``; None when none goes (with the
        Content-Type the operation declares for that, if any)."""
        spec = operation.get("body")
        content = None if spec is None else self._content(spec, arguments, parts, operation)
        if content is None and "bareContentType" in operation:
            parts.headers.append(("Content-Type", operation["bareContentType"]))
        return content

    def _content(
        self, spec: BodySpec, arguments: Mapping[str, Any], parts: RequestParts, op: OperationSpec
    ) -> bytes | None:
        argument = spec.get("argument")
        if argument is not None:
            value = arguments.get(argument)
            # an explicit null is a JSON body of its own (the schema admitted it: it was validated)
            null_body = argument in arguments and is_json(media_type(spec["contentType"]))
            if value is None and not null_body:
                if spec.get("emptyByDefault"):
                    value = {}
                elif spec["required"]:
                    raise UpstreamError(f"missing required argument {argument!r}")
                else:
                    return None
        else:
            # an explicit null is sent (a JSON body can clear a field with it); absent is absent
            names = spec.get("properties", {})
            value = {p: arguments[a] for a, p in names.items() if a in arguments}
            if not value and not spec["required"]:
                return None
            missing = [p for p in spec.get("requiredProperties", []) if p not in value]
            if missing:
                given = {v: k for k, v in names.items()}
                shown = ", ".join(repr(given.get(p, p)) for p in missing)
                raise UpstreamError(
                    f"the request body is sent as a whole: once any of its fields is given, "
                    f"{shown} must be given too"
                )
        media, body_parts = spec["contentType"], spec.get("parts")
        plain = spec.get("withoutFiles")
        if plain and not gives_file(value, body_parts or {}):
            media, body_parts = plain, None  # Nautobot's device type without its images
        content, content_type = encode_body(
            media,
            value,
            argument or "body",
            body_parts,
            declared=spec.get("declaredType", ""),
            arrays=self._arrays_of(op),
            as_text=spec.get("asText", False),
        )
        parts.headers.append(("Content-Type", content_type))
        return content


class _NoToken(Exception):
    """The token of a security scheme could not be had (its message says why)."""

    def __init__(self, scheme: str, message: str) -> None:
        super().__init__(message)
        self.scheme, self.message = scheme, message


def _declares_nothing(prepared: Prepared) -> bool:
    """Whether ``prepared`` goes without a body and without a Content-Type."""
    if prepared.content:
        return False
    return all(name.lower() != b"content-type" for name, _ in prepared.headers)


def _too_large(status: int) -> str:
    return (
        f"upstream answered {status} with a body larger than "
        f"{MAX_RESPONSE_BYTES // (1024 * 1024)} MiB; not read"
    )
