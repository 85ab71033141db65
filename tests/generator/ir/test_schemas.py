"""Schema normalisation: OpenAPI 3.0/3.1 schemas become JSON Schema 2020-12, per direction."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from openapi2mcp.diagnostics import Report
from openapi2mcp.ir.schemas import Direction, SchemaNormaliser
from openapi2mcp.load.reading import LoadedDocument
from openapi2mcp.load.refs import ROOT, Resolver


def _normaliser(
    components: dict[str, Any] | None = None, version: str = "3.0.3"
) -> tuple[SchemaNormaliser, Report]:
    data = {
        "openapi": version,
        "info": {"title": "t", "version": "1"},
        "paths": {},
        "components": {"schemas": components or {}},
    }
    doc = LoadedDocument(data=data, raw=b"", base_dir=None, name="spec.yaml", sha256="")
    report = Report()
    return SchemaNormaliser(Resolver(doc, report)), report


def normalise(
    schema: Any,
    direction: Direction = "input",
    components: dict[str, Any] | None = None,
    version: str = "3.0.3",
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    normaliser, report = _normaliser(components, version)
    result = normaliser.normalise(schema, ROOT.child("schema"), direction)
    jsonschema.Draft202012Validator.check_schema(result)
    return result, [(d.code, d.pointer) for d in report.diagnostics]


def definitions(
    components: dict[str, Any],
) -> tuple[dict[str, Any], dict[str, Any], list[tuple[str, str, str]]]:
    normaliser, report = _normaliser(components)
    inputs, outputs = normaliser.definitions()
    return inputs, outputs, [(d.code, d.pointer, d.message) for d in report.diagnostics]


def accepts(schema: dict[str, Any], instance: Any, defs: dict[str, Any] | None = None) -> bool:
    root = {**schema, "$defs": defs or {}}
    return jsonschema.Draft202012Validator(root).is_valid(instance)


# -- formats ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "version", "expected"),
    [
        (
            {"type": "string", "format": "byte"},
            "3.0.3",
            {"type": "string", "format": "byte", "contentEncoding": "base64"},
        ),
        (
            {"type": "string", "format": "byte", "nullable": True},
            "3.0.3",
            {"type": ["string", "null"], "format": "byte", "contentEncoding": "base64"},
        ),
        (
            {"type": ["string", "null"], "format": "byte"},
            "3.1.0",
            {"type": ["string", "null"], "format": "byte", "contentEncoding": "base64"},
        ),
        # a 3.1 document's own word stands; a byte format on no string says nothing of base64
        (
            {"type": "string", "format": "byte", "contentEncoding": "base32"},
            "3.1.0",
            {"type": "string", "format": "byte", "contentEncoding": "base32"},
        ),
        ({"type": "integer", "format": "byte"}, "3.0.3", {"type": "integer", "format": "byte"}),
    ],
)
def test_a_byte_string_says_it_is_base64(
    schema: dict[str, Any], version: str, expected: dict[str, Any]
) -> None:
    """OpenAPI 3.0's ``format: byte`` is base64 (3.1 spells it ``contentEncoding``): etcd's keys
    and Google's payloads, which a model sent as plain text ("bytes" said nothing more)."""
    assert normalise(schema, version=version) == (expected, [])


def test_a_property_that_says_required_true_is_required_by_its_object() -> None:
    """JSON Schema draft 3's ``required: true`` on a property (Zou's docstrings, flasgger): it had
    been dropped with a warning, and the property left optional."""
    schema = {
        "type": "object",
        "required": ["email"],
        "properties": {
            "email": {"type": "string"},
            "password": {"type": "string", "required": True},
            "totp": {"type": "string", "required": False},
        },
    }
    result, diagnostics = normalise(schema)
    assert result["required"] == ["email", "password"]
    assert result["properties"]["password"] == {"type": "string"}
    assert diagnostics == [
        ("schema-required-flag", "#/schema/properties/password/required"),
        ("schema-required-flag", "#/schema/properties/totp/required"),
    ]
    assert accepts(result, {"email": "a", "password": "b"})
    assert not accepts(result, {"email": "a"})


# -- nullable ---------------------------------------------------------------------------------


def test_nullable_with_a_type_adds_null_to_the_type() -> None:
    assert normalise({"type": "string", "nullable": True}) == ({"type": ["string", "null"]}, [])


