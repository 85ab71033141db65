"""A recording stand-in for the GitHub-like API on 127.0.0.1: it keeps every request it gets.

Answers are canned per route (an issue for the issue routes, a repository for ``GET /repos/o/r``, a
204 for starring); anything else is a 404 with GitHub's ``{"message": "Not Found"}``.
"""

from __future__ import annotations

import json
import socket
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import parse_qsl, urlsplit


@dataclass(frozen=True, slots=True)
class Recorded:
    method: str
    path: str
    query: list[tuple[str, str]]
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def _answer(method: str, path: str, body: bytes) -> tuple[int, Any]:
    parts = path.strip("/").split("/")
    if method == "POST" and len(parts) == 4 and parts[0] == "repos" and parts[3] == "issues":
        sent = json.loads(body or b"{}")
        return 201, {"id": 7, "number": 42, "title": sent.get("title", ""), "state": "open"}
    if method == "GET" and len(parts) == 5 and parts[3] == "issues":
        return 200, {"id": 7, "number": int(parts[4]), "title": "Found a bug", "state": "open"}
    if method == "GET" and len(parts) == 3 and parts[0] == "repos":
        return 200, {"id": 1, "name": parts[2], "full_name": f"{parts[1]}/{parts[2]}"}
    if method == "PUT" and parts[:2] == ["user", "starred"]:
        return 204, None
    return 404, {"message": "Not Found"}


class RecordingUpstream:
    """``with RecordingUpstream() as api:`` serves on ``api.base_url`` and records ``api.requests``."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                # without it, keep-alive requests wait ~40 ms for delayed ACKs
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, *args: object) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                split = urlsplit(self.path)
                recorder.requests.append(
                    Recorded(
                        self.command,
                        split.path,
                        parse_qsl(split.query),
                        {k.lower(): v for k, v in self.headers.items()},
                        body,
                    )
                )
                status, payload = _answer(self.command, split.path, body)
                data = b"" if payload is None else json.dumps(payload).encode()
                self.send_response(status)
                if data:
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> RecordingUpstream:
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
