"""The runtime's validator (jsonschema-rs underneath): paths, messages, ECMA-262 patterns, numbers,
schema errors that say where, nothing fetched. Standard semantics at large are the official suite's
job (test_json_schema_suite.py)."""

from __future__ import annotations

from typing import Any

import pytest

from templates.runtime.jsonschema import SchemaError, ValidationIssue, Validator


def messages(schema: Any, instance: Any, limit: int = 10) -> list[tuple[str, str]]:
    return [(i.path, i.message) for i in Validator(schema).issues(instance, limit=limit)]


def test_valid_value_has_no_issues() -> None:
    schema = {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}
    assert Validator(schema).issues({"name": "rex", "tags": []}) == []
    assert Validator(schema).is_valid({"name": "rex"})


def test_paths_point_at_the_offending_value() -> None:
    schema = {
        "type": "object",
        "properties": {
            "body": {
                "properties": {"tags": {"items": {"type": "string"}}, "a b": {"type": "integer"}}
            }
        },
    }
    issues = Validator(schema).issues({"body": {"tags": ["x", 3], "a b": "no"}})
    assert sorted((i.path, i.location) for i in issues) == [
        ("body.tags[1]", ("body", "tags", 1)),
        ('body["a b"]', ("body", "a b")),
    ]


def test_messages_are_the_validators_with_long_values_cut_short() -> None:
    assert messages({"type": "integer"}, "a") == [("", '"a" is not of type "integer"')]
    assert messages({"required": ["a"]}, {}) == [("", '"a" is a required property')]
    long = "x" * 200
    [(_, message)] = messages({"type": "integer"}, long)
    assert message == '"' + "x" * 56 + '... is not of type "integer"'
    assert len(message) < 100


def test_a_nullable_value_spelled_portably_names_its_types_like_a_type_list() -> None:
    """Portable schemas spell ``["integer", "null"]`` as an ``anyOf`` with a null branch; a value of
    another type gets the message the type list would give, not "no schema in anyOf matched"."""
    nullable = {"anyOf": [{"type": "integer"}, {"type": "null"}], "description": "Count."}
    schema = {
        "type": "object",
        "properties": {"n": {"$ref": "#/$defs/N"}, "pet": {"anyOf": [PET, {"type": "null"}]}},
        "$defs": {"N": nullable},
    }
    assert messages(schema, {"n": "3", "pet": 5}) == [
        ("n", '"3" is not of types "null", "integer"'),
        ("pet", '5 is not of types "null", "object"'),
    ]
    assert messages({"type": ["integer", "null"]}, "3") == messages(nullable, "3")
    # an object that breaks the object branch inside says why from inside (Superset's list ids,
    # integers its document calls strings, read "not valid under any of the schemas"); null may
    # still stand in only for the nullable value as a whole
    [issue] = Validator(schema).issues({"pet": {"name": 5}})
    assert (issue.path, issue.message) == ("pet.name", '5 is not of type "string"')
    assert (issue.location, issue.inner) == (("pet",), ("name",))
    ids = {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]}
    assert messages({"properties": {"ids": ids}}, {"ids": ["a", 2, 1]}) == [
        ("ids[1]", '2 is not of type "string"'),
        ("ids[2]", '1 is not of type "string"'),
    ]
    deep = {"anyOf": [{"$ref": "#/$defs/Owner"}, {"type": "null"}]}
    owner = {
        "type": "object",
        "properties": {"pets": {"anyOf": [{"type": "array", "items": PET}, {"type": "null"}]}},
    }
    [issue] = Validator({"properties": {"owner": deep}, "$defs": {"Owner": owner}}).issues(
        {"owner": {"pets": [{"name": 1}]}}
    )
    assert (issue.path, issue.location) == ("owner.pets[0].name", ("owner",))


PET = {"type": "object", "properties": {"name": {"type": "string"}}}


def test_one_of_several_required_names_them_all() -> None:
    """A body that needs one field at least, flattened beside a path argument (``minProperties:
    1`` of a PATCH), says which arguments would do, not "no schema in anyOf matched"."""
    schema = {
        "type": "object",
        "properties": {"petId": {}, "name": {}, "tag": {}},
        "anyOf": [{"required": ["name"]}, {"required": ["tag"]}],
    }
    assert messages(schema, {"petId": 1}) == [("", 'at least one of "name", "tag" is required')]
    assert messages(schema, {"petId": 1, "tag": "x"}) == []
    # branches that say more than one name keep the library's message
    other = {"anyOf": [{"required": ["a", "b"]}, {"required": ["c"]}]}
    assert messages(other, {}) == [
        ("", "{} is not valid under any of the schemas listed in the 'anyOf' keyword")
    ]