def test_nullable_with_a_type_list_appends_null_once() -> None:
    result, _ = normalise({"type": ["string", "integer"], "nullable": True}, version="3.1.0")
    assert result == {"type": ["string", "integer", "null"]}
    result, _ = normalise({"type": ["string", "null"], "nullable": True}, version="3.1.0")
    assert result == {"type": ["string", "null"]}


def test_nullable_enum_also_gets_null_in_the_enum() -> None:
    result, _ = normalise({"type": "string", "enum": ["a", "b"], "nullable": True})
    assert result == {"type": ["string", "null"], "enum": ["a", "b", None]}
    assert accepts(result, None)
    assert not accepts(result, "c")


def test_nullable_enum_without_type_gets_null_in_the_enum() -> None:
    assert normalise({"enum": [1, 2], "nullable": True})[0] == {"enum": [1, 2, None]}


def test_nullable_const_becomes_an_enum_with_null() -> None:
    assert normalise({"const": "x", "nullable": True})[0] == {"enum": ["x", None]}


def test_nullable_ref_is_wrapped_in_any_of() -> None:
    result, diagnostics = normalise(
        {"$ref": "#/components/schemas/Pet", "nullable": True},
        components={"Pet": {"type": "object"}},
    )
    assert result == {"anyOf": [{"$ref": "#/$defs/Pet"}, {"type": "null"}]}
    assert diagnostics == []


def test_nullable_all_of_is_wrapped_and_annotations_stay_on_top() -> None:
    schema = {
        "description": "the owner",
        "allOf": [{"$ref": "#/components/schemas/Pet"}],
        "nullable": True,
        "default": None,
    }
    result, _ = normalise(schema, components={"Pet": {"type": "object"}})
    assert result == {
        "description": "the owner",
        "default": None,
        "anyOf": [{"allOf": [{"$ref": "#/$defs/Pet"}]}, {"type": "null"}],
    }


def test_nullable_object_with_all_of_is_wrapped_so_null_is_really_accepted() -> None:
    pet = {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}
    schema = {"type": "object", "allOf": [{"$ref": "#/components/schemas/Pet"}], "nullable": True}
    result, _ = normalise(schema, components={"Pet": pet})
    assert result == {
        "anyOf": [{"type": "object", "allOf": [{"$ref": "#/$defs/Pet"}]}, {"type": "null"}]
    }
    defs = {"Pet": normalise(pet)[0]}
    assert accepts(result, None, defs)
    assert accepts(result, {"name": "Rex"}, defs)
    assert not accepts(result, {}, defs)


def test_nullable_without_assertions_is_just_dropped() -> None:
    assert normalise({"description": "anything", "nullable": True})[0] == {
        "description": "anything"
    }


def test_nullable_false_is_dropped() -> None:
    assert normalise({"type": "integer", "nullable": False})[0] == {"type": "integer"}


# -- keywords -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"minimum": 1, "exclusiveMinimum": True}, {"exclusiveMinimum": 1}),
        ({"maximum": 9, "exclusiveMaximum": True}, {"exclusiveMaximum": 9}),
        ({"minimum": 1, "exclusiveMinimum": False}, {"minimum": 1}),
        ({"exclusiveMaximum": True}, {}),
        ({"exclusiveMinimum": 0.5, "maximum": 3}, {"exclusiveMinimum": 0.5, "maximum": 3}),
    ],
)
def test_exclusive_bounds_become_numeric(schema: dict[str, Any], expected: dict[str, Any]) -> None:
    assert normalise({"type": "number", **schema})[0] == {"type": "number", **expected}


def test_example_becomes_examples() -> None:
    assert normalise({"type": "string", "example": "rex"})[0] == {
        "type": "string",
        "examples": ["rex"],
    }


def test_examples_list_wins_over_example() -> None:
    result, _ = normalise({"examples": ["a", "b"], "example": "c"}, version="3.1.0")
    assert result == {"examples": ["a", "b"]}


def test_an_example_that_is_a_reference_is_dropped() -> None:
    result, diagnostics = normalise(
        {"type": "object", "example": {"$ref": "#/components/examples/pet"}}
    )
    assert result == {"type": "object"}
    assert diagnostics == [("example-dropped", "#/schema")]
    result, _ = normalise({"examples": [{"$ref": "#/x"}, {"a": 1}]}, version="3.1.0")
    assert result == {"examples": [{"a": 1}]}


