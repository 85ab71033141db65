"""The HTTP client side of a generated server: from tool arguments to one upstream request.

``Upstream`` owns one lazily built ``httpx.AsyncClient`` per API and turns an ``OperationSpec`` plus
the tool's (already validated) arguments into a request: OpenAPI parameter styles for the path,
query, headers and cookies, the request body in its media type, and credentials picked from the
environment per security scheme. Values are percent-encoded so they can never add path segments,
query parameters or a fragment, and header values can never add header lines. Failures become
``UpstreamError`` with a short message that is safe to show a model: it never contains a credential.
Redirects are not followed (a 3xx is returned like any response) and cookies set by the upstream are
never stored, so no state leaks from one caller to the next. Stdlib + httpx only.
"""

from __future__ import annotations

import base64
import binascii
import http
import json
import re
import secrets
import socket
import ssl
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, CookiePolicy
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

import httpx

from .catalog import BodySpec, OperationSpec, ParameterSpec, SecurityScheme, UpstreamInfo

__all__ = ["MAX_RESPONSE_BYTES", "Upstream", "UpstreamError", "UpstreamResponse"]

MAX_RESPONSE_BYTES = 10 * 1024 * 1024
# With allowReserved these stay literal; "&", "=", "+" and "#" are always encoded because they
# would change the query's structure (or start a fragment).
_QUERY_RESERVED = ":/?[]@!$'()*,;"
_PATH_LITERAL_SAFE = "/:@!$&'()*+,;=-._~%"
# OpenAPI ignores header parameters with these names; they are set from the spec itself.
_IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})
_TEXT_MEDIA = re.compile(
    r"text/.*|application/(xml|yaml|x-yaml|javascript|graphql|sql)|.*\+xml", re.IGNORECASE
)
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


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


