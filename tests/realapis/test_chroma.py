"""Chroma 1.5.9's server (a Rust frontend, axum; its live OpenAPI 3.1 document written by utoipa,
/openapi.json) driven through a generated MCP server.

Collections are created, filled with records (embeddings as arrays of arrays of floats, documents,
metadata), counted (a bare integer answers), queried by nearest neighbours and by a free-form
``where`` filter, changed, partly deleted, renamed and deleted; every effect is checked with a direct
request to Chroma. Two answers that break the document: the health check returns an object its
document calls a string (a success that says so), and a lookup by resource name, which this build
does not serve, closes the connection without answering (a failure that says so).
"""

from __future__ import annotations

import httpx
import pytest

from tests.realapis.conftest import LiveApi, content, mcp_client, only_text, texts

pytestmark = pytest.mark.realapi

WHERE = {"tenant": "default_tenant", "database": "default_database"}
ROOT = "/api/v2/tenants/default_tenant/databases/default_database"


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_records_are_added_queried_changed_and_deleted(chroma: LiveApi, mode: str) -> None:
    name = f"pets-{mode}"
    with httpx.Client(base_url=chroma.base_url, timeout=10) as direct:
        async with mcp_client(chroma.stdio(), mode) as client:
            made = content(
                await client.call_tool(
                    "create_collection", {**WHERE, "name": name, "metadata": {"topic": "pets"}}
                )
            )
            stored = direct.get(f"{ROOT}/collections/{name}").json()
            assert (stored["id"], stored["metadata"]) == (made["id"], {"topic": "pets"})
            collection = {**WHERE, "collection_id": made["id"]}

            added = await client.call_tool(
                "collection_add",
                {
                    **collection,
                    "ids": ["a", "b", "c"],
                    "embeddings": [[0.1, 0.2, 0.3], [0.9, 0.8, 0.7], [0.1, 0.25, 0.3]],
                    "documents": ["cats purr", "dogs bark", "kittens meow"],
                    "metadatas": [{"kind": "cat"}, {"kind": "dog", "age": 3}, {"kind": "cat"}],
                },
            )
            assert not added.is_error, added
            assert content(await client.call_tool("collection_count", collection)) == 3
            assert direct.get(f"{ROOT}/collections/{made['id']}/count").json() == 3

            nearest = content(
                await client.call_tool(
                    "collection_query",
                    {
                        **collection,
                        "query_embeddings": [[0.1, 0.2, 0.31]],
                        "n_results": 2,
                        "include": ["documents", "metadatas"],
                    },
                )
            )
            assert (nearest["ids"], nearest["documents"]) == (
                [["a", "c"]],
                [["cats purr", "kittens meow"]],
            )
            cats = content(
                await client.call_tool(
                    "collection_get",
                    {**collection, "where": {"kind": "cat"}, "include": ["documents"]},
                )
            )
            assert (cats["ids"], cats["documents"]) == (["a", "c"], ["cats purr", "kittens meow"])

            changed = await client.call_tool(
                "collection_update", {**collection, "ids": ["a"], "documents": ["cats purr loudly"]}
            )
            assert not changed.is_error, changed
            gone = content(
                await client.call_tool("collection_delete", {**collection, "ids": ["b"]})
            )
            assert gone == {"deleted": 1}
            left = direct.post(f"{ROOT}/collections/{made['id']}/get", json={}).json()
            assert (left["ids"], left["documents"]) == (
                ["a", "c"],
                ["cats purr loudly", "kittens meow"],
            )

            renamed = await client.call_tool(
                "update_collection", {**collection, "new_name": f"animals-{mode}"}
            )
            assert not renamed.is_error, renamed
            assert direct.get(f"{ROOT}/collections/animals-{mode}").json()["id"] == made["id"]
            deleted = await client.call_tool(
                "delete_collection", {**WHERE, "collection_id": f"animals-{mode}"}
            )
            assert not deleted.is_error, deleted
            assert direct.get(f"{ROOT}/collections/animals-{mode}").status_code == 404


async def test_answers_that_break_the_document_say_so(chroma: LiveApi) -> None:
    async with mcp_client(chroma.stdio(), "auto") as client:
        health = await client.call_tool("healthcheck", {})
        by_name = await client.call_tool(
            "get_collection_by_crn", {"crn": "default_tenant:default_database:docs"}
        )
    assert not health.is_error
    answer, drift = texts(health)
    assert answer == '{"is_executor_ready":true,"is_log_client_ready":true}'
    assert drift.startswith(
        "The call succeeded (HTTP 200 OK). Its response does not match the documented schema:"
    )
    assert by_name.is_error
    assert only_text(by_name) == (
        f"request to {chroma.root_url} failed: the server closed the connection without "
        "answering (3 attempts)"
    )
