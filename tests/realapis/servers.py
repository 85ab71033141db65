"""Real API server processes for the `realapi` tests: find the installed venv, start on a free port.

``RealServer`` starts one server process (installed by ``scripts/install_realapis.sh`` into
``.work/realapis/<venv>``) in its own process group on 127.0.0.1, waits until a readiness URL
answers, and stops it cleanly (SIGTERM to its group, then SIGKILL after a grace period), also when
start-up fails. The server's output goes to a log file whose tail is put into every start-up failure
message, so that a broken install or a port clash explains itself.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

import httpx
import pytest

REPO = Path(__file__).resolve().parents[2]
VENVS = REPO / ".work" / "realapis"
INSTALL_HINT = "run `bash scripts/install_realapis.sh` to install the real API servers"

START_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0


def venv_executable(venv: str, executable: str) -> Path:
    """``.work/realapis/<venv>/bin/<executable>``; the test fails (never skips) when it is missing."""
    path = VENVS / venv / "bin" / executable
    stamp = VENVS / venv / ".installed"
    if not path.is_file() or not stamp.is_file():
        pytest.fail(f"real API server {venv!r} is not installed ({path} missing): {INSTALL_HINT}")
    return path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class RealServer:
    """One real API server process on 127.0.0.1:``port``, ready once ``ready_path`` answers < 500."""

    def __init__(
        self,
        name: str,
        command: Sequence[str | Path],
        *,
        port: int,
        ready_path: str,
        log_dir: Path,
        cwd: Path | None = None,
        ready_headers: Mapping[str, str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.name = name
        self.command = [str(part) for part in command]
        self.port = port
        self.root_url = f"http://127.0.0.1:{port}"
        self.ready_path = ready_path
        self.ready_headers = dict(ready_headers or {})
        self.log_path = log_dir / f"{name}.log"
        self.cwd = cwd
        self.env = {**os.environ, **(env or {})}
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> RealServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        with self.log_path.open("wb") as log:
            # a process group of its own: stop() reaches any child the server forks, and a Ctrl-C
            # in the test run does not reach the server before the fixture's teardown does
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=self.cwd,
                env=self.env,
                start_new_session=True,
            )
        try:
            self._wait_until_ready()
        except BaseException:
            self.stop()
            raise

    def _wait_until_ready(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + START_TIMEOUT
        last_problem = "no answer yet"
        with httpx.Client(timeout=2.0) as client:
            while time.monotonic() < deadline:
                code = self.process.poll()
                if code is not None:
                    pytest.fail(
                        f"{self.name} exited with status {code} while starting\n{self.log_tail()}"
                    )
                try:
                    answer = client.get(self.root_url + self.ready_path, headers=self.ready_headers)
                except httpx.TransportError as exc:
                    last_problem = f"{type(exc).__name__}: {exc}"
                else:
                    if answer.status_code < 500:
                        return
                    last_problem = f"HTTP {answer.status_code}"
                time.sleep(0.1)
        pytest.fail(
            f"{self.name} did not answer {self.ready_path} within {START_TIMEOUT:.0f} s "
            f"({last_problem})\n{self.log_tail()}"
        )

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=STOP_TIMEOUT)

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])
