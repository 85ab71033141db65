"""A scripted HTTP upstream on 127.0.0.1: each path misbehaves in its own way, every request recorded.

Raw sockets (one thread per connection, ``Connection: close`` on every answer), so a behaviour can do
what a well-mannered server framework would not: stall, reset the connection in the middle of a
body, stream forever, lie about its content type. ``FaultServer.script`` maps a path to a
``Behaviour``; unknown paths answer ``200 {"ok": true}``. Every request is recorded as it arrived
(method, raw target, lower-cased headers, body), which is also what the request-safety probes read.
"""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

MAX_REQUEST_BYTES = 1 << 20


@dataclass(frozen=True)
class Seen:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes

    @property
    def path(self) -> str:
        return self.target.split("?", 1)[0]


@dataclass
class Exchange:
    """What a behaviour gets: the request, how often its path was hit, and the socket."""

    request: Seen
    count: int
    conn: socket.socket
    stop: threading.Event

    def send(self, data: bytes) -> None:
        self.conn.sendall(data)

    def reply(
        self,
        status: int,
        body: bytes = b"",
        content_type: str = "application/json",
        headers: dict[str, str] | None = None,
    ) -> None:
        lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}"]
        lines += [f"Content-Type: {content_type}", f"Content-Length: {len(body)}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        lines.append("Connection: close")
        self.send(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)

    def json(self, status: int, value: Any, headers: dict[str, str] | None = None) -> None:
        self.reply(status, json.dumps(value).encode(), headers=headers)

    def reset(self) -> None:
        """Abort the connection with a TCP RST (SO_LINGER 0)."""
        self.conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.conn.close()

    def hang(self) -> None:
        self.stop.wait()


Behaviour = Callable[[Exchange], None]

_REASONS = {
    200: "OK",
    201: "Created",
    304: "Not Modified",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


@dataclass
class FaultServer:
    script: dict[str, Behaviour] = field(default_factory=dict)
    requests: list[Seen] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(256)
        # accept() wakes up regularly to notice close(); a closed socket alone does not wake it
        self._sock.settimeout(0.05)
        self.url = f"http://127.0.0.1:{self._sock.getsockname()[1]}"
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def __enter__(self) -> FaultServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()
        with contextlib.suppress(OSError):
            self._sock.close()
        self._thread.join(5)

    def hits(self, path: str) -> int:
        with self._lock:
            return sum(1 for r in self.requests if r.path == path)

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            conn.settimeout(None)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        # the connection is closed however this ends: a client that connects and sends nothing
        # (or resets) ends in an OSError here, and the socket must not wait for the garbage
        # collector, whose ResourceWarning then fails whichever test is running
        with conn, contextlib.suppress(OSError):
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn.settimeout(30)
            request = _read_request(conn)
            if request is None:
                return
            with self._lock:
                self.requests.append(request)
                count = self._counts[request.path] = self._counts.get(request.path, 0) + 1
            behaviour = self.script.get(request.path, ok)
            behaviour(Exchange(request, count, conn, self._stop))


def _read_request(conn: socket.socket) -> Seen | None:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk or len(data) > MAX_REQUEST_BYTES:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, target, _ = lines[0].split(" ", 2)
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        key = name.strip().lower()
        headers[key] = f"{headers[key]}, {value.strip()}" if key in headers else value.strip()
    length = int(headers.get("content-length", "0") or 0)
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return Seen(method, target, headers, body)


# -- behaviours -------------------------------------------------------------------------------


def ok(x: Exchange) -> None:
    x.json(200, {"ok": True})


def status(code: int, headers: dict[str, str] | None = None) -> Behaviour:
    return lambda x: x.json(code, {"error": f"status {code}"}, headers)


def burst(code: int, failures: int, headers: dict[str, str] | None = None) -> Behaviour:
    """``failures`` answers with ``code`` (and ``headers``), then success."""

    def run(x: Exchange) -> None:
        if x.count <= failures:
            x.json(code, {"error": "try later"}, headers)
        else:
            x.json(200, {"ok": True, "attempt": x.count})

    return run


def slow(seconds: float) -> Behaviour:
    def run(x: Exchange) -> None:
        if not x.stop.wait(seconds):
            x.json(200, {"ok": True})

    return run


def hang(x: Exchange) -> None:
    x.hang()


def reset_before_reply(x: Exchange) -> None:
    x.reset()


def reset_mid_body(x: Exchange) -> None:
    x.send(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
    x.send(b'{"partial": "')
    time.sleep(0.05)
    x.reset()


def huge(x: Exchange) -> None:
    size = 12 * 1024 * 1024
    x.send(
        f"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {size}\r\n\r\n".encode()
    )
    chunk = b"x" * 65536
    for _ in range(size // len(chunk)):
        x.send(chunk)


def endless(x: Exchange) -> None:
    """A chunked body that never ends (until the client hangs up)."""
    x.send(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"y" * 65536
    while not x.stop.is_set():
        x.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))


def drip(x: Exchange) -> None:
    """One byte every 50 ms, forever: each read succeeds, the body never completes."""
    x.send(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n")
    while not x.stop.wait(0.05):
        x.send(b"1\r\nz\r\n")


def events(x: Exchange) -> None:
    """A server-sent event stream: two events, then it stays open (as a watch or a log follow)."""
    x.send(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    for n in (1, 2):
        event = b'data: {"n": %d}\n\n' % n
        x.send(b"%x\r\n%s\r\n" % (len(event), event))
    x.hang()


def content(body: bytes, content_type: str, code: int = 200) -> Behaviour:
    return lambda x: x.reply(code, body, content_type)


def echo_headers(code: int) -> Behaviour:
    """An error body that repeats the request's headers and URL, as careless APIs do."""

    def run(x: Exchange) -> None:
        lines = [f"{x.request.method} {x.request.target}"]
        lines += [f"{k}: {v}" for k, v in x.request.headers.items()]
        x.reply(code, "\n".join(lines).encode(), "text/plain")

    return run


def echo_json(x: Exchange) -> None:
    """A success body echoing the request (target, headers, body) as JSON."""
    x.json(
        200,
        {
            "target": x.request.target,
            "headers": x.request.headers,
            "body": x.request.body.decode("utf-8", "replace"),
        },
    )
