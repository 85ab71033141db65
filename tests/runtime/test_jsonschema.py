"""The runtime's JSON Schema validator: what a model is told when its arguments do not fit."""

from __future__ import annotations

from typing import Any

import pytest

from templates.runtime.jsonschema import SchemaError, ValidationIssue, Validator


def messages(schema: Any, instance: Any, limit: int = 10) -> list[tuple[str, str]]:
    return [(i.path, i.message) for i in Validator(schema).issues(instance, limit=limit)]


def test_valid_instance_has_no_issues() -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "tags": {"type": "array"}},
        "required": ["name"],
    }
    assert Validator(schema).issues({"name": "rex", "tags": []}) == []
    assert Validator(schema).is_valid({"name": "rex"})


@pytest.mark.parametrize(
    ("type_", "value", "ok"),
    [
        ("integer", 3, True),
        ("integer", 3.0, True),
        ("integer", 3.5, False),
        ("integer", True, False),
        ("number", 3, True),
        ("number", 2.5, True),
        ("number", False, False),
        ("number", "3", False),
        ("string", "", True),
        ("string", 1, False),
        ("boolean", True, True),
        ("boolean", 0, False),
        ("null", None, True),
        ("null", 0, False),
        ("array", [], True),
        ("array", {}, False),
        ("object", {}, True),
        ("object", [], False),
        (["string", "null"], None, True),
        (["string", "null"], 1, False),
    ],
)
def test_type_keyword(type_: Any, value: Any, ok: bool) -> None:
    assert Validator({"type": type_}).is_valid(value) is ok


def test_type_mismatch_message_names_both_types_and_the_value() -> None:
    assert messages({"type": "integer"}, "abc") == [("", 'expected integer, got string "abc"')]
    assert messages({"type": "integer"}, True) == [("", "expected integer, got boolean true")]
    assert messages({"type": ["string", "null"]}, 3) == [
        ("", "expected string or null, got integer 3")
    ]
    assert messages({"type": "string"}, {"a": 1}) == [("", "expected string, got object")]


def test_long_strings_are_shortened_in_messages() -> None:
    [(_, message)] = messages({"type": "integer"}, "x" * 500)
    assert message.startswith('expected integer, got string "xxx')
    assert len(message) < 100


def test_paths_point_at_the_offending_value() -> None:
    schema = {
        "type": "object",
        "properties": {
            "body": {
                "type": "object",
                "properties": {
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "a b": {"type": "integer"},
                },
            }
        },
    }
    assert messages(schema, {"body": {"tags": ["ok", 5], "a b": "x"}}) == [
        ("body.tags[1]", "expected string, got integer 5"),
        ('body["a b"]', 'expected integer, got string "x"'),
    ]


def test_enum_message_lists_the_allowed_values() -> None:
    schema = {"enum": ["available", "pending", "sold"]}
    assert messages(schema, "foo") == [("", "'foo' is not one of ['available', 'pending', 'sold']")]
    assert Validator(schema).is_valid("sold")


def test_enum_and_const_use_json_equality() -> None:
    assert Validator({"enum": [1, "a"]}).is_valid(1.0)
    assert not Validator({"enum": [1]}).is_valid(True)
    assert not Validator({"enum": [False]}).is_valid(0)
    assert Validator({"const": {"a": [1, 2]}}).is_valid({"a": [1.0, 2]})
    assert messages({"const": "x"}, "y") == [("", "expected 'x', got 'y'")]
    assert Validator({"enum": [None]}).is_valid(None)


def test_required_and_additional_properties() -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": False,
    }
    assert messages(schema, {"x": 1}) == [
        ("", "unexpected property 'x'"),
        ("", "missing required property 'name'"),
    ]


