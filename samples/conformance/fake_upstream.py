"""The fake API behind the conformance sample: answers every operation of ``openapi.yaml`` on loopback.

It owns the upstream the MCP conformance suite reaches through a server generated from
``samples/conformance/openapi.yaml``: the suite's fixture payloads (a fixed sentence, a 1x1 red PNG, a
short silent WAV, an opaque binary document, a multipart/mixed body of text, PNG and JSON parts, an
HTTP 500 for the error tool, template data echoing its id) served under ``BASE_PATH``, and a
thread-safe record of which operations were called so a test can tell a fixture that really ran
from a scenario that passed without reaching the API. Stdlib only, so it runs in any environment;
``python fake_upstream.py`` serves it standalone and prints its base URL.
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import struct
import sys
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import TextIO
from urllib.parse import parse_qsl

__all__ = ["BASE_PATH", "FakeConformanceApi", "Reply", "mixed_content", "tiny_png", "tiny_wav"]

BASE_PATH = "/conformance"
# the suite expects the tool to take a while, so notifications can be sent during the call
SLOW_OPERATION_SECONDS = 0.1
_CONNECTION_TIMEOUT_SECONDS = 30.0
_TEMPLATE_PATH = re.compile(r"^/template/(?P<id>[^/]+)/data$")


@dataclass(frozen=True, slots=True)
class Reply:
    """One HTTP answer: status, media type and body bytes."""

    status: int
    content_type: str
    body: bytes

    @classmethod
    def text(cls, text: str, status: int = 200) -> Reply:
        return cls(status, "text/plain; charset=utf-8", text.encode("utf-8"))

    @classmethod
    def json(cls, value: object, status: int = 200) -> Reply:
        return cls(status, "application/json", json.dumps(value).encode("utf-8"))


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def tiny_png() -> bytes:
    """A valid 1x1 red PNG (8-bit RGB), built rather than pasted as an opaque blob."""
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    scanline = b"\x00\xff\x00\x00"  # filter byte, then one red pixel
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress(scanline))
        + _png_chunk(b"IEND", b"")
    )


def tiny_wav(milliseconds: int = 50, rate: int = 8000) -> bytes:
    """A valid mono 16-bit PCM WAV file of silence."""
    frames = rate * milliseconds // 1000
    data = b"\x00\x00" * frames
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate * 2, 2, 16)
    chunks = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    chunks += b"data" + struct.pack("<I", len(data)) + data
    return b"RIFF" + struct.pack("<I", len(chunks)) + chunks


def mixed_content(boundary: str = "mixed-content-boundary") -> Reply:
    """A multipart/mixed reply: a text part, the red PNG and a JSON document with its own URI."""
    parts = [
        (["Content-Type: text/plain; charset=utf-8"], b"Multiple content types test:"),
        (["Content-Type: image/png", "Content-Transfer-Encoding: binary"], tiny_png()),
        (
            ["Content-Type: application/json", "Content-Location: test://mixed-content-resource"],
            json.dumps({"test": "data", "value": 123}, separators=(",", ":")).encode("utf-8"),
        ),
    ]
    body = b""
    for headers, content in parts:
        head = "".join(f"{line}\r\n" for line in headers).encode("ascii")
        body += f"--{boundary}\r\n".encode("ascii") + head + b"\r\n" + content + b"\r\n"
    body += f"--{boundary}--\r\n".encode("ascii")
    return Reply(200, f'multipart/mixed; boundary="{boundary}"', body)


def _slow(reply: Reply) -> Callable[[dict[str, str]], Reply]:
    def answer(headers: dict[str, str]) -> Reply:
        time.sleep(SLOW_OPERATION_SECONDS)
        return reply

    return answer


def _fixed(reply: Reply) -> Callable[[dict[str, str]], Reply]:
    return lambda headers: reply


def _custom_header(headers: dict[str, str]) -> Reply:
    region = headers.get("x-test-region")
    if region is None:
        return Reply.json({"message": "missing X-Test-Region header"}, status=400)
    return Reply.text(f"Region: {region}")


PNG = tiny_png()
WAV = tiny_wav()
# (method, path below BASE_PATH) -> answer, given the lower-cased request headers
ROUTES: dict[tuple[str, str], Callable[[dict[str, str]], Reply]] = {
    ("POST", "/tools/simple-text"): _fixed(
        Reply.text("This is a simple text response for testing.")
    ),
    ("POST", "/tools/image"): _fixed(Reply(200, "image/png", PNG)),
    ("POST", "/tools/audio"): _fixed(Reply(200, "audio/wav", WAV)),
    ("POST", "/tools/embedded-resource"): _fixed(
        Reply(200, "application/octet-stream", b"This is an embedded resource content.")
    ),
    ("POST", "/tools/multiple-content-types"): _fixed(mixed_content()),
    ("POST", "/tools/error"): _fixed(
        Reply.text("This tool intentionally returns an error for testing", status=500)
    ),
    ("POST", "/tools/progress"): _slow(Reply.text("Progress tool completed")),
    ("POST", "/tools/logging"): _slow(Reply.text("Logging tool completed")),
    ("POST", "/tools/logging-tool"): _slow(Reply.text("Logging tool completed")),
    ("POST", "/tools/json-schema"): _fixed(Reply.text("Contact accepted")),
    ("POST", "/tools/custom-header"): _custom_header,
    ("GET", "/static-text"): _fixed(Reply.text("This is the content of the static text resource.")),
    ("GET", "/static-binary"): _fixed(Reply(200, "image/png", PNG)),
    ("GET", "/watched-resource"): _fixed(Reply.text("Watched resource content.")),
}


def _asked(local: str, query: str, body: bytes) -> Reply:
    """The ``/ask/*`` operations: say what arrived, which is what the user (or client) answered."""
    values: dict[str, list[str]] = {}
    for name, value in parse_qsl(query, keep_blank_values=True):
        values.setdefault(name, []).append(value)
    if body:
        try:
            sent = json.loads(body)
        except ValueError:
            return Reply.json({"message": "the body is not JSON"}, status=400)
        values.update(
            {k: [json.dumps(v) if not isinstance(v, str) else v] for k, v in sent.items()}
        )
    if local == "/ask/hello" and "name" in values:
        return Reply.text(f"Hello, {values['name'][0]}!")
    if local in ("/ask/state", "/ask/tampered"):
        agreed = values.get("ok") == ["true"]
        return Reply.text("state-ok: confirmed" if agreed else "state-ok: not confirmed")
    if local == "/ask/legacy-elicitation":
        return Reply.text(f"User response: {json.dumps(values, sort_keys=True)}")
    if local == "/ask/legacy-sampling":
        return Reply.text(f"LLM response: {values.get('response', [''])[0]}")
    return Reply.text(f"Received: {json.dumps(values, sort_keys=True)}")


def answer(
    method: str, path: str, headers: dict[str, str], query: str = "", body: bytes = b""
) -> Reply:
    """The reply for one request; ``path`` is the raw request path without the query."""
    if not path.startswith(BASE_PATH + "/"):
        return Reply.json({"message": f"no route for {method} {path}"}, status=404)
    local = path[len(BASE_PATH) :]
    if local.startswith("/ask/"):
        return _asked(local, query, body)
    route = ROUTES.get((method, local))
    if route is not None:
        return route(headers)
    match = _TEMPLATE_PATH.match(local)
    if method == "GET" and match:
        item = match["id"]
        return Reply.json({"id": item, "templateTest": True, "data": f"Data for ID: {item}"})
    return Reply.json({"message": f"no route for {method} {path}"}, status=404)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeConformanceApi


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    timeout = _CONNECTION_TIMEOUT_SECONDS

    def setup(self) -> None:
        super().setup()
        # without TCP_NODELAY a keep-alive request on loopback waits ~40 ms for delayed ACKs
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def do_PUT(self) -> None:
        self._serve()

    def do_DELETE(self) -> None:
        self._serve()

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        path, _, query = self.path.partition("?")
        headers = {name.lower(): value for name, value in self.headers.items()}
        reply = answer(self.command, path, headers, query, body)
        self.server.fake.record(self.command, path, reply.status)
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        self.wfile.write(reply.body)

    def log_message(self, format: str, *args: object) -> None:
        if self.server.fake.log is not None:
            self.server.fake.log.write(f"fake upstream: {format % args}\n")


class FakeConformanceApi:
    """The fake API on a background thread; use as a context manager or ``start``/``stop``."""

    def __init__(self, *, port: int = 0, log: TextIO | None = None) -> None:
        self._port = port
        self.log = log
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._calls: list[tuple[str, str, int]] = []

    @property
    def base_url(self) -> str:
        """The URL to point the generated server at (the spec's server URL, relocated)."""
        assert self._server is not None, "the fake API is not running"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}{BASE_PATH}"

    def calls(self) -> list[tuple[str, str, int]]:
        """Every request so far as (method, path below ``BASE_PATH``, status), in arrival order."""
        with self._lock:
            return list(self._calls)

    def record(self, method: str, path: str, status: int) -> None:
        with self._lock:
            self._calls.append((method, path.removeprefix(BASE_PATH), status))

    def start(self) -> str:
        server = _Server(("127.0.0.1", self._port), _Handler)
        server.fake = self
        self._server = server
        # a short poll: shutdown() waits for the loop to notice
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.01},
            name="fake-conformance-api",
            daemon=True,
        )
        self._thread.start()
        return self.base_url

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> FakeConformanceApi:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    """Serve until killed; the first line on stdout is the base URL."""
    parser = argparse.ArgumentParser(description="Serve the conformance fixtures on loopback.")
    parser.add_argument("--port", type=int, default=0, help="port to bind (default: a free one)")
    parser.add_argument("--quiet", action="store_true", help="do not log requests to stderr")
    options = parser.parse_args(argv)
    fake = FakeConformanceApi(port=options.port, log=None if options.quiet else sys.stderr)
    fake.start()
    print(fake.base_url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        fake.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
