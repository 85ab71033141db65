"""Dynamic mode with the official MCP client: three tools that search, describe and call 127 operations.

The package is generated with the defaults; having more than 60 tools, ``auto`` chose dynamic mode.
Calls go to the recording upstream on 127.0.0.1 and the tests assert the exact request it got.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from tests.bigapi.conftest import TOKEN, catalog_tools, stdio
from tests.bigapi.recording import GitHubLike

META_TOOLS = ["search_operations", "describe_operation", "call_operation"]


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def first_hit(result: Any) -> str:
    """The operation name on the first result line (``- issues_create: Create an issue (...)``)."""
    line = next(line for line in text_of(result).splitlines() if line.startswith("- "))
    return line[2:].split(":", 1)[0]


async def test_three_tools_whatever_the_size_of_the_api(
    bigapi_package: Path, upstream: GitHubLike
) -> None:
    async with Client(stdio(bigapi_package, upstream), mode="auto") as client:
        listed = await client.list_tools()
        assert [tool.name for tool in listed.tools] == META_TOOLS
        assert listed.next_cursor is None
        by_name = {tool.name: tool for tool in listed.tools}
        for local in ("search_operations", "describe_operation"):
            hints = by_name[local].annotations
            assert hints is not None
            assert (hints.read_only_hint, hints.destructive_hint, hints.open_world_hint) == (
                True,
                False,
                False,
            )
        # the call tool may run any operation: the union of their hints
        call = by_name["call_operation"].annotations
        assert call is not None
        assert (
            call.read_only_hint,
            call.destructive_hint,
            call.idempotent_hint,
            call.open_world_hint,
        ) == (False, True, False, True)
        assert by_name["search_operations"].input_schema["properties"]["tag"]["enum"][:3] == [
            "repos",
            "issues",
            "pulls",
        ]
        assert client.server_info is not None
        instructions = client.instructions or ""
        assert "127 operations" in instructions and "search_operations" in instructions
    assert upstream.requests == []


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("create an issue", "issues_create"),
        ("merge a pull request", "pulls_merge"),
        ("star a repository", "activity_star_repo_for_authenticated_user"),
        ("list workflow runs for a repository", "actions_list_workflow_runs_for_repo"),
        ("who is the authenticated user", "users_get_authenticated"),
        ("delete a webhook", "repos_delete_webhook"),
        ("add labels to an issue", "issues_add_labels"),
        ("get the contents of a file in a repo", "repos_get_content"),
    ],
)
async def test_search_finds_the_operation_for_a_realistic_query(
    bigapi_package: Path, upstream: GitHubLike, query: str, expected: str
) -> None:
    async with Client(stdio(bigapi_package, upstream), mode="auto") as client:
        result = await client.call_tool("search_operations", {"query": query, "limit": 5})
        assert not result.is_error, result
        assert first_hit(result) == expected


async def test_search_lines_name_summary_method_and_path_and_respect_the_tag(
    bigapi_package: Path, upstream: GitHubLike
) -> None:
    async with Client(stdio(bigapi_package, upstream), mode="auto") as client:
        result = await client.call_tool("search_operations", {"query": "create an issue"})
        lines = text_of(result).splitlines()
        assert lines[1] == "- issues_create: Create an issue (POST /repos/{owner}/{repo}/issues)"
        assert len(lines) == 1 + 10  # the default limit

        tagged = await client.call_tool(
            "search_operations", {"query": "create", "tag": "pulls", "limit": 50}
        )
        names = [line[2:].split(":")[0] for line in text_of(tagged).splitlines()[1:]]
        assert names and all(name.startswith("pulls_") for name in names)
        assert names[0] == "pulls_create"

        nothing = await client.call_tool("search_operations", {"query": "xylophone"})
        assert not nothing.is_error
        assert text_of(nothing).startswith("No operation matches 'xylophone'")


async def test_describe_returns_the_full_input_schema_and_hints(
    bigapi_package: Path, upstream: GitHubLike
) -> None:
    expected = catalog_tools(bigapi_package)["issues_create"]
    async with Client(stdio(bigapi_package, upstream), mode="auto") as client:
        result = await client.call_tool("describe_operation", {"name": "issues_create"})
    assert not result.is_error, result
    described = result.structured_content
    assert isinstance(described, dict)
    assert json.loads(text_of(result)) == described
    assert described["inputSchema"] == expected["inputSchema"]
    assert described["inputSchema"]["required"] == ["owner", "repo", "title"]
    assert described["annotations"] == expected["annotations"]
    assert (described["method"], described["path"]) == ("POST", "/repos/{owner}/{repo}/issues")
    assert described["title"] == "Create an issue"
    assert upstream.requests == []


async def test_call_sends_the_same_request_as_a_dedicated_tool(
    bigapi_package: Path, upstream: GitHubLike
) -> None:
    arguments = {"owner": "octo", "repo": "hello", "title": "Found a bug", "labels": ["bug"]}
    async with Client(stdio(bigapi_package, upstream), mode="auto") as client:
        result = await client.call_tool(
            "call_operation", {"name": "issues_create", "arguments": arguments}
        )
    assert not result.is_error, result
    assert result.content[0].text == (  # type: ignore[union-attr]
        "Operation issues_create (POST /repos/{owner}/{repo}/issues):"
    )
    assert result.structured_content == {
        "id": 7,
        "number": 42,
        "title": "Found a bug",
        "state": "open",
    }
    (sent,) = upstream.requests
    assert (sent.method, sent.path, sent.query) == ("POST", "/repos/octo/hello/issues", [])
    assert sent.json() == {"title": "Found a bug", "labels": ["bug"]}
    assert sent.header("authorization") == f"Bearer {TOKEN}"
    assert sent.header("content-type") == "application/json"


async def test_invalid_arguments_and_upstream_errors_are_tool_errors_naming_the_operation(
    bigapi_package: Path, upstream: GitHubLike
) -> None:
    async with Client(stdio(bigapi_package, upstream), mode="auto") as client:
        invalid = await client.call_tool(
            "call_operation", {"name": "issues_create", "arguments": {"owner": "o", "repo": "r"}}
        )
        assert invalid.is_error
        assert text_of(invalid) == (
            "Operation issues_create (POST /repos/{owner}/{repo}/issues):\n"
            "Invalid arguments for tool 'issues_create':\n"
            '- (arguments): "title" is a required property'
        )
        assert upstream.requests == []

        missing = await client.call_tool(
            "call_operation",
            {"name": "repos_get_branch", "arguments": {"owner": "o", "repo": "r", "branch": "x"}},
        )
        assert missing.is_error
        assert "Upstream returned 404 Not Found" in text_of(missing)
        assert [(r.method, r.path) for r in upstream.requests] == [("GET", "/repos/o/r/branches/x")]

        unknown = await client.call_tool("call_operation", {"name": "issues_creat"})
        assert unknown.is_error
        assert text_of(unknown).startswith("Unknown operation 'issues_creat'. Did you mean")
        assert "issues_create" in text_of(unknown)

        not_an_object = await client.call_tool(
            "call_operation", {"name": "issues_get", "arguments": "42"}
        )
        assert not_an_object.is_error
        assert "arguments" in text_of(not_an_object)
    assert len(upstream.requests) == 1


async def test_operations_are_not_tools_of_their_own_in_dynamic_mode(
    bigapi_package: Path, upstream: GitHubLike
) -> None:
    async with Client(stdio(bigapi_package, upstream), mode="auto") as client:
        with pytest.raises(MCPError) as raised:
            await client.call_tool("issues_get", {"owner": "o", "repo": "r", "issue_number": 1})
    assert raised.value.code == -32602
    assert "Unknown tool: issues_get" in raised.value.message
    assert upstream.requests == []


async def test_legacy_clients_get_the_same_three_tools(
    bigapi_package: Path, upstream: GitHubLike
) -> None:
    async with Client(stdio(bigapi_package, upstream), mode="legacy") as client:
        assert client.protocol_version == "2025-11-25"
        assert [tool.name for tool in (await client.list_tools()).tools] == META_TOOLS
        result = await client.call_tool(
            "call_operation",
            {"name": "issues_get", "arguments": {"owner": "o", "repo": "r", "issue_number": 5}},
        )
    assert not result.is_error, result
    assert result.structured_content == {
        "id": 7,
        "number": 5,
        "title": "Found a bug",
        "state": "open",
    }
    assert [(r.method, r.path) for r in upstream.requests] == [("GET", "/repos/o/r/issues/5")]


async def test_call_reports_errors_exactly_as_the_dedicated_tool_does(
    bigapi_package: Path, upstream: GitHubLike
) -> None:
    arguments = {"owner": "o", "repo": "r", "title": 5, "labels": "bug"}
    async with Client(stdio(bigapi_package, upstream, TOOL_MODE="full"), mode="auto") as client:
        dedicated = await client.call_tool("issues_create", arguments)
    async with Client(stdio(bigapi_package, upstream), mode="auto") as client:
        through_call = await client.call_tool(
            "call_operation", {"name": "issues_create", "arguments": arguments}
        )
    assert dedicated.is_error and through_call.is_error
    assert through_call.content[1:] == dedicated.content
    assert "title" in text_of(dedicated) and "labels" in text_of(dedicated)
    assert upstream.requests == []
