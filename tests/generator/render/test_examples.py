"""Example instances for smoke tests and fake responses: small, deterministic and valid."""

from __future__ import annotations

import re
import warnings
from typing import Any

import jsonschema
import pytest

from openapi2mcp.render.examples import NoExample, conforms, example_instance

DEFS: dict[str, Any] = {
    "Pet": {
        "type": "object",
        "required": ["id", "name"],
        "properties": {
            "id": {"type": "integer", "minimum": 1},
            "name": {"type": "string", "minLength": 3},
            "tag": {"type": "string"},
            "parent": {"$ref": "#/$defs/Pet"},
        },
    },
    "Tree": {
        "type": "object",
        "required": ["value", "children"],
        "properties": {
            "value": {"type": "integer"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
        },
    },
    "Chain": {
        "type": "object",
        "required": ["next"],
        "properties": {"next": {"anyOf": [{"$ref": "#/$defs/Chain"}, {"type": "null"}]}},
    },
    "Endless": {
        "type": "object",
        "required": ["next"],
        "properties": {"next": {"$ref": "#/$defs/Endless"}},
    },
    "Cat": {
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}},
    },
    "Dog": {
        "type": "object",
        "required": ["kind", "good"],
        "properties": {"kind": {"const": "dog"}, "good": {"type": "boolean"}},
    },
    "a/b~c": {"type": "string", "enum": ["odd"]},
    "Status": {"type": "string", "enum": ["active", "archived"]},
}

