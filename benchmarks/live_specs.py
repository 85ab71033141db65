"""The OpenAPI documents of real API servers, as they serve them: for the search benchmark.

Prefect's and GNS3's servers (FastAPI applications, installed from PyPI into ``.work/realapis/`` by
``scripts/install_realapis.sh``, the venvs the ``realapi`` tests use) are started on a free port of
127.0.0.1 with their data in a temporary directory; each one's live document is written to
``benchmarks/.cache/live/<name>.json``, where ``search_quality.py`` finds the documents of the APIs
its query files name that are not among ``realworld.py``'s specs.

    python benchmarks/live_specs.py
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
LIVE = HERE / ".cache" / "live"
VENVS = HERE.parent / ".work" / "realapis"
START_TIMEOUT = 90.0

# name: (venv, command after the executable, readiness path, document path, environment)
SERVERS: dict[str, tuple[str, list[str], str, str, dict[str, str]]] = {
    "prefect": (
        "prefect",
        ["prefect", "server", "start", "--host", "127.0.0.1", "--port", "{port}"],
        "/api/health",
        "/api/openapi.json",
        {
            "PREFECT_HOME": "{home}",
            "PREFECT_API_DATABASE_CONNECTION_URL": "sqlite+aiosqlite:///{home}/prefect.db",
            "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
            "PREFECT_UI_ENABLED": "false",
        },
    ),
    "gns3": (
        "gns3-server",
        ["gns3server", "--local", "--host", "127.0.0.1", "--port", "{port}"],
        "/v3/version",
        "/openapi.json",
        {"HOME": "{home}", "XDG_CONFIG_HOME": "{home}/.config"},
    ),
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def fetch(name: str) -> Path:
    """Start ``name``'s server, write its live document to ``LIVE``, stop it; the file written."""
    venv, command, ready, document, environment = SERVERS[name]
    executable = VENVS / venv / "bin" / command[0]
    if not executable.is_file():
        sys.exit(f"{executable} is missing: run `bash scripts/install_realapis.sh` first")
    port = str(_free_port())
    with tempfile.TemporaryDirectory() as home:
        fill = {"port": port, "home": home}
        env = {**os.environ, **{k: v.format(**fill) for k, v in environment.items()}}
        args = [str(executable), *(part.format(**fill) for part in command[1:])]
        process = subprocess.Popen(
            args, cwd=home, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            root = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + START_TIMEOUT
            while True:
                try:
                    if httpx.get(root + ready, timeout=2).status_code < 500:
                        break
                except httpx.TransportError:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    sys.exit(f"{name} did not start on {root}")
                time.sleep(0.5)
            answer = httpx.get(root + document, timeout=30)
            answer.raise_for_status()
        finally:
            process.terminate()
            process.wait(timeout=30)
    LIVE.mkdir(parents=True, exist_ok=True)
    target = LIVE / f"{name}.json"
    target.write_bytes(answer.content)
    return target


def main() -> None:
    for name in SERVERS:
        target = fetch(name)
        print(f"{name}: {target.stat().st_size:,} bytes in {target}")


if __name__ == "__main__":
    main()