def test_alternatives_of_a_type_and_some_values_are_said() -> None:
    """changedetection.io's snapshot: an integer, or the word "previous". The library says only
    that no branch matched; branches that ask for a type or some values are said in full."""
    schema = {
        "oneOf": [
            {"type": "integer", "description": "Unix timestamp"},
            {"type": "string", "enum": ["previous"]},
            {"const": None},
            {"type": ["boolean", "number"]},
        ]
    }
    assert messages(schema, "017") == [
        ("", '"017" is none of: integer; "previous"; null; boolean or number')
    ]
    # a branch that asks more than a type keeps the library's message (it could mislead)
    bounded = {"anyOf": [{"type": "integer", "minimum": 5}, {"enum": ["latest"]}]}
    assert messages(bounded, 3) == [
        ("", "3 is not valid under any of the schemas listed in the 'anyOf' keyword")
    ]


def test_pattern_dollar_does_not_match_before_a_trailing_newline() -> None:
    schema = {"pattern": "^[a-z0-9-]+$"}
    assert Validator(schema).is_valid("abc-1")
    assert messages(schema, "abc\n") == [("", '"abc\\n" does not match "^[a-z0-9-]+$"')]


@pytest.mark.parametrize(
    ("pattern", "value"),
    [(r"^\d+$", "١٢٣"), (r"^\w+$", "é"), (r"^\d+$", "１２")],
    ids=["arabic-indic digits", "accented letter", "fullwidth digits"],
)
def test_digit_and_word_classes_are_ascii(pattern: str, value: str) -> None:
    assert not Validator({"pattern": pattern}).is_valid(value)


def test_unicode_property_escapes_compile() -> None:
    assert Validator({"pattern": r"^\p{L}+$"}).is_valid("Ünïcödé")


def test_catastrophic_backtracking_pattern_answers() -> None:
    issues = messages({"pattern": "^(a+)+$"}, "a" * 30 + "!")
    assert issues == [("", '"' + "a" * 30 + '!" does not match "^(a+)+$"')]


@pytest.mark.parametrize("pattern", [r"^(ab)-\1$", "^(?!foo)[a-z]+$", "(?<=a)b", "(["])
def test_patterns_the_linear_engine_refuses_are_schema_errors(pattern: str) -> None:
    with pytest.raises(SchemaError, match="regex") as raised:
        Validator({"properties": {"a": {"pattern": pattern}}})
    assert raised.value.location == ("properties", "a", "pattern")
    assert raised.value.pointer == "/properties/a/pattern"


def test_multiple_of_is_exact_for_decimals() -> None:
    assert messages({"multipleOf": 0.01}, 10000000.001) == [
        ("", "10000000.001 is not a multiple of 0.01")
    ]
    assert Validator({"multipleOf": 0.01}).is_valid(19.99)
    assert Validator({"multipleOf": 0.1}).is_valid(0.3)


def test_integer_valued_floats_are_integers_in_schemas_and_values() -> None:
    validator = Validator({"type": "integer", "maxLength": 2.0})
    assert validator.is_valid(3.0)
    assert not validator.is_valid(True)


def test_unevaluated_properties_are_enforced() -> None:
    schema = {"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": False}
    assert Validator(schema).is_valid({"a": 1})
    assert messages(schema, {"a": 1, "b": 2}) == [
        ("", "Unevaluated properties are not allowed ('b' was unexpected)")
    ]


def test_format_is_an_annotation() -> None:
    assert Validator({"format": "email"}).is_valid("not an email")
    assert Validator({"format": "no-such-format"}).is_valid(1)


def test_dangling_ref_is_a_schema_error_naming_the_ref() -> None:
    with pytest.raises(SchemaError, match="does not exist") as raised:
        Validator({"properties": {"a": {"$ref": "#/$defs/missing"}}})
    assert raised.value.location == ("properties", "a", "$ref")


@pytest.mark.parametrize("ref", ["http://example.com/schema.json", "other.json#/defs/x"])
def test_refs_to_other_documents_are_never_fetched(ref: str) -> None:
    with pytest.raises(SchemaError, match="not present") as raised:
        Validator({"properties": {"a": {"$ref": ref}}})
    assert raised.value.location == ("properties", "a", "$ref")


