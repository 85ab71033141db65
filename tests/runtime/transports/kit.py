"""Test kit for the HTTP transport: request builders, SSE parsing, servers on 127.0.0.1.

- ``ServerProcess``: a generated package's ``python -m <pkg> http --port 0`` as a subprocess; the
  endpoint URL is read from the line it announces on stderr.
- ``SlowUpstream``: an HTTP server that accepts requests and never answers, recording when the caller
  gives up (closes its connection): proof that an upstream request was cancelled.
- ``RoundRobinProxy``: an HTTP reverse proxy (asyncio, one request per connection) sending each request
  to the next backend in turn and streaming the response back, recording who served what.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.kit.meta import MODERN, meta

# only reached when something is broken; never a timing assertion
TIMEOUT = 20.0
BASE_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def modern(method: str, request_id: Any = 1, *, meta_extra: Any = None, **params: Any) -> Any:
    """A 2026-07-28 request body."""
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": method,
        "params": {"_meta": meta("http-test", **(meta_extra or {})), **params},
    }


def modern_headers(method: str, name: str | None = None, **extra: str) -> dict[str, str]:
    """Headers a conforming 2026-07-28 client sends for ``method`` (``name`` → ``Mcp-Name``)."""
    headers = {**BASE_HEADERS, "mcp-protocol-version": MODERN, "mcp-method": method}
    if name is not None:
        headers["mcp-name"] = name
    headers.update(extra)
    return headers


def legacy(method: str, request_id: Any = 1, **params: Any) -> Any:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params:
        body["params"] = params
    return body


def initialize(version: str, request_id: Any = 0) -> Any:
    return legacy(
        "initialize",
        request_id,
        protocolVersion=version,
        capabilities={},
        clientInfo={"name": "raw-http", "version": "1"},
    )


def sse_events(text: str) -> list[Any]:
    """The JSON messages of an SSE body, checking the framing: ``data: <json>`` events, blank-line ended."""
    assert text.endswith("\n\n"), text
    events = []
    for block in text[:-2].split("\n\n"):
        assert block.startswith("data: ") and "\n" not in block, block
        events.append(json.loads(block.removeprefix("data: ")))
    return events


def server_env(package: Path, base_url: str, api_key: str | None, **extra: str) -> dict[str, str]:
    env = {
        "PYTHONPATH": str(package / "src"),
        "PETSTORE_BASE_URL": base_url,
        "PATH": os.environ.get("PATH", ""),
        "PYTHONUNBUFFERED": "1",
    }
    if api_key is not None:
        env["PETSTORE_API_KEY"] = api_key
    env.update(extra)
    return env


class ServerProcess:
    """``python -m petstore_mcp http --port 0`` from a generated package (``module``: another
    one's), until ``stop``."""

    def __init__(self, env: dict[str, str], *args: str, module: str = "petstore_mcp") -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", module, "http", "--port", "0", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: list[str] = []
        self._pump = threading.Thread(target=self._read_stderr, daemon=True)
        self._pump.start()
        try:
            self.url = self._wait_for_url()
        except BaseException:
            self.stop()  # a server that did not start leaves no process or pipe behind
            raise

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for raw in self.process.stderr:
            line = raw.decode("utf-8", "replace")
            self.stderr.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def _wait_for_url(self) -> str:
        while True:
            line = self._lines.get(timeout=TIMEOUT)
            if line is None:
                raise AssertionError("server exited: " + "".join(self.stderr))
            match = re.fullmatch(r"\S+-mcp: serving MCP on (http://\S+)\n", line)
            if match:
                return match[1]

    def log_until(self, text: str) -> str:
        """The server's stderr so far, once it holds ``text`` (its reader thread may lag behind
        the reply that a line was logged before); fails after ``TIMEOUT`` seconds."""
        deadline = time.monotonic() + TIMEOUT
        while text not in "".join(self.stderr):
            assert time.monotonic() < deadline, f"{text!r} never logged: {''.join(self.stderr)}"
            time.sleep(0.01)
        return "".join(self.stderr)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.terminate()
        code = self.process.wait(timeout=TIMEOUT)
        self._pump.join(timeout=TIMEOUT)
        assert self.process.stdout is not None and self.process.stderr is not None
        self.process.stdout.close()
        self.process.stderr.close()
        return code


def _loopback_listener() -> socket.socket:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    return listener


class SlowUpstream:
    """Reads each request and answers only on ``release``; ``abandoned`` counts connections the
    caller closed (it gave up on the request, or read the released answer)."""

    def __init__(self) -> None:
        self._listener = _loopback_listener()
        self.received = threading.Semaphore(0)
        self.abandoned = threading.Semaphore(0)
        self._connections: list[socket.socket] = []
        self._waiting: list[socket.socket] = []
        self._stopped = threading.Event()
        # accept() in a thread is not woken by close(); poll instead
        self._listener.settimeout(0.05)
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}/v1"

    def _accept(self) -> None:
        while not self._stopped.is_set():
            try:
                connection, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            connection.settimeout(None)
            self._connections.append(connection)
            threading.Thread(target=self._hold, args=(connection,), daemon=True).start()

    def _hold(self, connection: socket.socket) -> None:
        data = b""
        with contextlib.suppress(OSError):
            while b"\r\n\r\n" not in data:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                data += chunk
            self._waiting.append(connection)
            self.received.release()
            # the caller closing its side is the only way this read ends
            while connection.recv(65536):
                pass
            self.abandoned.release()

    def release(self, body: bytes = b'{"available": 1}') -> None:
        """Answer every request received so far with ``200`` and a JSON ``body``."""
        head = (
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        waiting, self._waiting = self._waiting, []
        for connection in waiting:
            connection.sendall(head.encode() + body)

    def close(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=TIMEOUT)
        self._listener.close()
        for connection in self._connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
            connection.close()


class RoundRobinProxy:
    """A reverse proxy on 127.0.0.1 sending request *n* to backend *n mod k*, in its own thread.

    Every response is relayed with ``Connection: close`` so that each request opens a new connection;
    ``served`` lists ``(backend index, Mcp-Method header or "initialize"/"-")`` per request.
    """

    def __init__(self, backends: list[str]) -> None:
        self._backends = [_host_port(url) for url in backends]
        self._listener = _loopback_listener()
        self._next = 0
        self.served: list[tuple[int, str]] = []
        self._relays: set[asyncio.Task[None]] = set()
        self._loop = asyncio.new_event_loop()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    @property
    def port(self) -> int:
        return int(self._listener.getsockname()[1])

    def route_to(self, backends: list[str]) -> None:
        """Send the next requests to ``backends`` instead (servers started after the proxy, whose
        public URL is the proxy's)."""
        self._backends = [_host_port(url) for url in backends]

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(
            asyncio.start_server(self._relay, sock=self._listener)
        )
        self._loop.run_until_complete(self._wait_stopped())
        server.close()
        for relay in self._relays:
            relay.cancel()
        self._loop.run_until_complete(asyncio.gather(*self._relays, return_exceptions=True))
        self._loop.run_until_complete(server.wait_closed())
        self._loop.close()

    async def _wait_stopped(self) -> None:
        while not self._stopped.is_set():
            await asyncio.sleep(0.02)

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._relays.add(task)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            fields = [line.split(":", 1) for line in lines[1:] if ":" in line]
            length = next((int(v) for k, v in fields if k.strip().lower() == "content-length"), 0)
            body = await reader.readexactly(length)
            method = next((v.strip() for k, v in fields if k.strip().lower() == "mcp-method"), "-")
            index = self._next % len(self._backends)
            self._next += 1
            self.served.append((index, method))
            host, port = self._backends[index]
            kept = [
                f"{k}:{v}"
                for k, v in fields
                if k.strip().lower() not in ("connection", "keep-alive", "host")
            ]
            request = "\r\n".join(
                [lines[0], f"Host: {host}:{port}", "Connection: close", *kept, "", ""]
            )
            up_reader, up_writer = await asyncio.open_connection(host, port)
            try:
                up_writer.write(request.encode("latin-1") + body)
                await up_writer.drain()
                # the backend closes after its response (Connection: close): relay bytes until then
                while chunk := await up_reader.read(65536):
                    writer.write(chunk)
                    await writer.drain()
            finally:
                # also on cancellation at shutdown: an unclosed transport is a ResourceWarning
                up_writer.close()
                with contextlib.suppress(OSError, asyncio.CancelledError):
                    await up_writer.wait_closed()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(OSError, asyncio.CancelledError):
                await writer.wait_closed()
            self._relays.discard(task)

    def close(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=TIMEOUT)


def _host_port(url: str) -> tuple[str, int]:
    match = re.fullmatch(r"http://([^:/]+):(\d+)/.*", url)
    assert match, url
    return match[1], int(match[2])


@contextlib.contextmanager
def running(*servers: ServerProcess) -> Iterator[None]:
    try:
        yield
    finally:
        for server in servers:
            server.stop()
