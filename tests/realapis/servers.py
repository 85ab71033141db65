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
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

import httpx
import pytest

REPO = Path(__file__).resolve().parents[2]
# REALAPIS_ROOT, as scripts/install_realapis.sh reads it: another place for the servers
VENVS = REPO / os.environ.get("REALAPIS_ROOT", ".work/realapis")
INSTALL_HINT = "run `bash scripts/install_realapis.sh` to install the real API servers"

START_TIMEOUT = 60.0
LABEL_STUDIO_TOKEN = "realapi-label-studio-4c1b7e"
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


def stop_group(process: subprocess.Popen[bytes]) -> None:
    """Stop a process started in a session of its own and whatever it forked: SIGTERM to its group,
    then SIGKILL after a grace period."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=STOP_TIMEOUT)


@contextlib.contextmanager
def background(
    name: str,
    command: Sequence[str | Path],
    log_dir: Path,
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Iterator[None]:
    """A process that serves no HTTP of its own beside a real server (Pulp's task worker, Slurm's
    daemons), in a session of its own, its output in ``log_dir/<name>.log``; stopped on leaving."""
    with (log_dir / f"{name}.log").open("wb") as log:
        process = subprocess.Popen(
            [str(part) for part in command],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            env={**os.environ, **(env or {})},
            start_new_session=True,
        )
    try:
        yield
    finally:
        stop_group(process)


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
        start_timeout: float = START_TIMEOUT,
    ) -> None:
        self.name = name
        self.start_timeout = start_timeout
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
        deadline = time.monotonic() + self.start_timeout
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
            f"{self.name} did not answer {self.ready_path} within {self.start_timeout:.0f} s "
            f"({last_problem})\n{self.log_tail()}"
        )

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            stop_group(process)

    def exit_status(self) -> int | None:
        """The status the server exited with, or None while it runs (or was stopped by us)."""
        return None if self.process is None else self.process.poll()

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])


@dataclass(frozen=True, slots=True)
class Launch:
    """How to run one installed real API server with its data in ``home``: its venv and command
    (``{port}`` and ``{home}`` filled in), the path that answers once it is ready, where it serves
    its OpenAPI document (and the headers that reading it takes), and the base URL's path below its
    root."""

    venv: str
    command: tuple[str, ...]
    ready_path: str
    document_path: str
    api_path: str = ""
    env: Mapping[str, str] = field(default_factory=dict)
    document_headers: Mapping[str, str] = field(default_factory=dict)
    # a first start that creates its database takes longer
    start_timeout: float = START_TIMEOUT

    def server(self, name: str, home: Path, log_dir: Path) -> RealServer:
        port = free_port()
        fill = {"port": str(port), "home": str(home)}
        executable = venv_executable(self.venv, self.command[0])
        args = [part.format(**fill) for part in self.command[1:]]
        env = {key: value.format(**fill) for key, value in self.env.items()}
        return RealServer(
            name,
            [executable, *args],
            port=port,
            ready_path=self.ready_path,
            log_dir=log_dir,
            cwd=home,
            env=env,
            start_timeout=self.start_timeout,
        )


# the FastAPI applications; their data (database, settings, projects) stays in ``home`` and
# nothing is sent anywhere (Prefect's analytics off)
LAUNCHES: dict[str, Launch] = {
    "prefect": Launch(
        "prefect",
        ("prefect", "server", "start", "--host", "127.0.0.1", "--port", "{port}"),
        ready_path="/api/health",
        document_path="/api/openapi.json",
        # the document's only server is "/api", relative: the base URL says where it is
        api_path="/api",
        env={
            "PREFECT_HOME": "{home}",
            "PREFECT_API_DATABASE_CONNECTION_URL": "sqlite+aiosqlite:///{home}/prefect.db",
            "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
            "PREFECT_UI_ENABLED": "false",
        },
    ),
    # Label Studio (Django REST Framework, drf-spectacular): its SQLite database in ``home``, an
    # administrator with a fixed token (legacy "Token" authentication, which its document declares),
    # no version check, analytics or error reports sent anywhere
    "label-studio": Launch(
        "label-studio",
        (
            "label-studio",
            "start",
            "--no-browser",
            "--internal-host",
            "127.0.0.1",
            "--port",
            "{port}",
            "--username",
            "admin@example.com",
            "--password",
            "realapi-admin-9d2e",
            "--user-token",
            LABEL_STUDIO_TOKEN,
        ),
        ready_path="/health",
        document_path="/docs/api/schema/?format=json",
        env={
            "HOME": "{home}",
            "LABEL_STUDIO_BASE_DATA_DIR": "{home}/data",
            "LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN": "true",
            "LATEST_VERSION_CHECK": "false",
            "COLLECT_ANALYTICS": "false",
            "SENTRY_DSN": "",
            "FRONTEND_SENTRY_DSN": "",
        },
        document_headers={"Authorization": f"Token {LABEL_STUDIO_TOKEN}"},
        start_timeout=180.0,
    ),
    # Chroma's server: a Rust (axum) frontend whose OpenAPI 3.1 document utoipa writes; its data
    # in ``home``, no telemetry
    "chroma": Launch(
        "chroma",
        ("chroma", "run", "--path", "{home}/data", "--host", "127.0.0.1", "--port", "{port}"),
        ready_path="/api/v2/heartbeat",
        document_path="/openapi.json",
        env={"HOME": "{home}", "ANONYMIZED_TELEMETRY": "False"},
    ),
    "gns3": Launch(
        "gns3-server",
        ("gns3server", "--local", "--host", "127.0.0.1", "--port", "{port}"),
        ready_path="/v3/version",
        document_path="/openapi.json",
        # $HOME/.config/GNS3, $HOME/GNS3
        env={"HOME": "{home}", "XDG_CONFIG_HOME": "{home}/.config"},
    ),
}
