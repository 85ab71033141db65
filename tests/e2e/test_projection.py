"""Lean results end to end: the official MCP client selects parts of responses with ``_select``.

A generated Petstore runs over stdio against the fake Petstore on 127.0.0.1, which records what
reached the API. Both eras (2026-07-28 through ``mode="auto"``, 2025-11-25 through ``legacy``): read
tools take ``_select`` (a JMESPath expression) and return only what it picks, as text and as the
structured content the client validates against the advertised output schema; the expression never
reaches the API, a malformed one sends nothing, a write tool does not take it; in dynamic mode
``call_operation`` takes it for read operations; ``[tools] select_argument = false`` removes it.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from openapi2mcp.diagnostics import GenerationError
from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.conftest import PETSTORE_SPEC
from tests.e2e.helpers import stdio_params

ERAS = ["auto", "legacy"]
NAMES = [{"id": 1, "name": "Rex"}, {"id": 2, "name": "Whiskers"}, {"id": 3, "name": "Bubbles"}]


def _generate(where: Path, options: GenerateOptions) -> Path:
    out = where / "petstore-mcp"
    write_tree(generate(str(PETSTORE_SPEC), options).files, out, force=False, marker=MARKER)
    return out


@pytest.fixture(scope="module")
def dynamic_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _generate(tmp_path_factory.mktemp("dynamic"), GenerateOptions(tool_mode="dynamic"))


@pytest.fixture(scope="module")
def plain_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generated with a config file that turns the selection argument off."""
    where = tmp_path_factory.mktemp("plain")
    config = where / "openapi2mcp.toml"
    config.write_text("[tools]\nselect_argument = false\n", encoding="utf-8")
    return _generate(where, GenerateOptions(config_path=config))


def text_of(result: Any) -> list[str]:
    return [block.text for block in result.content]


@pytest.mark.parametrize("mode", ERAS)
async def test_list_pets_returns_only_the_selected_fields(
    petstore_package: Path, fake_petstore: Any, mode: str
) -> None:
    params = stdio_params(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode=mode) as client:
        fake_petstore.clear()
        result = await client.call_tool(
            "list_pets", {"limit": 3, "_select": "[].{id: id, name: name}"}
        )
    assert not result.is_error, result
    assert text_of(result) == [json.dumps(NAMES, separators=(",", ":"))]
    # the client checked it against the advertised output schema; legacy wraps arrays
    assert result.structured_content == (NAMES if mode == "auto" else {"result": NAMES})
    (sent,) = fake_petstore.requests  # the expression never reaches the API
    assert (sent.method, sent.raw_path, sent.query_params) == ("GET", "/v1/pets", [("limit", "3")])


@pytest.mark.parametrize("mode", ERAS)
async def test_a_value_picked_from_an_object_comes_under_result(
    petstore_package: Path, fake_petstore: Any, mode: str
) -> None:
    params = stdio_params(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode=mode) as client:
        name = await client.call_tool("get_pet_by_id", {"petId": 4, "_select": "name"})
        fields = await client.call_tool(
            "get_pet_by_id", {"petId": 4, "_select": "{name: name, tags: tags[].name}"}
        )
        unselected = await client.call_tool("get_pet_by_id", {"petId": 4})
    assert text_of(name) == ['"Tweety"']
    assert name.structured_content == {"result": "Tweety"}
    assert fields.structured_content == {"name": "Tweety", "tags": ["friendly", "noisy"]}
    # without a selection nothing changes: the pet, as the API sent it
    assert unselected.structured_content is not None
    assert unselected.structured_content["name"] == "Tweety"
    assert set(unselected.structured_content) >= {"id", "category", "status", "photoUrls"}


@pytest.mark.parametrize("mode", ERAS)
async def test_a_malformed_expression_sends_nothing(
    petstore_package: Path, fake_petstore: Any, mode: str
) -> None:
    params = stdio_params(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode=mode) as client:
        fake_petstore.clear()
        result = await client.call_tool("list_pets", {"_select": "[].{id: id"})
    assert result.is_error
    assert text_of(result) == [
        "Invalid arguments for tool 'list_pets':\n"
        "- _select: is not a valid JMESPath expression: Invalid jmespath expression: Incomplete "
        'expression: "[].{id: id" ^\n'
        "Nothing was sent to the API."
    ]
    assert fake_petstore.requests == []


