"""Schemas without ``type`` whose keywords say what they are (most Swagger 2.0 definitions).

Regression (issue 15): Swagger 2.0 definitions with ``properties`` but no ``type: object`` got the
output schema ``{"result": {}}`` (nothing but an untyped root, wrapped for legacy clients), so their
fields were not described, and such a request body was not flattened into arguments. An untyped
schema with object keywords (``properties``, ``additionalProperties``, ``patternProperties``,
``required``) is now an object, and one with ``items`` an array — except beside ``anyOf``/``oneOf``
(whose branches may be of other types) and for a bare ``required`` inside an applicator, which is a
constraint on its parent.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.ir.schemas import SchemaNormaliser
from openapi2mcp.load.reading import LoadedDocument
from openapi2mcp.load.refs import ROOT, Resolver
from tests.catalogs import catalog_from_files

SWAGGER = """\
swagger: "2.0"
info: {title: Untyped, version: "1.0"}
host: api.example.com
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters: [{name: id, in: path, required: true, type: string}]
      responses:
        "200": {description: ok, schema: {$ref: "#/definitions/Pet"}}
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: ok, schema: {items: {$ref: "#/definitions/Pet"}}}
    post:
      operationId: createPet
      parameters: [{name: body, in: body, required: true, schema: {$ref: "#/definitions/NewPet"}}]
      responses:
        "201": {description: ok, schema: {$ref: "#/definitions/Pet"}}
definitions:
  Pet:
    required: [id]
    properties:
      id: {type: string}
      name: {type: string}
      tags: {items: {type: string}}
  NewPet:
    required: [name]
    properties:
      name: {type: string}
"""


def _generated(tmp_path: Path) -> dict[str, str]:
    spec = tmp_path / "swagger.yaml"
    spec.write_text(SWAGGER)
    return generate(str(spec), GenerateOptions(tool_mode="full")).files


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """A lenient output schema's value that may also be ``null``, as the catalog spells it."""
    return {"anyOf": [schema, {"type": "null"}]}


def _tools(files: dict[str, str]) -> dict[str, Any]:
    catalog = catalog_from_files(files, "src/untyped_mcp/catalog.json")
    return {tool["name"]: tool for tool in catalog["tools"]}


def test_swagger_definitions_without_type_describe_their_fields(tmp_path: Path) -> None:
    tools = _tools(_generated(tmp_path))
    pet = {
        "type": "object",
        "properties": {
            "id": _nullable({"type": "string"}),
            "name": _nullable({"type": "string"}),
            "tags": _nullable({"type": "array", "items": _nullable({"type": "string"})}),
        },
    }
    assert tools["get_pet"]["outputSchema"] == pet
    assert tools["create_pet"]["outputSchema"] == pet
    assert tools["list_pets"]["outputSchema"] == {
        "type": "array",
        "items": _nullable({"type": "object"}),
    }


def test_an_untyped_request_body_with_properties_is_flattened(tmp_path: Path) -> None:
    tools = _tools(_generated(tmp_path))
    assert tools["create_pet"]["inputSchema"] == {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": False,
    }


def test_an_untyped_definition_becomes_a_model(tmp_path: Path) -> None:
    models = _generated(tmp_path)["src/untyped_mcp/models.py"]
    assert (
        "class Pet(BaseModel):\n"
        "    id: str\n"
        "    name: str | None = None\n"
        "    tags: list[str] | None = None\n"
    ) in models


def _normalise(schema: Any) -> Any:
    doc = LoadedDocument(
        data={"openapi": "3.1.0", "components": {"schemas": {}}},
        raw=b"",
        base_dir=None,
        name="<test>",
        sha256="",
    )
    return SchemaNormaliser(Resolver(doc, Report())).normalise(schema, ROOT, "input")


@pytest.mark.parametrize(
    ("schema", "normalised"),
    [
        ({"properties": {"a": {}}}, {"properties": {"a": {}}, "type": "object"}),
        ({"additionalProperties": False}, {"additionalProperties": False, "type": "object"}),
        ({"required": ["a"]}, {"required": ["a"], "type": "object"}),
        ({"items": {"type": "string"}}, {"items": {"type": "string"}, "type": "array"}),
        ({"prefixItems": [{}]}, {"prefixItems": [{}], "type": "array"}),
        # alternatives of other types, a value list, a reference: no type is guessed
        (
            {"anyOf": [{"type": "string"}], "properties": {}},
            {"anyOf": [{"type": "string"}], "properties": {}},
        ),
        ({"enum": [{"a": 1}], "properties": {}}, {"enum": [{"a": 1}], "properties": {}}),
        # both object and array keywords: ambiguous
        ({"items": {}, "properties": {}}, {"items": {}, "properties": {}}),
        # a bare `required` in an applicator constrains its parent
        (
            {"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
            {"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
        ),
        (
            {"type": "object", "not": {"required": ["a"]}},
            {"type": "object", "not": {"required": ["a"]}},
        ),
        # nullable (3.0) keeps the inferred type and admits null
        (
            {"properties": {"a": {"properties": {}, "nullable": True}}},
            {"properties": {"a": {"properties": {}, "type": ["object", "null"]}}, "type": "object"},
        ),
    ],
)
def test_untyped_schemas_get_the_type_their_keywords_imply(schema: Any, normalised: Any) -> None:
    assert _normalise(schema) == normalised


def test_a_nested_untyped_items_schema_is_an_array(tmp_path: Path) -> None:
    spec = tmp_path / "openapi.yaml"
    spec.write_text(
        dedent(
            """\
            openapi: 3.0.3
            info: {title: Lists, version: "1"}
            servers: [{url: "https://api.example.com"}]
            paths:
              /a:
                get:
                  operationId: a
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema: {items: {properties: {x: {type: integer}}}}
            """
        )
    )
    files = generate(str(spec), GenerateOptions(tool_mode="full")).files
    catalog = catalog_from_files(files, "src/lists_mcp/catalog.json")
    assert catalog["tools"][0]["outputSchema"] == {
        "type": "array",
        "items": _nullable({"type": "object"}),
    }