def test_additional_properties_schema_and_pattern_properties() -> None:
    schema = {
        "type": "object",
        "properties": {"id": {"type": "integer"}},
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": {"type": "boolean"},
    }
    assert Validator(schema).is_valid({"id": 1, "x-a": "s", "flag": True})
    assert messages(schema, {"x-a": 1, "flag": "no"}) == [
        ('["x-a"]', "expected string, got integer 1"),
        ("flag", 'expected boolean, got string "no"'),
    ]


def test_property_names_and_property_counts() -> None:
    schema = {"propertyNames": {"pattern": "^[a-z]+$"}, "minProperties": 1, "maxProperties": 2}
    assert messages(schema, {}) == [("", "expected at least 1 property, got 0")]
    assert messages(schema, {"a": 1, "b": 2, "c": 3}) == [
        ("", "expected at most 2 properties, got 3")
    ]
    assert messages(schema, {"Bad": 1}) == [
        ("", "invalid property name 'Bad': 'Bad' does not match pattern '^[a-z]+$'")
    ]


def test_dependent_required() -> None:
    schema = {"dependentRequired": {"card": ["billing"]}}
    assert messages(schema, {"card": 1}) == [
        ("", "property 'billing' is required when 'card' is present")
    ]
    assert Validator(schema).is_valid({"other": 1})


def test_array_keywords() -> None:
    schema = {"type": "array", "minItems": 1, "maxItems": 3, "uniqueItems": True}
    assert messages(schema, []) == [("", "expected at least 1 item, got 0")]
    assert messages(schema, [1, 2, 3, 4]) == [("", "expected at most 3 items, got 4")]
    assert messages(schema, [1, "a", 1.0]) == [
        ("", "items must be unique; items 0 and 2 are equal")
    ]
    assert Validator(schema).is_valid([1, True, "1"])


def test_prefix_items_and_items() -> None:
    schema = {"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": {"type": "null"}}
    assert Validator(schema).is_valid(["a", 1, None, None])
    assert messages(schema, [1, "a", 0]) == [
        ("[0]", "expected string, got integer 1"),
        ("[1]", 'expected integer, got string "a"'),
        ("[2]", "expected null, got integer 0"),
    ]
    closed = {"prefixItems": [{"type": "string"}], "items": False}
    assert messages(closed, ["a", "b"]) == [("", "expected at most 1 item, got 2")]


def test_contains_with_min_and_max() -> None:
    schema = {"contains": {"type": "integer"}, "maxContains": 2}
    assert messages(schema, ["a"]) == [("", "expected at least 1 item matching 'contains', got 0")]
    assert messages(schema, [1, 2, 3]) == [
        ("", "expected at most 2 items matching 'contains', got 3")
    ]
    assert Validator({"contains": {"type": "integer"}, "minContains": 0}).is_valid([])


def test_string_keywords_count_code_points() -> None:
    schema = {"type": "string", "minLength": 2, "maxLength": 3}
    assert Validator(schema).is_valid("日本")
    assert Validator(schema).is_valid("😀😀😀")
    assert messages(schema, "😀") == [("", "expected at least 2 characters, got 1")]
    assert messages(schema, "abcd") == [("", "expected at most 3 characters, got 4")]


def test_pattern_searches_anywhere_unless_anchored() -> None:
    assert Validator({"pattern": "b+"}).is_valid("abbbc")
    assert messages({"pattern": "^[0-9]+$"}, "12a") == [
        ("", "'12a' does not match pattern '^[0-9]+$'")
    ]
    # ECMA-262 named groups are accepted
    assert Validator({"pattern": r"^(?<year>\d{4})$"}).is_valid("2024")
    # non-strings are not checked by string keywords
    assert Validator({"pattern": "^a$", "minLength": 5}).is_valid(3)


def test_invalid_pattern_is_a_schema_error_at_compile_time() -> None:
    with pytest.raises(SchemaError, match="invalid pattern"):
        Validator({"properties": {"a": {"pattern": "(["}}})
    with pytest.raises(SchemaError, match="invalid pattern"):
        Validator({"patternProperties": {"(": {}}})


