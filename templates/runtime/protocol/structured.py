"""Structured content that keeps the promise of the advertised output schema, within a budget.

A tool that advertises an ``outputSchema`` must return ``structuredContent`` that conforms to it,
but real APIs drift from their descriptions. ``conform`` takes the body as parsed and reads a 0 or
1 where a boolean (and no number) is documented as that boolean (SQLite and MySQL keep booleans
so: NocoDB's checkboxes), which is no drift; when the body still does not conform, it sets each
part that breaks the schema to ``null`` (the lenient schemas the generator advertises admit
``null`` everywhere below the root, and at a root of one value) until it does; when even that
fails (the root itself has the wrong type, or a strict schema admits no ``null``) it falls back to
an empty value of the root's type, and to nothing at all when no such value conforms. The caller
keeps the body as received for the text content and says what was changed. ``shrink`` cuts a JSON
value to a number of characters of compact JSON, keeping leading array items and properties and
describing what it left out, so that a result's text and structured content both fit
``<PREFIX>_MAX_RESULT_CHARS``.
Stdlib only.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..jsonschema import Path, ValidationIssue, Validator, format_path, unwrap_nullable

__all__ = ["MISSING", "Conformed", "compact", "conform", "describe_issues", "shrink"]

# a value that is not there (``None`` is JSON null)
MISSING: Any = object()
# how many rounds of nulling a value may take before the empty fallback is used
_ROUNDS = 32
_ISSUES_SHOWN = 5
# the smallest room worth cutting a nested value into rather than leaving it out
_MIN_ROOM = 24
_ELLIPSIS = "…"


def compact(value: Any) -> str:
    """JSON as results carry it: compact, non-ASCII as is."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Conformed:
    """A value that conforms to the schema (``MISSING`` when none could be made), and how.

    ``issues`` are the ways the original value broke the schema (empty when it conformed);
    ``how`` is ``""``, ``"nulled"`` (parts set to null) or ``"emptied"`` (the fallback).
    """

    value: Any
    issues: list[ValidationIssue] = field(default_factory=list)
    how: str = ""


def conform(value: Any, validator: Validator) -> Conformed:
    """``value``, or the closest value that conforms to ``validator``'s schema (see the module)."""
    issues = validator.issues(value, limit=_ISSUES_SHOWN)
    if issues:
        # a 0 or 1 where a boolean is documented is that boolean (SQLite's): no drift
        value = validator.numbers_as_booleans(value)
        issues = validator.issues(value, limit=_ISSUES_SHOWN)
    if not issues:
        return Conformed(value)
    current = copy.deepcopy(value)
    for _ in range(_ROUNDS):
        found = validator.issues(current, limit=50)
        if not found:
            return Conformed(current, issues, "nulled")
        locations = sorted({issue.location for issue in found}, key=len, reverse=True)
        if () in locations:
            break
        changed = False
        for location in locations:
            changed = _set_null(current, location) or changed
        if not changed:
            break
    for empty in _empties(validator.schema):
        if validator.is_valid(empty):
            return Conformed(empty, issues, "emptied")
    return Conformed(MISSING, issues, "emptied")


def _set_null(value: Any, location: Path) -> bool:
    """Set the part of ``value`` at ``location`` to null; ``False`` when there is nothing to set."""
    parent = value
    for step in location[:-1]:
        if not _has(parent, step):
            return False
        parent = parent[step]
    last = location[-1]
    if not _has(parent, last) or parent[last] is None:
        return False
    parent[last] = None
    return True


def _has(container: Any, step: str | int) -> bool:
    if isinstance(container, dict):
        return isinstance(step, str) and step in container
    return isinstance(container, list) and isinstance(step, int) and 0 <= step < len(container)


def _empties(schema: Any) -> list[Any]:
    """Empty values to fall back on, the root's own type first."""
    schema = unwrap_nullable(schema)
    kind = schema.get("type") if isinstance(schema, Mapping) else None
    kinds = kind if isinstance(kind, list) else [kind]
    first: list[Any] = []
    if "array" in kinds:
        first.append([])
    if "object" in kinds:
        first.insert(0, {})
    return [*first, {}, [], None] if first else [{}, None, []]


def describe_issues(issues: list[ValidationIssue]) -> list[str]:
    return [f"- {issue.path or '(root)'}: {issue.message}" for issue in issues]


# -- fitting a budget ---------------------------------------------------------------------------


def shrink(value: Any, limit: int) -> tuple[Any, list[str]]:
    """``value`` cut so that its compact JSON has at most ``limit`` characters, and what was cut."""
    if len(compact(value)) <= limit:
        return value, []
    cuts: list[str] = []
    return _fit(value, max(limit, 2), (), cuts), cuts


def _fit(value: Any, limit: int, path: Path, cuts: list[str]) -> Any:
    if len(compact(value)) <= limit:
        return value
    if isinstance(value, list):
        return _fit_list(value, limit, path, cuts)
    if isinstance(value, dict):
        return _fit_object(value, limit, path, cuts)
    if isinstance(value, str):
        room = max(0, limit - 2 - len(_ELLIPSIS))
        cuts.append(f"the first {room} of {len(value)} characters{_of(path)}")
        return value[:room] + _ELLIPSIS
    return value  # a number or a literal cannot be shorter


def _fit_list(value: list[Any], limit: int, path: Path, cuts: list[str]) -> list[Any]:
    kept: list[Any] = []
    used = 2
    for index, item in enumerate(value):
        size = len(compact(item)) + (1 if kept else 0)
        if used + size <= limit:
            kept.append(item)
            used += size
            continue
        room = limit - used - (1 if kept else 0)
        if not kept and isinstance(item, dict | list | str) and room >= _MIN_ROOM:
            kept.append(_fit(item, room, (*path, index), cuts))
        break
    cuts.append(f"the first {len(kept)} of {len(value)} items{_of(path)}")
    return kept


def _fit_object(value: dict[str, Any], limit: int, path: Path, cuts: list[str]) -> dict[str, Any]:
    """``value`` within ``limit``: its small members whole first (a page's ``pageInfo``, a total:
    what tells how to get the rest, which NocoDB's cut list had pushed out), then the large ones
    in order, the first that does not fit cut to the room left; keys keep their order."""
    sizes = {key: len(compact(key)) + 1 + len(compact(item)) for key, item in value.items()}
    small = max(_MIN_ROOM * 4, limit // 8)
    chosen: dict[str, Any] = {}
    used = 2
    for key, item in value.items():
        if sizes[key] <= small and used + sizes[key] + (1 if chosen else 0) <= limit:
            chosen[key] = item
            used += sizes[key] + (1 if len(chosen) > 1 else 0)
    cut_one = False
    for key, item in value.items():
        if key in chosen or sizes[key] <= small or cut_one:
            continue
        comma = 1 if chosen else 0
        if used + sizes[key] + comma <= limit:
            chosen[key] = item
            used += sizes[key] + comma
            continue
        room = limit - used - comma - (sizes[key] - len(compact(item)))
        if isinstance(item, dict | list | str) and room >= _MIN_ROOM:
            chosen[key] = _fit(item, room, (*path, key), cuts)
            used = limit
        cut_one = True
    left_out = [key for key in value if key not in chosen]
    if left_out:
        shown = ", ".join(left_out[:5]) + (", …" if len(left_out) > 5 else "")
        kept_count = len(value) - len(left_out)
        cuts.append(f"{kept_count} of {len(value)} properties{_of(path)} (left out: {shown})")
    return {key: chosen[key] for key in value if key in chosen}


def _of(path: Path) -> str:
    return f" of {format_path(path)}" if path else ""