def test_duplicate_required_entries_are_removed_in_order() -> None:
    result, _ = normalise({"type": "object", "required": ["b", "a", "b", "a"]})
    assert result == {"type": "object", "required": ["b", "a"]}


def test_openapi_only_keywords_are_dropped_and_json_schema_ones_kept() -> None:
    schema = {
        "type": "object",
        "title": "Pet",
        "description": "a pet",
        "x-internal": True,
        "xml": {"name": "pet"},
        "externalDocs": {"url": "https://example.com"},
        "discriminator": {"propertyName": "kind", "mapping": {"dog": "#/x"}},
        "deprecated": True,
        "readOnly": False,
        "$id": "https://example.com/pet",
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "oneOf": [{"type": "object"}],
        "additionalProperties": False,
        "minProperties": 1,
        "properties": {
            "name": {"type": "string", "pattern": "^[a-z]+$", "minLength": 1, "format": "hostname"},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
            "kind": {"const": "dog", "default": "dog"},
            "size": {"type": "integer", "minimum": 1, "maximum": 5, "multipleOf": 1},
        },
    }
    result, diagnostics = normalise(schema)
    assert result == {
        "type": "object",
        "title": "Pet",
        "description": "a pet",
        "anyOf": [{"type": "object"}],
        "additionalProperties": False,
        "minProperties": 1,
        "properties": {
            "name": {"type": "string", "pattern": "^[a-z]+$", "minLength": 1, "format": "hostname"},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
            "kind": {"const": "dog", "default": "dog"},
            "size": {"type": "integer", "minimum": 1, "maximum": 5, "multipleOf": 1},
        },
        # the discriminator is dropped, and what it says of a value sent is kept
        "required": ["kind"],
    }
    assert diagnostics == []


def test_one_of_is_read_as_any_of_where_a_value_may_fit_two_branches() -> None:
    """Chroma's metadata values are ``oneOf: [integer, number, ...]``: 3 is both, so "exactly
    one" refused what the API takes. The API judges a value that fits two branches."""
    value = {"oneOf": [{"type": "integer"}, {"type": "number"}, {"type": "string"}]}
    assert normalise(value)[0] == {
        "anyOf": [{"type": "integer"}, {"type": "number"}, {"type": "string"}]
    }
    beside = {"anyOf": [{"type": "object"}, {"type": "null"}], "oneOf": [{"minProperties": 1}]}
    assert normalise(beside)[0] == {
        "anyOf": [{"type": "object"}, {"type": "null"}],
        "allOf": [{"anyOf": [{"minProperties": 1}]}],
    }
    # under `not`, anyOf would refuse more, not less; and branches that only require fields
    # mean "exactly one of these ways" (GitHub's id, or owner, repo and number)
    negated = {"not": {"oneOf": [{"type": "integer"}, {"type": "number"}]}}
    assert normalise(negated)[0] == negated
    ways = {"oneOf": [{"required": ["id"]}, {"required": ["owner", "repo", "number"]}]}
    assert normalise(ways)[0] == ways


def test_composition_and_array_keywords_are_normalised_recursively() -> None:
    schema = {
        "anyOf": [{"type": "string", "nullable": True}],
        "not": {"type": "integer", "x-a": 1},
        "prefixItems": [{"type": "string", "example": "a"}],
        "items": {"type": "number", "deprecated": True},
    }
    result, _ = normalise(schema, version="3.1.0")
    assert result == {
        "anyOf": [{"type": ["string", "null"]}],
        "not": {"type": "integer"},
        "prefixItems": [{"type": "string", "examples": ["a"]}],
        "items": {"type": "number"},
    }


def test_a_list_of_item_schemas_is_items_of_any_of_them_with_a_warning() -> None:
    """PowerDNS's statistics: ``items: [StatisticItem, MapStatisticItem, RingStatisticItem]``."""
    kinds = [{"type": "string"}, {"type": "integer"}]
    result, diagnostics = normalise({"type": "array", "items": kinds})
    assert result == {"type": "array", "items": {"anyOf": kinds}}
    assert diagnostics == [("schema-items-list", "#/schema/items")]
    assert normalise({"items": [{"type": "string"}]})[0] == {
        "type": "array",
        "items": {"type": "string"},
    }