def test_numeric_bounds() -> None:
    schema = {"minimum": 1, "maximum": 10, "exclusiveMaximum": 10}
    assert messages(schema, 0) == [("", "expected a number >= 1, got 0")]
    assert messages(schema, 10) == [("", "expected a number < 10, got 10")]
    assert messages({"exclusiveMinimum": 0}, 0) == [("", "expected a number > 0, got 0")]
    assert messages({"maximum": 2.5}, 3) == [("", "expected a number <= 2.5, got 3")]
    assert Validator({"minimum": 1}).is_valid("not a number")
    assert Validator({"minimum": 1}).is_valid(True)  # booleans are not numbers


def test_draft4_boolean_exclusive_bounds() -> None:
    assert not Validator({"minimum": 0, "exclusiveMinimum": True}).is_valid(0)
    assert Validator({"minimum": 0, "exclusiveMinimum": False}).is_valid(0)


def test_multiple_of() -> None:
    assert Validator({"multipleOf": 5}).is_valid(15)
    assert Validator({"multipleOf": 0.1}).is_valid(0.3)
    assert Validator({"multipleOf": 0.01}).is_valid(19.99)
    assert messages({"multipleOf": 5}, 7) == [("", "expected a multiple of 5, got 7")]
    assert not Validator({"multipleOf": 0.5}).is_valid(1.25)


def test_all_of() -> None:
    schema = {"allOf": [{"type": "object", "required": ["a"]}, {"required": ["b"]}]}
    assert messages(schema, {}) == [
        ("", "missing required property 'a'"),
        ("", "missing required property 'b'"),
    ]


def test_any_of_merges_plain_type_mismatches() -> None:
    schema = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert messages(schema, 3) == [("", "expected string or null, got integer 3")]
    assert Validator(schema).is_valid(None)


def test_any_of_explains_with_the_closest_alternative() -> None:
    schema = {
        "anyOf": [
            {"type": "string"},
            {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]},
        ]
    }
    assert messages(schema, {"id": "x"}) == [("id", 'expected integer, got string "x"')]


def test_one_of() -> None:
    schema = {"oneOf": [{"type": "integer"}, {"type": "number"}]}
    assert messages(schema, 2) == [("", "matches more than one oneOf alternative (#0 and #1)")]
    assert Validator(schema).is_valid(2.5)
    assert messages(schema, "x") == [("", 'expected integer or number, got string "x"')]


def test_not() -> None:
    assert messages({"not": {"type": "string"}}, "x") == [
        ("", "'x' is not allowed here (matches the 'not' schema)")
    ]
    assert Validator({"not": {"type": "string"}}).is_valid(1)


def test_if_then_else() -> None:
    schema = {
        "if": {"properties": {"kind": {"const": "dog"}}},
        "then": {"required": ["breed"]},
        "else": {"required": ["species"]},
    }
    assert messages(schema, {"kind": "dog"}) == [("", "missing required property 'breed'")]
    assert messages(schema, {"kind": "cat"}) == [("", "missing required property 'species'")]
    assert Validator({"if": {"type": "string"}}).is_valid(1)


def test_boolean_schemas() -> None:
    assert Validator(True).is_valid({"anything": 1})  # type: ignore[arg-type]
    assert messages(False, 1) == [("", "no value is allowed here")]
    assert messages({"properties": {"secret": False}}, {"secret": 1}) == [
        ("secret", "no value is allowed here")
    ]


def test_format_and_unknown_keywords_are_annotations() -> None:
    schema = {"type": "string", "format": "email", "x-whatever": {"deep": 1}, "example": 3}
    assert Validator(schema).is_valid("not an email")


def test_local_refs_to_defs_definitions_and_root() -> None:
    schema = {
        "$defs": {"id": {"type": "integer"}},
        "definitions": {"name": {"type": "string"}},
        "properties": {"id": {"$ref": "#/$defs/id"}, "name": {"$ref": "#/definitions/name"}},
    }
    assert messages(schema, {"id": "a", "name": 1}) == [
        ("id", 'expected integer, got string "a"'),
        ("name", "expected string, got integer 1"),
    ]


