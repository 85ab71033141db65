"""Compact schemas for the catalog: what a model reads in ``tools/list`` without losing a constraint.

Input schemas stay complete: every constraint is kept, only text a model does not need to build valid
arguments goes (``examples``, ``example``, ``$comment``, titles of nested schemas, other ``x-``
extensions than ``x-mcp-header``) and descriptions are cut at a configurable length.

Output schemas come in three sizes (``--output-schemas``): ``full`` as the spec says; ``compact``, the
top-level shape (the type, the top-level properties with their types, ``required``, the type of array
items); ``none``. A compact schema only ever drops constraints of the full one, never adds any, so a
response that conforms to the full schema conforms to the compact one too: the runtime validates
``structuredContent`` against whatever schema is advertised.

Real APIs drift from their descriptions: fields documented as required go missing, values come back
``null`` where the spec cannot say they may (Swagger 2.0 has no ``nullable``), enums grow. So the
schema advertised by default is ``lenient_output`` of the documented one: no ``required`` lists,
every value below the root (and a root of one value, such as a string) may also be ``null``, no
closed objects, no enum, const, format-free value bounds or conditionals, ``oneOf`` read as
``anyOf``. It keeps what a client needs to read the data (types, properties, items, descriptions)
and is what real responses satisfy; the owner can opt into the documented schema (``strictOutput``).
Where a response still breaks the lenient schema, the runtime sets what does not match to ``null``,
which the lenient schema always admits.

Every schema this module hands the catalog is spelled portably (``portable.py``: ``anyOf`` with a
``null`` branch for a nullable value, never a ``type`` list or a schema that constrains nothing),
which changes no instance's verdict. ``lenient_output`` relaxes what it is given (the catalog gives
it the documented schema as advertised, already portable) and spells the result portably: an
``anyOf`` gets one ``null`` branch rather than ``null`` in each of its branches. Relaxing the
portable spelling admits what relaxing the original did, with one exception: a root whose ``type``
lists several types but not ``null`` is an ``anyOf`` once portable, and like any relaxed ``anyOf``
it then admits ``null`` too. A node with both ``anyOf`` and ``oneOf`` keeps both lists (``allOf``
holds the second); before, one of them was lost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from ..ir.model import JsonSchema
from ..ir.schema_utils import SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_VALUES, non_null, resolve
from ..plan.settings import OutputSchemas
from .portable import portable

_SCALARS = frozenset({"string", "number", "integer", "boolean"})
# constraints real responses break: dropped from lenient output schemas (value checks, closed
# objects, conditionals); `not` and `if` would only get stricter when their subschemas are relaxed
_LENIENT_DROPPED = frozenset(
    {
        "required",
        "dependentRequired",
        "dependentSchemas",
        "enum",
        "const",
        "pattern",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "uniqueItems",
        "contains",
        "minContains",
        "maxContains",
        "minProperties",
        "maxProperties",
        "propertyNames",
        "not",
        "if",
        "then",
        "else",
        "discriminator",
    }
)
# annotations a model does not need to call a tool; never constraints
_DROPPED = frozenset({"examples", "example", "$comment", "title"})
_KEPT_EXTENSIONS = frozenset({"x-mcp-header"})
_JSON_TYPES = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})
_NULL = {"type": "null"}
# (the definition, what a step made of it) by the definition's identity and the step, while
# ``shared_definitions`` holds
_SHARED: ContextVar[dict[tuple[int, str], tuple[Any, Any]] | None] = ContextVar(
    "_SHARED", default=None
)


@contextmanager
def shared_definitions() -> Iterator[None]:
    """While it holds, each definition of ``$defs`` that many schemas share as one object is
    compacted, relaxed and spelled portably once, and the schemas share the result: Stripe's 774
    definitions occur 137,016 times among its 448 tools, and the catalog of its full output
    schemas took two minutes. What this module returns is never changed in place."""
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def _by_definition(
    schema: Any, step: str, whole: Callable[[Any], Any], definition: Callable[[Any], Any]
) -> Any:
    """``whole(schema)``, with each of its ``$defs`` made by ``definition`` once per definition
    (see ``shared_definitions``); ``whole`` must treat a definition as ``definition`` does."""
    memo = _SHARED.get()
    defs = schema.get("$defs") if isinstance(schema, Mapping) else None
    if memo is None or not isinstance(defs, Mapping) or not defs:
        return whole(schema)
    out = whole({**schema, "$defs": {}})
    if not isinstance(out, dict) or out.get("$defs") != {}:
        return whole(schema)
    made: dict[str, Any] = {}
    for name, sub in defs.items():
        known = memo.get((id(sub), step))
        if known is None or known[0] is not sub:
            known = memo[id(sub), step] = (sub, definition(sub))
        made[name] = known[1]
    out["$defs"] = made
    return out


def cap(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut); 0 means no limit."""
    if not limit or len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def compact_input(schema: Any, description_limit: int) -> Any:
    """An input schema with every constraint and without the text a model does not need, in
    portable spellings (``portable.py``)."""

    def made(part: Any) -> Any:  # a whole schema and a definition alike
        return portable(_compact(part, description_limit))

    return _by_definition(schema, f"input {description_limit}", made, made)


