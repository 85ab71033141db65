"""Prefect 3.9.1's server (FastAPI; its live OpenAPI 3.1 document, /api/openapi.json) driven
through a generated MCP server.

The tools are named by FastAPI's route functions (``create_variable``, not FastAPI's operationId
``create_variable_variables__post``); two routers' functions of one name by what their paths add. Each
session first lists every page of tools, so that the official client checks every structured
result against the output schema the server advertises (it checks only the tools it has listed).
Variables, flows, flow runs and their states, logs and work pools are created, read, filtered,
changed (a null clears a field) and deleted; every effect is checked with a direct request to
Prefect.
"""

from __future__ import annotations

import uuid

import httpx
import pytest
from mcp.types import CallToolResult

from tests.realapis.conftest import LiveApi, content, every_tool, mcp_client, only_text, texts

pytestmark = pytest.mark.realapi


async def test_tools_are_named_by_their_fastapi_functions(prefect: LiveApi) -> None:
    assert prefect.spec["openapi"] == "3.1.0"
    some = prefect.spec["paths"]["/variables/"]["post"]["operationId"]
    assert some == "create_variable_variables__post"
    async with mcp_client(prefect.stdio(), "auto") as client:
        tools = await every_tool(client)
    assert len(tools) == 187
    assert {
        "create_variable",
        "read_variable_by_name",
        "update_variable_by_name",
        "delete_variable_by_name",
        "read_variables",
        "count_variables",
        "create_flow",
        "create_flow_run",
        "set_flow_run_state",
        "read_flow_runs",
        "create_logs",
        "read_logs",
        "update_work_pool",
        "health_check",
    } <= set(tools)
    # /work_queues/ and /work_pools/{name}/queues both have a create_work_queue: what the
    # path adds tells them apart
    assert {"create_work_queue", "create_work_queue_work_pools"} <= set(tools)
    assert tools["create_work_queue_work_pools"].input_schema["required"] == [
        "work_pool_name",
        "name",
    ]
    deleting = tools["delete_variable_by_name"].annotations
    assert deleting is not None and deleting.destructive_hint
    reading = tools["read_variables"].annotations  # a POST that filters: read-only
    assert reading is not None and reading.read_only_hint


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_variables_are_created_read_filtered_changed_and_deleted(
    prefect: LiveApi, mode: str
) -> None:
    name, other = f"greeting_{mode}", f"settings_{mode}"
    settings = {"retries": 3, "on": True, "none": None, "hosts": ["a", "b"]}
    with httpx.Client(base_url=prefect.base_url, timeout=10) as direct:
        async with mcp_client(prefect.stdio(), mode) as client:
            await every_tool(client)
            made = content(
                await client.call_tool(
                    "create_variable", {"name": name, "value": "hello", "tags": ["demo"]}
                )
            )
            stored = direct.get(f"/variables/name/{name}").json()
            assert (stored["id"], stored["value"], stored["tags"]) == (
                made["id"],
                "hello",
                ["demo"],
            )
            content(await client.call_tool("create_variable", {"name": other, "value": settings}))
            assert direct.get(f"/variables/name/{other}").json()["value"] == settings

            read = content(await client.call_tool("read_variable_by_name", {"name": name}))
            assert read == direct.get(f"/variables/name/{name}").json()

            # the body has a "name" of its own beside the path's: that one is body_name, and
            # the path's name stays the variable's
            changed = await client.call_tool(
                "update_variable_by_name", {"name": name, "value": "hi there"}
            )
            assert not changed.is_error, changed
            assert direct.get(f"/variables/name/{name}").json()["value"] == "hi there"

            found = content(
                await client.call_tool(
                    "read_variables", {"variables": {"name": {"like_": f"greeting_{mode}"}}}
                )
            )
            assert [variable["name"] for variable in found] == [name]
            counted = content(await client.call_tool("count_variables", {}))
            assert counted == direct.post("/variables/count").json()

            gone = await client.call_tool("delete_variable_by_name", {"name": name})
            assert not gone.is_error, gone
            assert direct.get(f"/variables/name/{name}").status_code == 404
            missing = await client.call_tool("read_variable_by_name", {"name": name})
        assert missing.is_error
        assert only_text(missing) == (
            'Upstream returned 404 Not Found: {"detail":"Variable not found."}'
        )
        assert direct.delete(f"/variables/name/{other}").status_code == 204


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_flow_run_moves_through_states_and_logs(prefect: LiveApi, mode: str) -> None:
    flow_name = f"etl-{mode}-{uuid.uuid4().hex[:8]}"
    with httpx.Client(base_url=prefect.base_url, timeout=10) as direct:
        async with mcp_client(prefect.stdio(), mode) as client:
            await every_tool(client)
            flow = content(
                await client.call_tool(
                    "create_flow",
                    {"name": flow_name, "tags": ["nightly"], "labels": {"team": "data"}},
                )
            )
            assert direct.get(f"/flows/{flow['id']}").json()["name"] == flow_name
            run = content(
                await client.call_tool(
                    "create_flow_run",
                    {
                        "flow_id": flow["id"],
                        "name": "run-1",
                        "parameters": {"n": 1, "label": None},
                        "state": {"type": "SCHEDULED"},
                    },
                )
            )
            assert direct.get(f"/flow_runs/{run['id']}").json()["parameters"] == {
                "n": 1,
                "label": None,
            }
            moved = content(
                await client.call_tool(
                    "set_flow_run_state",
                    {"id": run["id"], "state": {"type": "RUNNING", "name": "Running"}},
                )
            )
            assert (moved["status"], moved["state"]["type"]) == ("ACCEPT", "RUNNING")
            assert direct.get(f"/flow_runs/{run['id']}").json()["state"]["type"] == "RUNNING"

            running = content(
                await client.call_tool(
                    "read_flow_runs",
                    {
                        "flows": {"name": {"any_": [flow_name]}},
                        "flow_runs": {"state": {"type": {"any_": ["RUNNING"]}}},
                    },
                )
            )
            assert [each["id"] for each in running] == [run["id"]]

            line = {
                "name": "etl",
                "level": 20,
                "message": f"loaded 42 rows ({mode})",
                "timestamp": "2026-12-03T06:00:00Z",
                "flow_run_id": run["id"],
            }
            logged = await client.call_tool("create_logs", {"body": [line]})
            assert not logged.is_error, logged
            logs = content(
                await client.call_tool(
                    "read_logs", {"logs": {"flow_run_id": {"any_": [run["id"]]}}}
                )
            )
            assert [each["message"] for each in logs] == [line["message"]]

            deleted = await client.call_tool("delete_flow", {"id": flow["id"]})
            assert not deleted.is_error, deleted
        assert direct.get(f"/flows/{flow['id']}").status_code == 404


