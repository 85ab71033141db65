"""A PATCH body that is the schema a POST or PUT sends whole, or a JSON Merge Patch, requires
nothing of the change it describes (``ir/patch_bodies.py``).

Regression (PostgREST 12): ``PATCH /authors`` takes ``#/definitions/authors``, as ``POST /authors``
does, whose ``required`` lists every NOT NULL column; ``patch_authors`` refused a change of one
column ("'name' is a required property", or a whole ``body`` argument it had to nest) while the
API answers 204.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]

from openapi2mcp.generate import GenerateOptions, Generation, generate
from tests.catalogs import catalog_from_files

SPEC = """\
openapi: 3.0.3
info: {title: Shop, version: "1"}
servers: [{url: "http://127.0.0.1:9"}]
paths:
  /pets:
    post:
      operationId: addPet
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}
      responses: {"201": {description: made}}
  /pets/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    patch:
      operationId: changePet
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}
      responses: {"204": {description: changed}}
  /owners/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    patch:
      operationId: changeOwner
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: "#/components/schemas/OwnerChange"}}}
      responses: {"204": {description: changed}}
  /shops/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    patch:
      operationId: mergeShop
      requestBody:
        required: true
        content:
          application/merge-patch+json:
            schema:
              type: object
              required: [name, city]
              properties: {name: {type: string}, city: {type: string}}
      responses: {"204": {description: changed}}
components:
  schemas:
    Pet:
      type: object
      required: [name, species]
      properties:
        name: {type: string}
        species: {type: string, enum: [cat, dog]}
        notes: {type: string}
    OwnerChange:
      type: object
      required: [reason]
      properties: {reason: {type: string}, name: {type: string}}
"""


def _generated(tmp_path: Path) -> Generation:
    spec = tmp_path / "openapi.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    return generate(str(spec), GenerateOptions(tool_mode="full"))


def _schemas(generation: Generation) -> dict[str, Any]:
    [path] = [p for p in generation.files if p.endswith("/catalog.json")]
    catalog = catalog_from_files(generation.files, path)
    return {tool["name"]: tool["inputSchema"] for tool in catalog["tools"]}


def _valid(schema: dict[str, Any], arguments: dict[str, Any]) -> bool:
    return bool(jsonschema.Draft202012Validator(schema).is_valid(arguments))


def test_a_patch_of_a_whole_things_schema_takes_one_field(tmp_path: Path) -> None:
    schemas = _schemas(_generated(tmp_path))
    assert _valid(schemas["change_pet"], {"id": 7, "notes": "shy"})
    assert not _valid(schemas["change_pet"], {"id": 7, "species": "fish"})  # still typed
    assert not _valid(schemas["change_pet"], {"notes": "shy"})  # the path's id is still needed
    # the POST that sends a whole pet still requires what a pet needs
    assert not _valid(schemas["add_pet"], {"notes": "shy"})
    assert _valid(schemas["add_pet"], {"name": "Tom", "species": "cat"})


def test_a_merge_patch_takes_any_part_and_a_patch_of_its_own_keeps_its_required(
    tmp_path: Path,
) -> None:
    schemas = _schemas(_generated(tmp_path))
    assert _valid(schemas["merge_shop"], {"id": 1, "city": "Lyon"})
    assert not _valid(schemas["change_owner"], {"id": 1, "name": "Ann"})
    assert _valid(schemas["change_owner"], {"id": 1, "name": "Ann", "reason": "married"})


def test_each_relaxed_patch_body_is_said(tmp_path: Path) -> None:
    said = [
        (d.level, d.pointer, d.message)
        for d in _generated(tmp_path).report.diagnostics
        if d.code == "patch-body-partial"
    ]
    assert said == [
        (
            "info",
            "#/paths/~1pets~1{id}/patch/requestBody",
            "the PATCH body is the schema a POST or PUT sends whole: what that schema requires"
            " is not asked of a change",
        ),
        (
            "info",
            "#/paths/~1shops~1{id}/patch/requestBody",
            "the PATCH body is a JSON Merge Patch: what that schema requires is not asked of a"
            " change",
        ),
    ]


def _with(tmp_path: Path, extra: str, name: str) -> dict[str, Any]:
    spec = tmp_path / "openapi.yaml"
    spec.write_text(SPEC + extra, encoding="utf-8")
    generation = generate(str(spec), GenerateOptions(tool_mode="full"))
    [path] = [p for p in generation.files if p.endswith("/catalog.json")]
    tools = catalog_from_files(generation.files, path)["tools"]
    [schema] = [tool["inputSchema"] for tool in tools if tool["name"] == name]
    return schema


def test_fastapis_documents_mean_what_a_patch_requires(tmp_path: Path) -> None:
    # Airflow 3 (FastAPI): PATCH /variables/{key} takes the POST's VariableBody, and pydantic
    # answers 422 "Field required" to a body without key and value
    fastapi = """\
    HTTPValidationError:
      type: object
      properties: {detail: {type: array, items: {type: object}}}
"""
    schema = _with(tmp_path, fastapi, "change_pet")
    assert not _valid(schema, {"id": 7, "notes": "shy"})
    assert _valid(schema, {"id": 7, "name": "Tom", "species": "cat", "notes": "shy"})


def test_a_patch_with_a_field_mask_keeps_the_whole_bodys_required(tmp_path: Path) -> None:
    masked = SPEC.replace(
        "      operationId: changePet\n",
        "      operationId: changePet\n"
        "      parameters: [{name: update_mask, in: query, schema: {type: array, items: {type:"
        " string}}}]\n",
    )
    spec = tmp_path / "openapi.yaml"
    spec.write_text(masked, encoding="utf-8")
    generation = generate(str(spec), GenerateOptions(tool_mode="full"))
    schemas = _schemas(generation)
    assert not _valid(schemas["change_pet"], {"id": 7, "notes": "shy"})
    assert _valid(
        schemas["change_pet"],
        {"id": 7, "name": "Tom", "species": "cat", "notes": "shy", "update_mask": ["notes"]},
    )
    assert _valid(schemas["merge_shop"], {"id": 1, "city": "Lyon"})  # no mask: as before
