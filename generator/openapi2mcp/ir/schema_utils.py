"""Small helpers over normalised JSON Schemas: ``$defs`` closures, ref lookup, scalar checks,
letting a schema take null, reading a value written in another type than its schema's.

Schemas in the IR refer to component schemas as ``#/$defs/<Name>``. A tool's ``inputSchema`` or
``outputSchema`` must be self-contained, so it carries exactly the ``$defs`` its properties reach.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final
from urllib.parse import unquote

from .model import JsonSchema

DEFS_PREFIX = "#/$defs/"

# the JSON Schema vocabulary, by how a keyword holds subschemas: a map of names (data, not
# keywords) to subschemas, a single subschema, or a list of subschemas
SCHEMA_MAPS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)
SCHEMA_VALUES = frozenset(
    {
        "items",
        "additionalItems",
        "additionalProperties",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contains",
        "propertyNames",
        "not",
        "if",
        "then",
        "else",
    }
)
SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
# a nullable schema using one of these cannot just gain "null" in its type: it is wrapped in anyOf
_APPLICATORS: Final = ("$ref", "allOf", "anyOf", "oneOf", "not", "if")
# moved out of an anyOf wrapper so that clients still see them at the top
_ANNOTATIONS: Final = ("title", "description", "default", "examples")


def def_name(ref: str) -> str | None:
    """``#/$defs/Pet`` → ``Pet`` (pointer-unescaped); ``None`` for any other reference."""
    if not ref.startswith(DEFS_PREFIX):
        return None
    token = ref[len(DEFS_PREFIX) :]
    if "/" in token:
        return None
    # a URI fragment: percent-decoding first, then the JSON pointer escapes (RFC 6901 §6)
    return unquote(token).replace("~1", "/").replace("~0", "~")


