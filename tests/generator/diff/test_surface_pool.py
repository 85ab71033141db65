"""mcp-surface.json writes each component schema once, and ``diff`` stays exact.

Big APIs repeat the same components across hundreds of tools (Stripe's surface was 300 MB); the
surface pools them under ``$defs.input``/``$defs.output``. A diff read from two surface files must
say exactly what a diff of the two specs says, and a format 2 file (``$defs`` in every schema) must
still be readable.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from openapi2mcp.diff.compare import diff_sources
from openapi2mcp.diff.surface import standalone
from openapi2mcp.generate import GenerateOptions, generate


def spec(pet: dict[str, Any]) -> dict[str, Any]:
    ref = {"$ref": "#/components/schemas/Pet"}
    ok = {"200": {"description": "ok", "content": {"application/json": {"schema": ref}}}}
    paths: dict[str, Any] = {}
    for index in range(5):
        paths[f"/pets{index}"] = {
            "get": {"operationId": f"getPet{index}", "responses": ok},
            "put": {
                "operationId": f"putPet{index}",
                "requestBody": {"required": True, "content": {"application/json": {"schema": ref}}},
                "responses": ok,
            },
        }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Pets", "version": "1"},
        "paths": paths,
        "components": {"schemas": {"Pet": pet, "Tag": {"type": "string", "maxLength": 9}}},
    }


OLD_PET = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "id": {"type": "integer", "readOnly": True},
        "tag": {"$ref": "#/components/schemas/Tag"},
    },
}
NEW_PET = copy.deepcopy(OLD_PET) | {"required": ["name"]}


def surface_file(where: Path, document: dict[str, Any]) -> Path:
    where.mkdir()
    path = where / "openapi.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = where / "mcp-surface.json"
    out.write_text(generate(str(path), GenerateOptions()).files["mcp-surface.json"], "utf-8")
    return out


def test_components_are_written_once_and_by_direction(tmp_path: Path) -> None:
    surface = json.loads(surface_file(tmp_path / "a", spec(OLD_PET)).read_text("utf-8"))
    assert surface["format"] == 3
    # the body is flattened into arguments (no readOnly id among them); its Tag is pooled
    assert surface["$defs"]["input"] == {"Tag": {"maxLength": 9, "type": "string"}}
    assert set(surface["$defs"]["output"]["Pet"]["properties"]) == {"id", "name", "tag"}
    tools = [item for item in surface["items"] if item["kind"] == "tool"]
    assert len(tools) == 10
    assert not any(
        "$defs" in tool[key] for tool in tools for key in ("inputSchema", "outputSchema")
    )
    whole = standalone(surface)
    [put] = [item for item in whole["items"] if item["name"] == "put_pet0"]
    assert put["inputSchema"]["$defs"] == surface["$defs"]["input"]
    assert put["outputSchema"]["$defs"] == surface["$defs"]["output"]


def test_a_diff_of_surface_files_says_what_a_diff_of_the_specs_says(tmp_path: Path) -> None:
    old_spec, new_spec = tmp_path / "old.json", tmp_path / "new.json"
    old_spec.write_text(json.dumps(spec(OLD_PET)), "utf-8")
    new_spec.write_text(json.dumps(spec(NEW_PET)), "utf-8")
    from_specs = diff_sources(str(old_spec), str(new_spec))
    from_files = diff_sources(
        str(surface_file(tmp_path / "a", spec(OLD_PET))),
        str(surface_file(tmp_path / "b", spec(NEW_PET))),
    )
    assert from_files.changes == from_specs.changes
    assert len(from_specs.breaking) == 5  # each put_petN now needs 'name'


def test_a_format_2_surface_is_still_read(tmp_path: Path) -> None:
    pooled = json.loads(surface_file(tmp_path / "a", spec(OLD_PET)).read_text("utf-8"))
    old = tmp_path / "old-surface.json"
    old.write_text(json.dumps({**standalone(pooled), "format": 2}), "utf-8")
    new = surface_file(tmp_path / "b", spec(NEW_PET))
    assert len(diff_sources(str(old), str(new)).breaking) == 5


def inlined(pet: dict[str, Any]) -> dict[str, Any]:
    """``spec(pet)`` as a dereferenced document: every schema inline, no components."""
    document = spec(pet)
    schemas = document.pop("components")["schemas"]

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                return resolve(schemas[ref.rsplit("/", 1)[1]])
            return {key: resolve(value) for key, value in node.items()}
        if isinstance(node, list):
            return [resolve(item) for item in node]
        return node

    resolved: dict[str, Any] = resolve(document)
    return resolved


BIG_PET = {
    **OLD_PET,
    "description": "A pet of the store, with every detail the store keeps about it. " * 4,
}


def test_a_dereferenced_spec_writes_each_repeated_inline_schema_once(tmp_path: Path) -> None:
    text = surface_file(tmp_path / "a", inlined(BIG_PET)).read_text("utf-8")
    surface = json.loads(text)
    assert surface["$defs"] == {"input": {}, "output": {}}  # no components to pool by name
    # the pet's description would be written 10 times (5 outputs of GET, 5 of PUT) inline
    assert text.count("every detail the store keeps") == 4  # once, in one shared schema
    [(name, pet)] = [
        (name, shared) for name, shared in surface["$shared"].items() if "properties" in shared
    ]
    assert set(pet["properties"]) == {"id", "name", "tag"}
    tools = [item for item in surface["items"] if item["kind"] == "tool"]
    assert {json.dumps(tool["outputSchema"]) for tool in tools} == {json.dumps({"$shared": name})}
    whole = standalone(surface)
    [get] = [
        item for item in whole["items"] if item["name"] == "get_pet0" and "outputSchema" in item
    ]
    assert get["outputSchema"]["properties"]["tag"] == {"maxLength": 9, "type": "string"}
    assert "$shared" not in json.dumps(whole)


def test_a_diff_of_dereferenced_surface_files_says_what_a_diff_of_the_specs_says(
    tmp_path: Path,
) -> None:
    new_pet = copy.deepcopy(BIG_PET) | {"required": ["name"]}
    old_spec, new_spec = tmp_path / "old.json", tmp_path / "new.json"
    old_spec.write_text(json.dumps(inlined(BIG_PET)), "utf-8")
    new_spec.write_text(json.dumps(inlined(new_pet)), "utf-8")
    from_specs = diff_sources(str(old_spec), str(new_spec))
    from_files = diff_sources(
        str(surface_file(tmp_path / "a", inlined(BIG_PET))),
        str(surface_file(tmp_path / "b", inlined(new_pet))),
    )
    assert from_files.changes == from_specs.changes
    assert len(from_specs.breaking) == 5
