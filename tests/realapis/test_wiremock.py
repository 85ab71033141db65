"""WireMock 3.13.2 (npm: its standalone jar, run on Java; a Jetty server whose admin API is
described by a hand-written OpenAPI 3.0 document it serves at /__admin/docs/swagger) driven through
a generated MCP server.

A stub is made through the admin API and then asked of WireMock itself; the requests it saw are
counted by a pattern, the stub found by its metadata (a whole body that is one of some twenty
match patterns), changed, and deleted; a request no stub matches is found among the near misses.
"""

from __future__ import annotations

import httpx
import pytest

from tests.realapis.conftest import LiveApi, content, mcp_client

pytestmark = pytest.mark.realapi


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_stub_is_made_served_found_changed_and_deleted(
    wiremock: LiveApi, mode: str
) -> None:
    path = f"/greeting-{mode}"
    with httpx.Client(base_url=wiremock.root_url, timeout=10) as direct:
        async with mcp_client(wiremock.stdio(), mode) as client:
            made = content(
                await client.call_tool(
                    "create_new_stub_mapping",
                    {
                        "name": f"greeting {mode}",
                        "request": {
                            "method": "GET",
                            "urlPath": path,
                            "queryParameters": {"name": {"equalTo": "Ada"}},
                        },
                        "response": {"status": 200, "jsonBody": {"hello": "Ada"}},
                        "metadata": {"suite": mode},
                    },
                )
            )
            stub = made["id"]
            answer = direct.get(path, params={"name": "Ada"})
            assert (answer.status_code, answer.json()) == (200, {"hello": "Ada"})
            assert direct.get(path, params={"name": "Bob"}).status_code == 404

            counted = content(
                await client.call_tool(
                    "count_requests_by_criteria", {"method": "GET", "urlPath": path}
                )
            )
            assert counted["count"] == 2
            found = content(
                await client.call_tool(
                    "find_stub_mappings_by_metadata",
                    {
                        "body": {"matchesJsonPath": {"expression": "$.suite", "equalTo": mode}},
                        "_select": "mappings[].id",
                    },
                )
            )
            assert found == [stub]
            misses = content(
                await client.call_tool(
                    "retrieve_near_misses_for_unmatched_requests",
                    {"_select": "nearMisses[].request.url"},
                )
            )
            assert f"{path}?name=Bob" in misses

            changed = await client.call_tool(
                "update_stub_mapping",
                {
                    "stubMappingId": stub,
                    "request": {"method": "GET", "urlPath": path},
                    "response": {"status": 201, "body": "hi"},
                },
            )
            assert not changed.is_error, changed
            answer = direct.get(path, params={"name": "Bob"})
            assert (answer.status_code, answer.text) == (201, "hi")

            deleted = await client.call_tool("delete_stub_mapping", {"stubMappingId": stub})
            assert not deleted.is_error, deleted
            assert direct.get(path).status_code == 404
