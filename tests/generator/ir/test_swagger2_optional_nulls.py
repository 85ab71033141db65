"""In a Swagger 2.0 document, an optional property takes null in what a tool takes.

Regression (PostgREST 12): Swagger 2.0 cannot say that a value may be null, so PostgREST's
nullable columns (``price``, ``bio``, ``gift``) are plain ``type: number`` (``string``,
``boolean``) properties, and ``patch_books {"body": {..., "price": null}}`` was refused locally
(null is not of type "number") while PostgREST stores NULL. For a document converted from Swagger
2.0 that says nothing of nulls (no ``x-nullable`` anywhere), an optional property of an input
admits null, spelled as a 3.0 ``nullable: true`` is; required ones do not (PostgREST's NOT NULL
columns), also when a default makes them optional. A document that uses ``x-nullable`` says which
values may be null itself and is read as it says; responses are not concerned (they are lenient
about nulls already).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]

from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, Generation, generate
from openapi2mcp.ir.parse import parse_api
from openapi2mcp.load.reading import load_source
from tests.catalogs import catalog_from_files

# PostgREST 12's document for one table (trimmed): a PATCH whose row filters share the columns'
# names (the body's are named `body_<column>` there) and a POST whose body is flattened
POSTGREST = """\
swagger: "2.0"
info: {title: PostgREST API, version: 12.0.2}
host: 127.0.0.1:3300
basePath: /
schemes: [http]
consumes: [application/json]
produces: [application/json]
paths:
  /books:
    post:
      tags: [books]
      parameters: [{$ref: "#/parameters/body.books"}]
      responses: {"201": {description: Created}}
    patch:
      tags: [books]
      parameters:
        - {$ref: "#/parameters/rowFilter.books.id"}
        - {$ref: "#/parameters/rowFilter.books.price"}
        - {$ref: "#/parameters/body.books"}
      responses: {"204": {description: No Content}}
parameters:
  body.books:
    {name: books, description: books, required: false, in: body,
     schema: {$ref: "#/definitions/books"}}
  rowFilter.books.id: {name: id, required: false, format: integer, in: query, type: string}
  rowFilter.books.price: {name: price, required: false, format: numeric, in: query, type: string}
definitions:
  books:
    description: Books in the catalogue
    required: [id, title, in_stock]
    properties:
      id: {description: "Note:\\nThis is a Primary Key.<pk/>", format: integer, type: integer}
      title: {format: text, type: string}
      price: {format: numeric, type: number}
      published_at: {format: date, type: string}
      in_stock: {default: true, format: boolean, type: boolean}
      status: {enum: [draft, out], format: text, type: string}
      metadata: {format: jsonb}
      keywords: {format: "text[]", items: {type: string}, type: array}
    type: object
