"""LoopBack 4's todo example (npm; its live OpenAPI 3.0 document, /openapi.json) driven through a
generated MCP server.

LoopBack names operations `TodoController.findById` (the tools are `todo_find_by_id`, without the
word "Controller") and takes its filters as JSON in the query string: `filter` is a parameter with
`content: application/json`, `where` an object. Todos are made, found by a filter, counted,
changed, replaced and removed; each effect is checked with a direct request to LoopBack.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.realapis.conftest import LiveApi, mcp_client, only_text, structured

pytestmark = pytest.mark.realapi


@pytest.fixture
def direct(loopback: LiveApi) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=loopback.base_url, timeout=10) as client:
        yield client


def test_the_document_takes_its_filter_as_json_in_the_query(loopback: LiveApi) -> None:
    find = loopback.spec["paths"]["/todos"]["get"]
    assert find["operationId"] == "TodoController.find"
    (parameter,) = find["parameters"]
    assert (parameter["name"], parameter["in"], list(parameter["content"])) == (
        "filter",
        "query",
        ["application/json"],
    )


async def test_the_tools_are_named_by_model_and_method(loopback: LiveApi) -> None:
    async with mcp_client(loopback.stdio()) as client:
        names = sorted(tool.name for tool in (await client.list_tools()).tools)
    assert names == [
        "todo_count",
        "todo_create",
        "todo_delete_by_id",
        "todo_find",
        "todo_find_by_id",
        "todo_replace_by_id",
        "todo_update_all",
        "todo_update_by_id",
    ]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_todos_are_made_filtered_counted_changed_and_removed(
    loopback: LiveApi, direct: httpx.Client, mode: str
) -> None:
    # a letter first: LoopBack coerces an untyped property's text that reads as a number (a tag
    # "542e6010" is stored as 542e6010, Infinity, JSON null), and no filter finds it again
    tag = "t" + uuid.uuid4().hex[:8]
    async with mcp_client(loopback.stdio(), mode) as client:
        milk = structured(
            await client.call_tool(
                "todo_create", {"title": f"buy milk {tag}", "desc": "2 litres", "tag": tag}
            ),
            mode,
        )
        dog = structured(
            await client.call_tool("todo_create", {"title": f"walk dog {tag}", "tag": tag}), mode
        )
        assert direct.get(f"/todos/{milk['id']}").json()["desc"] == "2 litres"

        # the filter goes as JSON in the query string: LoopBack applies where, order and fields
        mine = {"where": {"tag": tag}, "order": ["title DESC"], "fields": {"title": True}}
        found = structured(await client.call_tool("todo_find", {"filter": mine}), mode)
        assert found == [{"title": f"walk dog {tag}"}, {"title": f"buy milk {tag}"}]
        like = {"where": {"title": {"like": f"^buy milk {tag}$"}}}
        counted = structured(await client.call_tool("todo_count", like), mode)
        assert counted == {"count": 1}

        done = await client.call_tool("todo_update_by_id", {"id": milk["id"], "isComplete": True})
        assert (done.is_error, only_text(done)) == (False, "HTTP 204 No Content")
        assert direct.get(f"/todos/{milk['id']}").json()["isComplete"] is True
        # the where of a bulk change is a query parameter beside the body's fields
        bulk = {"where": {"tag": tag, "isComplete": {"neq": True}}, "desc": "later"}
        changed = structured(await client.call_tool("todo_update_all", bulk), mode)
        assert changed == {"count": 1}
        assert direct.get(f"/todos/{dog['id']}").json()["desc"] == "later"

        replaced = await client.call_tool(
            "todo_replace_by_id", {"id": dog["id"], "title": f"walk cat {tag}"}
        )
        assert not replaced.is_error, replaced
        assert direct.get(f"/todos/{dog['id']}").json() == {
            "id": dog["id"],
            "title": f"walk cat {tag}",
        }

        for todo in (milk, dog):
            removed = await client.call_tool("todo_delete_by_id", {"id": todo["id"]})
            assert (removed.is_error, only_text(removed)) == (False, "HTTP 204 No Content")
        gone = await client.call_tool("todo_find_by_id", {"id": milk["id"]})
    assert gone.is_error
    error = {
        "statusCode": 404,
        "name": "Error",
        "message": f"Entity not found: Todo with id {milk['id']}",
        "code": "ENTITY_NOT_FOUND",
    }
    body = json.dumps({"error": error}, separators=(",", ":"))
    assert only_text(gone) == f"Upstream returned 404 Not Found: {body}"
