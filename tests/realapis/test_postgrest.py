"""PostgREST 12 (npm's static binary) over a bookshop schema, driven through the server generated
from its live Swagger 2.0 document (``postgrest.py``). Every effect is checked in the database
through PostgREST directly.

What its document says that a caller must not take literally: a ``serial`` key looks required
(PostgREST leaves the sequence out), a PATCH takes the POST's definition with all its NOT NULL
columns required, NOT NULL columns with a default are required too, and nullable columns cannot say
so. What a caller must be kept from: a filter given null is no filter, so a DELETE would reach
every row.
"""

from __future__ import annotations

import httpx
import pytest

from tests.realapis.conftest import LiveApi, mcp_client, only_text, result_json, texts

pytestmark = pytest.mark.realapi

HEADERS = "[response headers] "


def rows(api: LiveApi, table: str, query: str = "", order: str = "id") -> list[dict[str, object]]:
    answer = httpx.get(f"{api.base_url}/{table}?order={order}{query}", timeout=10)
    answer.raise_for_status()
    found: list[dict[str, object]] = answer.json()
    return found


async def test_an_author_is_added_without_its_serial_id_and_changed_in_one_column(
    postgrest_api: LiveApi,
) -> None:
    async with mcp_client(postgrest_api.stdio()) as client:
        made = await client.call_tool(
            "post_authors", {"name": "Octavia E. Butler", "Prefer": "return=representation"}
        )
        [author] = result_json(made)
        assert (author["name"], author["bio"]) == ("Octavia E. Butler", None)
        assert isinstance(author["id"], int)

        changed = await client.call_tool(
            "patch_authors", {"id": f"eq.{author['id']}", "body_bio": "Wrote Kindred"}
        )
        assert texts(changed) == ["HTTP 204 No Content", f"{HEADERS}content-range: 0-0/*"]
        [stored] = rows(postgrest_api, "authors", f"&id=eq.{author['id']}")
        assert (stored["name"], stored["bio"]) == ("Octavia E. Butler", "Wrote Kindred")

        cleared = await client.call_tool("patch_authors", {"id": "eq.1", "body_email": None})
        assert not cleared.is_error, cleared
        [first] = rows(postgrest_api, "authors", "&id=eq.1")
        assert (first["name"], first["email"]) == ("Ursula K. Le Guin", None)


async def test_an_order_takes_the_columns_defaults_and_a_composite_key_stays_required(
    postgrest_api: LiveApi,
) -> None:
    async with mcp_client(postgrest_api.stdio()) as client:
        ordered = await client.call_tool(
            "post_orders", {"book_id": 3, "Prefer": "return=representation"}
        )
        [order] = result_json(ordered)
        assert (order["book_id"], order["quantity"], order["status"]) == (3, 1, "pending")
        assert [row["id"] for row in rows(postgrest_api, "orders")] == [order["id"]]

        half = await client.call_tool("post_book_tags", {"book_id": 1})
    assert half.is_error
    assert only_text(half) == (
        "Invalid arguments for tool 'post_book_tags':\n"
        '- (arguments): "tag_id" is a required property'
    )
    assert rows(postgrest_api, "book_tags", order="book_id") == []


async def test_a_delete_whose_filter_is_null_is_refused_and_every_row_stays(
    postgrest_api: LiveApi,
) -> None:
    before = rows(postgrest_api, "books")
    async with mcp_client(postgrest_api.stdio()) as client:
        refused = await client.call_tool("delete_books", {"id": None})
        assert refused.is_error
        assert only_text(refused) == (
            "Invalid arguments for tool 'delete_books':\n- id: null is not of type \"string\""
        )
        assert rows(postgrest_api, "books") == before

        deleted = await client.call_tool("delete_books", {"title": "eq.The Dispossessed"})
        assert not deleted.is_error, deleted
    assert [row["title"] for row in rows(postgrest_api, "books")] == [
        "A Wizard of Earthsea",
        "Solaris",
    ]


async def test_a_delete_without_a_filter_is_refused_until_it_says_all(
    postgrest_api: LiveApi,
) -> None:
    # PostgREST deletes every row of a DELETE without a filter: such a call must say `_all`
    async with mcp_client(postgrest_api.stdio()) as client:
        for name in ("sci-fi", "classic"):
            added = await client.call_tool("post_tags", {"name": name})
            assert not added.is_error, added
        for arguments in ({}, {"Prefer": "return=representation"}):
            refused = await client.call_tool("delete_tags", arguments)
            assert refused.is_error
            assert only_text(refused).startswith(
                "Tool 'delete_tags' was called with none of the arguments that say what it acts on"
            )
            assert [row["name"] for row in rows(postgrest_api, "tags")] == ["sci-fi", "classic"]

        everything = await client.call_tool("delete_tags", {"_all": True})
        assert not everything.is_error, everything
    assert rows(postgrest_api, "tags") == []
