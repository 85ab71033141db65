"""HTTP start-up reads only the catalog's index, like stdio; the big parts are read when needed.

The generated Petstore package carries ``catalog.index.json`` and ``catalog.tools.jsonl`` next to
``catalog.json``. Every file the runtime reads through ``pathlib`` is recorded, so each test can
say exactly which catalog file a step read: building the app reads nothing, the first
``tools/list`` reads tool lines only, a header check reads the called tool's line only, and the
first real call reads the rest of the catalog.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from templates.runtime.catalog.model import LazyCatalog, load_catalog
from templates.runtime.server import McpServer, Settings
from templates.runtime.transports.http import McpHttpApp
from templates.runtime.transports.http_serve import create_app
from tests.runtime.transports.kit import modern, modern_headers

CATALOG_FILES = ("catalog.json", "catalog.index.json", "catalog.tools.jsonl")


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Names of the catalog files opened through ``pathlib`` from now on (``read_bytes`` opens too)."""
    seen: list[str] = []
    open_ = Path.open

    def recording_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self.name in CATALOG_FILES:
            seen.append(self.name)
        return open_(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", recording_open)
    yield seen


@pytest.fixture
async def lazy_server(
    petstore_package: Path, fake_petstore: Any, reads: list[str]
) -> AsyncIterator[tuple[McpServer, LazyCatalog]]:
    catalog = load_catalog(petstore_package / "src" / "petstore_mcp" / "catalog.json")
    assert isinstance(catalog, LazyCatalog)
    environ = {
        "PETSTORE_BASE_URL": fake_petstore.base_url,
        "PETSTORE_API_KEY": fake_petstore.api_key,
    }
    server = McpServer(catalog, Settings.from_env(catalog, environ))
    yield server, catalog
    await server.aclose()


def client(app: McpHttpApp) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app)
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000")


async def post(app: McpHttpApp, body: Any, headers: dict[str, str]) -> httpx.Response:
    async with client(app) as http:
        return await http.post("/mcp", content=json.dumps(body).encode(), headers=headers)


async def test_start_up_reads_the_index_only(
    lazy_server: tuple[McpServer, LazyCatalog], reads: list[str]
) -> None:
    server, catalog = lazy_server
    create_app(server, resource_url="http://127.0.0.1:8000/mcp")
    assert reads == ["catalog.index.json"]
    assert not catalog.loaded


async def test_the_first_tools_list_reads_tool_lines_only(
    lazy_server: tuple[McpServer, LazyCatalog], reads: list[str]
) -> None:
    server, catalog = lazy_server
    app = create_app(server, resource_url="http://127.0.0.1:8000/mcp")
    reads.clear()
    response = await post(app, modern("tools/list"), modern_headers("tools/list"))
    assert response.status_code == 200
    tools = json.loads(response.content)["result"]["tools"]
    assert len(tools) == 20 and tools[0]["name"] == "list_pets"
    assert set(reads) == {"catalog.tools.jsonl"}
    assert not catalog.loaded


async def test_a_param_header_check_reads_only_the_called_tool(
    lazy_server: tuple[McpServer, LazyCatalog], reads: list[str]
) -> None:
    server, catalog = lazy_server
    app = create_app(server, resource_url="http://127.0.0.1:8000/mcp")
    reads.clear()
    # list_pets declares its X-Request-ID header argument with x-mcp-header
    body = modern("tools/call", name="list_pets", arguments={"X-Request-ID": "r-1"})
    response = await post(app, body, modern_headers("tools/call", "list_pets"))
    assert response.status_code == 400
    assert json.loads(response.content)["error"]["message"] == (
        "Header mismatch: Mcp-Param-X-Request-ID header is missing"
    )
    assert reads == ["catalog.tools.jsonl"]
    assert not catalog.loaded


async def test_a_call_reads_the_rest_of_the_catalog_when_it_needs_it(
    lazy_server: tuple[McpServer, LazyCatalog], reads: list[str], fake_petstore: Any
) -> None:
    server, catalog = lazy_server
    app = create_app(server, resource_url="http://127.0.0.1:8000/mcp")
    body = modern("tools/call", name="list_pets", arguments={"X-Request-ID": "r-2", "limit": 1})
    headers = {**modern_headers("tools/call", "list_pets"), "Mcp-Param-X-Request-ID": "r-2"}
    response = await post(app, body, headers)
    assert response.status_code == 200
    assert not json.loads(response.content)["result"].get("isError")
    assert "catalog.json" in reads and catalog.loaded
    (sent,) = fake_petstore.requests
    assert (sent.raw_path, sent.query, sent.headers["x-request-id"]) == (
        "/v1/pets",
        "limit=1",
        "r-2",
    )
