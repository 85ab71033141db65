"""One recording fake upstream: a real HTTP/1.1 server on 127.0.0.1 that keeps every request.

``RecordingUpstream`` listens on a free port of 127.0.0.1 (a second one is another origin) and keeps
each request exactly as it arrived: the method, the raw request target (percent-encoding visible),
the header lines in order, the body (a chunked body de-chunked) and the client's port (to tell
connections apart). What it answers is what its ``answer`` method returns: the ``canned`` reply by
default (200 ``{}``), one a subclass computes from the request, or ``None`` to hold the request
unanswered until the upstream stops (an API that never answers). ``TCP_NODELAY`` keeps keep-alive calls from waiting for
delayed ACKs, and the serving loop polls for shutdown every 10 ms so that stopping never idles.
"""

from __future__ import annotations

import json
import socket
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self
from urllib.parse import parse_qsl, urlsplit

# how often the serving loop looks for shutdown(): the standard 0.5 s would idle every test's teardown
POLL_INTERVAL = 0.01
# a held request gives up after this long even if the upstream is never stopped
HOLD_LIMIT = 10.0
JSON = (("Content-Type", "application/json"),)


@dataclass(frozen=True, slots=True)
class Request:
    """One request as it came over the wire."""

    method: str
    target: str  # the raw request target of the request line
    headers: tuple[tuple[str, str], ...]
    body: bytes
    client_port: int = 0

    @property
    def path(self) -> str:
        """The target's path, still percent-encoded."""
        return urlsplit(self.target).path

    @property
    def query(self) -> list[tuple[str, str]]:
        """The target's query as decoded name/value pairs, in order."""
        return parse_qsl(urlsplit(self.target).query)

    def header(self, name: str) -> str | None:
        """The value of header ``name`` (any case), which must have been sent at most once."""
        values = [v for k, v in self.headers if k.lower() == name.lower()]
        assert len(values) <= 1, f"header {name} sent {len(values)} times"
        return values[0] if values else None

    def header_bytes(self, name: str) -> bytes | None:
        """The header's value as the bytes on the wire (HTTP header values are Latin-1)."""
        value = self.header(name)
        return None if value is None else value.encode("latin-1")

    def json(self) -> Any:
        return json.loads(self.body)

    def wire(self, limit: int = 600) -> str:
        """The request as text (for failure messages), the body cut to ``limit`` bytes."""
        lines = [f"{self.method} {self.target}", *(f"{k}: {v}" for k, v in self.headers)]
        body = self.body[:limit].decode("utf-8", "backslashreplace")
        more = f"… ({len(self.body)} bytes)" if len(self.body) > limit else ""
        return "\n".join(lines) + "\n\n" + body + more


@dataclass(frozen=True, slots=True)
class Reply:
    """A response to send: ``Content-Length`` is added, the body is left out for ``HEAD``."""

    status: int = 200
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = ()

    @classmethod
    def json(cls, status: int = 200, payload: Any = None) -> Reply:
        """A JSON body (``None``: an empty body without a ``Content-Type``)."""
        if payload is None:
            return cls(status)
        return cls(status, json.dumps(payload).encode(), JSON)


EMPTY_OBJECT = Reply(200, b"{}", JSON)


class RecordingUpstream:
    """``with RecordingUpstream() as upstream:`` serves on ``upstream.url``; ``requests`` holds what came."""

    def __init__(self, canned: Reply = EMPTY_OBJECT) -> None:
        self.canned = canned
        self.requests: list[Request] = []
        # set when the upstream stops: held requests end, unanswered
        self.release = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.upstream = self
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread: threading.Thread | None = None

    def answer(self, request: Request) -> Reply | None:
        """What to send back for ``request`` (called on the server's thread); ``None`` never answers."""
        return self.canned

    def start(self) -> Self:
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(POLL_INTERVAL,), daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64
    upstream: RecordingUpstream

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

    def _body(self) -> bytes:
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks = []
            while size := int(self.rfile.readline().split(b";")[0].strip() or b"0", 16):
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                pass  # trailer fields
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _handle(self) -> None:
        upstream = self.server.upstream
        request = Request(
            self.command,
            self.path,
            tuple(self.headers.items()),
            self._body(),
            self.client_address[1],
        )
        upstream.requests.append(request)
        reply = upstream.answer(request)
        if reply is None:
            upstream.release.wait(HOLD_LIMIT)
            return
        self.send_response(reply.status)
        for key, value in reply.headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(reply.body)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _handle
