"""A throwaway PostgreSQL cluster on a free port of 127.0.0.1, for real API servers that need one.

Debian's server binaries (``postgresql``, installed by ``scripts/install_realapis.sh``) make a new
cluster in a temporary directory with trust authentication for one role, start it on 127.0.0.1 only
(no Unix socket outside that directory, no fsync: the data is thrown away), and stop and delete it
afterwards. PostgreSQL refuses to run as root, so under root the cluster belongs to Debian's
``postgres`` user.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.realapis.servers import INSTALL_HINT, free_port, stop_group

ROLE = "realapi"
START_TIMEOUT = 30.0


def server_programs() -> Path:
    """Debian's directory of PostgreSQL's server programs (the newest major version installed)."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name)
    )
    if not found:
        pytest.fail(f"PostgreSQL's server programs are not installed: {INSTALL_HINT}")
    return found[-1].parent


def _as_owner(command: list[str]) -> list[str]:
    """``command`` run as the cluster's owner: Debian's ``postgres`` user when we are root."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


@contextlib.contextmanager
def cluster(databases: tuple[str, ...], log_dir: Path) -> Iterator[str]:
    """A running cluster with ``databases`` created; yields ``postgres://realapi@127.0.0.1:PORT``."""
    programs = server_programs()
    # the owner must reach the directory: not under pytest's root-only temporary directory
    home = Path(tempfile.mkdtemp(prefix="realapi-postgres-"))
    log = log_dir / "postgres.log"
    process: subprocess.Popen[bytes] | None = None
    try:
        if os.geteuid() == 0:
            shutil.chown(home, user="postgres")
        data = home / "data"
        initdb = [
            str(programs / "initdb"),
            "-D",
            str(data),
            "-A",
            "trust",
            "-U",
            ROLE,
            "-E",
            "UTF8",
        ]
        subprocess.run(
            [*_as_owner([*initdb, "--no-sync"])], check=True, capture_output=True, cwd=home
        )
        port = free_port()
        server = [
            str(programs / "postgres"),
            "-D",
            str(data),
            "-h",
            "127.0.0.1",
            "-p",
            str(port),
            "-k",
            str(home),
            "-c",
            "fsync=off",
        ]
        with log.open("wb") as out:
            process = subprocess.Popen(
                _as_owner(server),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=home,
                start_new_session=True,
            )
        _wait_until_ready(programs, port, process, log)
        for name in databases:
            createdb = [str(programs / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", ROLE]
            subprocess.run([*createdb, name], check=True, capture_output=True)
        yield f"postgres://{ROLE}@127.0.0.1:{port}"
    finally:
        if process is not None:
            stop_group(process)
        shutil.rmtree(home, ignore_errors=True)


def _wait_until_ready(
    programs: Path, port: int, process: subprocess.Popen[bytes], log: Path
) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    probe = [str(programs / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(port)]
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = log.read_text(encoding="utf-8", errors="replace")[-2000:]
            pytest.fail(f"PostgreSQL exited with status {process.returncode}\n{tail}")
        if subprocess.run(probe, check=False).returncode == 0:
            return
        time.sleep(0.1)
    pytest.fail(
        f"PostgreSQL did not accept connections on port {port} within {START_TIMEOUT:.0f} s"
    )
