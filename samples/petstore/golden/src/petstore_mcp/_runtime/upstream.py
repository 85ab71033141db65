"""The HTTP client side of a generated server: from tool arguments to one upstream request.

``Upstream`` owns one lazily built ``httpx.AsyncClient`` per API and turns an ``OperationSpec`` plus
the tool's (already validated) arguments into a request (``upstream_encoding`` writes the parameters
and the body) with credentials picked from the environment per security scheme. The request always
goes to the configured base URL's scheme, host and port, whatever the arguments. Each call is
bounded: the timeout covers the whole attempt (connecting, sending, reading a body of at most
``MAX_RESPONSE_BYTES``), idempotent methods are retried with backoff, and ``resilience.Guard``
applies the rate and concurrency limits and the circuit breaker. Failures become ``UpstreamError``
with a short message that is safe to show a model; no credential ever appears in it, in a response
body handed back (``redaction``) or in a log line. Redirects are not followed (a 3xx is returned like
any response) and cookies set by the upstream are never stored, so no state leaks from one caller to
the next. Stdlib + httpx only.
"""

from __future__ import annotations

import asyncio
import base64
import http
import socket
import ssl
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, CookiePolicy
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from .catalog import BodySpec, OperationSpec, ParameterSpec, SecurityScheme, UpstreamInfo
from .redaction import Redactor, install_log_redaction
from .resilience import FAILURE_STATUSES, RETRY_STATUSES, Guard, Policy, PolicyError, Refused
from .resilience import parse_retry_after as _parse_retry_after
from .upstream_encoding import (
    EncodingRefused,
    cookie_pairs,
    encode_body,
    encode_path,
    header_value,
    query_pairs,
)

__all__ = ["MAX_RESPONSE_BYTES", "Upstream", "UpstreamError", "UpstreamResponse"]

MAX_RESPONSE_BYTES = 10 * 1024 * 1024
# OpenAPI ignores header parameters with these names; they are set from the spec itself.
_IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})
_BASE_URL_SUFFIX = "_BASE_URL"


class UpstreamError(Exception):
    """The call could not be made or completed; the message is safe to show the model."""


@dataclass(frozen=True, slots=True)
class UpstreamResponse:
    """What the upstream answered; ``url`` carries no credential (apiKey query values removed)."""

    status: int
    reason: str
    content_type: str
    body: bytes
    url: str
    # seconds the upstream asked to wait (``Retry-After``), when it said so
    retry_after: float | None = None


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


@dataclass(slots=True)
class _Request:
    """A request being assembled; ``secrets`` are scrubbed from any error message."""

    headers: list[tuple[str, str | bytes]] = field(default_factory=list)

    def raw_headers(self) -> list[tuple[bytes, bytes]]:
        return [
            (k.encode("utf-8"), v if isinstance(v, bytes) else v.encode("utf-8"))
            for k, v in self.headers
        ]

    query: list[str] = field(default_factory=list)
    secret_query: list[str] = field(default_factory=list)
    cookies: list[str] = field(default_factory=list)
    secrets: list[str] = field(default_factory=list)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}"


_REASONS = (
    ("refused", "connection refused"),
    ("name or service not known", "host not found"),
    ("nodename nor servname", "host not found"),
    ("getaddrinfo", "host not found"),
    ("name resolution", "host not found"),
    ("no address associated", "host not found"),
    ("certificate", "TLS certificate verification failed"),
    ("unreachable", "network is unreachable"),
    ("reset by peer", "connection reset"),
    ("server disconnected", "the server closed the connection without answering"),
)


def _reason(exc: BaseException) -> str:
    """A short cause, found along the exception chain (httpx wraps the OS error twice)."""
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain and len(chain) < 10:
        chain.append(current)
        current = current.__cause__ or current.__context__
    for error in chain:
        if isinstance(error, ConnectionRefusedError):
            return "connection refused"
        if isinstance(error, socket.gaierror):
            return "host not found"
        if isinstance(error, ssl.SSLCertVerificationError):
            return "TLS certificate verification failed"
    for error in chain:
        lowered = str(error).lower()
        for needle, reason in _REASONS:
            if needle in lowered:
                return reason
    text = str(exc)
    return text[:200] if text else type(exc).__name__


