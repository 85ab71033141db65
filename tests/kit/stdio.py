"""One stdio peer: a server subprocess driven with raw JSON-RPC lines, as an MCP client drives it.

``StdioPeer`` starts the command with pipes for stdin, stdout and stderr. Two threads drain stdout
(line by line, into a queue) and stderr (kept whole), so the server never blocks on a full pipe and
``receive`` can give up after ``TIMEOUT`` instead of hanging. Every stdout line must be exactly one
JSON message ending in a newline (mcp-wire §8.1). ``close`` ends the session the way a client does,
by closing stdin, and returns the exit code; ``kill`` is the teardown for a server that will not.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from collections.abc import Sequence
from typing import Any

from tests.kit.meta import meta

# generous: only reached when the server is broken, never a timing assertion
TIMEOUT = 20.0
CLIENT = "raw-test"


class StdioPeer:
    """The server ``argv`` as a subprocess with environment ``env``."""

    def __init__(self, argv: Sequence[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            list(argv),
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
        """``message`` as one JSON line (bytes are sent as they are)."""
        self.send_line(message if isinstance(message, bytes) else json.dumps(message).encode())

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
        """A 2026-07-28 request: ``params`` with the ``_meta`` envelope."""
        return self.request(method, {"_meta": meta(CLIENT), **params})

    def initialize(self, version: str) -> dict[str, Any]:
        """The legacy handshake at ``version``: ``initialize``, then ``notifications/initialized``."""
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

    # -- ending --------------------------------------------------------------------------------

    def close(self) -> int:
        """Close stdin (EOF), wait for the exit; every later stdout line must be JSON too."""
        assert self.process.stdin is not None
        if not self.process.stdin.closed:
            self.process.stdin.close()
        code = self.process.wait(timeout=TIMEOUT)
        for thread in self._threads:
            thread.join(timeout=TIMEOUT)
        if not any(thread.is_alive() for thread in self._threads):
            # drained to EOF: what they held is in the queue and the stderr list
            for stream in (self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()
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
        """Kill the server if it still runs and close the pipes."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=TIMEOUT)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None and not stream.closed:
                stream.close()