"""


def _generated(tmp_path: Path, text: str) -> Generation:
    spec = tmp_path / "swagger.yaml"
    spec.write_text(text, encoding="utf-8")
    return generate(str(spec), GenerateOptions(tool_mode="full"))


def _tools(generation: Generation) -> dict[str, Any]:
    [path] = [p for p in generation.files if p.endswith("/catalog.json")]
    catalog = catalog_from_files(generation.files, path)
    return {tool["name"]: tool for tool in catalog["tools"]}


def _valid(schema: dict[str, Any], arguments: dict[str, Any]) -> bool:
    return bool(jsonschema.Draft202012Validator(schema).is_valid(arguments))


def _body(column: str) -> str:
    """The argument of ``patch_books`` that sets ``column``: a row filter has the name of two."""
    return f"body_{column}" if column in ("id", "price") else column


def test_a_nullable_column_can_be_cleared(tmp_path: Path) -> None:
    patch = _tools(_generated(tmp_path, POSTGREST))["patch_books"]["inputSchema"]
    for column in ("price", "published_at", "status", "keywords", "metadata"):
        assert _valid(patch, {"id": "eq.100", _body(column): None}), column
    # NOT NULL columns do not take null, also the one a default makes optional
    for column in ("id", "title", "in_stock"):
        assert not _valid(patch, {"id": "eq.100", _body(column): None}), column
    # a value is still checked
    assert not _valid(patch, {"body_price": "cheap"})


def test_a_flattened_optional_column_takes_null_spelled_as_nullable_is(tmp_path: Path) -> None:
    properties = _tools(_generated(tmp_path, POSTGREST))["post_books"]["inputSchema"]["properties"]
    assert properties["price"] == {
        "anyOf": [{"type": "number", "format": "numeric"}, {"type": "null"}],
    }
    assert properties["status"] == {
        "enum": ["draft", "out", None],
        "anyOf": [{"type": "string", "format": "text"}, {"type": "null"}],
    }
    assert properties["title"] == {"format": "text", "type": "string"}
    assert properties["in_stock"] == {"default": True, "format": "boolean", "type": "boolean"}


def test_one_diagnostic_says_how_many_properties_take_null(tmp_path: Path) -> None:
    said = [
        (d.level, d.pointer, d.message)
        for d in _generated(tmp_path, POSTGREST).report.diagnostics
        if d.code == "swagger2-optional-nullable"
    ]
    assert said == [
        (
            "info",
            "#/components/schemas/books/properties/price",
            "Swagger 2.0 cannot say that a value may be null: 4 optional properties take null"
            " too in what tools take, so that a model can clear them (the first: 'price' here)",
        )
    ]


def test_a_document_that_uses_x_nullable_is_read_as_it_says(tmp_path: Path) -> None:
    said = POSTGREST.replace(
        "published_at: {format: date, type: string}",
        "published_at: {format: date, type: string, x-nullable: true}",
    )
    generation = _generated(tmp_path, said)
    patch = _tools(generation)["patch_books"]["inputSchema"]
    assert _valid(patch, {"id": "eq.100", "published_at": None})
    assert not _valid(patch, {"id": "eq.100", "body_price": None})
    assert not [d for d in generation.report.diagnostics if d.code == "swagger2-optional-nullable"]


def test_an_openapi_3_document_says_nullable_itself(tmp_path: Path) -> None:
    spec = tmp_path / "openapi.yaml"
    spec.write_text(
        "openapi: 3.0.3\n"
        "info: {title: t, version: '1'}\n"
        "paths:\n"
        "  /books:\n"
        "    post:\n"
        "      operationId: addBook\n"
        "      requestBody:\n"
        "        content:\n"
        "          application/json:\n"
        "            schema:\n"
        "              type: object\n"
        "              properties: {price: {type: number}}\n"
        "      responses: {'201': {description: ok}}\n",
        encoding="utf-8",
    )
    tools = _tools(generate(str(spec), GenerateOptions(tool_mode="full")))
    assert tools["add_book"]["inputSchema"]["properties"]["price"] == {"type": "number"}


def test_responses_keep_their_schemas(tmp_path: Path) -> None:
    spec = tmp_path / "swagger.yaml"
    spec.write_text(POSTGREST, encoding="utf-8")
    api = parse_api(load_source(str(spec)), Report())
    assert api.output_schemas["books"]["properties"]["price"] == {
        "format": "numeric",
        "type": "number",
    }
    assert api.input_schemas["books"]["properties"]["price"] == {
        "format": "numeric",
        "type": ["number", "null"],
    }


def test_a_form_field_does_not_take_null(tmp_path: Path) -> None:
    """A form cannot carry null (the runtime leaves a null field out): nothing to advertise."""
    form = (
        "  /covers:\n"
        "    post:\n"
        "      operationId: uploadCover\n"
        "      consumes: [application/x-www-form-urlencoded]\n"
        "      parameters:\n"
        "        - {name: caption, in: formData, type: string}\n"
        "        - {name: isbn, in: formData, type: string, required: true}\n"
        "      responses: {'201': {description: ok}}\n"
    )
    text = POSTGREST.replace("parameters:\n  body.books:", form + "parameters:\n  body.books:")
    properties = _tools(_generated(tmp_path, text))["upload_cover"]["inputSchema"]["properties"]
    assert properties["caption"] == {"type": "string"}