@pytest.mark.parametrize("mode", ERAS)
async def test_write_tools_take_no_selection(
    petstore_package: Path, fake_petstore: Any, mode: str
) -> None:
    params = stdio_params(petstore_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode=mode) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        fake_petstore.clear()
        result = await client.call_tool("create_pet", {"name": "Biscuit", "_select": "id"})
    assert "_select" in tools["list_pets"].input_schema["properties"]
    assert "_select" not in tools["create_pet"].input_schema["properties"]
    assert tools["list_pets"].description.endswith(
        "Optional `_select`: a JMESPath expression picking what to return from the JSON "
        "response, e.g. `[].{id: id, name: name}`."
    )
    assert result.is_error
    assert text_of(result) == [
        "Tool 'create_pet' does not take _select: only read-only tools that return JSON do. "
        "Nothing was sent to the API."
    ]
    assert fake_petstore.requests == []


@pytest.mark.parametrize("mode", ERAS)
async def test_call_operation_selects_for_read_operations(
    dynamic_package: Path, fake_petstore: Any, mode: str
) -> None:
    params = stdio_params(dynamic_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode=mode) as client:
        (call,) = [t for t in (await client.list_tools()).tools if t.name == "call_operation"]
        fake_petstore.clear()
        outer = await client.call_tool(
            "call_operation",
            {"name": "list_pets", "arguments": {"limit": 3}, "_select": "[].name"},
        )
        inner = await client.call_tool(
            "call_operation",
            {"name": "list_pets", "arguments": {"limit": 3, "_select": "[].name"}},
        )
        refused = await client.call_tool(
            "call_operation", {"name": "delete_pet", "arguments": {"petId": 1}, "_select": "id"}
        )
    assert "_select" in call.input_schema["properties"]
    for result in (outer, inner):
        assert text_of(result) == [
            "Operation list_pets (GET /pets):",
            '["Rex","Whiskers","Bubbles"]',
        ]
    assert refused.is_error
    assert text_of(refused) == [
        "Operation 'delete_pet' does not take _select: only read-only operations that return "
        "JSON do. Nothing was sent to the API."
    ]
    assert [(r.method, r.raw_path, r.query_params) for r in fake_petstore.requests] == [
        ("GET", "/v1/pets", [("limit", "3")])
    ] * 2


@pytest.mark.parametrize("mode", ERAS)
async def test_the_config_switch_removes_the_argument(
    plain_package: Path, fake_petstore: Any, mode: str
) -> None:
    params = stdio_params(plain_package, fake_petstore.base_url, fake_petstore.api_key)
    async with Client(params, mode=mode) as client:
        tools = (await client.list_tools()).tools
        fake_petstore.clear()
        result = await client.call_tool("list_pets", {"_select": "[].name"})
    assert [t.name for t in tools if "_select" in t.input_schema["properties"]] == []
    assert all("_select" not in (t.description or "") for t in tools)
    assert result.is_error and fake_petstore.requests == []
    pyproject = tomllib.loads((plain_package / "pyproject.toml").read_text(encoding="utf-8"))
    assert not any(dep.startswith("jmespath") for dep in pyproject["project"]["dependencies"])


def test_an_api_with_its_own_select_argument_gets_another_name(tmp_path: Path) -> None:
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "Rows", "version": "1"},
        "servers": [{"url": "https://rows.example.com"}],
        "paths": {
            "/rows": {
                "get": {
                    "operationId": "list_rows",
                    "parameters": [
                        {"name": "_select", "in": "query", "schema": {"type": "string"}}
                    ],
                    "responses": {
                        "200": {
                            "description": "rows",
                            "content": {"application/json": {"schema": {"type": "array"}}},
                        }
                    },
                }
            }
        },
    }
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    files = generate(str(path), GenerateOptions()).files
    index = json.loads(files["src/rows_mcp/catalog.index.json"])
    (tool,) = (json.loads(line) for line in files["src/rows_mcp/catalog.tools.jsonl"].splitlines())
    assert index["selectArgument"] == "_jmespath"
    assert list(tool["inputSchema"]["properties"]) == ["_select", "_jmespath"]
    assert tool["description"] == (
        "Optional `_jmespath`: a JMESPath expression picking what to return from the JSON "
        "response, e.g. `[:5]`."
    )


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"select_argument": "maybe"}, "tools.select_argument: Input should be a valid boolean"),
        ({"select_arguments": False}, "unknown key 'tools.select_arguments'; did you mean"),
    ],
)
def test_the_config_switch_is_checked(tmp_path: Path, table: dict[str, Any], message: str) -> None:
    config = tmp_path / "openapi2mcp.toml"
    lines = [f"{key} = {json.dumps(value)}" for key, value in table.items()]
    config.write_text("[tools]\n" + "\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(GenerationError, match=re.escape(message)):
        generate(str(PETSTORE_SPEC), GenerateOptions(config_path=config))
