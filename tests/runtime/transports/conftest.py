"""Fixtures: the Petstore server as an in-process ASGI app and as a real uvicorn process.

``endpoint`` is parametrised over both, so the raw-HTTP rules are checked in process (fast, exact)
and through a real HTTP server (what clients meet). Both talk to a fake Petstore on 127.0.0.1.
"""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from templates.runtime.catalog.model import Catalog, load_catalog
from templates.runtime.server import McpServer, Settings
from templates.runtime.transports.http import McpHttpApp
from templates.runtime.transports.http_serve import create_app
from tests.conftest import fake_petstore_module
from tests.runtime.transports.kit import ServerProcess, server_env

AppFactory = Callable[..., McpHttpApp]


def petstore_catalog(package: Path) -> Catalog:
    return load_catalog(package / "src" / "petstore_mcp" / "catalog.json")


@pytest.fixture
async def make_app(petstore_package: Path, fake_petstore: Any) -> AsyncIterator[AppFactory]:
    """Build the ASGI app in process; keyword arguments are extra environment variables.

    ``catalog_edit`` may change a copy of the Petstore catalog first (e.g. add ``x-mcp-header``).
    """
    servers: list[McpServer] = []

    def make(catalog_edit: Callable[[Catalog], None] | None = None, **env: str) -> McpHttpApp:
        catalog = copy.deepcopy(petstore_catalog(petstore_package))
        if catalog_edit is not None:
            catalog_edit(catalog)
        environ = {
            "PETSTORE_BASE_URL": fake_petstore.base_url,
            "PETSTORE_API_KEY": fake_petstore.api_key,
            **env,
        }
        server = McpServer(catalog, Settings.from_env(catalog, environ))
        servers.append(server)
        return create_app(server, resource_url="http://127.0.0.1:8000/mcp")

    yield make
    for server in servers:
        await server.aclose()


@pytest.fixture
async def asgi(make_app: AppFactory) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client wired to the in-process app at http://127.0.0.1:8000."""
    transport = httpx.ASGITransport(app=make_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        yield client


@pytest.fixture(scope="module")
def module_petstore() -> Iterator[Any]:
    with fake_petstore_module().FakePetstore() as fake:
        yield fake


@pytest.fixture(scope="module")
def live_server(petstore_package: Path, module_petstore: Any) -> Iterator[ServerProcess]:
    """One uvicorn process per test module, serving the generated Petstore package."""
    env = server_env(petstore_package, module_petstore.base_url, module_petstore.api_key)
    server = ServerProcess(env)
    yield server
    server.stop()


@pytest.fixture(params=["asgi", "uvicorn"])
async def endpoint(
    request: pytest.FixtureRequest, make_app: AppFactory, live_server: ServerProcess
) -> AsyncIterator[httpx.AsyncClient]:
    """A client whose ``post("/mcp", ...)`` reaches the in-process app or the live server."""
    if request.param == "asgi":
        transport: httpx.AsyncBaseTransport = httpx.ASGITransport(app=make_app())
        base = "http://127.0.0.1:8000"
    else:
        transport = httpx.AsyncHTTPTransport()
        base = live_server.url.removesuffix("/mcp")
    async with httpx.AsyncClient(transport=transport, base_url=base, timeout=20) as client:
        yield client


def body_of(response: httpx.Response) -> Any:
    assert response.headers["content-type"] == "application/json", response.headers
    return json.loads(response.content)
