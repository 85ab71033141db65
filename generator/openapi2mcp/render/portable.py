"""Portable spellings of the schemas tools advertise: what every major function-calling dialect takes.

JSON Schema 2020-12 lets one meaning be written several ways, and the dialects clients map tool
schemas onto (OpenAI's function calling, Gemini's OpenAPI subset, ...) accept only some of them.
``portable`` rewrites a schema into the spellings they share, and the result accepts exactly the same
instances as the schema it came from (the runtime validates arguments and outputs against it):

- a ``type`` list becomes ``anyOf`` with one branch per type, each branch carrying the keywords that
  only ever apply to values of its type (``properties`` to objects, ``items`` to arrays,
  ``maxLength`` to strings, ...); keywords that apply to every value (``enum``, ``allOf``,
  ``$ref``, ...) and annotations (``description``, ``default``) stay beside it. A nullable value is
  thus ``{"anyOf": [{"type": "string", ...}, {"type": "null"}]}``. Where the schema already has an
  ``anyOf``, the branches go into ``allOf`` instead; with ``unevaluatedProperties`` or
  ``unevaluatedItems`` beside them nothing moves into the branches (those keywords must keep seeing
  the annotations of their siblings), the branches then being bare types.
- a schema that constrains nothing (``{}``, only annotations, ``format`` alone: our validator
  treats formats as annotations) accepts any JSON value, and says so: ``anyOf`` of the six JSON
  types (``ANY_VALUE``), which every dialect can read, where ``{}`` reads as "unknown". Under ``not``
  it stays ``{}``: ``not: {}`` is the usual spelling of the schema nothing satisfies.
- a boolean where a schema is expected: ``true`` becomes that same any-value schema (``{}`` under
  ``not``), ``false`` becomes ``{"not": {}}``; booleans stay where a keyword takes them as its value
  (``additionalProperties: false``).
- an ``anyOf`` branch that is itself only an ``anyOf`` is merged into its parent, and a branch that
  repeats an earlier one goes.

Nothing else changes (a reference to another document cannot be made portable here; the loader
never leaves one). The MCP Inspector's schema portability lint finds nothing in the result.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..ir.schema_utils import SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_VALUES

__all__ = ["ANY_VALUE", "JSON_TYPES", "constrains", "portable"]

# the JSON types every value has one of ("integer" is a kind of "number")
JSON_TYPES = ("object", "array", "string", "number", "boolean", "null")
# any JSON value, in the spelling every dialect reads
ANY_VALUE: dict[str, Any] = {"anyOf": [{"type": kind} for kind in JSON_TYPES]}
_KNOWN_TYPES = frozenset({*JSON_TYPES, "integer"})

# subschema positions beyond the IR's vocabulary: draft-07 dependencies, the decoded content
_MAPS = SCHEMA_MAPS | {"dependencies"}
_VALUES = SCHEMA_VALUES | {"contentSchema"}
# where a boolean is a keyword's value rather than a schema, and dialects take it as such
_BOOLEAN_VALUED = frozenset(
    {"additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems"}
)
_UNEVALUATED = frozenset({"unevaluatedProperties", "unevaluatedItems"})

# keywords that say something about an instance (assertions, applicators, references); `format`
# and the content keywords are annotations to the runtime's validator, so they do not count
_CONSTRAINING = frozenset(
    {
        "type",
        "enum",
        "const",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "pattern",
        "maxItems",
        "minItems",
        "uniqueItems",
        "maxContains",
        "minContains",
        "maxProperties",
        "minProperties",
        "required",
        "dependentRequired",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "items",
        "prefixItems",
        "contains",
        "additionalItems",
        "unevaluatedItems",
        "properties",
        "patternProperties",
        "additionalProperties",
        "unevaluatedProperties",
        "propertyNames",
        "dependentSchemas",
        "dependencies",
        "contentSchema",
        "$ref",
        "$dynamicRef",
        "$recursiveRef",
    }
)

# keywords that only ever apply to values of one kind: vacuous for every other type
_NUMERIC = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_TYPE_KEYWORDS: dict[str, frozenset[str]] = {
    "object": frozenset(
        {
            "properties",
            "patternProperties",
            "additionalProperties",
            "unevaluatedProperties",
            "required",
            "dependentRequired",
            "dependentSchemas",
            "dependencies",
            "propertyNames",
            "minProperties",
            "maxProperties",
        }
    ),
    "array": frozenset(
        {
            "items",
            "prefixItems",
            "additionalItems",
            "unevaluatedItems",
            "contains",
            "minContains",
            "maxContains",
            "minItems",
            "maxItems",
            "uniqueItems",
        }
    ),
    "string": frozenset(
        {
            "minLength",
            "maxLength",
            "pattern",
            "contentEncoding",
            "contentMediaType",
            "contentSchema",
        }
    ),
    "number": frozenset(_NUMERIC),
    "integer": frozenset(_NUMERIC),
}


def portable(schema: Any) -> Any:
    """``schema`` in spellings every dialect accepts, accepting the same instances (see the module)."""
    return _schema(schema, None)


def constrains(schema: Mapping[str, Any]) -> bool:
    """Whether ``schema`` (an object) can reject any value at all, judged by its keywords alone."""
    return any(key in _CONSTRAINING for key in schema) or (
        "if" in schema and ("then" in schema or "else" in schema)
    )


def _schema(node: Any, keyword: str | None) -> Any:
    """``node``, found as the value (or one value) of ``keyword`` (``None``: the root)."""
    if isinstance(node, bool):
        if keyword in _BOOLEAN_VALUED:
            return node
        if keyword == "not":
            return {} if node else {"not": {}}
        return _any_value() if node else {"not": {}}
    if not isinstance(node, Mapping):
        return node
    out = {key: _children(key, value) for key, value in node.items()}
    kinds = out.get("type")
    if isinstance(kinds, list) and kinds and all(k in _KNOWN_TYPES for k in kinds):
        out = _split_types(out, list(dict.fromkeys(kinds)))
    if keyword != "not" and not constrains(out):
        out = {**out, **_any_value()}
    anyof = out.get("anyOf")
    if isinstance(anyof, list):
        out["anyOf"] = _merged_branches(anyof)
    return out


def _children(key: str, value: Any) -> Any:
    if key in _MAPS and isinstance(value, Mapping):
        return {name: _schema(sub, key) for name, sub in value.items()}
    if key in SCHEMA_LISTS and isinstance(value, list | tuple):
        return [_schema(sub, key) for sub in value]
    if key in _VALUES:
        if key == "items" and isinstance(value, list | tuple):  # draft-07 tuple form
            return [_schema(sub, key) for sub in value]
        return _schema(value, key)
    return value


def _split_types(node: dict[str, Any], kinds: list[str]) -> dict[str, Any]:
    """``node`` with its ``type`` list spelled as ``anyOf`` branches of one type each."""
    if len(kinds) == 1:
        return {**node, "type": kinds[0]}
    # unevaluated* must keep seeing the annotations of the keywords beside it
    moving = not any(key in node for key in _UNEVALUATED)
    branches: list[dict[str, Any]] = [{"type": kind} for kind in kinds]
    moved: set[str] = set()
    if moving:
        for branch, kind in zip(branches, kinds, strict=True):
            own = _TYPE_KEYWORDS.get(kind, frozenset())
            for key, value in node.items():
                if key in own or (
                    key == "format" and _format_type(kinds) in (kind, _numeric(kind))
                ):
                    branch[key] = value
                    moved.add(key)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "type":
            if "anyOf" in node:
                out["allOf"] = [*node.get("allOf", ()), {"anyOf": branches}]
            else:
                out["anyOf"] = branches
        elif key in moved or (key == "allOf" and "anyOf" in node):
            continue
        else:
            out[key] = value
    return out


def _format_type(kinds: list[str]) -> str:
    """The branch a ``format`` goes with: strings', else numbers' (OpenAPI's int32, double, ...)."""
    if "string" in kinds:
        return "string"
    return "numeric" if "number" in kinds or "integer" in kinds else ""


def _numeric(kind: str) -> str:
    return "numeric" if kind in ("number", "integer") else kind


def _merged_branches(branches: list[Any]) -> list[Any]:
    """``anyOf`` branches with nested plain ``anyOf`` lists merged in and repeats left out."""
    flat: list[Any] = []
    for branch in branches:
        nested = branch.get("anyOf") if isinstance(branch, Mapping) and len(branch) == 1 else None
        flat.extend(nested if isinstance(nested, list) and nested else [branch])
    # branches are compared whole only where their outlines meet (type and keywords): most unions
    # are of one object and null, and writing out each branch at each level of a big document
    # (Stripe's full output schemas) cost most of the catalog's time
    outlines = [_outline(branch) for branch in flat]
    counts = Counter(outlines)
    seen: set[str] = set()
    kept: list[Any] = []
    for branch, outline in zip(flat, outlines, strict=True):
        if counts[outline] > 1:
            key = json.dumps(branch, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
        kept.append(branch)
    return kept


def _outline(branch: Any) -> Any:
    """What two equal branches share and most unequal ones do not: the kind of value, each keyword
    and what it holds when that is a word or a number, and the names of the properties."""
    if not isinstance(branch, Mapping):
        return (type(branch).__name__, branch if isinstance(branch, bool | None) else None)
    outline: list[Any] = []
    for key in sorted(branch):
        value = branch[key]
        if isinstance(value, str | int | float | bool | None):
            outline.append((key, value))
        elif key == "properties" and isinstance(value, Mapping):
            outline.append((key, tuple(sorted(value))))
        else:
            outline.append((key, type(value).__name__))
    return tuple(outline)


def _any_value() -> dict[str, Any]:
    return {"anyOf": [dict(branch) for branch in ANY_VALUE["anyOf"]]}
