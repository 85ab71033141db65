"""Differences between two versions of a tool's input or output schema, each judged for clients.

This module owns the compatibility rules for JSON Schemas (used by ``diff.py``). An input schema is
what a client sends: it breaks when it accepts less than before (an argument removed or newly required,
a type or an enum narrowed, a bound tightened, extra properties refused). An output schema is what a
client receives: it breaks when it promises less (a field removed or no longer required, a type that
widens to values the client never saw). Everything else that changed is reported as compatible.
``$ref``s are followed into each side's own ``$defs``; recursion stops at cycles and at a depth bound.
A change inside a named definition is also worded relative to it (``Finding.shared``), so the same
change reached through many tools and paths can be reported once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..shipped import runtime_module

Severity = Literal["breaking", "compatible"]
Direction = Literal["input", "output"]
Types = frozenset[str] | None  # None: any type

MAX_DEPTH = 32
MAX_NODES = 20_000
_DEFS_PREFIX = "#/$defs/"
# bounds where a larger value accepts less, and where a smaller one does
_LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
_COMBINATORS = ("anyOf", "oneOf")


@dataclass(frozen=True, slots=True)
class Finding:
    severity: Severity
    message: str
    # the change as it reads inside the innermost definition both sides name alike ("output field
    # `license.url` in schema `minimal-repository`: ..."): equal for every tool sharing the definition
    shared: str = ""


def quote(value: str, *, limit: int = 80) -> str:
    """A name or value as an inline code span (one line, bounded, no backticks inside)."""
    text = " ".join(value.split()).replace("`", "'")
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"`{text}`"


def compare_schemas(old: Any, new: Any, direction: Direction) -> list[Finding]:
    """What changed from ``old`` to ``new`` (whole tool schemas, each with its own ``$defs``)."""
    differ = _SchemaDiffer(old, new, direction)
    differ.compare(old, new, "", frozenset(), 0)
    return differ.findings


class _SchemaDiffer:
    def __init__(self, old_root: Any, new_root: Any, direction: Direction) -> None:
        self.old_defs = _defs(old_root)
        self.new_defs = _defs(new_root)
        self.direction = direction
        self.findings: list[Finding] = []
        self.reported: set[tuple[Severity, str]] = set()
        self.nodes = 0
        self.changed_defs = _changed_defs(self.old_defs, self.new_defs)
        # (definition name, path where it was entered) of the innermost shared definition
        self.anchor: tuple[str, str] | None = None

    def report(self, severity: Severity, path: str, suffix: str, prefix: str = "") -> None:
        """Record ``prefix`` + what ``path`` is + ``suffix``, in both wordings."""
        shared = ""
        if self.anchor is not None:
            name, entered = self.anchor
            shared = f"{prefix}{self.shared_label(name, path[len(entered) :])}{suffix}"
        message = f"{prefix}{self.label(path)}{suffix}"
        # one $def reached along two paths (or one path through two alternatives) reports once
        if (severity, message) not in self.reported:
            self.reported.add((severity, message))
            self.findings.append(Finding(severity, message, shared))

    def narrowed(self, path: str, suffix: str) -> None:
        """The schema now allows fewer values: breaking for input, harmless for output."""
        self.report("breaking" if self.direction == "input" else "compatible", path, suffix)

    def widened(self, path: str, suffix: str) -> None:
        """The schema now allows more values: harmless for input, breaking for output."""
        self.report("compatible" if self.direction == "input" else "breaking", path, suffix)

    def label(self, path: str) -> str:
        if self.direction == "input":
            return f"argument {quote(path)}" if path else "the arguments"
        return f"output field {quote(path)}" if path else "the output"

    def shared_label(self, definition: str, inner: str) -> str:
        inner = inner.removeprefix(".")
        if not inner:
            where = "arguments" if self.direction == "input" else "output"
            return f"schema {quote(definition)} in the {where}"
        return f"{self.label(inner)} in schema {quote(definition)}"

    def compare(
        self, old: Any, new: Any, path: str, active: frozenset[tuple[str, str]], depth: int
    ) -> None:
        self.nodes += 1
        if depth > MAX_DEPTH or self.nodes > MAX_NODES:
            return
        pair = (_ref(old), _ref(new))
        if pair != ("", "") and pair in active:
            return  # a recursive schema: this pair is already being compared further up
        active = active | {pair}
        outer = self.anchor
        if pair[0] and pair[0] == pair[1]:
            self.anchor = (pair[0], path)
        self.compare_resolved(old, new, path, active, depth)
        self.anchor = outer

    def compare_resolved(
        self, old: Any, new: Any, path: str, active: frozenset[tuple[str, str]], depth: int
    ) -> None:
        old, new = self.resolve(old, self.old_defs), self.resolve(new, self.new_defs)
        if _canonical(old) == _canonical(new) and not self.changed_defs & _refs(old):
            return  # identical, down to every definition it refers to
        if not self.compare_types(old, new, path):
            return  # unrelated types: comparing their details would only add noise
        self.compare_enums(old, new, path)
        if self.direction == "input":
            self.compare_bounds(old, new, path)
        self.compare_texts(old, new, path)
        self.compare_properties(old, new, path, active, depth)
        old_items, new_items = old.get("items"), new.get("items")
        if isinstance(old_items, Mapping) and isinstance(new_items, Mapping):
            self.compare(old_items, new_items, f"{path}[]", active, depth + 1)
        for keyword in _COMBINATORS:
            self.compare_alternatives(old, new, keyword, path, active, depth)

    def resolve(self, schema: Any, defs: Mapping[str, Any]) -> Mapping[str, Any]:
        """Follow ``$ref`` chains (siblings override) and merge ``allOf`` members into one view."""
        if not isinstance(schema, Mapping):
            return {} if schema is True or schema is None else {"not": {}}
        current: Mapping[str, Any] = schema
        for _ in range(MAX_DEPTH):
            name = _ref(current)
            if not name or name not in defs or not isinstance(defs[name], Mapping):
                break
            current = {**defs[name], **{k: v for k, v in current.items() if k != "$ref"}}
        members = current.get("allOf")
        if not isinstance(members, list):
            return current
        merged: dict[str, Any] = {k: v for k, v in current.items() if k != "allOf"}
        for member in members:
            part = self.resolve(member, defs)
            merged["properties"] = {**part.get("properties", {}), **merged.get("properties", {})}
            merged["required"] = sorted({*part.get("required", ()), *merged.get("required", ())})
            for key, value in part.items():
                merged.setdefault(key, value)
        return merged

    def types(self, schema: Mapping[str, Any], defs: Mapping[str, Any], depth: int = 0) -> Types:
        """The JSON types a schema allows (declared, from its enum, or from its alternatives)."""
        declared = schema.get("type")
        if isinstance(declared, str):
            return frozenset({declared})
        if isinstance(declared, list):
            return frozenset(t for t in declared if isinstance(t, str))
        values = [schema["const"]] if "const" in schema else schema.get("enum")
        if isinstance(values, list):
            return frozenset(_json_type(v) for v in values)
        for keyword in _COMBINATORS:
            alternatives = schema.get(keyword)
            if not isinstance(alternatives, list) or not alternatives or depth > MAX_DEPTH:
                continue
            found: set[str] = set()
            for alternative in alternatives:
                types = self.types(self.resolve(alternative, defs), defs, depth + 1)
                if types is None:
                    return None
                found |= types
            return frozenset(found)
        return None

    def compare_types(self, old: Mapping[str, Any], new: Mapping[str, Any], path: str) -> bool:
        old_types, new_types = self.types(old, self.old_defs), self.types(new, self.new_defs)
        if old_types == new_types:
            return True
        change = f": type {_show(old_types)} → {_show(new_types)}"
        if _covers(new_types, old_types):
            self.widened(path, change)
        elif _covers(old_types, new_types):
            self.narrowed(path, change)
        else:
            self.report("breaking", path, change)
            return False
        return True

    def compare_enums(self, old: Mapping[str, Any], new: Mapping[str, Any], path: str) -> None:
        old_values, new_values = _enum(old), _enum(new)
        if old_values == new_values:
            return
        if old_values is None:
            self.narrowed(path, f": now restricted to {_values(new_values or [])}")
        elif new_values is None:
            self.widened(path, f": no longer restricted to {_values(old_values)}")
        else:
            removed = [v for v in old_values if v not in new_values]
            added = [v for v in new_values if v not in old_values]
            if removed:
                plural = "s" if len(removed) > 1 else ""
                message = f": enum value{plural} {_values(removed)} removed"
                # a client never has to handle a value the server stopped returning
                severity: Severity = "breaking" if self.direction == "input" else "compatible"
                self.report(severity, path, message)
            if added:
                plural = "s" if len(added) > 1 else ""
                self.report("compatible", path, f": enum value{plural} {_values(added)} added")

    def compare_bounds(self, old: Mapping[str, Any], new: Mapping[str, Any], path: str) -> None:
        for keyword in (*_LOWER_BOUNDS, *_UPPER_BOUNDS):
            before, after = _number(old.get(keyword)), _number(new.get(keyword))
            if before == after:
                continue
            change = f": {keyword} {_bound(before)} → {_bound(after)}"
            lower = keyword in _LOWER_BOUNDS
            tighter = before is None or (
                after is not None and (after > before if lower else after < before)
            )
            (self.narrowed if tighter and after is not None else self.widened)(path, change)
        before, after = old.get("pattern"), new.get("pattern")
        if before != after:
            change = f": pattern {_pattern(before)} → {_pattern(after)}"
            (self.widened if after is None else self.narrowed)(path, change)

    def compare_texts(self, old: Mapping[str, Any], new: Mapping[str, Any], path: str) -> None:
        for keyword in ("description", "title"):
            if old.get(keyword) != new.get(keyword):
                self.report("compatible", path, f": {keyword} changed")
        if "default" in old or "default" in new:
            before, after = old.get("default"), new.get("default")
            if _canonical(before) != _canonical(after):
                self.report("compatible", path, f": default {_value(before)} → {_value(after)}")

    def compare_properties(
        self,
        old: Mapping[str, Any],
        new: Mapping[str, Any],
        path: str,
        active: frozenset[tuple[str, str]],
        depth: int,
    ) -> None:
        old_props, new_props = _mapping(old.get("properties")), _mapping(new.get("properties"))
        old_required, new_required = (
            set(_list(old.get("required"))),
            set(_list(new.get("required"))),
        )
        is_input = self.direction == "input"
        for name in old_props:
            if name not in new_props:
                self.report("breaking", _join(path, name), " removed")
        for name in new_props:
            inner = _join(path, name)
            if name not in old_props:
                if not is_input:
                    self.report("compatible", inner, " added")
                elif name in new_required:
                    self.report("breaking", inner, "", prefix="new required ")
                else:
                    self.report("compatible", inner, "", prefix="new optional ")
                continue
            if name in new_required and name not in old_required:
                # a newly required input must now be sent; a newly required output is a promise
                severity: Severity = "breaking" if is_input else "compatible"
                suffix = " is now required" if is_input else " is now always present"
                self.report(severity, inner, suffix)
            elif name in old_required and name not in new_required:
                severity = "compatible" if is_input else "breaking"
                suffix = " is now optional" if is_input else " may now be absent"
                self.report(severity, inner, suffix)
            self.compare(old_props[name], new_props[name], inner, active, depth + 1)
        old_extra, new_extra = old.get("additionalProperties"), new.get("additionalProperties")
        if is_input and old_extra is not False and new_extra is False:
            self.narrowed(path, ": extra properties are no longer accepted")
        elif is_input and old_extra is False and new_extra is not False:
            self.widened(path, ": extra properties are now accepted")
        elif isinstance(old_extra, Mapping) and isinstance(new_extra, Mapping):
            self.compare(old_extra, new_extra, _join(path, "*"), active, depth + 1)

    def compare_alternatives(
        self,
        old: Mapping[str, Any],
        new: Mapping[str, Any],
        keyword: str,
        path: str,
        active: frozenset[tuple[str, str]],
        depth: int,
    ) -> None:
        old_list, new_list = _list(old.get(keyword)), _list(new.get(keyword))
        if old_list == new_list:
            return
        if old_list and len(old_list) == len(new_list):
            for before, after in zip(old_list, new_list, strict=True):
                self.compare(before, after, path, active, depth + 1)
            return
        if not old_list or not new_list:
            # one side has no alternatives: what matters is the types, compared already
            return
        old_set = {_canonical(s) for s in old_list}
        new_set = {_canonical(s) for s in new_list}
        if old_set < new_set:
            self.widened(path, f" ({keyword}): {len(new_set - old_set)} alternative(s) added")
        elif new_set < old_set:
            self.narrowed(path, f" ({keyword}): {len(old_set - new_set)} alternative(s) removed")
        else:
            self.report("breaking", path, f" ({keyword}): alternatives changed")


def _defs(root: Any) -> Mapping[str, Any]:
    defs = root.get("$defs") if isinstance(root, Mapping) else None
    return defs if isinstance(defs, Mapping) else {}


def _changed_defs(old: Mapping[str, Any], new: Mapping[str, Any]) -> set[str]:
    """Names of definitions that differ between the sides, directly or through what they refer to."""
    changed = {
        name
        for name in {*old, *new}
        if name not in old or name not in new or _canonical(old[name]) != _canonical(new[name])
    }
    refers = {name: _refs(schema) for name, schema in old.items()}
    grew = True
    while grew:
        more = {name for name, targets in refers.items() if targets & changed} - changed
        changed |= more
        grew = bool(more)
    return changed


def _refs(node: Any) -> set[str]:
    """The definition names a schema refers to, at any depth (not following the references)."""
    found: set[str] = set()
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, Mapping):
            name = _ref(current)
            if name:
                found.add(name)
            pending.extend(v for k, v in current.items() if k != "$ref")
        elif isinstance(current, list):
            pending.extend(current)
    return found


def _ref(schema: Any) -> str:
    ref = schema.get("$ref") if isinstance(schema, Mapping) else None
    if not isinstance(ref, str) or not ref.startswith(_DEFS_PREFIX):
        return ""
    return ref[len(_DEFS_PREFIX) :].replace("~1", "/").replace("~0", "~")


def _json_type(value: Any) -> str:
    """The JSON type of a value, as the generated servers' validator names it."""
    json_type: str = runtime_module("jsonschema").json_type(value)
    return json_type


def _covers(wide: Types, narrow: Types) -> bool:
    """Does every value of type ``narrow`` also have type ``wide``? (integers are numbers)."""
    if wide is None:
        return True
    if narrow is None:
        return False
    return all(t in wide or (t == "integer" and "number" in wide) for t in narrow)


def _show(types: Types) -> str:
    return "any" if types is None else "|".join(sorted(types)) or "none"


def _enum(schema: Mapping[str, Any]) -> list[str] | None:
    if "const" in schema:
        return [_canonical(schema["const"])]
    values = schema.get("enum")
    return [_canonical(v) for v in values] if isinstance(values, list) else None


def _values(values: list[str], *, limit: int = 5) -> str:
    shown = ", ".join(quote(v, limit=40) for v in values[:limit])
    return shown + (f" and {len(values) - limit} more" if len(values) > limit else "")


def _value(value: Any) -> str:
    return "none" if value is None else quote(_canonical(value), limit=40)


def _number(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _bound(value: float | None) -> str:
    return "none" if value is None else quote(json.dumps(value))


def _pattern(value: Any) -> str:
    return quote(value, limit=40) if isinstance(value, str) else "none"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name
