"""Platformatic DB 2.61.0 (a Fastify server from npm that exposes a SQLite database as REST; its live
OpenAPI 3.0 document, /documentation/json, is written by @fastify/swagger from the tables) driven
through a generated MCP server.

Owners and pets are created, found with filters whose parameter names are paths
(``where.kind.eq``, ``orderby.name``) and a list of fields sent as repeated parameters, followed
from an owner to its pets, changed with a null that clears a column, and deleted; every effect is
checked with a direct request (Fastify validates every request against the document and refuses
with a 400 naming the field what breaks it). A limit above the server's maximum, which the document
does not state, is refused (with a 500), and reported as the failure it is, in the API's words.
"""

from __future__ import annotations

import httpx
import pytest

from tests.realapis.conftest import LiveApi, content, mcp_client, only_text

pytestmark = pytest.mark.realapi


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_rows_are_made_found_by_filters_changed_and_deleted(
    platformatic: LiveApi, mode: str
) -> None:
    with httpx.Client(base_url=platformatic.base_url, timeout=10) as direct:
        async with mcp_client(platformatic.stdio(), mode) as client:
            owner = content(
                await client.call_tool(
                    "create_owner", {"name": f"Ada {mode}", "email": f"ada-{mode}@example.com"}
                )
            )
            pets = {}
            for name, kind, weight in (
                ("Tom", "cat", 4.2),
                ("Rex", "dog", 12.5),
                ("Kit", "cat", 3.1),
            ):
                made = content(
                    await client.call_tool(
                        "create_pet",
                        {
                            "name": f"{name}-{mode}",
                            "kind": kind,
                            "weight": weight,
                            "ownerId": owner["id"],
                            "notes": "likes naps",
                        },
                    )
                )
                pets[name] = made["id"]
            stored = direct.get(f"/pets/{pets['Rex']}").json()
            assert (stored["kind"], stored["weight"], stored["ownerId"]) == (
                "dog",
                12.5,
                owner["id"],
            )

            heavy_cats = content(
                await client.call_tool(
                    "get_pets",
                    {
                        "where.kind.eq": "cat",
                        "where.weight.gt": 3.5,
                        "where.ownerId.eq": owner["id"],
                        "orderby.name": "asc",
                        "fields": ["id", "name"],
                    },
                )
            )
            assert heavy_cats == [{"id": pets["Tom"], "name": f"Tom-{mode}"}]
            by_ids = content(
                await client.call_tool(
                    "get_pets",
                    {
                        "where.id.in": f"{pets['Rex']},{pets['Kit']}",
                        "orderby.id": "asc",
                        "fields": ["name"],
                    },
                )
            )
            assert by_ids == [{"name": f"Rex-{mode}"}, {"name": f"Kit-{mode}"}]
            owned = content(await client.call_tool("get_pets_for_owner", {"id": owner["id"]}))
            assert sorted(pet["id"] for pet in owned) == sorted(pets.values())

            changed = content(
                await client.call_tool(
                    "update_pet",
                    {"id": pets["Rex"], "name": f"Rex-{mode}", "kind": "dog", "notes": None},
                )
            )
            assert changed["notes"] is None
            assert direct.get(f"/pets/{pets['Rex']}").json()["notes"] is None

            deleted = await client.call_tool("delete_pets", {"id": pets["Kit"]})
            assert not deleted.is_error, deleted
            assert direct.get(f"/pets/{pets['Kit']}").status_code == 404


async def test_a_limit_above_the_maximum_is_a_failure_in_the_apis_words(
    platformatic: LiveApi,
) -> None:
    async with mcp_client(platformatic.stdio(), "auto") as client:
        refused = await client.call_tool("get_pets", {"limit": 1000})
    assert refused.is_error
    assert only_text(refused) == (
        'Upstream returned 500 Internal Server Error: {"statusCode":500,'
        '"code":"PLT_SQL_MAPPER_PARAM_LIMIT_NOT_ALLOWED","error":"Internal Server Error",'
        '"message":"Param limit=1000 not allowed. Max accepted value 100."}'
    )