class _Failed(Exception):
    """One attempt failed in transport; ``retryable`` failures also count against the circuit."""

    def __init__(self, message: str, reason: str, *, retryable: bool) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason
        self.retryable = retryable


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A request ready to send (again, when retried)."""

    method: str
    url: str
    public_url: str
    headers: list[tuple[bytes, bytes]]
    content: bytes | None
    secrets: list[str]


def _pool_limits(policy: Policy) -> httpx.Limits:
    size = policy.max_concurrency or None
    return httpx.Limits(max_connections=size, max_keepalive_connections=size)


def env_prefix(info: UpstreamInfo) -> str:
    """The prefix of the server's environment variables, as in ``<PREFIX>_BASE_URL``."""
    name = info["baseUrlEnv"]
    return name.removesuffix(_BASE_URL_SUFFIX) if name.endswith(_BASE_URL_SUFFIX) else "MCP"


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
        self._base_url: str | None = None
        self._timeout = 30.0
        # built with the client, kept across aclose(): the circuit remembers a failing upstream
        self._guard: Guard | None = None
        self._redactor = Redactor(())

    async def aclose(self) -> None:
        if self._http is not None:
            client, self._http = self._http, None
            await client.aclose()

    def _client(self) -> httpx.AsyncClient:
        if self._http is None:
            self._base_url = self._resolve_base_url()
            self._timeout = self._resolve_timeout()
            if self._guard is None:
                try:
                    policy = Policy.from_env(self._environ, env_prefix(self._info))
                except PolicyError as exc:
                    raise UpstreamError(str(exc)) from None
                self._guard = Guard(policy, _origin(self._base_url))
            self._redactor = Redactor(self._credentials())
            if self._redactor:
                install_log_redaction(self._redactor)
            self._http = httpx.AsyncClient(
                transport=self._transport,
                http2=False,
                follow_redirects=False,
                timeout=self._timeout,
                headers={"User-Agent": self._user_agent},
                cookies=CookieJar(policy=_RefuseCookies()),
                # keep as many connections alive as calls may be in flight: reopening them under
                # load costs more than the calls themselves
                limits=_pool_limits(self._guard.policy),
                event_hooks=self._event_hooks,
            )
        return self._http

    def _credentials(self) -> list[str]:
        """Every configured credential value (user names are not secrets), and Basic tokens."""
        values: list[str] = []
        for scheme in self._info["securitySchemes"].values():
            if scheme["type"] == "basic":
                user = (self._environ.get(scheme["usernameEnv"]) or "").strip()
                password = (self._environ.get(scheme["passwordEnv"]) or "").strip()
                if password:
                    values.append(password)
                    values.append(base64.b64encode(f"{user}:{password}".encode()).decode("ascii"))
            else:
                value = (self._environ.get(scheme["env"]) or "").strip()
                if value:
                    values.append(value)
        return values

    def _resolve_base_url(self) -> str:
        env = self._info["baseUrlEnv"]
        url = (self._environ.get(env) or "").strip() or self._info["baseUrl"]
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            shown = repr(_origin(url)) if parts.scheme and parts.hostname else "a relative URL"
            raise UpstreamError(
                f"the upstream base URL is {shown}, not an http(s) URL; set {env} to the "
                "API's base URL (for example https://api.example.com)"
            )
        if parts.query or parts.fragment:
            raise UpstreamError(
                f"the upstream base URL must not have a query or fragment; check {env}"
            )
        return url.rstrip("/")

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

    async def call(self, operation: str, arguments: Mapping[str, Any]) -> UpstreamResponse:
        """Send one operation's request and read the (bounded) response, retrying if allowed.

        Arguments are placed (and refused) before anything is sent; the guard's limits and circuit
        are checked next, so a refused call never reaches the upstream.
        """
        spec = self._operations.get(operation)
        if spec is None:
            raise UpstreamError(f"unknown operation {operation!r}")
        client = self._client()
        assert self._guard is not None
        prepared = self._prepare(spec, arguments)
        try:
            self._guard.enter()
        except Refused as exc:
            raise UpstreamError(str(exc)) from None
        try:
            return await self._send(client, self._guard, prepared)
        finally:
            self._guard.leave()

    async def _send(
        self, client: httpx.AsyncClient, guard: Guard, prepared: _Prepared
    ) -> UpstreamResponse:
        attempt = 0
        while True:
            try:
                guard.circuit.admit()
            except Refused as exc:
                raise UpstreamError(str(exc)) from None
            try:
                response = await self._attempt(client, prepared)
            except _Failed as failure:
                if failure.retryable:
                    guard.circuit.record(False, failure.reason)
                else:
                    guard.circuit.abandon()
                delay = None
                if failure.retryable and self._may_retry(guard, prepared, attempt):
                    delay = guard.retry_delay(attempt)
                if delay is None:
                    tries = f" ({attempt + 1} attempts)" if attempt else ""
                    raise UpstreamError(failure.message + tries) from None
            except BaseException:
                # not the upstream's failure (an oversized body, a cancellation)
                guard.circuit.abandon()
                raise
            else:
                failed = response.status in FAILURE_STATUSES
                guard.circuit.record(not failed, f"HTTP {response.status} {response.reason}")
                if response.status not in RETRY_STATUSES or not self._may_retry(
                    guard, prepared, attempt
                ):
                    return response
                delay = guard.retry_delay(attempt, response.retry_after)
                if delay is None:
                    return response
            await asyncio.sleep(delay)
            attempt += 1

    @staticmethod
    def _may_retry(guard: Guard, prepared: _Prepared, attempt: int) -> bool:
        return guard.may_retry(prepared.method, attempt) and guard.circuit.state == "closed"

    async def _attempt(self, client: httpx.AsyncClient, prepared: _Prepared) -> UpstreamResponse:
        """One request and its whole body, within the timeout; transport failures are ``_Failed``."""
        assert self._base_url is not None
        origin = _origin(self._base_url)
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
                    body = await self._read(response)
                finally:
                    await response.aclose()
        except (TimeoutError, httpx.TimeoutException):
            message = f"upstream timed out after {self._timeout:g} s"
            raise _Failed(message, "timeout", retryable=True) from None
        except httpx.ConnectError as exc:
            message = self._scrub(f"could not reach {origin}: {_reason(exc)}", prepared)
            raise _Failed(message, _reason(exc), retryable=True) from None
        except (httpx.NetworkError, httpx.RemoteProtocolError) as exc:
            message = self._scrub(f"request to {origin} failed: {_reason(exc)}", prepared)
            raise _Failed(message, self._scrub(_reason(exc), prepared), retryable=True) from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            message = self._scrub(f"request to {origin} failed: {_reason(exc)}", prepared)
            raise _Failed(message, "", retryable=False) from None
        reason = self._redactor.text(response.reason_phrase)
        if not reason:
            try:
                reason = http.HTTPStatus(response.status_code).phrase
            except ValueError:
                reason = ""
        return UpstreamResponse(
            response.status_code,
            reason,
            response.headers.get("content-type", ""),
            self._redactor.bytes(body),
            prepared.public_url,
            _parse_retry_after(response.headers.get("retry-after")),
        )

    @staticmethod
    async def _read(response: httpx.Response) -> bytes:
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > MAX_RESPONSE_BYTES:
                limit = MAX_RESPONSE_BYTES // (1024 * 1024)
                raise UpstreamError(f"upstream response is larger than {limit} MiB; not read")
            chunks.append(chunk)
        return b"".join(chunks)

    def _scrub(self, message: str, prepared: _Prepared) -> str:
        for secret in prepared.secrets:
            message = message.replace(secret, "***")
        return self._redactor.text(message)

    # -- request parts -------------------------------------------------------------------------

    def _prepare(self, spec: OperationSpec, arguments: Mapping[str, Any]) -> _Prepared:
        """The request for ``arguments``, or ``UpstreamError`` naming the argument that cannot be sent."""
        assert self._base_url is not None
        parts = _Request()
        try:
            self._authenticate(spec["security"], parts)
            path = self._parameters(spec, arguments, parts)
            content = self._body(spec.get("body"), arguments, parts)
        except EncodingRefused as exc:
            raise UpstreamError(str(exc)) from None
        public = self._base_url + path + ("?" + "&".join(parts.query) if parts.query else "")
        query = parts.query + parts.secret_query
        url = self._base_url + path + ("?" + "&".join(query) if query else "")
        self._check_destination(url)
        parts.headers.append(("Accept", spec["responseMediaType"] or "*/*"))
        if parts.cookies:
            parts.headers.append(("Cookie", "; ".join(parts.cookies)))
        return _Prepared(
            spec["method"].upper(), url, public, parts.raw_headers(), content, parts.secrets
        )

    def _check_destination(self, url: str) -> None:
        """Defence in depth: nothing an argument holds may change the scheme, host or port."""
        assert self._base_url is not None
        try:
            target, base = httpx.URL(url), httpx.URL(self._base_url)
        except httpx.InvalidURL:
            raise UpstreamError("the arguments do not form a valid request URL") from None
        if (target.scheme, target.host, target.port) != (base.scheme, base.host, base.port):
            raise UpstreamError(f"refused: the request would not go to {_origin(self._base_url)}")

    def _parameters(
        self, spec: OperationSpec, arguments: Mapping[str, Any], parts: _Request
    ) -> str:
        """Place every parameter; returns the expanded, encoded path."""
        path_params: dict[str, ParameterSpec] = {}
        for param in spec["parameters"]:
            value = arguments.get(param["argument"])
            location = param["location"]
            if location == "path":
                path_params[param["name"]] = param
                continue
            if value is None:
                if param["required"]:
                    raise UpstreamError(f"missing required argument {param['argument']!r}")
                continue
            if location == "query":
                parts.query += query_pairs(param, value)
            elif location == "header":
                if param["name"].lower() not in _IGNORED_HEADERS:
                    parts.headers.append((param["name"], header_value(param, value)))
            else:
                parts.cookies += cookie_pairs(param, value)
        return encode_path(spec["path"], path_params, arguments)

    def _body(
        self, spec: BodySpec | None, arguments: Mapping[str, Any], parts: _Request
    ) -> bytes | None:
        if spec is None:
            return None
        argument = spec.get("argument")
        if argument is not None:
            value = arguments.get(argument)
            if value is None:
                if spec["required"]:
                    raise UpstreamError(f"missing required argument {argument!r}")
                return None
        else:
            names = spec.get("properties", {})
            value = {p: arguments[a] for a, p in names.items() if arguments.get(a) is not None}
            if not value and not spec["required"]:
                return None
        content, content_type = encode_body(spec["contentType"], value, argument or "body")
        parts.headers.append(("Content-Type", content_type))
        return content

    def _authenticate(self, security: list[list[str]], parts: _Request) -> None:
        if not security:
            return
        schemes = self._info["securitySchemes"]
        options: list[str] = []
        for alternative in security:
            chosen = [schemes.get(name) for name in alternative]
            if any(s is None for s in chosen):
                continue  # a scheme this server cannot use (the generator reported it)
            needed = [env for s in chosen if s is not None for env in _env_names(s)]
            if all((self._environ.get(env) or "").strip() for env in needed):
                for scheme in chosen:
                    if scheme is not None:
                        self._apply(scheme, parts)
                return
            option = " and ".join(dict.fromkeys(needed))
            if option not in options:
                options.append(option)
        if not options:
            raise UpstreamError("this operation needs credentials this server cannot supply")
        raise UpstreamError(
            "this operation needs credentials: set the environment variable "
            + ", or set ".join(options)
        )

    def _secret(self, env: str, parts: _Request) -> str:
        value = self._environ[env].strip()
        if any(c in value for c in "\r\n\0"):
            raise UpstreamError(f"the environment variable {env} contains a line break")
        parts.secrets.append(value)
        return value

    def _apply(self, scheme: SecurityScheme, parts: _Request) -> None:
        if scheme["type"] == "bearer":
            token = self._secret(scheme["env"], parts)
            parts.headers.append(("Authorization", f"Bearer {token}"))
        elif scheme["type"] == "basic":
            user = self._secret(scheme["usernameEnv"], parts)
            password = self._secret(scheme["passwordEnv"], parts)
            token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
            parts.secrets.append(token)
            parts.headers.append(("Authorization", f"Basic {token}"))
        else:
            key = self._secret(scheme["env"], parts)
            if scheme["location"] == "header":
                parts.headers.append((scheme["name"], key))
            elif scheme["location"] == "query":
                encoded = f"{quote(scheme['name'], safe='[]')}={quote(key, safe='')}"
                parts.secrets.append(quote(key, safe=""))
                parts.secret_query.append(encoded)
            else:
                parts.cookies.append(f"{scheme['name']}={key}")


def _env_names(scheme: SecurityScheme) -> list[str]:
    if scheme["type"] == "basic":
        return [scheme["usernameEnv"], scheme["passwordEnv"]]
    return [scheme["env"]]