def _compact(schema: Any, description_limit: int) -> Any:
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _DROPPED or (key.startswith("x-") and key not in _KEPT_EXTENSIONS):
            continue
        if key == "description" and isinstance(value, str):
            out[key] = cap(value, description_limit)
        elif key in SCHEMA_MAPS and isinstance(value, Mapping):
            out[key] = {name: _compact(sub, description_limit) for name, sub in value.items()}
        elif key in SCHEMA_LISTS and isinstance(value, list | tuple):
            out[key] = [_compact(sub, description_limit) for sub in value]
        elif key in SCHEMA_VALUES:
            out[key] = (
                [_compact(sub, description_limit) for sub in value]
                if isinstance(value, list | tuple)
                else _compact(value, description_limit)
            )
        else:
            out[key] = value
    return out


def output_schema(
    schema: JsonSchema | None, mode: OutputSchemas, description_limit: int
) -> JsonSchema | None:
    """The documented ``outputSchema`` the catalog advertises for ``schema`` in portable
    spellings (``None``: advertise none)."""
    if schema is None or mode == "none":
        return None
    if mode == "full":
        result: JsonSchema = compact_input(schema, description_limit)
        return result
    defs = schema.get("$defs")
    shape: JsonSchema = portable(top_level_shape(schema, defs if isinstance(defs, Mapping) else {}))
    return shape


def top_level_shape(schema: JsonSchema, defs: Mapping[str, JsonSchema]) -> JsonSchema:
    """The type, top-level properties (their types only), ``required`` and array items' type."""
    resolved = resolve(schema, defs)
    inner = non_null(resolved)
    if inner is not resolved:
        # FastAPI's optional answer, anyOf [{$ref: Body}, {type: null}]: Body's shape, or null
        return _nullable(dict(top_level_shape(inner, defs)))
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
    inner = non_null(resolved)
    if inner is not resolved:
        # FastAPI's optional field, anyOf [{type: number}, {type: null}]: its type, or null (it
        # was "any value": 372 of Airflow's 767 output properties)
        return _nullable(dict(_property_shape(inner, defs)))
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


def lenient_output(schema: JsonSchema) -> JsonSchema:
    """``schema`` as real responses satisfy it (see the module docstring), in portable spellings.

    An object or array root keeps its type: an empty one stands in for a body that has another.
    A root of one value (a string, a number) admits ``null`` too, for a body that has none (a 204)
    or none of its type (``{"result": "Rectified"}`` where a string is documented)."""
    relaxed = _by_definition(
        schema,
        "lenient",
        lambda whole: portable(_relax(whole, root=True)),
        lambda definition: portable(_relax(definition)),
    )
    kind = relaxed.get("type") if isinstance(relaxed, dict) else None
    if isinstance(kind, str) and kind in _SCALARS:
        relaxed = _by_definition(_nullable(dict(relaxed)), "portable", portable, portable)
    assert isinstance(relaxed, Mapping)
    return relaxed


def _relax(schema: Any, *, root: bool = False, branch: bool = False) -> Any:
    """``schema`` relaxed; below the root it also admits ``null``, except as a ``branch`` of an
    ``anyOf`` (its parent admits ``null`` for it, once)."""
    if schema is False:
        return True
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _LENIENT_DROPPED:
            continue
        if key in ("additionalProperties", "unevaluatedProperties", "unevaluatedItems"):
            if isinstance(value, Mapping):
                out[key] = _relax(value)
            continue  # false (closed) or true: either way anything more is welcome
        if key in ("anyOf", "oneOf") and isinstance(value, list | tuple):
            # relaxed branches overlap: "exactly one" would fail where "at least one" holds
            _add_alternatives(out, [_relax(sub, branch=True) for sub in value])
        elif key == "allOf" and isinstance(value, list | tuple):
            out[key] = [*out.get(key, ()), *(_relax(sub) for sub in value)]
        else:
            out[key] = _relax_value(key, value)
    return out if root or branch else _nullable(out)


def _add_alternatives(out: dict[str, Any], branches: list[Any]) -> None:
    """``branches`` (relaxed) as the node's ``anyOf``, one of them ``null``; a second list (the
    node had both ``anyOf`` and ``oneOf``) must hold too, so it goes into ``allOf``."""
    if _NULL not in branches:
        branches.append(dict(_NULL))
    if "anyOf" in out:
        out["allOf"] = [*out.get("allOf", ()), {"anyOf": branches}]
    else:
        out["anyOf"] = branches


def _relax_value(key: str, value: Any) -> Any:
    if key in SCHEMA_MAPS and isinstance(value, Mapping):
        return {name: _relax(sub) for name, sub in value.items()}
    if key in SCHEMA_LISTS and isinstance(value, list | tuple):
        return [_relax(sub) for sub in value]
    if key in SCHEMA_VALUES:
        return [_relax(sub) for sub in value] if isinstance(value, list | tuple) else _relax(value)
    return value


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    if isinstance(kind, str) and kind != "null":
        schema["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        schema["type"] = [*kind, "null"]
    return schema
