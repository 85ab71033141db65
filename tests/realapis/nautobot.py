"""Nautobot's database, migrated once: its migrations take minutes, so the install
(``scripts/install_realapis.sh``) runs them into a throwaway PostgreSQL cluster and keeps a dump,
which each test session restores in seconds.

    python -m tests.realapis.nautobot DUMP    # migrate a new database and write it to DUMP
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from tests.kit.redis_server import running_redis
from tests.realapis import postgres
from tests.realapis.servers import venv_executable

DATABASE = "nautobot"
SECRET_KEY = "realapi-nautobot-secret-5b1e9c3a7d2f4e6a8c0b1d3f5e7a9c2b"


def environment(database: str, redis_port: int, home: Path) -> dict[str, str]:
    """Nautobot's settings for a cluster (``postgres://realapi@127.0.0.1:PORT``) and a Redis."""
    return {
        "NAUTOBOT_ROOT": str(home),
        "NAUTOBOT_CONFIG": str(home / "nautobot_config.py"),
        "NAUTOBOT_DB_HOST": "127.0.0.1",
        "NAUTOBOT_DB_PORT": database.rsplit(":", 1)[1],
        "NAUTOBOT_DB_USER": postgres.ROLE,
        "NAUTOBOT_DB_PASSWORD": "",
        "NAUTOBOT_DB_NAME": DATABASE,
        # a connection per request: the development server's threads keep none open
        "NAUTOBOT_DB_TIMEOUT": "0",
        "NAUTOBOT_REDIS_HOST": "127.0.0.1",
        "NAUTOBOT_REDIS_PORT": str(redis_port),
        "NAUTOBOT_ALLOWED_HOSTS": "*",
        "NAUTOBOT_SECRET_KEY": SECRET_KEY,
        # it would report the installation to its makers
        "NAUTOBOT_INSTALLATION_METRICS_ENABLED": "false",
    }


def configure(env: dict[str, str]) -> None:
    """Nautobot's configuration file (its own template, which reads the environment)."""
    home = Path(env["NAUTOBOT_ROOT"])
    home.mkdir(parents=True, exist_ok=True)
    server = venv_executable("nautobot", "nautobot-server")
    subprocess.run(
        [str(server), "init", env["NAUTOBOT_CONFIG"]],
        check=True,
        capture_output=True,
        env=env | {"PATH": "/usr/bin:/bin"},
        cwd=home,
    )


def migrate(dump: Path) -> None:
    """A new database with every migration applied, written to ``dump`` (pg_dump's format)."""
    with tempfile.TemporaryDirectory(prefix="nautobot-migrate-") as work:
        home = Path(work)
        with postgres.cluster((DATABASE,), home) as database, running_redis(home) as redis_port:
            env = environment(database, redis_port, home / "home")
            configure(env)
            server = venv_executable("nautobot", "nautobot-server")
            done = subprocess.run(
                [str(server), "migrate", "--no-input"],
                check=False,
                capture_output=True,
                env=env | {"PATH": "/usr/bin:/bin"},
                cwd=home,
            )
            if done.returncode != 0:
                sys.exit(f"nautobot-server migrate failed:\n{done.stdout[-3000:]!r}")
            port = database.rsplit(":", 1)[1]
            partial = dump.with_suffix(".partial")
            subprocess.run(
                [
                    str(postgres.server_programs() / "pg_dump"),
                    *("-h", "127.0.0.1", "-p", port, "-U", postgres.ROLE),
                    *("-Fc", "-f", str(partial), DATABASE),
                ],
                check=True,
            )
            partial.replace(dump)


def restore(dump: Path, database: str) -> None:
    """``dump`` restored into the cluster's (empty) Nautobot database."""
    port = database.rsplit(":", 1)[1]
    subprocess.run(
        [
            str(postgres.server_programs() / "pg_restore"),
            *("-h", "127.0.0.1", "-p", port, "-U", postgres.ROLE),
            *("--no-owner", "-d", DATABASE, str(dump)),
        ],
        check=True,
        capture_output=True,
    )


if __name__ == "__main__":
    migrate(Path(sys.argv[1]).resolve())