def test_refs_with_escaped_pointer_tokens() -> None:
    schema = {
        "$defs": {"a/b": {"type": "integer"}, "c~d": {"type": "string"}, "e f": {"type": "null"}},
        "prefixItems": [
            {"$ref": "#/$defs/a~1b"},
            {"$ref": "#/$defs/c~0d"},
            {"$ref": "#/$defs/e%20f"},
        ],
    }
    assert Validator(schema).is_valid([1, "x", None])
    assert len(Validator(schema).issues(["x", 1, 0])) == 3


def test_ref_to_anchor() -> None:
    schema = {"$defs": {"x": {"$anchor": "pos", "minimum": 0}}, "$ref": "#pos"}
    assert not Validator(schema).is_valid(-1)


def test_recursive_schema_validates_nested_data() -> None:
    schema = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "value": {"type": "integer"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                },
            }
        },
        "$ref": "#/$defs/node",
    }
    tree = {"value": 1, "children": [{"value": 2, "children": [{"value": "deep"}]}]}
    assert messages(schema, tree) == [
        ("children[0].children[0].value", 'expected integer, got string "deep"')
    ]


def test_self_referencing_ref_is_bounded() -> None:
    assert messages({"$ref": "#"}, 1) == [
        ("", "schema recursion is too deep ($ref nested too often)")
    ]
    loop = {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}
    assert len(Validator(loop).issues(1)) == 1


def test_deeply_nested_value_reports_instead_of_crashing() -> None:
    schema = {
        "$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}},
        "$ref": "#/$defs/n",
    }
    value: list[Any] = []
    for _ in range(5000):
        value = [value]
    issues = Validator(schema).issues(value)
    assert len(issues) == 1


@pytest.mark.parametrize(
    "ref",
    ["http://example.com/schema.json", "other.json#/defs/x", "https://x/y#/a", "//host/x"],
)
def test_non_local_refs_are_refused(ref: str) -> None:
    with pytest.raises(SchemaError, match="only local refs"):
        Validator({"properties": {"a": {"$ref": ref}}})


def test_ref_relative_to_the_root_id_is_local() -> None:
    schema = {
        "$id": "https://example.com/s.json",
        "$defs": {"x": {"type": "integer"}},
        "$ref": "https://example.com/s.json#/$defs/x",
    }
    assert not Validator(schema).is_valid("a")


def test_dangling_ref_is_a_schema_error() -> None:
    with pytest.raises(SchemaError, match="does not resolve"):
        Validator({"$ref": "#/$defs/missing"})


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "strin"},
        {"minLength": -1},
        {"maximum": "10"},
        {"multipleOf": 0},
        {"required": "name"},
        {"properties": []},
        {"anyOf": []},
        {"items": 3},
    ],
)
def test_malformed_schemas_are_schema_errors(schema: Any) -> None:
    with pytest.raises(SchemaError):
        Validator(schema)


def test_limit_bounds_the_number_of_issues() -> None:
    schema = {"type": "array", "items": {"type": "string"}}
    assert len(Validator(schema).issues(list(range(100)), limit=3)) == 3
    assert len(Validator(schema).issues(list(range(100)))) == 10


def test_issue_is_a_plain_value() -> None:
    issue = ValidationIssue("a", "b")
    assert issue == ValidationIssue("a", "b")
    with pytest.raises(AttributeError):
        issue.path = "c"  # type: ignore[misc]


def test_validator_is_reusable() -> None:
    v = Validator({"type": "object", "required": ["a"]})
    assert v.issues({}) == [ValidationIssue("", "missing required property 'a'")]
    assert v.issues({"a": 1}) == []
    assert v.issues({}) == [ValidationIssue("", "missing required property 'a'")]
