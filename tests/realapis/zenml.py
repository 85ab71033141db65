"""ZenML for the `realapi` tests: its server started on a free port with its store (SQLite) and
configuration in a directory of the test session, activated with a password for its default user.

ZenML's server is a FastAPI application (``zenml.zen_server.zen_server_api:app``) run by uvicorn;
``ZENML_STORE_*`` point it at a SQLite file and ``ZENML_CONFIG_PATH`` keeps its global
configuration (the server's id and JWT secret among it) out of the user's home. A fresh server is
inactive: ``PUT /api/v1/activate`` gives its default user a password (no credentials asked), after
which ``POST /api/v1/login`` (a form: OAuth 2.0's password grant) answers a bearer token. Its pipeline
run event streams are kept in memory (the default broker needs a database of its own). No analytics
are sent and no dashboard is opened.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from tests.realapis.servers import RealServer, free_port, venv_executable

if TYPE_CHECKING:
    from tests.realapis.conftest import LiveApi

ADMIN = "default"
PASSWORD = "realapi-zenml-4b9c1e"


@contextlib.contextmanager
def running(realapi_dir: Path) -> Iterator[RealServer]:
    """ZenML 0.98's server on a free port of 127.0.0.1, its SQLite store and configuration in
    ``realapi_dir/zenml-home``."""
    uvicorn = venv_executable("zenml", "uvicorn")
    home = realapi_dir / "zenml-home"
    home.mkdir()
    port = free_port()
    env = {
        "ZENML_CONFIG_PATH": str(home / "config"),
        "ZENML_STORE_TYPE": "sql",
        "ZENML_STORE_URL": f"sqlite:///{home / 'zenml.db'}",
        "ZENML_ANALYTICS_OPT_IN": "false",
        "ZENML_SERVER_DEPLOYMENT_TYPE": "local",
        "AUTO_OPEN_DASHBOARD": "false",
        "ZENML_SERVER_STREAM_BROKER_IMPLEMENTATION_SOURCE": (
            "zenml.zen_server.streaming.brokers.memory.InMemoryBroker"
        ),
    }
    command: list[str | Path] = [
        uvicorn,
        "zenml.zen_server.zen_server_api:app",
        *("--host", "127.0.0.1", "--port", str(port)),
    ]
    with RealServer(
        "zenml",
        command,
        port=port,
        ready_path="/health",
        log_dir=realapi_dir,
        cwd=home,
        env=env,
        start_timeout=120,
    ) as server:
        yield server


def activate(root_url: str) -> None:
    """The fresh server activated, its default user given ``PASSWORD``."""
    answer = httpx.put(
        f"{root_url}/api/v1/activate",
        json={"admin_username": ADMIN, "admin_password": PASSWORD},
        timeout=30,
    )
    answer.raise_for_status()


def login(root_url: str, password: str = PASSWORD) -> str:
    """An access token for the default user, from the form login."""
    answer = httpx.post(
        f"{root_url}/api/v1/login", data={"username": ADMIN, "password": password}, timeout=30
    )
    answer.raise_for_status()
    token: str = answer.json()["access_token"]
    return token


def run_zenml(realapi_dir: Path) -> Iterator[LiveApi]:
    """ZenML 0.98 (FastAPI, SQLite) started by ``running``, activated with the default user's
    password; its OpenAPI 3.1 document (268 operations, 41 of them deprecated and left out; no
    server declared) is fetched from ``/openapi.json`` and generated in full mode (227 tools).
    Signed in with the default user's name and password, which the generated server sends to the
    login form for a token (the ``CookieOAuth2TokenBearer`` scheme's password flow)."""
    # conftest imports this module: what it defines is read once it has been
    from tests.realapis.conftest import LiveApi, _generate_live  # noqa: PLC0415

    with running(realapi_dir) as server:
        activate(server.root_url)
        package, spec = _generate_live(server, "/openapi.json", {}, realapi_dir, "zenml")
        yield LiveApi(
            server,
            package,
            "zenml_mcp",
            "ZENML",
            server.root_url,
            spec,
            credentials={
                "COOKIE_OAUTH2_TOKEN_BEARER_USERNAME": ADMIN,
                "COOKIE_OAUTH2_TOKEN_BEARER_PASSWORD": PASSWORD,
            },
        )
