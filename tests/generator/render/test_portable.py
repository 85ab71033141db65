"""Portable schema spellings (render/portable.py): what every function-calling dialect accepts.

Each spelling the module chooses, shown on small schemas. The rules of the MCP Inspector's
schema-portability lint are restated here (``findings``: a ``type`` list, a schema that constrains
nothing, a bare boolean where a schema object is expected, a reference to another document), and so
is the relaxation of lenient output schemas as it was before portable spellings (``old_lenient``,
with a root of one value admitting ``null`` since):
``test_portable_random.py`` and ``test_portable_corpus.py`` judge the rewritten schemas by both.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from openapi2mcp.render.compact import (
    compact_input,
    lenient_output,
    output_schema,
    shared_definitions,
)
from openapi2mcp.render.portable import ANY_VALUE, portable

NULL = {"type": "null"}
NAMES = ("a", "b", "c")
TYPES = ("object", "array", "string", "integer", "number", "boolean", "null")

# -- the Inspector's portability rules, restated ----------------------------------------------------

_BOOLEAN_VALUED = {"additionalProperties", "unevaluatedProperties", "additionalItems"}
_BOOLEAN_VALUED |= {"unevaluatedItems"}
_MAP_POSITIONS = ("properties", "patternProperties", "dependentSchemas", "dependencies")
_MAP_POSITIONS += ("$defs", "definitions")
_LIST_POSITIONS = ("allOf", "anyOf", "oneOf", "prefixItems")
_VALUE_POSITIONS = ("items", "contains", "not", "propertyNames", "if", "then", "else")
_VALUE_POSITIONS += (*sorted(_BOOLEAN_VALUED), "contentSchema")
# what counts as saying something about an instance (format and content keywords included)
_CONSTRAINING = {"type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum"}
_CONSTRAINING |= {"exclusiveMinimum", "maxLength", "minLength", "pattern", "format"}
_CONSTRAINING |= {"contentMediaType", "contentEncoding", "contentSchema", "maxItems", "minItems"}
_CONSTRAINING |= {"uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties"}
_CONSTRAINING |= {"required", "dependentRequired", "allOf", "anyOf", "oneOf", "not", "items"}
_CONSTRAINING |= {"prefixItems", "contains", "additionalItems", "unevaluatedItems", "properties"}
_CONSTRAINING |= {"patternProperties", "additionalProperties", "unevaluatedProperties"}
_CONSTRAINING |= {"propertyNames", "dependentSchemas", "dependencies", "$ref", "$dynamicRef"}
_CONSTRAINING |= {"$recursiveRef"}


def findings(schema: Any, path: str = "", keyword: str | None = None) -> list[tuple[str, str]]:
    """(rule, path) of every spelling the Inspector calls unportable in ``schema``."""
    if isinstance(schema, bool):
        return [] if keyword in _BOOLEAN_VALUED else [("boolean-schema", path)]
    if not isinstance(schema, Mapping):
        return []
    found: list[tuple[str, str]] = []
    kind = schema.get("type")
    unique = isinstance(kind, list) and bool(kind) and len(set(kind)) == len(kind)
    if unique and all(k in TYPES for k in kind):
        found.append(("type-union", path))
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref and not ref.startswith("#"):
        found.append(("remote-ref", path))
    constrains = any(key in _CONSTRAINING for key in schema) or (
        "if" in schema and ("then" in schema or "else" in schema)
    )
    if not constrains and keyword != "not":
        found.append(("untyped-schema", path))
    for key in _MAP_POSITIONS:
        if isinstance(schema.get(key), Mapping):
            for name, sub in schema[key].items():
                found += findings(sub, f"{path}.{key}.{name}", key)
    for key in _LIST_POSITIONS:
        if isinstance(schema.get(key), list):
            for index, sub in enumerate(schema[key]):
                found += findings(sub, f"{path}.{key}[{index}]", key)
    for key in _VALUE_POSITIONS:
        if key not in schema:
            continue
        if key == "items" and isinstance(schema[key], list):
            for index, sub in enumerate(schema[key]):
                found += findings(sub, f"{path}.items[{index}]", key)
        else:
            found += findings(schema[key], f"{path}.{key}", key)
    return found


# -- the relaxation as it was before portable spellings (the oracle of the lenient schemas) ---------

_OLD_DROPPED = {"required", "dependentRequired", "dependentSchemas", "enum", "const", "pattern"}
_OLD_DROPPED |= {"minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum"}
_OLD_DROPPED |= {"exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems"}
_OLD_DROPPED |= {"contains", "minContains", "maxContains", "minProperties", "maxProperties"}
_OLD_DROPPED |= {"propertyNames", "not", "if", "then", "else", "discriminator"}
_MAPS = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
_LISTS = {"allOf", "anyOf", "oneOf", "prefixItems"}
_VALUES = {"items", "additionalItems", "additionalProperties", "unevaluatedItems", "contains"}
_VALUES |= {"unevaluatedProperties", "propertyNames", "not", "if", "then", "else"}


def old_lenient(schema: Any, root: bool = True) -> Any:
    if schema is False:
        return True
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _OLD_DROPPED:
            continue
        if key in ("additionalProperties", "unevaluatedProperties", "unevaluatedItems"):
            if isinstance(value, Mapping):
                out[key] = old_lenient(value, False)
            continue
        if key in _MAPS and isinstance(value, Mapping):
            relaxed: Any = {name: old_lenient(sub, False) for name, sub in value.items()}
        elif (key in _LISTS or key == "oneOf") and isinstance(value, list):
            relaxed = [old_lenient(sub, False) for sub in value]
        elif key in _VALUES:
            relaxed = old_lenient(value, False)
        else:
            relaxed = value
        out["anyOf" if key == "oneOf" else key] = relaxed
    kind = out.get("type")
    # since a root of one value admits null too (a 204, or an object where a string is documented)
    scalars = ("string", "number", "integer", "boolean")
    scalar_root = root and (
        kind in scalars or (isinstance(kind, list) and kind in ([k] for k in scalars))
    )
    if scalar_root and isinstance(kind, list):
        kind = out["type"] = kind[0]
    if (not root or scalar_root) and isinstance(kind, str) and kind != "null":
        out["type"] = [kind, "null"]
    elif not root and isinstance(kind, list) and "null" not in kind:
        out["type"] = [*kind, "null"]
    return out


# values every schema is tried on: each JSON type, near the bounds the random schemas use
PROBES = [None, True, 0, 1, 2.5, "", "a", "ab", [], [None], ["a", 1], [1, 1], {}, {"a": None}]
PROBES += [{"a": "a", "b": 1}, {"b": [], "c": {}}, {"x": "ab"}]


def test_a_nullable_value_is_an_any_of_with_a_null_branch_keeping_its_own_keywords() -> None:
    schema = {
        "type": ["string", "null"],
        "maxLength": 5,
        "format": "date",
        "description": "When.",
        "enum": ["a", None],
    }
    assert portable(schema) == {
        "anyOf": [{"type": "string", "maxLength": 5, "format": "date"}, NULL],
        "description": "When.",
        "enum": ["a", None],
    }


def test_each_branch_takes_the_keywords_of_its_type() -> None:
    schema = {
        "type": ["object", "array", "integer", "number"],
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "items": {"type": "string"},
        "minimum": 1,
        "format": "int32",
        "$ref": "#/$defs/X",
    }
    assert portable(schema) == {
        "anyOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"type": "array", "items": {"type": "string"}},
            {"type": "integer", "minimum": 1, "format": "int32"},
            {"type": "number", "minimum": 1, "format": "int32"},
        ],
        "$ref": "#/$defs/X",
    }


def test_a_type_list_beside_an_any_of_goes_into_all_of() -> None:
    schema = {
        "type": ["string", "null"],
        "anyOf": [{"minLength": 2}, {"const": None}],
        "allOf": [{"maxLength": 4}],
    }
    assert portable(schema) == {
        "allOf": [{"maxLength": 4}, {"anyOf": [{"type": "string"}, NULL]}],
        "anyOf": [{"minLength": 2}, {"const": None}],
    }


def test_unevaluated_keywords_keep_their_siblings_beside_them() -> None:
    schema = {
        "type": ["object", "null"],
        "properties": {"a": {"type": "integer"}},
        "allOf": [{"properties": {"b": {"type": "integer"}}}],
        "unevaluatedProperties": False,
    }
    assert portable(schema) == {
        "anyOf": [{"type": "object"}, NULL],
        "properties": {"a": {"type": "integer"}},
        "allOf": [{"properties": {"b": {"type": "integer"}}}],
        "unevaluatedProperties": False,
    }


def test_a_one_type_list_is_that_type() -> None:
    assert portable({"type": ["integer"], "minimum": 0}) == {"type": "integer", "minimum": 0}


def test_a_schema_that_constrains_nothing_says_it_takes_any_value() -> None:
    assert portable({}) == ANY_VALUE
    assert portable({"description": "Free-form metadata."}) == {
        "description": "Free-form metadata.",
        **ANY_VALUE,
    }
    # the runtime's validator treats formats as annotations: a format alone constrains nothing
    assert portable({"format": "uuid"}) == {"format": "uuid", **ANY_VALUE}
    assert portable({"not": {}}) == {"not": {}}


def test_booleans_become_schema_objects_except_as_keyword_values() -> None:
    schema = {
        "type": "object",
        "properties": {"a": True, "b": False},
        "additionalProperties": False,
        "items": True,
        "not": True,
        "$defs": {"Never": False},
    }
    assert portable(schema) == {
        "type": "object",
        "properties": {"a": ANY_VALUE, "b": {"not": {}}},
        "additionalProperties": False,
        "items": ANY_VALUE,
        "not": {},
        "$defs": {"Never": {"not": {}}},
    }


def test_nested_any_of_lists_are_merged_and_repeats_dropped() -> None:
    schema = {"anyOf": [{"anyOf": [{"type": "string"}, NULL]}, NULL, {"type": "integer"}]}
    assert portable(schema) == {"anyOf": [{"type": "string"}, NULL, {"type": "integer"}]}


def test_branches_alike_in_outline_are_told_apart_by_what_they_hold() -> None:
    """Branches are compared whole where their keywords and words meet: a repeat goes, a branch
    that differs deeper stays."""
    small = {"type": "object", "properties": {"a": {"type": "string"}}}
    other = {"type": "object", "properties": {"a": {"type": "integer"}}}
    schema = {"anyOf": [small, other, dict(small), {"type": "object"}, NULL, dict(NULL)]}
    assert portable(schema) == {"anyOf": [small, other, {"type": "object"}, NULL]}


def test_shared_definitions_are_made_once_and_mean_the_same() -> None:
    """Within ``shared_definitions``, schemas that hold one definition object share what is made
    of it, and every schema comes out as it does without."""
    pet = {"type": ["object", "null"], "title": "Pet", "properties": {"tag": {}, "n": {}}}
    first = {
        "type": "object",
        "properties": {"pet": {"$ref": "#/$defs/Pet"}},
        "$defs": {"Pet": pet},
    }
    second = {"type": "string", "$defs": {"Pet": pet}, "description": "a root of one value"}
    third = {"type": "array", "items": {"$ref": "#/$defs/Pet"}, "$defs": {"Pet": pet}}
    schemas = (first, second, third)
    alone = [(compact_input(s, 0), lenient_output(compact_input(s, 0))) for s in schemas]
    with shared_definitions():
        shared = [(compact_input(s, 0), lenient_output(compact_input(s, 0))) for s in schemas]
    assert shared == alone
    assert json.dumps(shared) == json.dumps(alone)  # keys in the same places
    assert shared[0][0]["$defs"]["Pet"] is shared[1][0]["$defs"]["Pet"]
    assert shared[0][1]["$defs"]["Pet"] is shared[2][1]["$defs"]["Pet"]
    assert alone[0][0]["$defs"]["Pet"] is not alone[1][0]["$defs"]["Pet"]


def test_definitions_and_header_arguments_are_spelled_portably_too() -> None:
    schema = {
        "type": "object",
        "properties": {
            "X-Trace": {"type": "string", "x-mcp-header": "X-Trace"},
            "pet": {"$ref": "#/$defs/Pet"},
        },
        "$defs": {"Pet": {"type": ["object", "null"], "properties": {"tag": {}}}},
    }
    assert portable(schema) == {
        "type": "object",
        "properties": {
            "X-Trace": {"type": "string", "x-mcp-header": "X-Trace"},
            "pet": {"$ref": "#/$defs/Pet"},
        },
        "$defs": {"Pet": {"anyOf": [{"type": "object", "properties": {"tag": ANY_VALUE}}, NULL]}},
    }


def test_lenient_schemas_put_one_null_branch_beside_the_alternatives() -> None:
    documented = {
        "type": "object",
        "properties": {"kind": {"oneOf": [{"type": "string"}, {"type": "integer", "minimum": 1}]}},
        "required": ["kind"],
    }
    assert lenient_output(documented) == {
        "type": "object",
        "properties": {"kind": {"anyOf": [{"type": "string"}, {"type": "integer"}, NULL]}},
    }
    assert lenient_output(portable(documented)) == lenient_output(documented)


def test_the_rules_restated_here_catch_what_the_inspector_reports() -> None:
    unportable = {
        "type": "object",
        "properties": {"a": {"type": ["string", "null"]}, "b": {}, "c": True},
        "additionalProperties": True,
        "not": {},
    }
    assert findings(unportable) == [
        ("type-union", ".properties.a"),
        ("untyped-schema", ".properties.b"),
        ("boolean-schema", ".properties.c"),
    ]


def test_an_optional_answer_keeps_its_shape_in_the_compact_output_schema() -> None:
    # Phoenix (FastAPI): a 200 of anyOf [{$ref: UploadDatasetResponseBody}, {type: null}] had
    # become an anyOf of every JSON type ({"result": <any>} in 2025-11-25)
    body = {
        "type": "object",
        "properties": {
            "data": {"type": "object", "properties": {"dataset_id": {"type": "string"}}}
        },
        "required": ["data"],
    }
    schema = {"anyOf": [{"$ref": "#/$defs/Body"}, {"type": "null"}], "$defs": {"Body": body}}
    assert output_schema(schema, "compact", 200) == {
        "anyOf": [
            {"type": "object", "properties": {"data": {"type": "object"}}, "required": ["data"]},
            {"type": "null"},
        ]
    }


def test_an_optional_property_keeps_its_type_in_the_compact_output_schema() -> None:
    # Airflow 3 (FastAPI): a DAG run's duration, anyOf [{type: number}, {type: null}], had become
    # an anyOf of every JSON type (372 of its 767 output properties)
    schema = {
        "type": "object",
        "properties": {
            "duration": {"anyOf": [{"type": "number"}, {"type": "null"}]},
            "note": {"anyOf": [{"$ref": "#/$defs/Note"}, {"type": "null"}]},
            "tags": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
        },
        "$defs": {"Note": {"type": "object", "properties": {"text": {"type": "string"}}}},
    }
    assert output_schema(schema, "compact", 200)["properties"] == {
        "duration": {"anyOf": [{"type": "number"}, {"type": "null"}]},
        "note": {"anyOf": [{"type": "object"}, {"type": "null"}]},
        "tags": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
    }
