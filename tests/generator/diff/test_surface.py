"""`mcp-surface.json` (format 3): every item with its operation, annotations and normalised schemas;
component schemas pooled once, and each schema whole again through ``standalone``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from openapi2mcp.diff.surface import normalise_schema, standalone, surface
from openapi2mcp.generate import GenerateOptions, generate, plan_source

SPEC = """\
openapi: 3.1.0
info: {title: Zoo, version: "2.1"}
servers: [{url: "https://zoo.example.com"}]
tags: [{name: animals, description: The animals}]
paths:
  /animals:
    get:
      operationId: listAnimals
      tags: [animals]
      summary: List animals
      parameters:
        - {name: kind, in: query, schema: {$ref: "#/components/schemas/Kind"}}
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Animal"}}}}
  /animals/{id}:
    get:
      operationId: getAnimal
      tags: [animals]
      summary: Get an animal
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {$ref: "#/components/schemas/Animal"}}}
    delete:
      tags: [animals]
      summary: Remove an animal
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses: {"204": {description: gone}}
components:
  schemas:
    Kind: {type: string, enum: [cat, dog]}
    Animal:
      type: object
      required: [name, id]
      properties:
        name: {type: string}
        id: {type: integer}
        kind: {$ref: "#/components/schemas/Kind"}
"""

KIND = {"enum": ["cat", "dog"], "type": "string"}
ANIMAL = {
    "properties": {
        "id": {"type": "integer"},
        "kind": {"$ref": "#/$defs/Kind"},
        "name": {"type": "string"},
    },
    "required": ["id", "name"],
    "type": "object",
}
READ = {
    "destructiveHint": False,
    "idempotentHint": True,
    "openWorldHint": True,
    "readOnlyHint": True,
}


def zoo_surface(tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "zoo.yaml"
    path.write_text(SPEC)
    plan, _ = plan_source(str(path), GenerateOptions())
    pooled = surface(plan)
    assert pooled["$defs"] == {"input": {"Kind": KIND}, "output": {"Animal": ANIMAL, "Kind": KIND}}
    whole: dict[str, Any] = standalone(pooled)
    return whole


def test_surface_records_every_item_with_operation_annotations_and_schemas(tmp_path: Path) -> None:
    document = zoo_surface(tmp_path)
    assert (document["format"], document["server"], document["version"]) == (3, "zoo-mcp", "2.1")
    assert [(i["kind"], i["name"]) for i in document["items"]] == [
        ("tool", "delete_animals_id"),
        ("tool", "get_animal"),
        ("tool", "list_animals"),
        ("resource", "list_animals"),
        ("resource_template", "get_animal"),
        ("prompt", "animals_workflow"),
    ]
    deleting, getting, listing, resource, template, prompt = document["items"]
    assert deleting == {
        "annotations": {
            "destructiveHint": True,
            "idempotentHint": True,
            "openWorldHint": True,
            "readOnlyHint": False,
            "title": "Remove an animal",
        },
        "description": "Remove an animal",
        "inputSchema": {
            "additionalProperties": False,
            "properties": {"id": {"type": "integer"}},
            "required": ["id"],
            "type": "object",
        },
        "kind": "tool",
        "name": "delete_animals_id",
        "operation": "DELETE /animals/{id}",
        "title": "Remove an animal",
    }
    assert getting["operationId"] == "getAnimal"
    assert getting["annotations"] == {**READ, "title": "Get an animal"}
    # standalone: $defs are back in each schema, so it stands alone; required lists are sorted
    assert getting["outputSchema"] == {
        "$defs": {"Animal": ANIMAL, "Kind": KIND},
        "$ref": "#/$defs/Animal",
    }
    assert listing["inputSchema"]["properties"]["kind"] == {"$ref": "#/$defs/Kind"}
    assert listing["inputSchema"]["$defs"] == {"Kind": KIND}
    assert resource == {
        "description": "List animals",
        "kind": "resource",
        "mimeType": "application/json",
        "name": "list_animals",
        "operation": "GET /animals",
        "operationId": "listAnimals",
        "title": "List animals",
        "uri": "zoo://animals",
    }
    assert template["uriTemplate"] == "zoo://animals/{id}"
    assert template["operationId"] == "getAnimal"
    assert prompt == {
        "arguments": [
            {"description": "What you want to achieve", "name": "goal", "required": True}
        ],
        "description": "The animals",
        "kind": "prompt",
        "name": "animals_workflow",
        "title": "Zoo: animals",
    }


def assert_keys_sorted(value: Any) -> None:
    if isinstance(value, dict):
        assert list(value) == sorted(value)
        for inner in value.values():
            assert_keys_sorted(inner)
    elif isinstance(value, list):
        for inner in value:
            assert_keys_sorted(inner)


def test_generated_surface_file_is_deterministic_sorted_and_lf(tmp_path: Path) -> None:
    path = tmp_path / "zoo.yaml"
    path.write_text(SPEC)
    first = generate(str(path), GenerateOptions()).files["mcp-surface.json"]
    second = generate(str(path), GenerateOptions()).files["mcp-surface.json"]
    assert first == second
    assert "\r" not in first and first.endswith("}\n")
    document = json.loads(first)
    assert_keys_sorted(document)
    assert standalone(document) == zoo_surface(tmp_path)


def test_schemas_are_normalised_only_in_schema_positions() -> None:
    schema = {
        "type": ["string", "null"],
        "required": ["b", "a", "b"],
        "properties": {"x": {"type": "object", "required": ["z", "y"]}},
        "anyOf": [{"required": ["d", "c"]}],
        "$defs": {"T": {"items": {"type": ["null", "integer"]}}},
        # data, not schemas: left exactly as written
        "default": {"required": ["b", "a"]},
        "examples": [{"type": ["b", "a"]}],
        "enum": ["z", "a"],
    }
    assert normalise_schema(schema) == {
        "type": ["null", "string"],
        "required": ["a", "b"],
        "properties": {"x": {"type": "object", "required": ["y", "z"]}},
        "anyOf": [{"required": ["c", "d"]}],
        "$defs": {"T": {"items": {"type": ["integer", "null"]}}},
        "default": {"required": ["b", "a"]},
        "examples": [{"type": ["b", "a"]}],
        "enum": ["z", "a"],
    }
