"""The recording upstream of the upstream-client tests: a real HTTP server on 127.0.0.1 that keeps
each request as it arrived on the wire (the raw request target, so percent-encoding is visible), the
``api``/``make`` fixtures (conftest imports them) and builders for operation specs.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from templates.runtime.catalog.model import OperationSpec, ParameterSpec, UpstreamInfo
from templates.runtime.upstream.client import Upstream, UpstreamResponse

API_KEY = "k3y-S3CRET"
TOKEN = "t0ken-S3CRET"
USER, PASSWORD = "alice", "pa:ss-S3CRET"

INFO: UpstreamInfo = {
    "baseUrl": "https://api.example.com",
    "baseUrlEnv": "PET_BASE_URL",
    "timeoutEnv": "PET_TIMEOUT",
    "timeoutSeconds": 30.0,
    "securitySchemes": {
        "headerKey": {
            "type": "apiKey",
            "location": "header",
            "name": "X-API-Key",
            "env": "PET_API_KEY",
        },
        "queryKey": {
            "type": "apiKey",
            "location": "query",
            "name": "api_key",
            "env": "PET_QUERY_KEY",
        },
        "cookieKey": {"type": "apiKey", "location": "cookie", "name": "sid", "env": "PET_SID"},
        "bearer": {"type": "bearer", "env": "PET_TOKEN"},
        "basic": {"type": "basic", "usernameEnv": "PET_USER", "passwordEnv": "PET_PASSWORD"},
    },
}


def param(
    name: str,
    location: str = "query",
    *,
    style: str = "",
    explode: bool | None = None,
    argument: str | None = None,
    required: bool = False,
    allow_reserved: bool = False,
) -> ParameterSpec:
    default_style = {"path": "simple", "query": "form", "header": "simple", "cookie": "form"}
    style = style or default_style[location]
    spec: ParameterSpec = {
        "name": name,
        "location": location,  # type: ignore[typeddict-item]
        "argument": argument or name,
        "required": required or location == "path",
        "style": style,
        "explode": (style == "form") if explode is None else explode,
    }
    if allow_reserved:
        spec["allowReserved"] = True
    return spec


def op(
    method: str = "GET",
    path: str = "/pets",
    parameters: list[ParameterSpec] | None = None,
    *,
    body: dict[str, Any] | None = None,
    security: list[list[str]] | None = None,
    media: str = "application/json",
) -> OperationSpec:
    spec: OperationSpec = {
        "method": method,
        "path": path,
        "parameters": parameters or [],
        "security": security or [],
        "responseMediaType": media,
        "pointer": f"#/paths/{path}/{method.lower()}",
    }
    if body is not None:
        spec["body"] = body  # type: ignore[typeddict-item]
    return spec


# -- a recording HTTP server on loopback ------------------------------------------------------


@dataclass
class Recorded:
    method: str
    target: str  # raw request target from the request line
    headers: list[tuple[str, str]]
    body: bytes
    client_port: int

    def header(self, name: str) -> str | None:
        values = [v for k, v in self.headers if k.lower() == name.lower()]
        assert len(values) <= 1, f"header {name} sent {len(values)} times"
        return values[0] if values else None

    def header_bytes(self, name: str) -> bytes | None:
        value = self.header(name)
        return None if value is None else value.encode("latin-1")


@dataclass
class FakeApi:
    url: str = ""
    requests: list[Recorded] = field(default_factory=list)
    replies: list[tuple[int, dict[str, str], bytes]] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)
    slow: bool = False

    def reply(
        self, status: int = 200, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> None:
        self.replies.append((status, headers or {}, body))


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64
    api: FakeApi

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that gave up (timeout tests) is expected, not a failure


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _handle(self) -> None:
        api = self.server.api
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        api.requests.append(
            Recorded(
                self.command, self.path, list(self.headers.items()), body, self.client_address[1]
            )
        )
        if api.slow:
            api.release.wait(10)
            return
        status, headers, payload = (
            api.replies.pop(0)
            if api.replies
            else (200, {"Content-Type": "application/json"}, b'{"ok":true}')
        )
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _handle


@contextlib.contextmanager
def fake_api() -> Iterator[FakeApi]:
    """A recording server on a free port of 127.0.0.1 (a second one is another origin)."""
    server = _Server(("127.0.0.1", 0), _Handler)
    fake = FakeApi(url=f"http://127.0.0.1:{server.server_address[1]}")
    server.api = fake
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake.release.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.fixture
def api() -> Iterator[FakeApi]:
    with fake_api() as fake:
        yield fake


Make = Callable[..., Upstream]


@pytest.fixture
async def make(api: FakeApi) -> AsyncIterator[Make]:
    made: list[Upstream] = []

    def build(
        operations: dict[str, OperationSpec],
        environ: dict[str, str] | None = None,
        *,
        info: UpstreamInfo = INFO,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> Upstream:
        upstream = Upstream(
            info,
            operations,
            environ={"PET_BASE_URL": api.url, **(environ or {})},
            user_agent="petstore-mcp/1.0",
            transport=transport,
        )
        made.append(upstream)
        return upstream

    yield build
    for upstream in made:
        await upstream.aclose()


async def call(
    make: Make, spec: OperationSpec, arguments: dict[str, Any], **kw: Any
) -> UpstreamResponse:
    return await make({"op": spec}, **kw).call("op", arguments)
