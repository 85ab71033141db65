"""A real Redis server for the session: Debian's ``redis-server`` on 127.0.0.1, a free port, no
persistence; ``.ci/run`` (``scripts/test.sh``) installs it. Import the ``redis_server`` fixture into a
conftest or a test module; it yields the server's URL (database 0). ``running_redis`` starts one
outside a fixture (a real API server that needs one, ``tests/realapis``).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(64) == b"+PONG\r\n"
    except OSError:
        return False


@contextlib.contextmanager
def running_redis(workdir: Path) -> Iterator[int]:
    """A Redis server on a free port of 127.0.0.1 with its log in ``workdir``; yields the port."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail(
            "redis-server is not on PATH: these tests run a real Redis server, which .ci/run "
            "(scripts/test.sh) installs from Debian; here: apt-get install -y redis-server",
            pytrace=False,
        )
    port = _free_port()
    args = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    with (workdir / "redis.log").open("wb") as log:
        server = subprocess.Popen(
            [binary, *args, "--dir", str(workdir)], stdout=log, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 15
        while not _answers_ping(port):
            if server.poll() is not None or time.monotonic() > deadline:
                log_text = (workdir / "redis.log").read_text(errors="replace")
                pytest.fail(f"redis-server did not start:\n{log_text}", pytrace=False)
            time.sleep(0.02)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=15)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a fresh Redis server (database 0), stopped after the session."""
    with running_redis(tmp_path_factory.mktemp("redis")) as port:
        yield f"redis://127.0.0.1:{port}/0"
