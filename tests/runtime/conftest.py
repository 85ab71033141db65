"""A raw JSON-RPC peer for the runtime's stdio transport, driving ``stdio_launcher.py``."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# the recording upstream of the upstream-client tests
from tests.runtime.upstream_kit import api, make  # noqa: F401

HERE = Path(__file__).resolve().parent
LAUNCHER = HERE / "stdio_launcher.py"
CATALOG = json.loads((HERE / "fixtures" / "catalog.json").read_text(encoding="utf-8"))
MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "1"},
}
SERVER_INFO = {
    "name": "petstore-mcp",
    "version": "1.0.0",
    "title": "Petstore",
    "description": "MCP server for the Petstore API",
}
RESULT_META = {"io.modelcontextprotocol/serverInfo": SERVER_INFO}
# generous: only reached when the server is broken, never a timing assertion
TIMEOUT = 20.0


class StdioPeer:
    """The server as a subprocess; every stdout line must be one JSON message."""

    def __init__(self, env: dict[str, str], request_log: Path) -> None:
        self.request_log = request_log
        self.process = subprocess.Popen(
            [sys.executable, str(LAUNCHER), *env.pop("_ARGS", "").split()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: list[bytes] = []
        self._threads = [
            threading.Thread(target=self._pump_stdout, daemon=True),
            threading.Thread(target=self._pump_stderr, daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        self._next_id = 0

    def _pump_stdout(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _pump_stderr(self) -> None:
        assert self.process.stderr is not None
        self._stderr.extend(self.process.stderr)

    # -- sending -------------------------------------------------------------------------------

    def send_line(self, raw: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(raw + b"\n")
        self.process.stdin.flush()

    def send(self, message: Any) -> None:
        self.send_line(json.dumps(message).encode())

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    # -- receiving -----------------------------------------------------------------------------

    def receive(self) -> Any:
        line = self._lines.get(timeout=TIMEOUT)
        assert line is not None, "the server closed stdout"
        assert line.endswith(b"\n") and b"\n" not in line[:-1]
        return json.loads(line)

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send a request and return its reply, which must be the next message."""
        request_id = self.new_id()
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        reply: dict[str, Any] = self.receive()
        assert reply.get("id") == request_id, reply
        return reply

    def modern(self, method: str, **params: Any) -> dict[str, Any]:
        return self.request(method, {"_meta": META, **params})

    def initialize(self, version: str) -> dict[str, Any]:
        reply = self.request(
            "initialize",
            {
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "legacy-test", "version": "1"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return reply

    def assert_nothing_pending(self) -> None:
        """Whatever was sent before has been answered: the next message is a fresh probe's reply."""
        probe = self.modern("server/discover")
        assert probe["result"]["resultType"] == "complete"

    def upstream_requests(self) -> list[dict[str, Any]]:
        if not self.request_log.exists():
            return []
        lines = self.request_log.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines]

    # -- ending --------------------------------------------------------------------------------

    def close(self) -> int:
        """Close stdin (EOF), wait for the exit; every later stdout line must be JSON too."""
        assert self.process.stdin is not None
        if not self.process.stdin.closed:
            self.process.stdin.close()
        code = self.process.wait(timeout=TIMEOUT)
        for thread in self._threads:
            thread.join(timeout=TIMEOUT)
        return code

    def remaining(self) -> list[Any]:
        """Messages written after the last ``receive``, once the server has exited."""
        out = []
        while (line := self._lines.get(timeout=TIMEOUT)) is not None:
            out.append(json.loads(line))
        return out

    @property
    def stderr(self) -> str:
        return b"".join(self._stderr).decode("utf-8", "replace")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=TIMEOUT)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None and not stream.closed:
                stream.close()


PeerFactory = Callable[..., StdioPeer]


@pytest.fixture
def start_peer(tmp_path: Path) -> Iterator[PeerFactory]:
    """Start a server; keyword arguments become environment variables (``page_size=2``...)."""
    peers: list[StdioPeer] = []

    def start(**overrides: str) -> StdioPeer:
        log = tmp_path / f"upstream-{len(peers)}.jsonl"
        env = {
            "PATH": os.environ.get("PATH", ""),
            "PETSTORE_API_KEY": "secret-key",
            "FIXTURE_REQUEST_LOG": str(log),
            "PYTHONUNBUFFERED": "1",
        }
        env.update(overrides)
        peer = StdioPeer(env, log)
        peers.append(peer)
        return peer

    yield start
    for peer in peers:
        peer.kill()


@pytest.fixture
def peer(start_peer: PeerFactory) -> StdioPeer:
    return start_peer()