def test_type_arrays_of_openapi_31_are_kept() -> None:
    assert normalise({"type": ["string", "null"]}, version="3.1.0")[0] == {
        "type": ["string", "null"]
    }


def test_unknown_type_is_reported_and_dropped() -> None:
    result, diagnostics = normalise({"type": "file", "description": "upload"})
    assert result == {"description": "upload"}
    assert diagnostics == [("schema-type-unknown", "#/schema/type")]


def test_unknown_type_in_a_list_is_dropped_alone() -> None:
    result, diagnostics = normalise({"type": ["string", "date"]}, version="3.1.0")
    assert result == {"type": ["string"]}
    assert diagnostics == [("schema-type-unknown", "#/schema/type")]


@pytest.mark.parametrize(
    ("written", "meant"),
    [("int", "integer"), ("Long", "integer"), ("double", "number"), ("bool", "boolean")],
)
def test_a_programming_language_s_type_name_is_read_as_the_type_it_names(
    written: str, meant: str
) -> None:
    """flasgger writes httpbin's `/bytes/{n}` as `type: int`: dropped, the argument took any
    value (the smoke example chose null, which leaves no path to call)."""
    result, diagnostics = normalise({"type": written})
    assert result == {"type": meant}
    assert diagnostics == [("schema-type-unknown", "#/schema/type")]


def test_boolean_schemas() -> None:
    assert normalise(True)[0] == {}
    assert normalise(False)[0] == {"not": {}}
    result, _ = normalise({"type": "object", "additionalProperties": False}, version="3.1.0")
    assert result == {"type": "object", "additionalProperties": False}


def test_a_schema_that_is_not_an_object_is_replaced_by_an_empty_schema() -> None:
    result, diagnostics = normalise({"properties": {"a": "string"}})
    # object keywords without a type say what the schema is (Swagger definitions often omit it)
    assert result == {"type": "object", "properties": {"a": {}}}
    assert diagnostics == [("schema-invalid", "#/schema/properties/a")]


# -- directions ---------------------------------------------------------------------------------

PET = {
    "type": "object",
    "required": ["id", "name", "password"],
    "properties": {
        "id": {"type": "integer", "readOnly": True},
        "name": {"type": "string"},
        "password": {"type": "string", "writeOnly": True},
    },
}


def test_input_drops_read_only_properties_and_their_required_entries() -> None:
    assert normalise(PET, "input")[0] == {
        "type": "object",
        "required": ["name", "password"],
        "properties": {"name": {"type": "string"}, "password": {"type": "string"}},
    }


def test_output_drops_write_only_properties_and_their_required_entries() -> None:
    assert normalise(PET, "output")[0] == {
        "type": "object",
        "required": ["id", "name"],
        "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
    }


def test_read_only_is_seen_through_a_reference() -> None:
    components = {"Id": {"type": "integer", "readOnly": True}}
    schema = {
        "type": "object",
        "required": ["id"],
        "properties": {"id": {"$ref": "#/components/schemas/Id"}, "n": {"type": "string"}},
    }
    assert normalise(schema, "input", components)[0] == {
        "type": "object",
        "properties": {"n": {"type": "string"}},
    }
    assert normalise(schema, "output", components)[0] == {
        "type": "object",
        "required": ["id"],
        "properties": {"id": {"$ref": "#/$defs/Id"}, "n": {"type": "string"}},
    }


def test_component_definitions_are_normalised_for_each_direction() -> None:
    inputs, outputs, diagnostics = definitions({"Pet": PET})
    assert inputs["Pet"]["properties"] == {
        "name": {"type": "string"},
        "password": {"type": "string"},
    }
    assert outputs["Pet"]["properties"] == {"id": {"type": "integer"}, "name": {"type": "string"}}
    assert diagnostics == []


# -- references ---------------------------------------------------------------------------------


