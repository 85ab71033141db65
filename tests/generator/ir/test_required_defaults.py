"""A property that is required and has a default is optional in what a tool takes.

Regression (PostgREST 12): every NOT NULL column is listed in ``required``, also those with a
default (``status``, ``quantity``, a ``gen_random_uuid()`` or ``now()`` column), so
``post_orders {"book_id": 100}`` was refused locally ("id" is a required property) while the API
answers 201. A default is what the API uses when the value is left out: in what a client sends
such a property is optional. PostgREST also publishes SQL expressions as defaults
(``"gen_random_uuid()"`` for a uuid, ``"now()"`` for a timestamp, ``"nextval('...')"`` for an
integer): a model that copied one got 400 "invalid input syntax", so a default that is not a value
of its property's schema is not advertised (a number written as text is read as the number).
Output schemas keep what the document says.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]

from openapi2mcp.diagnostics import Report
from openapi2mcp.generate import GenerateOptions, Generation, generate
from openapi2mcp.ir.schemas import Direction, SchemaNormaliser
from openapi2mcp.load.reading import LoadedDocument
from openapi2mcp.load.refs import ROOT, Resolver
from tests.catalogs import catalog_from_files

# PostgREST 12's document for two tables (trimmed): NOT NULL columns are required, defaults are
# the column defaults as SQL writes them, the body parameter is optional
POSTGREST = """\
swagger: "2.0"
info: {title: PostgREST API, version: 12.0.2}
host: 127.0.0.1:3300
basePath: /
schemes: [http]
consumes: [application/json]
produces: [application/json]
paths:
  /orders:
    post:
      tags: [orders]
      parameters: [{$ref: "#/parameters/body.orders"}]
      responses: {"201": {description: Created}}
  /authors:
    post:
      tags: [authors]
      parameters: [{$ref: "#/parameters/body.authors"}]
      responses: {"201": {description: Created}}
parameters:
  body.orders:
    {name: orders, description: orders, required: false, in: body,
     schema: {$ref: "#/definitions/orders"}}
  body.authors:
    {name: authors, description: authors, required: false, in: body,
     schema: {$ref: "#/definitions/authors"}}
definitions:
  orders:
    required: [id, book_id, quantity, status, ordered_at]
    properties:
      id:
        {default: gen_random_uuid(), description: "Note:\\nThis is a Primary Key.<pk/>",
         format: uuid, type: string}
      book_id: {format: integer, type: integer}
      quantity: {default: 1, format: integer, type: integer}
      status:
        {default: pending, enum: [pending, paid, shipped, cancelled],
         format: api.order_status, type: string}
      ordered_at: {default: now(), format: timestamp with time zone, type: string}
    type: object
  authors:
    required: [id, name, created_at]
    properties:
      id: {description: "Note:\\nThis is a Primary Key.<pk/>", format: integer, type: integer}
      name: {format: text, type: string}
      created_at: {default: now(), format: timestamp with time zone, type: string}
    type: object
