"""Unleash 7.5.1 (an Express server from npm; its live OpenAPI 3.0 document, /docs/openapi.json, is
written from its JSON schemas) driven through a generated MCP server, its data in PostgreSQL.

A feature flag is created, given a gradual rollout with a constraint, switched on in an environment
(a POST without a body), found with a projection, made a favourite (a POST without a body that
Unleash refuses with 415 unless it declares a JSON type), changed with a JSON patch that clears its
description with a null, archived and deleted; every effect is checked with a direct request to
Unleash. Its credentials go raw in ``Authorization`` (an ``apiKey`` scheme, beside a bearer one).
"""

from __future__ import annotations

import time

import httpx
import pytest

from tests.realapis.conftest import LiveApi, content, mcp_client, only_text

pytestmark = pytest.mark.realapi

PROJECT = "/api/admin/projects/default"


def archived_names(direct: httpx.Client, name: str) -> list[str]:
    query = {"query": name, "archived": "IS:true"}
    return [
        flag["name"]
        for flag in direct.get("/api/admin/search/features", params=query).json()["features"]
    ]


def reach_stage(direct: httpx.Client, name: str, stage: str, timeout: float = 30.0) -> None:
    """Until Unleash has recorded that the flag entered ``stage`` of its lifecycle. It records it
    when it announces the flag's event, up to a few seconds later on a busy machine; a flag deleted
    before then makes that insert break a foreign key, and Unleash 7.5.1 exits on the unhandled
    error (seen in CI). A user's flag lives longer than a test's."""
    deadline = time.monotonic() + timeout
    while stage not in (
        entry["stage"] for entry in direct.get(f"{PROJECT}/features/{name}/lifecycle").json()
    ):
        assert time.monotonic() < deadline, f"{name} never reached the {stage} stage"
        time.sleep(0.2)


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_flag_is_rolled_out_favoured_patched_and_deleted(
    unleash: LiveApi, mode: str
) -> None:
    name = f"checkout-v2-{mode}"
    flag = {"projectId": "default", "featureName": name}
    development = {**flag, "environment": "development"}
    signed_in = {"Authorization": unleash.credentials["API_KEY"]}
    with httpx.Client(base_url=unleash.base_url, headers=signed_in, timeout=10) as direct:
        async with mcp_client(unleash.stdio(**unleash.credentials), mode) as client:
            made = content(
                await client.call_tool(
                    "create_feature",
                    {
                        "projectId": "default",
                        "name": name,
                        "type": "release",
                        "description": "The new checkout",
                    },
                )
            )
            assert (made["name"], made["type"]) == (name, "release")
            stored = direct.get(f"{PROJECT}/features/{name}").json()
            assert (stored["description"], stored["archived"]) == ("The new checkout", False)
            reach_stage(direct, name, "initial")

            rollout = {"rollout": "25", "stickiness": "default", "groupId": name}
            only_some = {"contextName": "userId", "operator": "IN", "values": ["7", "9"]}
            strategy = content(
                await client.call_tool(
                    "add_feature_strategy",
                    {
                        **development,
                        "name": "flexibleRollout",
                        "parameters": rollout,
                        "constraints": [only_some],
                    },
                )
            )
            switched = await client.call_tool("toggle_feature_environment_on", development)
            assert not switched.is_error, switched
            environment = direct.get(f"{PROJECT}/features/{name}/environments/development").json()
            [live] = environment["strategies"]
            assert environment["enabled"] is True
            assert (live["id"], live["parameters"]) == (strategy["id"], rollout)
            assert [
                {key: c[key] for key in ("contextName", "operator", "values")}
                for c in live["constraints"]
            ] == [only_some]

            listed = content(
                await client.call_tool(
                    "get_features",
                    {
                        "projectId": "default",
                        "_select": f"features[?name=='{name}'].{{name: name, type: type}}",
                    },
                )
            )
            assert listed == [{"name": name, "type": "release"}]

            favoured = await client.call_tool("add_favorite_feature", flag)
            assert not favoured.is_error, favoured
            assert direct.get(f"{PROJECT}/features/{name}").json()["favorite"] is True

            patch = [{"op": "replace", "path": "/description", "value": None}]
            patched = await client.call_tool("patch_feature", {**flag, "body": patch})
            assert not patched.is_error, patched
            assert direct.get(f"{PROJECT}/features/{name}").json()["description"] is None

            archived = await client.call_tool("archive_feature", flag)
            assert not archived.is_error, archived
            assert direct.get(f"{PROJECT}/features/{name}").status_code == 404
            assert archived_names(direct, name) == [name]
            reach_stage(direct, name, "archived")
            deleted = await client.call_tool("delete_feature", {"featureName": name})
            assert not deleted.is_error, deleted
            assert archived_names(direct, name) == []


async def test_a_call_without_the_token_says_which_variable_to_set(unleash: LiveApi) -> None:
    async with mcp_client(unleash.stdio(), "auto") as client:
        refused = await client.call_tool("get_features", {"projectId": "default"})
    assert refused.is_error
    answer, hint = only_text(refused).split("\n")
    assert answer.startswith("Upstream returned 401 Unauthorized: {")
    assert "Your request had no authorization header" in answer
    assert hint == (
        "It was sent without credentials; to send them, set the environment variable "
        "UNLEASH_API_KEY, or set UNLEASH_BEARER_TOKEN."
    )
