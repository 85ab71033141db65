"""Response headers a result shows beside the body: how to page on (GitHub's and Gitea's ``Link``,
``X-Total-Count``), a download's file name, and the headers an operation documents (n8n's export
counts, only in a header); never the framing, cache or rate headers of every answer, and never a
credential a header repeats."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import generate_package, read_catalog
from tests.reliability import fault_server as fs
from tests.reliability.kit import call_tool, server

SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Forge", "version": "1.0.0"},
    "servers": [{"url": "https://forge.example.com"}],
    "components": {
        "securitySchemes": {"key": {"type": "apiKey", "in": "query", "name": "access_token"}}
    },
    "security": [{"key": []}],
    "paths": {
        "/issues": {
            "get": {
                "operationId": "listIssues",
                "responses": {
                    "200": {
                        "description": "ok",
                        "headers": {
                            "Link": {"schema": {"type": "string"}},
                            "X-RateLimit-Remaining": {"schema": {"type": "integer"}},
                        },
                        "content": {"application/json": {"schema": {"type": "array"}}},
                    }
                },
            }
        },
        "/export": {
            "post": {
                "operationId": "exportPackage",
                "responses": {
                    "200": {
                        "description": "the package",
                        "headers": {
                            "X-Export-Counts": {"schema": {"type": "string"}},
                            "Content-Type": {"schema": {"type": "string"}},
                        },
                        "content": {"application/gzip": {}},
                    }
                },
            }
        },
    },
}
KEY = "s3cret-key-value"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    package: Path = generate_package(tmp_path_factory.mktemp("headers"), SPEC, "forge-mcp")
    return read_catalog(package)


@pytest.fixture
def upstream() -> Iterator[fs.FaultServer]:
    with fs.FaultServer() as fake:
        yield fake


def test_the_catalog_keeps_the_headers_that_say_something_of_the_answer(
    catalog: dict[str, Any],
) -> None:
    operations = catalog["operations"]
    assert operations["listIssues"]["responseHeaders"] == ["link"]
    assert operations["exportPackage"]["responseHeaders"] == ["x-export-counts"]


async def _call(
    catalog: dict[str, Any], upstream: fs.FaultServer, tool: str
) -> list[dict[str, Any]]:
    env = {"FORGE_BASE_URL": upstream.url, "FORGE_RETRIES": "0", "FORGE_KEY": KEY}
    srv = server(catalog, env)  # type: ignore[arg-type]
    try:
        reply = await call_tool(srv, tool, {}, 1)
    finally:
        await srv.aclose()
    assert reply["result"].get("isError", False) is False, reply
    content: list[dict[str, Any]] = reply["result"]["content"]
    return content


async def test_a_page_says_how_to_page_on(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    link = f'<{upstream.url}/issues?page=2&access_token={KEY}>; rel="next"'

    def page(x: fs.Exchange) -> None:
        headers = {"Link": link, "X-Total-Count": "42", "X-RateLimit-Remaining": "4999"}
        x.json(200, [{"number": 1}], headers=headers)

    upstream.script["/issues"] = page
    content = await _call(catalog, upstream, "list_issues")
    assert content[-1] == {
        "type": "text",
        "text": f"[response headers] link: <{upstream.url}/issues?page=2&access_token=***>; "
        'rel="next"; x-total-count: 42',
    }


async def test_a_download_says_its_name_and_what_only_a_header_says(
    catalog: dict[str, Any], upstream: fs.FaultServer
) -> None:
    def package(x: fs.Exchange) -> None:
        headers = {
            "X-Export-Counts": '{"workflows":1,"tags":2}',
            "Content-Disposition": 'attachment; filename="export.n8np"',
        }
        x.reply(200, b"\x1f\x8b\x08\x00", "application/gzip", headers=headers)

    upstream.script["/export"] = package
    content = await _call(catalog, upstream, "export_package")
    assert content[-1] == {
        "type": "text",
        "text": '[response headers] x-export-counts: {"workflows":1,"tags":2}; '
        'content-disposition: attachment; filename="export.n8np"',
    }


async def test_text_needs_no_file_name(catalog: dict[str, Any], upstream: fs.FaultServer) -> None:
    # Nautobot's CSV, Label Studio's JSON export: what they are is in the text itself
    def csv(x: fs.Exchange) -> None:
        headers = {"Content-Disposition": 'attachment; filename="issues.csv"'}
        x.reply(200, b"number,title\n1,a\n", "text/csv", headers=headers)

    upstream.script["/issues"] = csv
    content = await _call(catalog, upstream, "list_issues")
    assert all("[response headers]" not in block.get("text", "") for block in content)