CASES: list[tuple[str, Any, Any]] = [
    ("plain string", {"type": "string"}, "string"),
    ("date", {"type": "string", "format": "date"}, "2024-01-01"),
    ("date-time", {"type": "string", "format": "date-time"}, "2024-01-01T00:00:00Z"),
    ("email", {"type": "string", "format": "email"}, "user@example.com"),
    ("uuid", {"type": "string", "format": "uuid"}, "00000000-0000-4000-8000-000000000000"),
    ("uuid4", {"type": "string", "format": "uuid4"}, "00000000-0000-4000-8000-000000000000"),
    ("uuid1", {"type": "string", "format": "uuid1"}, "00000000-0000-1000-8000-000000000000"),
    ("uri", {"type": "string", "format": "uri"}, "https://example.com"),
    ("ipv4", {"type": "string", "format": "ipv4"}, "192.0.2.1"),
    ("minLength pads", {"type": "string", "minLength": 10}, "stringxxxx"),
    ("maxLength cuts", {"type": "string", "maxLength": 3}, "str"),
    ("hex sha", {"type": "string", "pattern": "^[a-f0-9]{40}$"}, "a" * 40),
    ("code pattern", {"type": "string", "pattern": "^[A-Z]{2}-\\d{3}$"}, "AA-000"),
    ("alternation", {"type": "string", "pattern": "^(asc|desc)$"}, "asc"),
    ("negated class", {"type": "string", "pattern": "^[^a-z]+$"}, "A"),
    (
        "unreadable pattern uses the example",
        {"type": "string", "pattern": "^\\p{L}+$", "examples": ["abc"]},
        "abc",
    ),
    ("integer", {"type": "integer"}, 0),
    ("minimum", {"type": "integer", "minimum": 5}, 5),
    ("exclusiveMinimum", {"type": "integer", "exclusiveMinimum": 5}, 6),
    ("negative maximum", {"type": "integer", "maximum": -3}, -3),
    ("open interval", {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}, 0.5),
    ("multipleOf", {"type": "integer", "multipleOf": 7, "minimum": 10}, 14),
    ("fractional step", {"type": "number", "multipleOf": 0.01, "minimum": 0.015}, 0.02),
    ("integer of half steps", {"type": "integer", "multipleOf": 1.5, "minimum": 1}, 3),
    ("boolean", {"type": "boolean"}, False),
    ("null", {"type": "null"}, None),
    ("const wins", {"type": "integer", "const": 42, "examples": [1]}, 42),
    ("first example", {"type": "string", "examples": ["ex1", "ex2"], "default": "d"}, "ex1"),
    ("default", {"type": "string", "default": "d", "enum": ["a", "d"]}, "d"),
    ("enum", {"enum": ["b", "c"]}, "b"),
    ("invalid example skipped", {"type": "string", "examples": ["toolong"], "maxLength": 3}, "str"),
    (
        "invalid date example",
        {"type": "string", "format": "date", "examples": ["31/12/2024"]},
        "2024-01-01",
    ),
    ("ref", {"$ref": "#/$defs/Pet"}, {"id": 1, "name": "string"}),
    ("escaped ref", {"$ref": "#/$defs/a~1b~0c"}, "odd"),
    ("ref with siblings", {"$ref": "#/$defs/Status", "default": "archived"}, "archived"),
    (
        "array of objects has one",
        {"type": "array", "items": {"$ref": "#/$defs/Pet"}},
        [{"id": 1, "name": "string"}],
    ),
    ("array of scalars is empty", {"type": "array", "items": {"type": "string"}}, []),
    ("maxItems 0", {"type": "array", "items": {"$ref": "#/$defs/Pet"}, "maxItems": 0}, []),
    (
        "unique items",
        {"type": "array", "items": {"type": "integer"}, "minItems": 3, "uniqueItems": True},
        [0, 1, 2],
    ),
    (
        "unique strings",
        {"type": "array", "items": {"type": "string"}, "minItems": 2, "uniqueItems": True},
        ["string", "string1"],
    ),
    (
        "prefixItems",
        {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "minItems": 2},
        [0, "string"],
    ),
    ("contains", {"type": "array", "contains": {"type": "integer", "minimum": 3}}, [3]),
    ("recursive array stays empty", {"$ref": "#/$defs/Tree"}, {"value": 0, "children": []}),
    ("recursive nullable", {"$ref": "#/$defs/Chain"}, {"next": None}),
    (
        "oneOf picks exclusive branch",
        {"oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]},
        {"kind": "cat"},
    ),
    ("oneOf of types", {"oneOf": [{"type": "string", "maxLength": 2}, {"type": "integer"}]}, "st"),
    (
        "oneOf of objects with only optional properties",
        {
            "oneOf": [
                {
                    "type": "object",
                    "properties": {
                        "labels": {"type": "array", "minItems": 1, "items": {"type": "string"}}
                    },
                },
                {
                    "type": "object",
                    "properties": {
                        "labels": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/Cat"}}
                    },
                },
            ]
        },
        {"labels": ["string"]},
    ),
    (
        "anyOf skips impossible",
        {"anyOf": [{"type": "string", "minLength": 5, "maxLength": 2}, {"type": "integer"}]},
        0,
    ),
    (
        "allOf merges",
        {
            "allOf": [
                {"$ref": "#/$defs/Pet"},
                {
                    "type": "object",
                    "required": ["extra"],
                    "properties": {"extra": {"type": "boolean"}},
                },
            ]
        },
        {"id": 1, "name": "string", "extra": False},
    ),
    (
        "allOf bounds",
        {"allOf": [{"type": "integer", "minimum": 2}, {"minimum": 4, "maximum": 9}]},
        4,
    ),
    ("type list skips null", {"type": ["null", "string"]}, "string"),
    (
        "minProperties",
        {"type": "object", "minProperties": 2, "properties": {"a": {"type": "string"}}},
        {"a": "string", "key1": "example"},
    ),
    (
        "additionalProperties schema",
        {"type": "object", "required": ["x"], "additionalProperties": {"type": "integer"}},
        {"x": 0},
    ),
    (
        "patternProperties",
        {
            "type": "object",
            "required": ["n1"],
            "patternProperties": {"^n": {"type": "number", "minimum": 1}},
        },
        {"n1": 1},
    ),
    (
        "optional properties left out",
        {"type": "object", "properties": {"a": {"type": "string"}}},
        {},
    ),
    # any value: not null, which a server reads as a body or field not given
    ("empty schema", {}, "example"),
    ("true schema", True, "example"),
    ("not null", {"not": {"type": "null"}}, "example"),
]


@pytest.mark.parametrize(("schema", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_example_is_small_deterministic_and_valid(schema: Any, expected: Any) -> None:
    value = example_instance(schema, DEFS)
    assert value == expected
    assert type(value) is type(expected)
    root = {**schema, "$defs": DEFS} if isinstance(schema, dict) else schema
    validator = jsonschema.Draft202012Validator(root, format_checker=jsonschema.FormatChecker())
    if "\\p{" not in str(schema):  # jsonschema compiles patterns with Python's re too
        validator.validate(value)
    assert example_instance(schema, DEFS) == value


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        ({"type": "integer", "minimum": 3, "maximum": 2}, "no number satisfies the bounds"),
        # ECMA-262 in linear time: the server's validator refuses lookaround and backreferences
        ({"type": "string", "pattern": "^(?!foo)[a-z]+$"}, "server cannot compile"),
        ({"type": "string", "pattern": "^(ab)-\\1$"}, "server cannot compile"),
        ({"type": "string", "minLength": 5, "maxLength": 2}, "minLength exceeds maxLength"),
        ({"$ref": "#/$defs/Endless"}, re.escape("#/$defs/Endless refers back to itself")),
        ({"type": "object", "required": ["x"], "additionalProperties": False}, "accepts no value"),
        (False, "accepts no value"),
        ({"$ref": "#/$defs/Missing"}, re.escape("unresolvable reference '#/$defs/Missing'")),
        ({"$ref": "other.json#/Pet"}, re.escape("only #/$defs/ references are supported")),
        ({"type": "string", "pattern": "^\\p{L}+$"}, "cannot be read"),
        ({"allOf": [{"type": "string"}, {"type": "integer"}]}, "incompatible types"),
        ({"type": "string", "enum": [1, 2]}, "no enum value satisfies"),
        (
            {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 50}]},
            "does not satisfy every constraint",
        ),
    ],
)
def test_no_example(schema: Any, reason: str) -> None:
    with pytest.raises(NoExample, match=reason):
        example_instance(schema, DEFS)