def _scalar(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _encode_all(text: str) -> str:
    return quote(text, safe="")


def _flatten(value: Any, explode: bool, enc: Callable[[str], str]) -> list[str]:
    """Array items, or object members as ``k=v`` (explode) / ``k, v`` (no explode), encoded."""
    if isinstance(value, dict):
        pairs = [(enc(str(k)), enc(_scalar(v))) for k, v in value.items() if v is not None]
        if explode:
            return [f"{k}={v}" for k, v in pairs]
        return [x for pair in pairs for x in pair]
    if isinstance(value, list | tuple):
        return [enc(_scalar(v)) for v in value if v is not None]
    return [enc(_scalar(value))]


def _path_value(spec: ParameterSpec, value: Any) -> str:
    style, explode = spec["style"] or "simple", spec["explode"]
    items = _flatten(value, explode, _encode_all)
    if style == "label":
        return "." + ("." if explode else ",").join(items)
    if style == "matrix":
        name = _encode_all(spec["name"])
        if isinstance(value, dict) and explode:
            return "".join(f";{item}" for item in items)
        if isinstance(value, list | tuple) and explode:
            return "".join(f";{name}={item}" for item in items)
        joined = ",".join(items)
        return f";{name}={joined}" if joined else f";{name}"
    return ",".join(items)


def _query_pairs(spec: ParameterSpec, value: Any) -> list[str]:
    style, explode = spec["style"] or "form", spec["explode"]
    safe = _QUERY_RESERVED if spec.get("allowReserved") else ""

    def enc(text: str) -> str:
        return quote(text, safe=safe)

    name = quote(spec["name"], safe="[]")
    if isinstance(value, dict) and style == "deepObject":
        return _deep_object(name, value, enc)
    if isinstance(value, dict) and explode:
        return _flatten(value, True, enc)
    if isinstance(value, list | tuple) and explode:
        return [f"{name}={item}" for item in _flatten(value, True, enc)]
    separator = {"spaceDelimited": "%20", "pipeDelimited": "|"}.get(style, ",")
    return [f"{name}={separator.join(_flatten(value, False, enc))}"]


def _deep_object(name: str, value: Any, enc: Callable[[str], str]) -> list[str]:
    if isinstance(value, dict):
        out: list[str] = []
        for key, member in value.items():
            if member is not None:
                out += _deep_object(f"{name}[{quote(str(key), safe='')}]", member, enc)
        return out
    if isinstance(value, list | tuple):
        return [f"{name}={enc(_scalar(v))}" for v in value if v is not None]
    return [f"{name}={enc(_scalar(value))}"]


def _cookie_pairs(spec: ParameterSpec, value: Any) -> list[str]:
    name = _encode_all(spec["name"])
    if isinstance(value, dict) and spec["explode"]:
        return _flatten(value, True, _encode_all)
    if isinstance(value, list | tuple) and spec["explode"]:
        return [f"{name}={item}" for item in _flatten(value, True, _encode_all)]
    return [f"{name}={','.join(_flatten(value, False, _encode_all))}"]


def _header_value(spec: ParameterSpec, value: Any) -> str | bytes:
    text = ",".join(_flatten(value, spec["explode"], lambda s: s))
    if any(c in text for c in "\r\n\0"):
        raise UpstreamError(
            f"argument {spec['argument']!r} contains a line break, which cannot be sent in the "
            f"HTTP header {spec['name']!r}"
        )
    return text if text.isascii() else text.encode("utf-8")


def _no_dot_segments(path: str) -> str:
    # "." and ".." would be resolved away by clients, proxies and servers alike
    return "/".join(
        seg.replace(".", "%2E") if seg and set(seg) == {"."} else seg for seg in path.split("/")
    )


def _media(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def _is_json(media: str) -> bool:
    return media == "application/json" or media.endswith("+json")


def _decode_base64(value: Any, argument: str) -> bytes:
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if not isinstance(value, str):
        raise UpstreamError(f"argument {argument!r} must be a base64 string")
    text = re.sub(r"\s+", "", value.split(",", 1)[1] if value.startswith("data:") else value)
    try:
        if "-" in text or "_" in text:
            return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise UpstreamError(f"argument {argument!r} is not valid base64") from None


def _form_pairs(value: Any) -> list[tuple[str, str]]:
    if not isinstance(value, dict):
        return [("", _scalar(value))]
    pairs: list[tuple[str, str]] = []
    for key, member in value.items():
        if member is None:
            continue
        members = member if isinstance(member, list | tuple) else [member]
        pairs += [(str(key), _scalar(m)) for m in members if m is not None]
    return pairs


def _multipart(value: Any) -> tuple[bytes, str]:
    boundary = secrets.token_hex(16)
    chunks: list[bytes] = []
    for key, text in _form_pairs(value):
        name = key.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")
        chunks.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
            + text.encode("utf-8")
            + b"\r\n"
        )
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


def _encode_body(content_type: str, value: Any, argument: str) -> tuple[bytes, str]:
    media = _media(content_type)
    if _is_json(media):
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        return text.encode("utf-8"), content_type
    if media == "application/x-www-form-urlencoded":
        pairs = _form_pairs(value)
        if pairs and pairs[0][0] == "":
            return pairs[0][1].encode("utf-8"), content_type
        return urlencode(pairs).encode("ascii"), content_type
    if media == "multipart/form-data":
        return _multipart(value)
    if _TEXT_MEDIA.fullmatch(media):
        return _scalar(value).encode("utf-8"), content_type
    return _decode_base64(value, argument), content_type


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
    ) -> None:
        self._info = info
        self._operations = operations
        self._environ = environ
        self._user_agent = user_agent
        self._transport = transport
        self._http: httpx.AsyncClient | None = None
        self._base_url: str | None = None
        self._timeout = 30.0

    async def aclose(self) -> None:
        if self._http is not None:
            client, self._http = self._http, None
            await client.aclose()

    def _client(self) -> httpx.AsyncClient:
        if self._http is None:
            self._base_url = self._resolve_base_url()
            self._timeout = self._resolve_timeout()
            self._http = httpx.AsyncClient(
                transport=self._transport,
                http2=False,
                follow_redirects=False,
                timeout=self._timeout,
                headers={"User-Agent": self._user_agent},
                cookies=CookieJar(policy=_RefuseCookies()),
            )
        return self._http

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
        """Send one operation's request and read the (bounded) response."""
        spec = self._operations.get(operation)
        if spec is None:
            raise UpstreamError(f"unknown operation {operation!r}")
        client = self._client()
        assert self._base_url is not None
        parts = _Request()
        self._authenticate(spec["security"], parts)
        path = self._parameters(spec, arguments, parts)
        content = self._body(spec.get("body"), arguments, parts)
        public = self._base_url + path + ("?" + "&".join(parts.query) if parts.query else "")
        query = parts.query + parts.secret_query
        url = self._base_url + path + ("?" + "&".join(query) if query else "")
        parts.headers.append(("Accept", spec["responseMediaType"] or "*/*"))
        if parts.cookies:
            parts.headers.append(("Cookie", "; ".join(parts.cookies)))
        try:
            request = client.build_request(
                spec["method"].upper(), url, headers=parts.raw_headers(), content=content
            )
            response = await client.send(request, stream=True)
            try:
                body = await self._read(response)
            finally:
                await response.aclose()
        except httpx.TimeoutException:
            raise UpstreamError(f"upstream timed out after {self._timeout:g} s") from None
        except httpx.ConnectError as exc:
            message = f"could not reach {_origin(self._base_url)}: {_reason(exc)}"
            raise UpstreamError(self._scrub(message, parts)) from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            message = f"request to {_origin(self._base_url)} failed: {_reason(exc)}"
            raise UpstreamError(self._scrub(message, parts)) from None
        reason = response.reason_phrase
        if not reason:
            try:
                reason = http.HTTPStatus(response.status_code).phrase
            except ValueError:
                reason = ""
        content_type = response.headers.get("content-type", "")
        return UpstreamResponse(response.status_code, reason, content_type, body, public)

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

    @staticmethod
    def _scrub(message: str, parts: _Request) -> str:
        for secret in parts.secrets:
            message = message.replace(secret, "***")
        return message

    # -- request parts -------------------------------------------------------------------------

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
                parts.query += _query_pairs(param, value)
            elif location == "header":
                if param["name"].lower() not in _IGNORED_HEADERS:
                    parts.headers.append((param["name"], _header_value(param, value)))
            else:
                parts.cookies += _cookie_pairs(param, value)

        def substitute(match: re.Match[str]) -> str:
            param = path_params.get(match.group(1))
            if param is None:
                raise UpstreamError(f"path parameter {match.group(1)!r} is not described")
            value = arguments.get(param["argument"])
            text = None if value is None else _path_value(param, value)
            if not text:
                raise UpstreamError(f"missing required argument {param['argument']!r}")
            return text

        pieces = _PLACEHOLDER.split(spec["path"])
        for i in range(0, len(pieces), 2):
            pieces[i] = quote(pieces[i], safe=_PATH_LITERAL_SAFE)
        literal = "".join(p if i % 2 == 0 else "{" + p + "}" for i, p in enumerate(pieces))
        return _no_dot_segments(_PLACEHOLDER.sub(substitute, literal))

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
        content, content_type = _encode_body(spec["contentType"], value, argument or "body")
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
                encoded = f"{quote(scheme['name'], safe='[]')}={_encode_all(key)}"
                parts.secrets.append(_encode_all(key))
                parts.secret_query.append(encoded)
            else:
                parts.cookies.append(f"{scheme['name']}={key}")


def _env_names(scheme: SecurityScheme) -> list[str]:
    if scheme["type"] == "basic":
        return [scheme["usernameEnv"], scheme["passwordEnv"]]
    return [scheme["env"]]