"""


def _generated(tmp_path: Path, text: str, name: str = "openapi.yaml") -> Generation:
    spec = tmp_path / name
    spec.write_text(text, encoding="utf-8")
    return generate(str(spec), GenerateOptions(tool_mode="full"))


def _tools(generation: Generation) -> dict[str, Any]:
    [path] = [p for p in generation.files if p.endswith("/catalog.json")]
    catalog = catalog_from_files(generation.files, path)
    return {tool["name"]: tool for tool in catalog["tools"]}


def _valid(schema: dict[str, Any], arguments: dict[str, Any]) -> bool:
    return bool(jsonschema.Draft202012Validator(schema).is_valid(arguments))


def test_postgrest_columns_with_a_default_may_be_left_out(tmp_path: Path) -> None:
    tools = _tools(_generated(tmp_path, POSTGREST))
    orders = tools["post_orders"]["inputSchema"]
    # the body may be left out; once any column is given, only book_id (no default) must be too
    assert "required" not in orders
    assert orders["dependentRequired"] == {
        "id": ["book_id"],
        "quantity": ["book_id"],
        "status": ["book_id"],
        "ordered_at": ["book_id"],
    }
    assert _valid(orders, {"book_id": 100})
    assert not _valid(orders, {"quantity": 2})
    authors = tools["post_authors"]["inputSchema"]
    # an integer primary key without a default is a serial one: PostgREST leaves its sequence
    # out of the document, and answers 201 to an author given by name alone
    assert authors["dependentRequired"] == {"id": ["name"], "created_at": ["name"]}
    assert _valid(authors, {"name": "Octavia E. Butler"})
    assert not _valid(authors, {"created_at": "2026-12-05T00:00:00Z"})


def test_a_key_of_several_columns_or_not_an_integer_stays_required() -> None:
    def required(properties: dict[str, Any]) -> Any:
        given, _ = normalise(_object(properties, list(properties)))
        return given.get("required")

    key = "Note:\nThis is a Primary Key.<pk/>"
    assert required(
        {
            "book_id": {"type": "integer", "description": key},
            "tag_id": {"type": "integer", "description": key},
        }
    ) == ["book_id", "tag_id"]
    assert required({"code": {"type": "string", "description": key}}) == ["code"]
    assert required({"id": {"type": "integer", "description": key}, "n": {"type": "string"}}) == [
        "n"
    ]
    # an integer column that is not the key is not filled by a sequence
    assert required({"id": {"type": "integer"}}) == ["id"]


def test_the_sequence_keys_made_optional_are_said_once(tmp_path: Path) -> None:
    said = [
        (d.level, d.pointer, d.message)
        for d in _generated(tmp_path, POSTGREST).report.diagnostics
        if d.code == "postgrest-sequence-key"
    ]
    assert said == [
        (
            "info",
            "#/components/schemas/authors/properties/id",
            "1 integer primary key without a default in PostgREST's document, which leaves out"
            " the sequence that fills it: optional in what tools take ('id' here)",
        )
    ]


def test_sql_expressions_are_not_advertised_as_defaults(tmp_path: Path) -> None:
    properties = _tools(_generated(tmp_path, POSTGREST))["post_orders"]["inputSchema"]["properties"]
    assert "default" not in properties["id"]
    assert "default" not in properties["ordered_at"]
    assert (properties["quantity"]["default"], properties["status"]["default"]) == (1, "pending")
    assert properties["id"] == {
        "description": "Note:\nThis is a Primary Key.<pk/>",
        "format": "uuid",
        "type": "string",
    }


def test_one_diagnostic_says_how_many_properties_became_optional(tmp_path: Path) -> None:
    report = _generated(tmp_path, POSTGREST).report
    said = [
        (d.level, d.pointer, d.message)
        for d in report.diagnostics
        if d.code in ("required-with-default", "default-not-a-value")
    ]
    assert said == [
        (
            "info",
            "#/components/schemas/orders/properties/id",
            "5 required properties have a default, which the API uses when they are left out:"
            " optional in what tools take (the first: 'id' here)",
        ),
        (
            "info",
            "#/components/schemas/orders/properties/id",
            "3 defaults are not values of their property's schema, such as an expression the"
            " API computes: not advertised to models, which would send them (the first:"
            " 'gen_random_uuid()' here)",
        ),
    ]


# -- the normalised schemas, one rule at a time -----------------------------------------------


def normalise(schema: Any, direction: Direction = "input") -> tuple[dict[str, Any], Report]:
    data = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}
    doc = LoadedDocument(data=data, raw=b"", base_dir=None, name="spec.yaml", sha256="")
    report = Report()
    result = SchemaNormaliser(Resolver(doc, report)).normalise(schema, ROOT.child("s"), direction)
    return result, report


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


def test_a_required_property_with_a_default_is_optional_only_in_input() -> None:
    schema = _object(
        {"name": {"type": "string"}, "limit": {"type": "integer", "default": 10}}, ["name", "limit"]
    )
    given, _ = normalise(schema)
    assert given["required"] == ["name"]
    assert given["properties"]["limit"] == {"type": "integer", "default": 10}
    returned, _ = normalise(schema, "output")
    assert returned["required"] == ["name", "limit"]


def test_a_null_default_says_nothing_and_a_lone_required_list_goes() -> None:
    schema = _object({"a": {"type": "string", "nullable": True, "default": None}}, ["a"])
    assert normalise(schema)[0]["required"] == ["a"]
    given, _ = normalise(_object({"a": {"type": "boolean", "default": False}}, ["a"]))
    assert "required" not in given


def test_a_discriminator_stays_required_even_with_a_default() -> None:
    schema = {
        "type": "object",
        "properties": {"kind": {"type": "string", "default": "cron"}},
        "required": ["kind"],
        "oneOf": [{"$ref": "#/components/schemas/A"}, {"$ref": "#/components/schemas/B"}],
        "discriminator": {"propertyName": "kind"},
    }
    assert normalise(schema)[0]["required"] == ["kind"]


def _default_kept(prop: dict[str, Any]) -> Any:
    given, _ = normalise(_object({"p": prop}, []))
    return given["properties"]["p"].get("default", "<dropped>")


def test_defaults_that_are_values_of_their_schema_are_kept() -> None:
    assert _default_kept(
        {"type": "string", "format": "uuid", "default": "00000000-0000-4000-8000-000000000001"}
    ) == ("00000000-0000-4000-8000-000000000001")
    assert (
        _default_kept({"type": "string", "format": "date-time", "default": "2024-01-01T00:00:00Z"})
        == "2024-01-01T00:00:00Z"
    )
    # PostgreSQL writes a timestamp with a space
    assert (
        _default_kept(
            {
                "type": "string",
                "format": "timestamp with time zone",
                "default": "2024-01-01 00:00:00+00",
            }
        )
        == "2024-01-01 00:00:00+00"
    )
    assert _default_kept({"type": "string", "format": "date", "default": "2024-01-01"}) == (
        "2024-01-01"
    )
    # PostgREST's row filters: an integer written as text
    assert _default_kept({"type": "string", "format": "integer", "default": "-7"}) == "-7"
    assert _default_kept({"type": "string", "format": "email", "default": "now()"}) == "now()"
    assert _default_kept({"type": ["integer", "null"], "default": None}) is None
    assert _default_kept({"default": "anything"}) == "anything"


def test_defaults_that_are_not_values_of_their_schema_are_dropped_or_read() -> None:
    assert _default_kept({"type": "string", "format": "uuid", "default": "gen_random_uuid()"}) == (
        "<dropped>"
    )
    assert _default_kept({"type": "string", "format": "date-time", "default": "now()"}) == (
        "<dropped>"
    )
    assert _default_kept({"type": "string", "format": "date", "default": "CURRENT_DATE"}) == (
        "<dropped>"
    )
    assert (
        _default_kept(
            {"type": "string", "format": "bigint", "default": "nextval('orders_id_seq'::regclass)"}
        )
        == "<dropped>"
    )
    assert (
        _default_kept({"type": "integer", "default": "nextval('orders_id_seq'::regclass)"})
        == "<dropped>"
    )
    assert _default_kept({"type": "boolean", "default": "yes please"}) == "<dropped>"
    # a number written as text is read as the number, as enum values are
    assert _default_kept({"type": "integer", "default": "10"}) == 10
    assert _default_kept({"type": "boolean", "default": "false"}) is False
    assert _default_kept({"type": "string", "default": 3}) == "3"


def test_defaults_of_output_schemas_are_left_as_they_are() -> None:
    prop = {"type": "string", "format": "uuid", "default": "gen_random_uuid()"}
    returned, _ = normalise(_object({"p": prop}, ["p"]), "output")
    assert returned["properties"]["p"]["default"] == "gen_random_uuid()"


def test_defaults_read_in_their_type_are_said_once() -> None:
    components = {
        "Page": _object({"size": {"type": "integer", "default": "20"}}, []),
        "Sort": _object({"desc": {"type": "boolean", "default": "false"}}, []),
    }
    data = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {},
        "components": {"schemas": components},
    }
    doc = LoadedDocument(data=data, raw=b"", base_dir=None, name="spec.yaml", sha256="")
    report = Report()
    inputs, outputs = SchemaNormaliser(Resolver(doc, report)).definitions()
    assert inputs["Page"]["properties"]["size"]["default"] == 20
    assert outputs["Page"]["properties"]["size"]["default"] == "20"
    assert [(d.level, d.code, d.pointer, d.message) for d in report.diagnostics] == [
        (
            "info",
            "default-read-as-type",
            "#/components/schemas/Page/properties/size",
            "2 defaults are written in another type than their property's: read in that type"
            " (the first: '20' here)",
        )
    ]