def test_deep_nesting_gives_up() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(100):
        schema = {"type": "object", "required": ["x"], "properties": {"x": schema}}
    with pytest.raises(NoExample, match="nests too deeply"):
        example_instance(schema, {})


def test_recursive_schema_keeps_optional_recursion_out() -> None:
    assert example_instance({"$ref": "#/$defs/Pet"}, DEFS) == {"id": 1, "name": "string"}
    tree_list = {"type": "array", "items": {"$ref": "#/$defs/Tree"}}
    assert example_instance(tree_list, DEFS) == [{"value": 0, "children": []}]


def test_a_pattern_python_would_read_otherwise_is_checked_without_a_warning() -> None:
    """ECMA-262's "[[" is a set holding "["; Python warns (FutureWarning) that it may one day read
    it as a nested set: the generator's user must not see that on stderr."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert conforms({"type": "string", "pattern": "^[[a]+$"}, "[a", {})


def test_patterns_are_matched_as_the_generated_server_matches_them() -> None:
    """ECMA-262 in linear time, by the server's own validator: BeezUP's URL pattern backtracks for
    ever in Python's re on a value it does not match (the generator hung on that spec), and "$" does
    not match before a trailing line break as Python's does."""
    beezup = r"^(https?:\/\/)?([\da-z\.-]+)\.([a-z\.]{2,6})([\/\w \.-]*)*\/?$"
    url = "https://www.gravatar.com/avatar/205e460b479e2e5b48aec07710c08d50?d=mm"
    assert not conforms({"type": "string", "pattern": beezup}, url, {})
    assert conforms({"type": "string", "pattern": beezup}, "https://example.com/a/b", {})
    assert not conforms({"type": "string", "pattern": "^a$"}, "a\n", {})