async def test_a_null_argument_clears_a_field(prefect: LiveApi) -> None:
    pool = f"pool-{uuid.uuid4().hex[:8]}"
    with httpx.Client(base_url=prefect.base_url, timeout=10) as direct:
        async with mcp_client(prefect.stdio(), "auto") as client:
            await every_tool(client)
            made = content(
                await client.call_tool(
                    "create_work_pool",
                    {"name": pool, "type": "process", "concurrency_limit": 2, "description": "x"},
                )
            )
            assert made["concurrency_limit"] == 2
            cleared = await client.call_tool(
                "update_work_pool", {"name": pool, "concurrency_limit": None}
            )
            assert not cleared.is_error, cleared
            after = direct.get(f"/work_pools/{pool}").json()
            # the null was sent and cleared the limit; the description, not given, stays
            assert (after["concurrency_limit"], after["description"]) == (None, "x")
            await client.call_tool("delete_work_pool", {"name": pool})
        assert direct.get(f"/work_pools/{pool}").status_code == 404


def _found(result: CallToolResult) -> list[str]:
    """The operation names a search result lists, best first."""
    assert not result.is_error, result
    lines = only_text(result).splitlines()[1:]
    return [line[2:].split(":", 1)[0] for line in lines]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_dynamic_mode_finds_what_every_operations_header_would_hide(
    prefect: LiveApi, mode: str
) -> None:
    # every operation but /health and /version takes an x-prefect-api-version header: its words
    # say nothing of any one of them
    without = [
        (path, method)
        for path, item in prefect.spec["paths"].items()
        for method, operation in item.items()
        if "x-prefect-api-version" not in [p["name"] for p in operation.get("parameters", [])]
    ]
    assert without == [("/health", "get"), ("/version", "get")]
    async with mcp_client(prefect.stdio(TOOL_MODE="dynamic"), mode) as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        assert listed == {"search_operations", "describe_operation", "call_operation"}
        found = await client.call_tool(
            "search_operations", {"query": "what version of prefect is running?"}
        )
        assert set(_found(found)[:2]) == {"read_version", "server_version"}
        answered = await client.call_tool("call_operation", {"name": "server_version"})
    assert not answered.is_error, answered
    version = httpx.get(f"{prefect.base_url}/version", timeout=10)
    assert texts(answered) == ["Operation server_version (GET /version):", version.text]
