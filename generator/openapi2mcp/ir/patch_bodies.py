"""A PATCH body that reuses the schema of a whole thing requires nothing of a partial change.

PostgREST documents ``PATCH /authors`` with the body of ``POST /authors``: the table's definition,
whose ``required`` lists every NOT NULL column. A change of one column (``{"bio": "…"}``) was
refused locally ("'name' is a required property") while the API answers 204. A PATCH changes
part of a thing; where its body is the very schema a POST or PUT of the document sends whole,
``required`` says what a whole one needs, not what a change must name. The same holds of every
JSON Merge Patch (RFC 7396, ``application/merge-patch+json``): a merge patch is any part of the
object it changes. Such a body keeps its schema, with ``required`` left out at its top (inlined
from its ``$defs`` entry, which other operations keep as it is). A PATCH body of its own
(drf-spectacular's ``PatchedAuthor``, GitHub's inline bodies) is left alone: what it requires is
meant for the change. An API that does want a field is still asked, and its answer says so.

Two kinds of document mean their ``required`` of a PATCH too, and are left alone: FastAPI's
(``HTTPValidationError`` among its schemas), whose pydantic models check a body as declared, and
a PATCH with a field mask (``update_mask``: which fields of the whole body to apply). Airflow 3's
``PATCH /variables/{key}`` takes the POST's ``VariableBody`` and an ``update_mask``, and answers 422
"Field required" to a body without ``key`` and ``value``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from ..load.refs import Location, Resolver, defs_ref
from .model import JsonSchema, Operation
from .operation_parts import base_media_type

__all__ = ["checks_as_declared", "partial_patches"]

_MERGE_PATCH: Final = "application/merge-patch+json"
# a query parameter that says which fields of a whole body a PATCH applies (AIP-134, Airflow 3)
_FIELD_MASKS: Final = frozenset({"update_mask", "updatemask", "field_mask", "fieldmask"})


def partial_patches(
    resolver: Resolver,
    operations: tuple[Operation, ...],
    inputs: Mapping[str, JsonSchema],
    places: dict[str, Location],
    *,
    declared: bool = False,
) -> tuple[Operation, ...]:
    """``operations`` with each PATCH body that is a whole thing's schema made partial (above),
    unless the document's bodies are checked as ``declared`` (FastAPI's)."""
    if declared:
        return operations
    whole = {
        _defined(op.body.schema)
        for op in operations
        if op.method in ("POST", "PUT") and op.body is not None
    }
    by_ref = {defs_ref(name): name for name in inputs}
    changed: list[Operation] = []
    for op in operations:
        body = op.body
        masked = any(p.name.lower() in _FIELD_MASKS for p in op.parameters)
        if op.method != "PATCH" or body is None or masked:
            changed.append(op)
            continue
        ref = _defined(body.schema)
        merge = base_media_type(body.content_type) == _MERGE_PATCH
        schema: JsonSchema | None = None
        if ref and (ref in whole or merge) and ref in by_ref:
            definition = inputs[by_ref[ref]]
            if "required" in definition:
                extra = {k: v for k, v in body.schema.items() if k != "$ref"}
                schema = {k: v for k, v in definition.items() if k != "required"} | extra
        elif merge and "required" in body.schema:
            schema = {k: v for k, v in body.schema.items() if k != "required"}
        if schema is None:
            changed.append(op)
            continue
        why = "a JSON Merge Patch" if merge else "the schema a POST or PUT sends whole"
        resolver.info(
            "patch-body-partial",
            places[op.pointer].child("requestBody"),
            f"the PATCH body is {why}: what that schema requires is not asked of a change",
        )
        changed.append(replace(op, body=replace(body, schema=schema)))
    return tuple(changed)


def checks_as_declared(document: Mapping[str, Any]) -> bool:
    """Whether ``document`` is FastAPI's (its 422 model, ``HTTPValidationError``, among its
    schemas): pydantic checks each body as the document declares it."""
    components = document.get("components")
    schemas = components.get("schemas") if isinstance(components, Mapping) else None
    return isinstance(schemas, Mapping) and "HTTPValidationError" in schemas


def _defined(schema: Mapping[str, Any]) -> str:
    """The ``$defs`` reference a body's schema is, or ""."""
    ref = schema.get("$ref")
    return ref if isinstance(ref, str) and ref.startswith("#/$defs/") else ""