def test_component_references_stay_references_with_escaped_names() -> None:
    components = {"Pet/Dog": {"type": "object"}, "a~b": {"type": "string"}}
    schema = {
        "type": "array",
        "items": {"$ref": "#/components/schemas/Pet~1Dog"},
        "contains": {"$ref": "#/components/schemas/a~0b"},
    }
    result, diagnostics = normalise(schema, components=components)
    assert result == {
        "type": "array",
        "items": {"$ref": "#/$defs/Pet~1Dog"},
        "contains": {"$ref": "#/$defs/a~0b"},
    }
    assert diagnostics == []
    inputs, _, _ = definitions(components)
    assert list(inputs) == ["Pet/Dog", "a~b"]


def test_reference_siblings_are_kept() -> None:
    result, _ = normalise(
        {"$ref": "#/components/schemas/Pet", "description": "the pet"},
        components={"Pet": {"type": "object"}},
        version="3.1.0",
    )
    assert result == {"$ref": "#/$defs/Pet", "description": "the pet"}


def test_local_references_outside_components_are_inlined() -> None:
    components = {"Pet": {"type": "object", "properties": {"name": {"type": "string"}}}}
    result, _ = normalise(
        {"$ref": "#/components/schemas/Pet/properties/name", "maxLength": 5}, components=components
    )
    assert result == {"type": "string", "maxLength": 5}


def test_recursive_component_is_kept_as_a_reference() -> None:
    node = {
        "type": "object",
        "properties": {
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}
        },
    }
    inputs, outputs, diagnostics = definitions({"Node": node})
    expected = {
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
    }
    assert inputs == outputs == {"Node": expected}
    assert diagnostics == []
    assert accepts({"$ref": "#/$defs/Node"}, {"children": [{"children": []}]}, inputs)


def test_references_that_loop_without_nesting_are_broken() -> None:
    components = {
        "A": {"allOf": [{"$ref": "#/components/schemas/B"}], "description": "a"},
        "B": {"$ref": "#/components/schemas/A"},
    }
    inputs, outputs, diagnostics = definitions(components)
    assert (
        inputs == outputs == {"A": {"allOf": [{"$ref": "#/$defs/B"}], "description": "a"}, "B": {}}
    )
    assert diagnostics == [
        (
            "ref-cycle",
            "#/components/schemas/B",
            "schema 'B' refers to 'A', which leads back to it without nesting (validators would"
            " loop forever); that reference is replaced by {}",
        )
    ]
    assert accepts({"$ref": "#/$defs/A"}, 42, inputs)


def test_a_missing_component_reference_becomes_an_empty_schema() -> None:
    result, diagnostics = normalise({"$ref": "#/components/schemas/Nope", "description": "d"})
    assert result == {"description": "d"}
    assert diagnostics == [("ref-missing", "#/schema")]


def test_a_remote_reference_becomes_an_empty_schema() -> None:
    result, diagnostics = normalise({"$ref": "https://example.com/pet.json"})
    assert result == {}
    assert diagnostics == [("ref-remote", "#/schema")]


def test_a_self_referencing_local_schema_is_promoted_to_a_definition() -> None:
    # the target is not a component, so it is inlined until it refers to itself
    data_schema = {
        "type": "object",
        "properties": {"next": {"$ref": "#/components/schemas/Holder/properties/link"}},
    }
    components = {"Holder": {"type": "object", "properties": {"link": data_schema}}}
    normaliser, report = _normaliser(components)
    result = normaliser.normalise(
        {"$ref": "#/components/schemas/Holder/properties/link"}, ROOT.child("schema"), "input"
    )
    assert result == {"type": "object", "properties": {"next": {"$ref": "#/$defs/link"}}}
    inputs, _ = normaliser.definitions()
    assert inputs["link"] == result
    assert report.diagnostics == []


def test_absurdly_deep_schemas_are_replaced_by_an_empty_schema() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(5000):
        schema = {"not": schema}
    result, diagnostics = normalise(schema)
    assert result == {}
    assert diagnostics == [("schema-too-deep", "#/schema")]


# -- JSON Schema 2020-12 identifiers: $schema, $id, $anchor ---------------------------------------

ADDRESS = {
    "$anchor": "addressDef",
    "type": "object",
    "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
}


