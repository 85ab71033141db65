"""Generating for big APIs: tool modes and toolsets, compact schemas, catalog companions, inspect,
progress, and models only for the schemas the typed client names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from openapi2mcp.cli import main
from openapi2mcp.generate import GenerateOptions, generate
from templates.runtime.jsonschema import Validator
from tests.catalogs import catalog_from_files, pool_from_files

SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Zoo", "version": "1.0.0"},
    "servers": [{"url": "https://zoo.example"}],
    "tags": [{"name": "Big Cats", "description": "Lions and tigers."}],
    "paths": {
        "/cats/{id}": {
            "get": {
                "operationId": "getCat",
                "summary": "Get a cat",
                "tags": ["Big Cats"],
                "parameters": [
                    {
                        "name": "id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "integer", "minimum": 1, "examples": [7]},
                        "description": "The cat's id. " + "Very long text. " * 20,
                    }
                ],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Cat"}}
                        },
                    }
                },
            }
        },
        "/feed": {
            "post": {
                "operationId": "feed",
                "summary": "Feed the animals",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "title": "Feeding",
                                "properties": {
                                    "food": {"type": "string", "enum": ["meat", "fish"]},
                                    "grams": {"type": "integer", "maximum": 5000},
                                },
                                "required": ["food"],
                            }
                        }
                    },
                },
                "responses": {"204": {"description": "fed"}},
            }
        },
    },
    "components": {
        "schemas": {
            "Cat": {
                "type": "object",
                "properties": {
                    "id": {"type": "integer"},
                    "name": {"type": "string", "examples": ["Tom"]},
                    "owner": {"$ref": "#/components/schemas/Keeper"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "weight": {"type": ["number", "null"], "minimum": 0},
                },
                "required": ["id", "name"],
            },
            "Keeper": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
            },
            "Unused": {"type": "object", "properties": {"x": {"type": "string"}}},
        }
    },
}


@pytest.fixture
def spec_path(tmp_path: Path) -> Path:
    path = tmp_path / "zoo.yaml"
    path.write_text(yaml.safe_dump(SPEC), encoding="utf-8")
    return path


def files_of(spec_path: Path, **options: Any) -> dict[str, str]:
    return generate(str(spec_path), GenerateOptions(**options)).files


def catalog_of(files: dict[str, str]) -> dict[str, Any]:
    return catalog_from_files(files, "src/zoo_mcp/catalog.json")


def tools_of(files: dict[str, str]) -> dict[str, Any]:
    return {tool["name"]: tool for tool in catalog_of(files)["tools"]}


def test_input_schemas_keep_every_constraint_and_drop_examples_and_titles(
    spec_path: Path,
) -> None:
    tools = tools_of(files_of(spec_path, description_limit=40))
    cat_id = tools["get_cat"]["inputSchema"]["properties"]["id"]
    assert cat_id == {
        "type": "integer",
        "minimum": 1,
        "description": "The cat's id. Very long text. Very long…",
    }
    assert len(cat_id["description"]) == 40
    feed = tools["feed"]["inputSchema"]
    assert feed["properties"] == {
        "food": {"type": "string", "enum": ["meat", "fish"]},
        "grams": {"type": "integer", "maximum": 5000},
    }
    assert feed["required"] == ["food"] and feed["additionalProperties"] is False


def test_output_schemas_full_compact_and_none(spec_path: Path) -> None:
    full_files = files_of(spec_path, output_schemas="full")
    strict_full = catalog_of(full_files)["toolBindings"]["get_cat"]["outputSchemas"]["strict"]
    assert strict_full["$defs"]["Cat"]["properties"]["owner"] == {"$ref": "#/$defs/Keeper"}
    lenient_full = tools_of(full_files)["get_cat"]["outputSchema"]
    assert "required" not in lenient_full["$defs"]["Cat"]
    files = files_of(spec_path)
    compact = catalog_of(files)["toolBindings"]["get_cat"]["outputSchemas"]["strict"]
    assert compact == {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "name": {"type": "string"},
            "owner": {"type": "object"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "weight": {"anyOf": [{"type": "number"}, {"type": "null"}]},
        },
        "required": ["id", "name"],
    }
    # advertised by default: what real responses satisfy (no required, null below the root),
    # a nullable value spelled portably as anyOf with a null branch
    assert tools_of(files)["get_cat"]["outputSchema"] == {
        "type": "object",
        "properties": {
            "id": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "name": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "owner": {"anyOf": [{"type": "object"}, {"type": "null"}]},
            "tags": {
                "anyOf": [
                    {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
                    {"type": "null"},
                ]
            },
            "weight": {"anyOf": [{"type": "number"}, {"type": "null"}]},
        },
    }
    assert "outputSchema" not in tools_of(files_of(spec_path, output_schemas="none"))["get_cat"]
    # what conforms to the full schema conforms to the compact one, and to the lenient forms
    checks = [Validator(s) for s in (strict_full, compact, lenient_full)]
    checks.append(Validator(tools_of(files)["get_cat"]["outputSchema"]))
    for instance in (
        {"id": 1, "name": "Tom"},
        {"id": 1, "name": "Tom", "owner": {"name": "Ann"}, "weight": None, "extra": [1]},
        {"id": 1, "name": "Tom", "owner": {}, "weight": -1},
        {"id": "1"},
    ):
        if not checks[0].issues(instance):
            assert not any(check.issues(instance) for check in checks[1:]), instance
    assert checks[1].issues({"id": "1", "name": "Tom"})
    # what real APIs send: fields left out, nulls the spec does not allow
    assert not checks[2].issues({"owner": None, "tags": [None]})
    assert not checks[3].issues({"owner": None, "tags": [None]})


def test_toolsets_come_from_tags_and_auto_is_full_for_a_small_api(spec_path: Path) -> None:
    catalog = catalog_of(files_of(spec_path))
    assert catalog["toolMode"] == {"mode": "full", "toolsets": [], "autoThreshold": 60}
    assert catalog["toolsets"] == {
        "big-cats": {"tag": "Big Cats", "description": "Lions and tigers.", "tools": ["get_cat"]},
        "untagged": {"tag": "", "tools": ["feed"]},
    }
    assert [tool["name"] for tool in catalog["dynamicTools"]] == [
        "search_operations",
        "describe_operation",
        "call_operation",
    ]
    chosen = catalog_of(files_of(spec_path, toolsets=("big-cats",)))["toolMode"]
    assert chosen == {"mode": "toolsets", "toolsets": ["big-cats"], "autoThreshold": 60}
    assert catalog_of(files_of(spec_path, tool_mode="dynamic"))["toolMode"]["mode"] == "dynamic"


def test_companions_index_every_tool_line(spec_path: Path) -> None:
    files = files_of(spec_path)
    catalog = catalog_of(files)
    index = json.loads(files["src/zoo_mcp/catalog.index.json"])
    lines = files["src/zoo_mcp/catalog.tools.jsonl"].encode()
    assert index["toolNames"] == ["get_cat", "feed"]
    assert index["counts"] == {
        "tools": 2,
        "resources": 0,
        "resourceTemplates": 1,
        "prompts": 2,
        # the template variable's example (7) is offered by completion/complete
        "completions": True,
    }
    offsets = index["toolOffsets"]
    assert offsets[-1] == len(lines)
    pool = pool_from_files(files, "src/zoo_mcp/catalog.json")
    for position, tool in enumerate(catalog["tools"]):
        assert pool.loads(lines[offsets[position] : offsets[position + 1]]) == tool
    for key in ("server", "upstream", "instructions", "toolMode", "toolsets", "dynamicTools"):
        assert index[key] == catalog[key]


def test_models_only_for_the_schemas_the_typed_client_names(spec_path: Path) -> None:
    models = files_of(spec_path)["src/zoo_mcp/models.py"]
    assert "class Cat(" in models and "class Keeper(" in models
    assert "Unused" not in models


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def test_inspect_reports_every_mode(spec_path: Path) -> None:
    result = invoke("inspect", str(spec_path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = lines.index(
        "tools/list by tool mode (generated as full; tokens estimated, not counted by a tokenizer):"
    )
    modes = [line.split()[0:2] for line in lines[start + 1 :]]
    assert modes == [
        ["full", "2"],
        ["dynamic", "3"],
        ["code", "3"],
        ["toolsets", "untagged"],
        ["toolsets", "big-cats"],
    ]
    assert all("bytes" in line and "tokens" in line for line in lines[start + 1 :])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tool-mode", "toolsets"], "tool mode 'toolsets' needs the toolsets to expose"),
        (["--toolsets", "big-cats,dogs"], "unknown toolset(s) 'dogs'; the toolsets are the tags"),
        (["--tool-mode", "everything"], "Invalid value for '--tool-mode'"),
    ],
)
def test_unusable_mode_options_exit_2(
    spec_path: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    result = invoke("generate", str(spec_path), "-o", str(tmp_path / "out"), *args)
    assert result.exit_code == 2
    assert message in result.output
    assert not (tmp_path / "out").exists()


def test_progress_lines_when_asked_and_silence_for_a_small_spec(
    spec_path: Path, tmp_path: Path
) -> None:
    # ready to publish (license, registry name): nothing to warn about
    publishing = ("--license", "MIT", "--registry-name", "io.github.acme/zoo-mcp")
    quiet = invoke("generate", str(spec_path), "-o", str(tmp_path / "a"), *publishing)
    assert quiet.exit_code == 0
    assert quiet.output.splitlines() == [
        f"Generated zoo-mcp (2 tools, 0 resources, 1 resource templates, 2 prompts) in {tmp_path / 'a'}"
    ]
    shown = invoke("generate", str(spec_path), "-o", str(tmp_path / "b"), "--progress", *publishing)
    assert shown.exit_code == 0
    stages = [
        line.split("] ")[1].split(":")[0] for line in shown.output.splitlines() if "] " in line
    ]
    assert stages == ["load", "plan", "render", "format", "write"]
    assert "s in all" in shown.output
