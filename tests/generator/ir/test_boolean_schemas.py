"""JSON Schema boolean subschemas (``true``/``false``, legal anywhere a schema stands in OpenAPI 3.1).

Regression (issue 15): ``items: true`` or a property schema ``false`` crashed ``schema_utils.resolve``
with ``AttributeError: 'bool' object has no attribute 'get'``. Normalisation now gives every boolean
subschema its object form (``true`` → ``{}``, ``false`` → ``{"not": {}}``; a ``true`` member of
``allOf`` is dropped) except where a boolean is the idiom (``additionalProperties``,
``unevaluatedProperties``, ``unevaluatedItems``), and a property whose schema is ``false`` (it may never
be sent) is dropped from the tool's input with a diagnostic.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from textwrap import dedent
from typing import Any

from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.ir.parse import parse_api
from openapi2mcp.ir.schema_utils import enum_values, json_type, resolve
from openapi2mcp.load.reading import load_source
from openapi2mcp.render.emit import ruff_command, write_tree
from openapi2mcp.render.package import MARKER
from openapi2mcp.render.portable import ANY_VALUE
from tests.catalogs import catalog_from_files

SPEC = """\
openapi: 3.1.0
info: {title: Bool API, version: "1.0"}
servers: [{url: "https://api.example.com"}]
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - {name: q, in: query, schema: true}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Thing"}}
    post:
      operationId: createThing
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name, secret]
              properties:
                name: {type: string}
                secret: false
                anything: true
                tags: {type: array, items: true}
                pair: {type: array, prefixItems: [{type: string}, true], items: false}
                combo: {allOf: [true, {type: string}]}
                either: {anyOf: [true, {type: integer}]}
                never: {$ref: "#/components/schemas/Never"}
              additionalProperties: false
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Thing"}
components:
  schemas:
    Thing:
      type: object
      properties:
        id: {type: string}
        extra: true
        gone: false
        meta: {allOf: [true, {$ref: "#/components/schemas/Meta"}]}
      additionalProperties: true
    Meta: true
    Never: false
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "openapi.yaml"
    path.write_text(dedent(text))
    return path


def _tools(files: dict[str, str]) -> dict[str, Any]:
    catalog_path = next(p for p in files if p.endswith("/catalog.json"))
    return {tool["name"]: tool for tool in catalog_from_files(files, catalog_path)["tools"]}


def test_boolean_subschemas_no_longer_crash_generation(tmp_path: Path) -> None:
    result = generate(str(_write(tmp_path, SPEC)), GenerateOptions(tool_mode="full"))
    body_at = "#/paths/~1things/post/requestBody/content/application~1json/schema"
    assert [
        (d.level, d.code, d.pointer, d.message)
        for d in result.report.diagnostics
        if d.code.startswith("property-")
    ] == [
        (
            "info",
            "property-forbidden",
            f"{body_at}/properties/secret",
            "property 'secret' has the schema false (it may never be sent or received); dropped",
        ),
        (
            "warning",
            "property-forbidden-required",
            f"{body_at}/properties/secret",
            "property 'secret' is required, but its schema is false (it may never be present);"
            " it is not required here",
        ),
        (
            "info",
            "property-forbidden",
            "#/components/schemas/Thing/properties/gone",
            "property 'gone' has the schema false (it may never be sent or received); dropped",
        ),
    ]
    tools = _tools(result.files)
    # the catalog spells "any value" portably (render/portable.py)
    assert tools["create_thing"]["inputSchema"]["properties"] == {
        "name": {"type": "string"},
        "anything": ANY_VALUE,
        "tags": {"type": "array", "items": ANY_VALUE},
        "pair": {
            "type": "array",
            "prefixItems": [{"type": "string"}, ANY_VALUE],
            "items": {"not": {}},
        },
        "combo": {"allOf": [{"type": "string"}]},
        "either": {"anyOf": [*ANY_VALUE["anyOf"], {"type": "integer"}]},
        "never": {"$ref": "#/$defs/Never"},
    }
    assert tools["create_thing"]["inputSchema"]["required"] == ["name"]
    # q, and the JMESPath selection every read tool takes (runtime protocol/projection.py)
    assert list(tools["list_things"]["inputSchema"]["properties"]) == ["q", "_select"]
    assert tools["list_things"]["inputSchema"]["properties"]["q"] == ANY_VALUE
    assert tools["create_thing"]["outputSchema"] == {
        "type": "object",
        "properties": {
            "id": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "extra": ANY_VALUE,
            "meta": ANY_VALUE,
        },
    }


def test_the_package_from_boolean_schemas_passes_its_own_lint(tmp_path: Path) -> None:
    result = generate(str(_write(tmp_path, SPEC)), GenerateOptions())
    out = tmp_path / "out"
    write_tree(result.files, out, force=False, marker=MARKER)
    for args in (["check", "--no-cache", "."], ["format", "--no-cache", "--check", "."]):
        done = subprocess.run(
            [*ruff_command(), *args], cwd=out, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_definitions_that_are_booleans_become_their_object_forms(tmp_path: Path) -> None:
    api = parse_api(load_source(str(_write(tmp_path, SPEC))), Report())
    assert api.input_schemas["Meta"] == {}
    assert api.input_schemas["Never"] == {"not": {}}
    assert api.output_schemas["Thing"] == {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "extra": {},
            "meta": {"allOf": [{"$ref": "#/$defs/Meta"}]},
        },
        "additionalProperties": True,
    }


def test_schema_utils_read_a_boolean_schema_as_its_object_form() -> None:
    defs = {"Any": True, "None": False}
    assert resolve(True, {}) == {}  # type: ignore[arg-type]
    assert resolve(False, {}) == {"not": {}}  # type: ignore[arg-type]
    assert resolve({"$ref": "#/$defs/None", "description": "d"}, defs) == {  # type: ignore[arg-type]
        "not": {},
        "description": "d",
    }
    assert json_type(True, {}) == ""  # type: ignore[arg-type]
    assert enum_values(False, {}) == ()  # type: ignore[arg-type]
