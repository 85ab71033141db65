"""A recording fake of the upstream API for the generated smoke tests (stdlib only).

Each test queues the response the next request should get; every request received is recorded with
its method, raw path, query, headers and body.
"""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Recorded:
    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True)
class Canned:
    status: int
    content_type: str
    body: bytes


class FakeUpstream:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.next = Canned(200, "application/json", b"{}")
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, format: str, *args: object) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                headers = {k.lower(): v for k, v in self.headers.items()}
                with fake._lock:
                    fake.requests.append(
                        Recorded(self.command, parts.path, parts.query, headers, body)
                    )
                    canned = fake.next
                self.send_response(canned.status)
                if canned.body or canned.status not in (204, 304):
                    self.send_header("Content-Type", canned.content_type)
                    self.send_header("Content-Length", str(len(canned.body)))
                self.end_headers()
                if canned.body and self.command != "HEAD":
                    self.wfile.write(canned.body)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve
            do_HEAD = do_OPTIONS = do_TRACE = _serve

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.01,), daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeUpstream:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
