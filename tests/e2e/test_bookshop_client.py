"""The customised Bookshop sample with the official MCP client, both eras: resources, templates with
path and query variables, a config-defined prompt with arguments and completions, renamed tools."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.conftest import REPO
from tests.kit.upstream import RecordingUpstream, Reply, Request

BOOK = {"isbn": "978-0", "title": "The Hobbit", "author": "Tolkien", "genre": "fantasy"}


class Bookshop(RecordingUpstream):
    """The kit's recording upstream answering as the Bookshop API: its one book, orders placed."""

    @property
    def seen(self) -> list[tuple[str, str]]:
        """Each request as (method, target), a POST's target followed by its body."""
        return [
            (r.method, f"{r.target} {r.body.decode()}" if r.method == "POST" else r.target)
            for r in self.requests
        ]

    def answer(self, request: Request) -> Reply:
        if request.method == "POST":
            return Reply.json(201, {"id": "o-1", "status": "placed"})
        if request.target.startswith("/api/books/978-0"):
            return Reply.json(200, BOOK)
        if request.target.startswith("/api/books"):
            return Reply.json(200, [BOOK])
        return Reply.json(404, {"error": "no such book"})


@pytest.fixture(scope="module")
def bookshop_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sample = REPO / "samples" / "bookshop"
    result = generate(
        str(sample / "openapi.yaml"), GenerateOptions(overlays=(sample / "overlay.yaml",))
    )
    out = tmp_path_factory.mktemp("bookshop") / "bookshop-mcp"
    write_tree(result.files, out, force=False, marker=MARKER)
    return out


@pytest.fixture
def upstream() -> Iterator[Bookshop]:
    with Bookshop() as running:
        yield running


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_customised_surface_over_both_eras(
    bookshop_package: Path, upstream: Bookshop, mode: str
) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "bookshop_mcp"],
        env={
            "PYTHONPATH": str(bookshop_package / "src"),
            "BOOKSHOP_BASE_URL": f"{upstream.url}/api",
        },
    )
    async with Client(params, mode=mode) as client:  # type: ignore[arg-type]
        tools = {t.name: t for t in (await client.list_tools()).tools}
        # config rule: admin excluded; getBook only a template; rename + overlay + x-mcp names
        assert sorted(tools) == ["book_reviews", "cancel_order", "list_books", "purchase_book"]
        cancel = tools["cancel_order"].annotations
        assert (
            cancel is not None
            and cancel.title == "Cancel a book order"
            and cancel.idempotent_hint is True
        )

        resources = (await client.list_resources()).resources
        assert [str(r.uri) for r in resources] == ["books://books"]
        templates = (await client.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["books://books/{isbn}{?format}"]

        read = await client.read_resource("books://books/978-0?format=ebook")
        assert json.loads(read.contents[0].text)["title"] == "The Hobbit"  # type: ignore[union-attr]
        assert upstream.seen[-1] == ("GET", "/api/books/978-0?format=ebook")

        prompt = await client.get_prompt("recommend", {"genre": "crime"})
        text = prompt.messages[0].content.text  # type: ignore[union-attr]
        assert text.startswith("Recommend a crime book") and "purchase_book" in text

        completion = await client.complete(
            {"type": "ref/prompt", "name": "recommend"}, {"name": "genre", "value": "f"}
        )
        assert completion.completion.values == ["fantasy"]
        genres = await client.complete(
            {"type": "ref/resource", "uri": "books://books/{isbn}{?format}"},
            {"name": "format", "value": ""},
        )
        assert genres.completion.values == ["hardcover", "paperback", "ebook"]

        bought = await client.call_tool("purchase_book", {"isbn": "978-0", "quantity": 2})
        assert not bought.is_error
        assert upstream.seen[-1] == ("POST", '/api/orders {"isbn":"978-0","quantity":2}')