def test_refs_to_documents_handed_in_resolve() -> None:
    resources = {"http://example.com/id.json": {"type": "integer"}}
    validator = Validator({"$ref": "http://example.com/id.json"}, resources=resources)
    assert validator.is_valid(1)
    assert not validator.is_valid("1")


def test_a_bad_keyword_value_is_a_schema_error_at_its_place() -> None:
    with pytest.raises(SchemaError) as raised:
        Validator({"items": {"minLength": -1}})
    assert raised.value.location == ("items", "minLength")
    with pytest.raises(SchemaError, match="object or a boolean"):
        Validator([])  # type: ignore[arg-type]


def test_values_that_are_not_json_are_issues_not_crashes() -> None:
    assert messages({"properties": {"a": {"type": "string"}}}, {"a": object()}) == [
        ("", "the value cannot be validated as JSON: Unsupported type: 'object'")
    ]
    assert not Validator({}).is_valid({1, 2})


def test_limit_and_reuse() -> None:
    schema = {"items": {"type": "string"}}
    assert len(Validator(schema).issues(list(range(100)), limit=3)) == 3
    assert len(Validator(schema).issues(list(range(100)))) == 10
    validator = Validator({"type": "object", "required": ["a"]})
    first = validator.issues({})
    assert (
        first
        == validator.issues({})
        == [ValidationIssue("", '"a" is a required property', keyword="required")]
    )
    # the keyword broken is said, also from inside a nullable value (argument_issues reads it)
    nullable = Validator({"anyOf": [{"type": "string", "pattern": "^urn:"}, {"type": "null"}]})
    assert [issue.keyword for issue in nullable.issues("abc")] == ["pattern"]


def test_boolean_schemas_and_the_schema_property() -> None:
    assert Validator(True).is_valid({"anything": 1})
    assert messages(False, 1) == [("", "False schema does not allow 1")]
    assert Validator({"type": "string"}).schema == {"type": "string"}


def test_a_structure_failing_the_one_branch_of_its_type_is_told_from_inside_it() -> None:
    """NocoDB's bodies: one record or an array of them. "not valid under any of the schemas"
    said nothing of the field at fault."""
    record = {
        "type": "object",
        "properties": {"Count": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
    }
    schema = {
        "type": "object",
        "properties": {
            "body": {
                "anyOf": [{"$ref": "#/$defs/R"}, {"type": "array", "items": {"$ref": "#/$defs/R"}}]
            }
        },
        "$defs": {"R": record},
    }
    assert messages(schema, {"body": {"Count": "abc"}}) == [
        ("body.Count", '"abc" is not of types "null", "integer"')
    ]
    assert messages(schema, {"body": [{"Count": "x"}]}) == [
        ("body[0].Count", '"x" is not of types "null", "integer"')
    ]
    wrapped = {"oneOf": [{"type": "object", "required": ["fields"]}, {"type": "array"}]}
    assert messages(wrapped, {"Title": "x"}) == [("", '"fields" is a required property')]


def _variant(tag: str, field: str) -> dict[str, Any]:
    return {
        "allOf": [
            {
                "type": "object",
                "properties": {"type": {"type": "string", "enum": [tag]}},
                "required": ["type"],
            },
            {"type": "object", "properties": {field: {"type": "string"}}, "required": [field]},
        ]
    }


def test_a_union_told_apart_by_a_fixed_property_is_told_from_inside_the_branch_named() -> None:
    """n8n's log stream destinations: a oneOf of webhook, syslog and sentry objects, each fixing
    ``type``; "not valid under any of the schemas" said nothing of the url a webhook needs."""
    schema = {
        "type": "object",
        "properties": {
            "body": {
                "oneOf": [
                    {"$ref": "#/$defs/webhook"},
                    {"$ref": "#/$defs/syslog"},
                    _variant("sentry", "dsn"),
                ]
            }
        },
        "$defs": {"webhook": _variant("webhook", "url"), "syslog": _variant("syslog", "host")},
    }
    assert messages(schema, {"body": {"type": "webhook"}}) == [
        ("body", '"url" is a required property')
    ]
    assert messages(schema, {"body": {"type": "syslog", "host": 3}}) == [
        ("body.host", '3 is not of type "string"')
    ]
    assert messages(schema, {"body": {"type": "webhok", "url": "https://x"}}) == [
        ("body.type", '"webhok" is not one of "webhook", "syslog", "sentry"')
    ]
    assert messages(schema, {"body": {"url": "https://x"}}) == [
        ("body", '"type" is a required property: one of "webhook", "syslog", "sentry"')
    ]
    assert messages(schema, {"body": {"type": "sentry", "dsn": "d"}}) == []
