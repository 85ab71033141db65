"""A recorder on 127.0.0.1 that keeps every request exactly as it arrived.

Each request is kept as its method, the raw request target (path and query, not decoded), the header
lines in order and the body bytes (a chunked body is de-chunked). It answers what ``answer`` says,
by default ``200`` with ``{}``; the harness sets an empty ``204`` for operations that document no
other success. ``TCP_NODELAY`` keeps keep-alive calls fast.
"""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType


@dataclass(frozen=True, slots=True)
class Captured:
    method: str
    target: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        wanted = name.lower()
        return next((v for k, v in self.headers if k.lower() == wanted), None)

    def wire(self, limit: int = 600) -> str:
        """The request as text (for failure messages), the body cut to ``limit`` bytes."""
        lines = [f"{self.method} {self.target}", *(f"{k}: {v}" for k, v in self.headers)]
        body = self.body[:limit].decode("utf-8", "backslashreplace")
        more = f"… ({len(self.body)} bytes)" if len(self.body) > limit else ""
        return "\n".join(lines) + "\n\n" + body + more


class Recorder:
    """``with Recorder() as rec:`` serves on ``rec.base_url``; ``rec.requests`` holds what came."""

    def __init__(self) -> None:
        self.requests: list[Captured] = []
        self.answer: tuple[int, bytes] = (200, b"{}")
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, *args: object) -> None:
                pass

            def _body(self) -> bytes:
                if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                    chunks = []
                    while size := int(self.rfile.readline().split(b";")[0].strip() or b"0", 16):
                        chunks.append(self.rfile.read(size))
                        self.rfile.readline()
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                length = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(length) if length else b""

            def _handle(self) -> None:
                body = self._body()
                recorder.requests.append(
                    Captured(self.command, self.path, tuple(self.headers.items()), body)
                )
                status, payload = recorder.answer
                self.send_response(status)
                if payload:
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _handle

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> Recorder:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
