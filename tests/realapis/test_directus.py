"""Directus 10.13.4 (a headless CMS on Express from npm; its live OpenAPI 3.0 document,
/server/specs/oas, is written at run time from the project's collections) driven through a
generated MCP server.

The project has one collection, ``articles``. Articles are created (several in one call, then one,
whose answer breaks the document: it says a list), found with a filter sent as JSON in the query
(a parameter with ``content``), fields and a sort sent as one comma-separated value, a search and
a projection, changed with a null that clears a field, and deleted; every effect is checked with a
direct request to Directus.

Its document requires a scheme of 3 operations and says nothing of security for the other 126, so
those had gone without the token the user set (and Directus answers a request without one with
403). Its scheme puts the variable in ``Authorization`` whole: Directus wants ``Bearer <token>``
there and reads a bare token as no credentials at all, which a refusal now says.
"""

from __future__ import annotations

import json

import httpx
import pytest

from tests.realapis.conftest import DIRECTUS_TOKEN, LiveApi, content, mcp_client, only_text, texts

pytestmark = pytest.mark.realapi


def _direct(live: LiveApi) -> httpx.Client:
    signed = {"Authorization": f"Bearer {DIRECTUS_TOKEN}"}
    return httpx.Client(base_url=live.base_url, headers=signed, timeout=10)


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_articles_are_made_found_changed_and_deleted(directus: LiveApi, mode: str) -> None:
    signed = directus.stdio(**directus.credentials)
    with _direct(directus) as direct:
        async with mcp_client(signed, mode) as client:
            made = content(
                await client.call_tool(
                    "create_items_articles",
                    {
                        "body": [
                            {
                                "title": f"Launch {mode}",
                                "body": "We shipped.",
                                "status": "published",
                                "published_on": "2026-11-30",
                                "tags": ["news", mode],
                            },
                            {"title": f"Notes {mode}", "status": "draft", "views": 3},
                        ]
                    },
                )
            )["data"]
            launch, notes = (item["id"] for item in made)
            assert direct.get(f"/items/articles/{launch}").json()["data"]["tags"] == ["news", mode]

            # one article: Directus answers with the article, where its document says a list
            single = await client.call_tool(
                "create_items_articles",
                {"body": {"title": f"Roadmap {mode}", "published_on": "2026-12-01"}},
            )
            assert not single.is_error
            answer, note = texts(single)
            roadmap = json.loads(answer)["data"]["id"]
            assert note.startswith(
                "The call succeeded (HTTP 200 OK): the change was made, so do not repeat it. Its "
                "response does not match the documented schema:\n- data: "
            )
            assert direct.get(f"/items/articles/{roadmap}").json()["data"]["status"] == "draft"

            mine = {"title": {"_ends_with": mode}}
            drafts = content(
                await client.call_tool(
                    "read_items_articles",
                    {
                        "filter": {"_and": [mine, {"status": {"_eq": "draft"}}]},
                        "fields": ["id", "title"],
                        "sort": ["-published_on", "id"],
                        "meta": "filter_count",
                    },
                )
            )
            assert drafts == {
                "meta": {"filter_count": 2},
                "data": [
                    {"id": roadmap, "title": f"Roadmap {mode}"},
                    {"id": notes, "title": f"Notes {mode}"},
                ],
            }
            titles = content(
                await client.call_tool(
                    "read_items_articles",
                    {"filter": mine, "search": "Launch", "_select": "data[].title"},
                )
            )
            assert titles == [f"Launch {mode}"]

            changed = content(
                await client.call_tool(
                    "update_single_items_articles",
                    {"id": launch, "body": None, "status": "archived", "views": 10},
                )
            )["data"]
            assert (changed["body"], changed["status"], changed["views"]) == (None, "archived", 10)
            stored = direct.get(f"/items/articles/{launch}").json()["data"]
            assert (stored["body"], stored["status"]) == (None, "archived")

            for item in (launch, notes, roadmap):
                deleted = await client.call_tool("delete_single_items_articles", {"id": item})
                assert not deleted.is_error, deleted
            left = direct.get("/items/articles", params={"filter": json.dumps(mine)}).json()
            assert left["data"] == []


async def test_operations_the_document_says_nothing_of_take_the_token(directus: LiveApi) -> None:
    async with mcp_client(directus.stdio(**directus.credentials), "auto") as client:
        me = content(await client.call_tool("get_me", {"fields": ["email"]}))
    assert me == {"data": {"email": "admin@example.com"}}


async def test_a_refusal_says_which_variable_to_set_and_how(directus: LiveApi) -> None:
    async with mcp_client(directus.stdio(), "auto") as client:
        anonymous = await client.call_tool("read_items_articles", {"limit": 1})
    assert anonymous.is_error
    assert only_text(anonymous) == (
        'Upstream returned 403 Forbidden: {"errors":[{"message":"You don\'t have permission to '
        'access this.","extensions":{"code":"FORBIDDEN"}}]}\n'
        "It was sent without credentials; to send them, set the environment variable "
        "DIRECTUS_AUTH_KEY."
    )
    async with mcp_client(directus.stdio(AUTH_KEY=DIRECTUS_TOKEN), "auto") as client:
        bare = await client.call_tool("read_items_articles", {"limit": 1})
    assert bare.is_error
    assert only_text(bare).endswith(
        "\nThe API refused this to the credentials of DIRECTUS_AUTH_KEY: they may be invalid or "
        "lack a permission; DIRECTUS_AUTH_KEY is sent as the whole Authorization header, as it is set: "
        'if the API wants a word before the key, set it with one, e.g. "Bearer <key>".'
    )
