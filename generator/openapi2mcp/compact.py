"""Compact schemas for the catalog: what a model reads in ``tools/list`` without losing a constraint.

Input schemas stay complete: every constraint is kept, only text a model does not need to build valid
arguments goes (``examples``, ``example``, ``$comment``, titles of nested schemas, other ``x-``
extensions than ``x-mcp-header``) and descriptions are cut at a configurable length.

Output schemas come in three sizes (``--output-schemas``): ``full`` as the spec says; ``compact``, the
top-level shape (the type, the top-level properties with their types, ``required``, the type of array
items); ``none``. A compact schema only ever drops constraints of the full one, never adds any, so a
response that conforms to the full schema conforms to the compact one too: the runtime validates
``structuredContent`` against whatever schema is advertised.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .ir import JsonSchema
from .plan import OutputSchemas
from .schema_utils import SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_VALUES, resolve

# annotations a model does not need to call a tool; never constraints
_DROPPED = frozenset({"examples", "example", "$comment", "title"})
_KEPT_EXTENSIONS = frozenset({"x-mcp-header"})
_JSON_TYPES = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})


def cap(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut); 0 means no limit."""
    if not limit or len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def compact_input(schema: Any, description_limit: int) -> Any:
    """An input schema with every constraint and without the text a model does not need."""
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _DROPPED or (key.startswith("x-") and key not in _KEPT_EXTENSIONS):
            continue
        if key == "description" and isinstance(value, str):
            out[key] = cap(value, description_limit)
        elif key in SCHEMA_MAPS and isinstance(value, Mapping):
            out[key] = {name: compact_input(sub, description_limit) for name, sub in value.items()}
        elif key in SCHEMA_LISTS and isinstance(value, list | tuple):
            out[key] = [compact_input(sub, description_limit) for sub in value]
        elif key in SCHEMA_VALUES:
            out[key] = (
                [compact_input(sub, description_limit) for sub in value]
                if isinstance(value, list | tuple)
                else compact_input(value, description_limit)
            )
        else:
            out[key] = value
    return out


def output_schema(
    schema: JsonSchema | None, mode: OutputSchemas, description_limit: int
) -> JsonSchema | None:
    """The ``outputSchema`` the catalog advertises for ``schema`` (``None``: advertise none)."""
    if schema is None or mode == "none":
        return None
    if mode == "full":
        result: JsonSchema = compact_input(schema, description_limit)
        return result
    defs = schema.get("$defs")
    return top_level_shape(schema, defs if isinstance(defs, Mapping) else {})


def top_level_shape(schema: JsonSchema, defs: Mapping[str, JsonSchema]) -> JsonSchema:
    """The type, top-level properties (their types only), ``required`` and array items' type."""
    resolved = resolve(schema, defs)
    shape: dict[str, Any] = {}
    kind = implied_type(resolved, defs)
    if kind is not None:
        shape["type"] = kind
    properties = resolved.get("properties")
    if _admits(kind, "object") and isinstance(properties, Mapping) and properties:
        shape["properties"] = {
            name: _property_shape(sub, defs)
            for name, sub in properties.items()
            if isinstance(sub, Mapping)
        }
        required = resolved.get("required")
        if isinstance(required, list) and required:
            shape["required"] = list(required)
    items = resolved.get("items")
    if _admits(kind, "array") and isinstance(items, Mapping):
        shape["items"] = _property_shape(items, defs)
    return shape


def _property_shape(schema: Mapping[str, Any], defs: Mapping[str, JsonSchema]) -> JsonSchema:
    resolved = resolve(dict(schema), defs)
    kind = implied_type(resolved, defs)
    shape: dict[str, Any] = {} if kind is None else {"type": kind}
    items = resolved.get("items")
    if _admits(kind, "array") and isinstance(items, Mapping):
        item_kind = implied_type(resolve(dict(items), defs), defs)
        if item_kind is not None:
            shape["items"] = {"type": item_kind}
    return shape


def _admits(kind: str | list[str] | None, wanted: str) -> bool:
    return kind == wanted or (isinstance(kind, list) and wanted in kind)


def implied_type(
    schema: Mapping[str, Any], defs: Mapping[str, JsonSchema], depth: int = 0
) -> str | list[str] | None:
    """The ``type`` every instance of ``schema`` has, or ``None`` when it cannot be told simply.

    ``allOf`` implies the type of any branch that has one (an instance must satisfy them all);
    ``anyOf``/``oneOf`` imply a type only when every branch implies the same one.
    """
    declared = schema.get("type")
    if isinstance(declared, str) and declared in _JSON_TYPES:
        return declared
    if isinstance(declared, list) and declared and all(t in _JSON_TYPES for t in declared):
        return list(declared)
    if depth > 8:
        return None
    branches = schema.get("allOf")
    if isinstance(branches, list):
        for branch in branches:
            if isinstance(branch, Mapping):
                kind = implied_type(resolve(dict(branch), defs), defs, depth + 1)
                if kind is not None:
                    return kind
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if not isinstance(branches, list) or not branches:
            continue
        kinds = [
            implied_type(resolve(dict(b), defs), defs, depth + 1)
            if isinstance(b, Mapping)
            else None
            for b in branches
        ]
        if kinds[0] is not None and all(k == kinds[0] for k in kinds):
            return kinds[0]
    return None
