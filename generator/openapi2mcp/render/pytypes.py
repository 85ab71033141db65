"""Python type annotations for JSON Schemas, as used in the generated ``operations.py``.

A component schema that became a pydantic model is referred to as ``models.<Class>``; everything else
maps onto builtins. When a schema is too rich to express simply, the annotation is ``Any`` rather
than a lie.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..ir.model import JsonSchema
from ..ir.schema_utils import def_name

_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}


def python_type(
    schema: JsonSchema, class_names: Mapping[str, str], *, depth: int = 0, models: bool = True
) -> str:
    if depth > 4:
        return "Any"
    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = def_name(ref)
        if models and name is not None and name in class_names:
            return f"models.{class_names[name]}"
        return "Any"
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches:
            types = _unique(
                python_type(b, class_names, depth=depth + 1, models=models)
                for b in branches
                if isinstance(b, Mapping)
            )
            return "Any" if "Any" in types else " | ".join(types)
    declared = schema.get("type")
    kinds = declared if isinstance(declared, list) else [declared] if declared else []
    parts = _unique(
        _one(k, schema, class_names, depth, models) for k in kinds if isinstance(k, str)
    )
    if not parts or "Any" in parts:
        if "enum" in schema and all(isinstance(v, str) for v in schema["enum"]):
            return "str"
        return "Any"
    return " | ".join(parts)


def _one(
    kind: str, schema: JsonSchema, class_names: Mapping[str, str], depth: int, models: bool
) -> str:
    if kind in _SCALARS:
        return _SCALARS[kind]
    if kind == "null":
        return "None"
    if kind == "array":
        items = schema.get("items")
        inner = (
            python_type(items, class_names, depth=depth + 1, models=models)
            if isinstance(items, Mapping)
            else "Any"
        )
        return f"list[{inner}]"
    if kind == "object":
        return "dict[str, Any]"
    return "Any"


def _unique(values: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    # None goes last, as in `X | None`
    return sorted(seen, key=lambda v: v == "None")
