"""tools/list pages: cursor round trips, stable order, invalid cursors, and a start-up that reads little.

Over stdio with the official client (full mode: 127 tools, pages of 100), then in process with small
pages, where the tests can also see that listing reads only the catalog's index and tool lines.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from templates.runtime.catalog.model import LazyCatalog, load_catalog
from templates.runtime.protocol.dispatch import LegacySession
from templates.runtime.server import McpServer, Settings
from tests.bigapi.conftest import MODULE, PREFIX, catalog_tools, stdio
from tests.bigapi.recording import GitHubLike
from tests.catalogs import read_catalog
from tests.kit.meta import meta

META = meta()


async def test_cursor_round_trip_over_stdio(bigapi_package: Path, upstream: GitHubLike) -> None:
    expected = list(catalog_tools(bigapi_package))
    async with Client(stdio(bigapi_package, upstream, TOOL_MODE="full"), mode="auto") as client:
        first = await client.list_tools(cache_mode="refresh")
        assert [t.name for t in first.tools] == expected[:100]
        assert first.next_cursor is not None
        second = await client.list_tools(cursor=first.next_cursor, cache_mode="refresh")
        assert [t.name for t in second.tools] == expected[100:]
        assert second.next_cursor is None
        again = await client.list_tools(cursor=first.next_cursor, cache_mode="refresh")
        assert again.tools == second.tools
    # another process (another replica) accepts the cursor and answers the same page
    async with Client(stdio(bigapi_package, upstream, TOOL_MODE="full"), mode="auto") as other:
        page = await other.list_tools(cursor=first.next_cursor, cache_mode="refresh")
        assert [t.name for t in page.tools] == expected[100:]


@pytest.mark.parametrize(
    "cursor",
    [
        "not a cursor",
        base64.urlsafe_b64encode(b"v1:resources:100").decode().rstrip("="),  # another list's
        base64.urlsafe_b64encode(b"v1:tools:127").decode().rstrip("="),  # past the end
        base64.urlsafe_b64encode(b"v1:tools:-1").decode().rstrip("="),
    ],
)
async def test_an_invalid_cursor_is_invalid_params(
    bigapi_package: Path, upstream: GitHubLike, cursor: str
) -> None:
    async with Client(stdio(bigapi_package, upstream, TOOL_MODE="full"), mode="auto") as client:
        with pytest.raises(MCPError) as raised:
            await client.list_tools(cursor=cursor, cache_mode="refresh")
    assert raised.value.code == -32602
    assert raised.value.message == "Invalid cursor"


def in_process(package: Path, page_size: int, **env: str) -> McpServer:
    catalog = load_catalog(package / "src" / MODULE / "catalog.json")
    environ = {
        f"{PREFIX}_BASE_URL": "http://127.0.0.1:9",
        **{f"{PREFIX}_{k}": v for k, v in env.items()},
    }
    return McpServer(catalog, Settings.from_env(catalog, environ, page_size=page_size))


async def request(server: McpServer, method: str, **params: Any) -> Any:
    async def notify(message: Any) -> None:
        raise AssertionError(message)

    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"_meta": META, **params}}
    return await server.dispatcher.handle(message, None, notify)


async def pages(server: McpServer, method: str = "tools/list", key: str = "tools") -> list[Any]:
    found: list[Any] = []
    cursor: str | None = None
    while True:
        reply = await request(server, method, **({"cursor": cursor} if cursor else {}))
        result = reply["result"]
        found.append([item["name"] for item in result[key]])
        cursor = result.get("nextCursor")
        if cursor is None:
            return found


async def test_toolsets_pages_keep_catalog_order(bigapi_package: Path) -> None:
    server = in_process(bigapi_package, page_size=10, TOOLSETS="issues,gists")
    listed = await pages(server)
    names = [name for page in listed for name in page]
    catalog = list(catalog_tools(bigapi_package))
    chosen = [n for n in catalog if n.startswith(("issues_", "gists_"))]
    assert names == chosen and len(chosen) == 28
    assert [len(page) for page in listed] == [10, 10, 8]
    assert await pages(server) == listed
    await server.aclose()


async def test_start_up_and_listing_read_only_the_index_and_tool_lines(
    bigapi_package: Path,
) -> None:
    server = in_process(bigapi_package, page_size=50, TOOL_MODE="full")
    catalog = server.catalog
    assert isinstance(catalog, LazyCatalog) and not catalog.loaded
    discovered = await request(server, "server/discover")
    assert discovered["result"]["capabilities"]["tools"] == {"listChanged": False}
    assert [len(page) for page in await pages(server)] == [50, 50, 27]
    assert not catalog.loaded
    # the first call needs the operations: now the rest of the catalog is read
    called = await request(server, "tools/call", name="issues_get", arguments={})
    assert called["result"]["isError"] is True
    assert catalog.loaded
    await server.aclose()


async def test_lists_read_lazily_match_the_catalog(bigapi_package: Path) -> None:
    server = in_process(bigapi_package, page_size=20)
    full = read_catalog(bigapi_package / "src" / MODULE / "catalog.json")
    templates = await pages(server, "resources/templates/list", "resourceTemplates")
    assert [name for page in templates for name in page] == [
        item["name"] for item in full["resourceTemplates"]
    ]
    assert [len(page) for page in templates] == [20, 20, 12]
    prompts = await pages(server, "prompts/list", "prompts")
    assert prompts == [[item["name"] for item in full["prompts"]]]
    await server.aclose()


async def test_legacy_pages_are_shaped_for_their_revision(bigapi_package: Path) -> None:
    server = in_process(bigapi_package, page_size=100, TOOL_MODE="full")
    session = LegacySession()

    async def notify(message: Any) -> None:
        raise AssertionError(message)

    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {}},
    }
    await server.dispatcher.handle(init, session, notify)
    reply = await server.dispatcher.handle(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, session, notify
    )
    tool = next(t for t in reply["result"]["tools"] if t["name"] == "issues_create")
    # 2025-03-26 has no tool titles or output schemas; the title moves into the annotations
    assert "title" not in tool and "outputSchema" not in tool
    assert tool["annotations"]["title"] == "Create an issue"
    assert "resultType" not in reply["result"]
    await server.aclose()
