"""Full and toolsets mode, chosen at generation or by the environment, with the official MCP client.

One package (generated with the defaults, so dynamic mode) serves every mode: the catalog carries
what each needs, and ``GITHUB_LIKE_TOOL_MODE`` / ``GITHUB_LIKE_TOOLSETS`` pick one at start-up.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from openapi2mcp.generate import GenerateOptions
from tests.bigapi.conftest import MODULE, catalog_tools, generate_package, server_env, stdio
from tests.bigapi.github_like import operations
from tests.bigapi.recording import GitHubLike


async def list_all(client: Client) -> list[str]:
    names: list[str] = []
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor, cache_mode="refresh")
        names += [tool.name for tool in page.tools]
        cursor = page.next_cursor
        if cursor is None:
            return names


async def test_full_mode_lists_every_operation_as_a_tool(
    bigapi_package: Path, upstream: GitHubLike
) -> None:
    expected = list(catalog_tools(bigapi_package))
    assert len(expected) == len(operations()) == 127
    async with Client(stdio(bigapi_package, upstream, TOOL_MODE="full"), mode="auto") as client:
        assert await list_all(client) == expected
        result = await client.call_tool(
            "issues_get", {"owner": "octo", "repo": "hello", "issue_number": 3}
        )
        assert not result.is_error, result
        assert result.structured_content == {
            "id": 7,
            "number": 3,
            "title": "Found a bug",
            "state": "open",
        }
        # the catalog's tools are what full mode lists, compact schemas and all
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        issue_tool = catalog_tools(bigapi_package)["issues_create"]
        assert tools["issues_create"].input_schema == issue_tool["inputSchema"]
        # examples are left out of listed schemas; every constraint stays
        assert "examples" not in str(tools["issues_create"].input_schema)
    assert [(r.method, r.path) for r in upstream.requests] == [
        ("GET", "/repos/octo/hello/issues/3")
    ]


async def test_toolsets_mode_exposes_only_the_chosen_tags(
    bigapi_package: Path, upstream: GitHubLike
) -> None:
    chosen = {name for name in catalog_tools(bigapi_package) if name.startswith("pulls_")}
    async with Client(stdio(bigapi_package, upstream, TOOLSETS="pulls,search"), mode="auto") as c:
        names = await list_all(c)
        assert set(names) == chosen | {
            "search_code",
            "search_issues_and_pull_requests",
            "search_repos",
            "search_users",
        }
        assert names == [name for name in catalog_tools(bigapi_package) if name in set(names)]
        with pytest.raises(MCPError) as raised:
            await c.call_tool("issues_get", {"owner": "o", "repo": "r", "issue_number": 1})
        assert raised.value.code == -32602
        assert raised.value.message == "Unknown tool: issues_get"
    assert upstream.requests == []


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"TOOL_MODE": "dynamic"}, 3),
        ({"TOOL_MODE": "full"}, 127),
        ({"TOOL_MODE": "auto"}, 3),  # more than 60 tools
        ({"TOOL_MODE": "FULL", "TOOLSETS": "gists"}, 127),  # the mode wins; case does not matter
        ({"TOOL_MODE": "toolsets", "TOOLSETS": "gists"}, 5),
        ({"TOOLSETS": " gists , users "}, 10),
    ],
)
async def test_the_environment_overrides_the_generated_mode(
    bigapi_package: Path, upstream: GitHubLike, env: dict[str, str], expected: int
) -> None:
    async with Client(stdio(bigapi_package, upstream, **env), mode="auto") as client:
        assert len(await list_all(client)) == expected


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"TOOL_MODE": "everything"}, "GITHUB_LIKE_TOOL_MODE must be full, dynamic, toolsets"),
        ({"TOOL_MODE": "toolsets"}, "toolsets mode needs GITHUB_LIKE_TOOLSETS: one or more of"),
        ({"TOOLSETS": "issues,wiki"}, "GITHUB_LIKE_TOOLSETS: no toolset wiki; choose from"),
    ],
)
def test_an_unusable_mode_stops_the_server_with_one_line(
    bigapi_package: Path, upstream: GitHubLike, env: dict[str, str], message: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", MODULE],
        input=b"",
        capture_output=True,
        env=server_env(bigapi_package, upstream, **env),
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines
    assert done.stdout == b""


async def test_a_package_generated_in_toolsets_mode_starts_in_it(
    bigapi_spec: Path, tmp_path: Path, upstream: GitHubLike
) -> None:
    package = generate_package(
        bigapi_spec, tmp_path / "pkg", GenerateOptions(toolsets=("gists",), output_schemas="none")
    )
    async with Client(stdio(package, upstream), mode="auto") as client:
        tools = (await client.list_tools()).tools
        assert [t.name for t in tools] == [
            "gists_list",
            "gists_create",
            "gists_get",
            "gists_delete",
            "gists_star",
        ]
        assert all(tool.output_schema is None for tool in tools)
    async with Client(stdio(package, upstream, TOOL_MODE="dynamic"), mode="auto") as client:
        assert len((await client.list_tools()).tools) == 3


async def test_a_small_api_gets_full_mode_by_default(
    petstore_package: Path, upstream: GitHubLike
) -> None:
    env = {
        "PYTHONPATH": str(petstore_package / "src"),
        "PATH": server_env(petstore_package, upstream)["PATH"],
    }
    params = StdioServerParameters(command=sys.executable, args=["-m", "petstore_mcp"], env=env)
    async with Client(params, mode="auto") as client:
        names = [tool.name for tool in (await client.list_tools()).tools]
    assert len(names) == 20 and "search_operations" not in names