def iter_refs(node: Any) -> Iterator[str]:
    """Every ``$ref`` string inside a schema (any depth)."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from iter_refs(value)
    elif isinstance(node, list | tuple):
        for item in node:
            yield from iter_refs(item)


_KEPT_MAPS = 4
# per component map (kept alive here, so its id stays its own): each definition's direct references
_DIRECT_REFS: dict[int, tuple[Mapping[str, JsonSchema], dict[str, tuple[str, ...]]]] = {}


def _direct_refs(defs: Mapping[str, JsonSchema], name: str) -> tuple[str, ...]:
    """The definitions ``defs[name]`` refers to directly, walked once per map and name."""
    entry = _DIRECT_REFS.get(id(defs))
    if entry is None or entry[0] is not defs:
        if len(_DIRECT_REFS) >= _KEPT_MAPS:  # one generation uses two maps (input, output)
            _DIRECT_REFS.clear()
        entry = _DIRECT_REFS[id(defs)] = (defs, {})
    known = entry[1]
    found = known.get(name)
    if found is None:
        names = (def_name(ref) for ref in iter_refs(defs[name]))
        found = known[name] = tuple(dict.fromkeys(n for n in names if n is not None))
    return found


def defs_closure(roots: list[JsonSchema], defs: Mapping[str, JsonSchema]) -> dict[str, JsonSchema]:
    """The component schemas reachable from ``roots``, sorted by name.

    Big APIs ask for thousands of closures over the same components (every tool, both directions),
    so each definition's own references are found once and the closure walks names only.
    """
    found: dict[str, JsonSchema] = {}
    pending = [name for root in roots for ref in iter_refs(root) if (name := def_name(ref))]
    while pending:
        name = pending.pop()
        if name in found or name not in defs:
            continue
        found[name] = defs[name]
        pending.extend(_direct_refs(defs, name))
    return dict(sorted(found.items()))


def object_form(schema: Any) -> JsonSchema:
    """A schema as a mapping: a boolean schema (JSON Schema 2020-12, legal anywhere in OpenAPI 3.1)
    becomes its equivalent (``true`` is ``{}``, ``false`` is ``{"not": {}}``); anything else that is
    not a mapping is no schema at all and counts as ``{}``."""
    if isinstance(schema, Mapping):
        return schema
    return {"not": {}} if schema is False else {}


def resolve(schema: JsonSchema, defs: Mapping[str, JsonSchema], *, depth: int = 16) -> JsonSchema:
    """Follow a top-level ``$ref`` chain (bounded); other keywords beside ``$ref`` are merged on top.

    Boolean schemas (here or as a definition) are read in their object form (:func:`object_form`).
    """
    current = object_form(schema)
    for _ in range(depth):
        ref = current.get("$ref")
        name = def_name(ref) if isinstance(ref, str) else None
        if name is None or name not in defs:
            return current
        siblings = {k: v for k, v in current.items() if k != "$ref"}
        current = {**object_form(defs[name]), **siblings}
    return current


def json_type(schema: JsonSchema, defs: Mapping[str, JsonSchema]) -> str:
    """The single JSON type of a schema, or ``""`` when it has none or several (ignoring null)."""
    resolved = resolve(schema, defs)
    declared = resolved.get("type")
    if isinstance(declared, str):
        return declared
    if isinstance(declared, list):
        kinds = [t for t in declared if t != "null"]
        if len(kinds) == 1 and isinstance(kinds[0], str):
            return kinds[0]
    if "enum" in resolved and all(isinstance(v, str) for v in resolved["enum"] if v is not None):
        return "string"
    # FastAPI's optional parameter: anyOf [{type: string}, {type: null}]
    inner = non_null(resolved)
    return json_type(inner, defs) if inner is not resolved else ""


def non_null(schema: JsonSchema) -> JsonSchema:
    """The one branch of a nullable ``anyOf``/``oneOf`` that is not ``{type: null}`` (FastAPI's
    ``anyOf: [{type: string}, {type: null}]``); ``schema`` itself when it is no such union."""
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list):
            others = not_null_branches(branches)
            if len(others) == 1 and len(others) < len(branches) and isinstance(others[0], dict):
                return others[0]
    return schema


# what documented_default says of a schema without one
NO_DEFAULT: Final[Any] = object()


def documented_default(schema: JsonSchema) -> Any:
    """The ``default`` a schema documents, its own or its nullable union's other branch's
    (FastAPI's ``anyOf: [{type: integer, default: 5}, {type: null}]``); ``NO_DEFAULT`` without."""
    if "default" in schema:
        return schema["default"]
    return non_null(schema).get("default", NO_DEFAULT)


def not_null_branches(branches: list[Any]) -> list[Any]:
    """The branches of a union that are not ``{type: null}``."""
    return [b for b in branches if not (isinstance(b, Mapping) and b.get("type") == "null")]


def admits_null(schema: JsonSchema) -> bool:
    """Whether ``schema`` (normalised) takes null: a type list with it, or a branch of it."""
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    branches = [*schema.get("anyOf", []), *schema.get("oneOf", [])]
    return len(not_null_branches(branches)) < len(branches)


def is_scalar(schema: JsonSchema, defs: Mapping[str, JsonSchema]) -> bool:
    return json_type(schema, defs) in {"string", "integer", "number", "boolean"}


def enum_values(schema: JsonSchema, defs: Mapping[str, JsonSchema]) -> tuple[str, ...]:
    """String forms of a schema's enum (or of its array items' enum), for completions."""
    resolved = resolve(schema, defs)
    if json_type(resolved, defs) == "array" and isinstance(resolved.get("items"), Mapping):
        resolved = resolve(resolved["items"], defs)
    values = resolved.get("enum")
    if not isinstance(values, list):
        return ()
    return tuple(_as_text(v) for v in values if v is not None)


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# what an object part of an allOf may say (once its own allOf is merged) and still merge into one
# object with the others
_MERGEABLE = frozenset({"type", "properties", "required", "description", "title"})


def merged_all_of(
    schema: JsonSchema, defs: Mapping[str, JsonSchema], *, depth: int = 8
) -> JsonSchema:
    """``schema`` (resolved) with an ``allOf`` of plain object parts merged into one object.

    ``allOf: [{$ref: Silence}, {properties: {id: ...}}]`` (a model that extends another, as
    go-swagger and many hand-written specs write it) is one object whose properties are all the
    parts' and whose ``required`` is theirs together. Only parts that say nothing else merge (each a
    ``type: object`` or untyped schema of properties, ``required``, descriptions, or more such
    parts), and only when no property is described differently by two parts; otherwise ``schema``
    comes back as resolved, its ``allOf`` kept.
    """
    resolved = resolve(schema, defs)
    parts = resolved.get("allOf")
    if depth <= 0 or not isinstance(parts, list) or not parts:
        return resolved
    properties: dict[str, Any] = dict(resolved.get("properties") or {})
    required: list[str] = list(resolved.get("required") or [])
    for part in parts:
        merged = merged_all_of(part, defs, depth=depth - 1)
        if not set(merged) <= _MERGEABLE or merged.get("type", "object") != "object":
            return resolved
        for name, sub in (merged.get("properties") or {}).items():
            if properties.setdefault(name, sub) != sub:
                return resolved
        required += [name for name in merged.get("required") or () if name not in required]
    if resolved.get("type", "object") != "object":
        return resolved
    out = {key: value for key, value in resolved.items() if key != "allOf"}
    out.update(type="object", properties=properties)
    if required:
        out["required"] = required
    return out


def nullable(out: dict[str, Any]) -> dict[str, Any]:
    """Let ``out`` also accept null, without making it accept less (in place where it can)."""
    if any(key in out for key in _APPLICATORS):
        wrapper: dict[str, Any] = {key: out.pop(key) for key in _ANNOTATIONS if key in out}
        wrapper["anyOf"] = [out, {"type": "null"}]
        return wrapper
    if "const" in out:
        out["enum"] = [out.pop("const"), None]
    if isinstance(out.get("enum"), list) and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    types = out.get("type")
    if isinstance(types, str) and types != "null":
        out["type"] = [types, "null"]
    elif isinstance(types, list) and "null" not in types:
        out["type"] = [*types, "null"]
    return out


def _as_string(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    return value if isinstance(value, str) else str(value)


def _as_integer(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,18}", value.strip()):
        return int(value)
    return None


def _as_number(value: Any) -> int | float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,18}(\.\d{1,18})?", value.strip()):
        number = float(value)
        return int(number) if number.is_integer() and "." not in value else number
    return None


# how a value (an enum member, a default) is read in its schema's type (None: it cannot be
# without losing something)
VALUE_READERS: dict[str, Callable[[Any], Any]] = {
    "string": _as_string,
    "integer": _as_integer,
    "number": _as_number,
}