def test_dialect_and_id_keywords_are_dropped_at_every_level() -> None:
    # a spec's $schema (draft-04, the OAS dialect) would be wrong inside a tool's 2020-12 schema
    schema = {
        "$schema": "https://spec.openapis.org/oas/3.1/dialect/base",
        "$id": "https://example.com/contact",
        "type": "object",
        "properties": {
            "tag": {"$schema": "http://json-schema.org/draft-04/schema#", "type": "string"}
        },
    }
    assert normalise(schema, version="3.1.0") == (
        {"type": "object", "properties": {"tag": {"type": "string"}}},
        [],
    )
    inputs, outputs, _ = definitions({"Contact": schema})
    assert "$schema" not in inputs["Contact"] and "$schema" not in outputs["Contact"]
    assert "$id" not in inputs["Contact"]


def test_a_components_anchor_is_kept_on_its_definition_in_both_directions() -> None:
    inputs, outputs, diagnostics = definitions({"address": ADDRESS})
    assert inputs["address"] == outputs["address"] == ADDRESS
    assert diagnostics == []
    root = {"type": "object", "properties": {"home": {"$ref": "#/$defs/address"}}}
    jsonschema.Draft202012Validator.check_schema({**root, "$defs": inputs})
    assert accepts(root, {"home": {"city": "Paris"}}, inputs)


def test_an_anchor_reference_points_to_the_component_that_declares_it() -> None:
    result, diagnostics = normalise(
        {"type": "object", "properties": {"home": {"$ref": "#addressDef"}}},
        components={"address": ADDRESS},
        version="3.1.0",
    )
    assert result == {"type": "object", "properties": {"home": {"$ref": "#/$defs/address"}}}
    assert diagnostics == []


def test_anchors_of_inlined_and_nested_schemas_are_dropped() -> None:
    # inlined twice, the anchor would be declared twice in one tool schema
    components = {
        "Holder": {
            "type": "object",
            "properties": {"inner": {"$anchor": "innerDef", "type": "string"}},
        }
    }
    inner = {"$ref": "#/components/schemas/Holder/properties/inner"}
    result, diagnostics = normalise(
        {"type": "object", "properties": {"a": inner, "b": inner}}, components=components
    )
    assert result == {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
    }
    assert diagnostics == []
    inputs, _, _ = definitions(components)
    assert inputs["Holder"] == {"type": "object", "properties": {"inner": {"type": "string"}}}


def test_an_anchor_two_components_declare_stays_with_the_first() -> None:
    components = {
        "Home": {**ADDRESS},
        "Work": {**ADDRESS, "description": "work address"},
        "Bad": {"$anchor": "1 not a name", "type": "string"},
    }
    inputs, _, diagnostics = definitions(components)
    assert inputs["Home"]["$anchor"] == "addressDef"
    assert "$anchor" not in inputs["Work"] and "$anchor" not in inputs["Bad"]
    assert sorted({(code, pointer) for code, pointer, _ in diagnostics}) == [
        ("anchor-duplicate", "#/components/schemas/Work/$anchor"),
        ("schema-invalid", "#/components/schemas/Bad/$anchor"),
    ]
    root = {"type": "object", "$defs": inputs}
    jsonschema.Draft202012Validator.check_schema(root)
    # a reference by anchor finds the one schema that keeps it
    assert accepts({"$ref": "#addressDef"}, {"city": "Paris"}, inputs)
    assert not accepts({"$ref": "#addressDef"}, {"city": 75}, inputs)


def test_a_union_requires_its_discriminator_of_what_is_sent() -> None:
    # ZenML's triggers (pydantic's tagged union): each branch gives `type` a default, and the
    # API refuses a value without it (422 "Unable to extract tag using discriminator 'type'")
    branch = {
        "type": "object",
        "properties": {"type": {"type": "string", "const": "schedule", "default": "schedule"}},
    }
    other = {
        "type": "object",
        "properties": {"type": {"type": "string", "const": "webhook", "default": "webhook"}},
    }
    union = {
        "oneOf": [{"$ref": "#/components/schemas/S"}, {"$ref": "#/components/schemas/W"}],
        "discriminator": {"propertyName": "type"},
    }
    components = {"S": branch, "W": other}
    sent, diagnostics = normalise(union, "input", components)
    assert sent["required"] == ["type"]
    assert diagnostics == []
    inputs, _, _ = definitions(components)
    assert not accepts(sent, {}, inputs)
    assert accepts(sent, {"type": "webhook"}, inputs)
    # what comes back is read as it is: a response may leave it out
    received, _ = normalise(union, "output", components)
    assert "required" not in received
