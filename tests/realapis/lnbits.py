"""LNbits for the `realapi` tests: started on a free port with its data in a directory of the test
session, its super user made by the first-install call, and the keys a client signs in with.

LNbits pays and receives through a funding source; FakeWallet needs no Lightning node: an invoice
between two wallets of the same LNbits is settled inside it. LNbits mounts its static files from
the relative path ``lnbits/static``, so it runs from a directory holding a link ``lnbits`` to the
installed package; its extensions (none are installed: no manifests are fetched) would go to
``home/ext``, not into the venv. The super user, made when the database is, has no password
until ``PUT /api/v1/auth/first_install`` gives it one and answers an access token (a JWT); its
first wallet's admin and invoice keys are then read from ``GET /api/v1/auth``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.realapis.servers import INSTALL_HINT, VENVS, RealServer, free_port, venv_executable

ADMIN = "admin"
PASSWORD = "realapi-lnbits-3e8a"


@dataclass(frozen=True, slots=True)
class Keys:
    """The super user's access token and its first wallet's keys."""

    token: str
    user_id: str
    wallet_id: str
    adminkey: str
    inkey: str


def _package_dir() -> Path:
    """The installed ``lnbits`` package in its venv."""
    venv_executable("lnbits", "lnbits")
    found = sorted((VENVS / "lnbits").glob("lib/python3*/site-packages/lnbits/static"))
    if not found:
        pytest.fail(f"LNbits's package is missing from its venv: {INSTALL_HINT}")
    return found[-1].parent


@contextlib.contextmanager
def running(realapi_dir: Path) -> Iterator[RealServer]:
    """LNbits 1.6 on a free port of 127.0.0.1, FakeWallet its funding source, its SQLite database
    and settings in ``realapi_dir/lnbits-home/data`` (the admin UI on: settings kept there)."""
    executable = venv_executable("lnbits", "lnbits")
    home = realapi_dir / "lnbits-home"
    home.mkdir()
    (home / "lnbits").symlink_to(_package_dir(), target_is_directory=True)
    port = free_port()
    env = {
        "LNBITS_DATA_FOLDER": str(home / "data"),
        "LNBITS_EXTENSIONS_PATH": str(home / "ext"),
        "LNBITS_BACKEND_WALLET_CLASS": "FakeWallet",
        "LNBITS_ADMIN_UI": "true",
        # the cookies it sets stay usable over plain HTTP (the tests send tokens in headers)
        "AUTH_HTTPS_ONLY": "false",
        # no extension catalogues fetched from GitHub
        "LNBITS_EXTENSIONS_MANIFESTS": "[]",
        "LNBITS_WASM_EXTENSIONS_MANIFESTS": "[]",
        "ENABLE_LOG_TO_FILE": "false",
    }
    command: list[str | Path] = [executable, "--host", "127.0.0.1", "--port", str(port)]
    with RealServer(
        "lnbits",
        command,
        port=port,
        ready_path="/api/v1/health",
        log_dir=realapi_dir,
        cwd=home,
        env=env,
        start_timeout=120,
    ) as server:
        yield server


def first_install(root_url: str) -> Keys:
    """The super user given its name and password (``first_install``), and its keys."""
    with httpx.Client(base_url=root_url, timeout=30) as client:
        made = client.put(
            "/api/v1/auth/first_install",
            json={"username": ADMIN, "password": PASSWORD, "password_repeat": PASSWORD},
        )
        made.raise_for_status()
        token = made.json()["access_token"]
        user = client.get("/api/v1/auth", headers={"Authorization": f"Bearer {token}"})
        user.raise_for_status()
        found = user.json()
    wallet = found["wallets"][0]
    return Keys(token, found["id"], wallet["id"], wallet["adminkey"], wallet["inkey"])
