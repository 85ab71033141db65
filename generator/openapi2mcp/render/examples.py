"""Example instances: a small, deterministic value that validates against a JSON Schema.

:func:`example_instance` feeds the generated smoke tests (one call per tool) and the fake upstream's
responses. It prefers what the spec offers (``const``, then the first valid ``examples``, ``default``,
``enum`` value) and otherwise synthesises the smallest sensible value: objects carry only their required
properties, arrays their minimum length (one item when items are objects, to exercise them), strings and
numbers honour their bounds, patterns are satisfied from the regex itself or a few fixed candidates.
Every result is checked twice (also offered as :func:`conforms`, which filters the spec's examples for
completions): by the generated server's own validator (``runtime_schema``), so that no example is one the
server would refuse, and by a small checker of the common keywords that also holds the spec's values to
their ``format``; when no value can be found (or a check fails) :class:`NoExample` is raised, and callers
skip that smoke test with a diagnostic. ``$ref``
may only point into ``#/$defs/``; a reference cycle through required properties has no finite instance
and raises :class:`NoExample` too.
"""

from __future__ import annotations

import importlib
import math
import operator
import re
import warnings
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..ir.model import JsonSchema
from ..ir.schema_utils import defs_closure
from .runtime_schema import validates, validator

__all__ = ["NoExample", "conforms", "example_instance"]

_MAX_DEPTH = 64
_URL, _HOST, _EMAIL = "https://example.com", "example.com", "user@example.com"
_FORMATS: Mapping[str, str] = {
    "date": "2024-01-01", "date-time": "2024-01-01T00:00:00Z", "time": "00:00:00Z", "duration": "P1D",
    "email": _EMAIL, "idn-email": _EMAIL, "uuid": "00000000-0000-4000-8000-000000000000",
    "uri": _URL, "url": _URL, "uri-reference": _URL, "iri": _URL, "iri-reference": _URL,
    "hostname": _HOST, "idn-hostname": _HOST, "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
    "byte": "ZXhhbXBsZQ==", "json-pointer": "/example",
    # pydantic's UUID1/3/4/5 (dstack's job ids, format uuid4: "string" was refused with a 422)
    **{f"uuid{v}": f"00000000-0000-{v}000-8000-000000000000" for v in "1345"},
}  # fmt: skip
# format checks applied to values taken from the spec (examples, defaults): those are often sloppy
_FORMAT_CHECKS: Mapping[str, str] = {
    "date": r"\d{4}-\d{2}-\d{2}",
    "date-time": r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})",
    "email": r"[^@\s]+@[^@\s]+",
    "uuid": r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
    "ipv4": r"((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)",
}
_PATTERN_CANDIDATES = (
    "a", "abc", "A", "0", "1", "123", "a1", "example", "ABC", "a-b", "a_b", "a.b", "v1", "1.0.0",
    "2024-01-01", _EMAIL, _URL, "#000000", "en", "en-US", "US", "USD",
)  # fmt: skip
_TYPE_HINTS: tuple[tuple[str, frozenset[str]], ...] = (
    ("object", frozenset({"properties", "required", "additionalProperties", "patternProperties"})),
    ("array", frozenset({"items", "prefixItems", "minItems", "maxItems", "contains"})),
    ("string", frozenset({"minLength", "maxLength", "pattern", "format"})),
    (
        "number",
        frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    ),
)


_NUMBER_BOUNDS = (
    ("minimum", operator.ge),
    ("maximum", operator.le),
    ("exclusiveMinimum", operator.gt),
    ("exclusiveMaximum", operator.lt),
)
_MAX_REPEAT = 1000


class NoExample(Exception):
    """No instance could be produced for the schema; the message says why."""


class _Cycle(NoExample):
    """A reference re-entered itself through required values (no finite instance on this branch)."""


def example_instance(schema: JsonSchema, defs: Mapping[str, JsonSchema]) -> Any:
    """A small deterministic instance of ``schema``; refs ``#/$defs/X`` resolve in ``defs``."""
    value = _Builder(defs).build(schema, (), 0)
    # compiled once, here: a tool's schema with its $defs runs to hundreds of kilobytes
    checker = validator(_rooted(schema, defs))
    if checker is None:
        raise NoExample("the generated server cannot compile this schema")
    if not _Checker(defs).accepts(schema, value, 0) or not checker.is_valid(value):
        raise NoExample("the synthesised value does not satisfy every constraint of the schema")
    return value


def conforms(schema: JsonSchema, value: Any, defs: Mapping[str, JsonSchema]) -> bool:
    """Whether ``value`` satisfies ``schema`` as far as the keywords used here can tell.

    Used to keep only the spec's examples that fit their schema (examples are often sloppy); an
    unresolvable reference counts as not satisfied.
    """
    try:
        accepted = _Checker(defs).accepts(schema, value, 0)
    except (NoExample, RecursionError):
        return False
    return accepted and validates(_rooted(schema, defs), value)


def _rooted(schema: JsonSchema, defs: Mapping[str, JsonSchema]) -> JsonSchema | bool:
    """``schema`` as a whole document: the definitions its ``#/$defs/`` references reach, at its root
    (a tool's schema already is one: it carries its own ``$defs``)."""
    if not isinstance(schema, Mapping):
        return bool(schema)
    if "$defs" in schema:
        return schema
    reached = defs_closure([schema], defs)
    if not reached:
        return schema
    if "$id" in schema:
        return {"$defs": reached, "allOf": [schema]}
    return {**schema, "$defs": reached}


def _types(schema: Mapping[str, Any]) -> list[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list):
        non_null = [t for t in declared if t != "null"]
        return non_null + (["null"] if "null" in declared else [])
    return [kind for kind, keywords in _TYPE_HINTS if keywords & schema.keys()][:1]


def _number(value: Any) -> Fraction | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


class _Checker:
    """Accepts or rejects an instance for the keywords the builder understands; others pass."""

    def __init__(self, defs: Mapping[str, JsonSchema]) -> None:
        self._root: Mapping[str, Any] = {"$defs": defs}

    def resolve(self, ref: str) -> Any:
        if not ref.startswith("#/$defs/"):
            raise NoExample(
                f"cannot follow reference {ref!r}: only #/$defs/ references are supported"
            )
        node: Any = self._root
        for raw in ref[2:].split("/"):
            token = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(node, Mapping) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise NoExample(f"unresolvable reference {ref!r}")
        return node

    def accepts(self, schema: Any, value: Any, depth: int) -> bool:
        if schema is True or depth > 4 * _MAX_DEPTH:
            return True
        if not isinstance(schema, Mapping):
            return False
        return (
            _literals_ok(schema, value)
            and self._composition_ok(schema, value, depth + 1)
            and self._shape_ok(schema, value, depth)
        )

    def _composition_ok(self, schema: Mapping[str, Any], value: Any, depth: int) -> bool:
        def ok(sub: Any) -> bool:
            return self.accepts(sub, value, depth)

        return (
            ("$ref" not in schema or ok(self.resolve(schema["$ref"])))
            and all(ok(s) for s in schema.get("allOf", ()))
            and ("anyOf" not in schema or any(ok(s) for s in schema["anyOf"]))
            and ("oneOf" not in schema or sum(ok(s) for s in schema["oneOf"]) == 1)
            and ("not" not in schema or not ok(schema["not"]))
        )

    def _shape_ok(self, schema: Mapping[str, Any], value: Any, depth: int) -> bool:
        number = _number(value)
        if isinstance(value, str):
            return _string_ok(schema, value)
        if number is not None:
            return _number_ok(schema, number)
        if isinstance(value, list):
            return self._array_ok(schema, value, depth)
        return not isinstance(value, dict) or self._object_ok(schema, value, depth)

    def _array_ok(self, schema: Mapping[str, Any], value: list[Any], depth: int) -> bool:
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", math.inf):
            return False
        if schema.get("uniqueItems") and any(
            _same(a, b) for i, a in enumerate(value) for b in value[i + 1 :]
        ):
            return False
        prefix = schema.get("prefixItems", [])
        for i, item in enumerate(value):
            sub = prefix[i] if i < len(prefix) else schema.get("items", True)
            if not self.accepts(sub, item, depth + 1):
                return False
        return "contains" not in schema or any(
            self.accepts(schema["contains"], v, depth + 1) for v in value
        )

    def _object_ok(self, schema: Mapping[str, Any], value: dict[str, Any], depth: int) -> bool:
        if any(name not in value for name in schema.get("required", ())):
            return False
        if (
            not schema.get("minProperties", 0)
            <= len(value)
            <= schema.get("maxProperties", math.inf)
        ):
            return False
        properties = schema.get("properties", {})
        for name, item in value.items():
            if name in properties:
                sub = properties[name]
            elif any(_search(p, name) for p in schema.get("patternProperties", {})):
                continue
            else:
                sub = schema.get("additionalProperties", True)
            if not self.accepts(sub, item, depth + 1):
                return False
        return True


def _literals_ok(schema: Mapping[str, Any], value: Any) -> bool:
    if "const" in schema and not _same(value, schema["const"]):
        return False
    if "enum" in schema and not any(_same(value, e) for e in schema["enum"]):
        return False
    types = schema.get("type")
    return types is None or any(_is_type(value, t) for t in _as_list(types))


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]


def _same(a: Any, b: Any) -> bool:
    # JSON equality: 1 == 1.0, but True is not 1
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


def _is_type(value: Any, kind: str) -> bool:
    match kind:
        case "null":
            return value is None
        case "boolean":
            return isinstance(value, bool)
        case "integer":
            number = _number(value)
            return number is not None and number.denominator == 1
        case "number":
            return _number(value) is not None
        case "string":
            return isinstance(value, str)
        case "array":
            return isinstance(value, list)
        case "object":
            return isinstance(value, dict)
    return True


@lru_cache(maxsize=1024)
def _compiled(pattern: str) -> re.Pattern[str] | None:
    try:
        # a spec's pattern is ECMA-262: what Python would read another way some day ("[[" as a
        # nested set) it warns about on stderr, which is not the user's to see
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            return re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return None


@lru_cache(maxsize=1024)
def _matcher(pattern: str) -> Any:
    """The generated server's own validator for ``pattern`` (``None``: it cannot compile it)."""
    return validator({"type": "string", "pattern": pattern})


def _search(pattern: str, value: str) -> bool:
    """Whether ``value`` matches ``pattern`` as the generated server judges it: ECMA-262, in linear
    time (Python's re backtracks for ever on ``([\\w .-]*)*$`` and a value it does not match, as
    BeezUP's spec has); a pattern the server cannot compile is not ours to enforce."""
    matcher = _matcher(pattern)
    return matcher is None or bool(matcher.is_valid(value))


def _string_ok(schema: Mapping[str, Any], value: str) -> bool:
    if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", math.inf):
        return False
    if isinstance(schema.get("pattern"), str) and not _search(schema["pattern"], value):
        return False
    check = _FORMAT_CHECKS.get(str(schema.get("format")))
    return check is None or re.fullmatch(check, value) is not None


def _number_ok(schema: Mapping[str, Any], value: Fraction) -> bool:
    for keyword, holds in _NUMBER_BOUNDS:
        bound = _number(schema.get(keyword))
        if bound is not None and not holds(value, bound):
            return False
    step = _number(schema.get("multipleOf"))
    return step is None or step <= 0 or (value / step).denominator == 1


_LOWER_BOUNDS = frozenset({"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"})
_UPPER_BOUNDS = frozenset({"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"})


def _type_intersection(left: Any, right: Any) -> list[str]:
    right_types = _as_list(right)
    both: list[str] = []
    for kind in _as_list(left):
        if kind in right_types:
            both.append(kind)
        elif {kind, "integer"} <= {"integer", "number"} and {"integer", "number"} & set(
            right_types
        ):
            both.append("integer")
    if not both:
        raise NoExample("allOf branches require incompatible types")
    return both


def _merge(left: Mapping[str, Any], right: Mapping[str, Any]) -> dict[str, Any]:
    """``allOf`` of two schemas as one (conflicting keywords the merge cannot combine keep ``left``)."""
    out = dict(left)
    for key, value in right.items():
        if key not in out:
            out[key] = value
        elif key == "properties":
            mine = out[key]
            out[key] = {
                **mine,
                **{n: {"allOf": [mine[n], s]} if n in mine else s for n, s in value.items()},
            }
        elif key == "required":
            out[key] = list(dict.fromkeys([*out[key], *value]))
        elif key == "type":
            out[key] = _type_intersection(out[key], value)
        elif key in _LOWER_BOUNDS or key in _UPPER_BOUNDS:
            pick = max if key in _LOWER_BOUNDS else min
            out[key] = pick(out[key], value)
        elif key == "enum":
            out[key] = [x for x in out[key] if any(_same(x, y) for y in value)]
        elif key == "allOf":
            out[key] = [*out[key], *value]
        elif key in ("items", "additionalProperties"):
            out[key] = False if False in (out[key], value) else {"allOf": [out[key], value]}
    return out


class _Regex:
    """The shortest-ish string a regex matches, read from Python's regex parser (verified afterwards)."""

    _parser: Any = importlib.import_module("re._parser")
    _categories: Mapping[str, str] = {
        "CATEGORY_DIGIT": "0",
        "CATEGORY_NOT_DIGIT": "a",
        "CATEGORY_SPACE": " ",
        "CATEGORY_NOT_SPACE": "a",
        "CATEGORY_WORD": "a",
        "CATEGORY_NOT_WORD": "-",
    }

    def __init__(self, extra: int) -> None:
        self.extra = extra
        self.groups: dict[int, str] = {}

    @classmethod
    def candidates(cls, pattern: str, extras: Sequence[int]) -> list[str]:
        found: list[str] = []
        for extra in extras:
            try:
                text = cls(extra).sequence(cls._parser.parse(pattern))
            except (re.error, RecursionError, OverflowError, ValueError, KeyError, IndexError):
                continue
            if text not in found:
                found.append(text)
        return found

    def sequence(self, items: Any) -> str:
        return "".join(self.item(str(op), arg) for op, arg in items)

    def item(self, op: str, arg: Any) -> str:
        if op in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, sub = arg
            if low > _MAX_REPEAT:
                raise ValueError("repeat too long")
            return "".join(self.sequence(sub) for _ in range(min(low + self.extra, high)))
        if op == "SUBPATTERN":
            group, _, _, sub = arg
            text = self.sequence(sub)
            if group:
                self.groups[group] = text
            return text
        if op == "GROUPREF":
            return self.groups[arg]
        if op in ("ATOMIC_GROUP", "BRANCH"):
            return self.sequence(arg if op == "ATOMIC_GROUP" else arg[1][0])
        if op == "IN":
            return self.pick(arg)
        return self.atom(op, arg)

    def atom(self, op: str, arg: Any) -> str:
        if op == "LITERAL":
            return chr(arg)
        if op == "NOT_LITERAL":
            return "b" if arg == ord("a") else "a"
        if op == "CATEGORY":
            return self._categories[str(arg)]
        if op == "ANY":
            return "a"
        if op in ("AT", "ASSERT", "ASSERT_NOT"):
            return ""
        raise ValueError(op)

    def pick(self, items: Sequence[tuple[Any, Any]]) -> str:
        members = [(str(op), arg) for op, arg in items if str(op) != "NEGATE"]
        if len(members) == len(items):
            op, arg = members[0]
            return chr(arg[0]) if op == "RANGE" else self.atom(op, arg)
        for char in "aA0_-. x":
            if not any(self.contains(op, arg, char) for op, arg in members):
                return char
        raise ValueError("negated set")

    def contains(self, op: str, arg: Any, char: str) -> bool:
        if op == "LITERAL":
            return bool(ord(char) == arg)
        if op == "RANGE":
            return bool(arg[0] <= ord(char) <= arg[1])
        sample = self._categories.get(str(arg))
        return sample is not None and re.fullmatch(re.escape(sample), char) is not None


class _Builder(_Checker):
    def build(self, schema: Any, stack: tuple[str, ...], depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise NoExample("the schema nests too deeply")
        if schema is True:
            return "example"  # not null: a server reads a null body or field as one not given
        if not isinstance(schema, Mapping):
            raise NoExample("the schema accepts no value")
        if "$ref" in schema:
            target, stack = self._deref(schema, stack)
            return self.build(target, stack, depth + 1)
        if "const" in schema:
            return schema["const"]
        offered = [*_as_list(schema.get("examples", [])), *_as_list(schema.get("example", []))]
        offered += [schema["default"]] if "default" in schema else []
        for candidate in [*offered, *schema.get("enum", [])]:
            if self.accepts(schema, candidate, 0):
                return candidate
        if "enum" in schema:
            raise NoExample("no enum value satisfies the schema")
        if "allOf" in schema:
            merged, stack = self._flatten(schema, stack)
            return self.build(merged, stack, depth + 1)
        for key in ("oneOf", "anyOf"):
            if key in schema:
                return self._choose(schema, key, stack, depth)
        if "type" in schema and not _types(schema):
            raise NoExample("the schema allows no type")
        return self._typed(schema, stack, depth)

    def _deref(self, schema: Any, stack: tuple[str, ...]) -> tuple[Any, tuple[str, ...]]:
        while isinstance(schema, Mapping) and "$ref" in schema:
            ref = str(schema["$ref"])
            if ref in stack:
                raise _Cycle(f"{ref} refers back to itself through required values")
            stack = (*stack, ref)
            target = self.resolve(ref)
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            if target is True or not rest:
                schema = rest if target is True else target
            elif isinstance(target, Mapping):
                schema = _merge(target, rest)
            else:
                raise NoExample(f"{ref} accepts no value")
        return schema, stack

    def _flatten(
        self, schema: Mapping[str, Any], stack: tuple[str, ...]
    ) -> tuple[dict[str, Any], tuple[str, ...]]:
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        for raw in schema["allOf"]:
            branch, stack = self._deref(raw, stack)
            if branch is True:
                continue
            if not isinstance(branch, Mapping):
                raise NoExample("an allOf branch accepts no value")
            if "allOf" in branch:
                branch, stack = self._flatten(branch, stack)
            merged = _merge(merged, branch)
        return merged, stack

    def _choose(
        self, schema: Mapping[str, Any], key: str, stack: tuple[str, ...], depth: int
    ) -> Any:
        rest = {k: v for k, v in schema.items() if k != key}
        branches = list(schema[key])
        fallback: list[Any] = []
        for index, branch in enumerate(branches):
            others = branches[:index] + branches[index + 1 :]
            option = {"allOf": [rest, branch]} if rest else branch
            attempts = [(option, stack)]
            if key == "oneOf":
                # objects whose properties are all optional often match every branch as {}
                attempts += self._with_all_properties(option, stack)
            for attempt, attempt_stack in attempts:
                try:
                    value = self.build(attempt, attempt_stack, depth + 1)
                except NoExample:
                    continue
                if key == "anyOf" or not any(self.accepts(o, value, 0) for o in others):
                    return value
                fallback = fallback or [value]
        if fallback:
            return fallback[0]  # not exclusive: the final check decides
        raise NoExample(f"no {key} branch has an example")

    def _with_all_properties(
        self, schema: Any, stack: tuple[str, ...]
    ) -> list[tuple[Any, tuple[str, ...]]]:
        try:
            merged, stack = self._flatten({"allOf": [schema]}, stack)
        except NoExample:
            return []
        properties = merged.get("properties")
        if not isinstance(properties, Mapping) or not properties:
            return []
        required = list(dict.fromkeys([*merged.get("required", ()), *properties]))
        return [({**merged, "required": required}, stack)]

    def _typed(self, schema: Mapping[str, Any], stack: tuple[str, ...], depth: int) -> Any:
        kinds = _types(schema)
        if not kinds:
            candidates: list[Any] = ["example", 0, False, {}, [], None]
            return next((c for c in candidates if self.accepts(schema, c, 0)), None)
        failure: NoExample | None = None
        for kind in kinds:
            try:
                return self._of_type(kind, schema, stack, depth)
            except NoExample as exc:
                failure = failure or exc
        raise failure or NoExample("no type of the schema has an example")

    def _of_type(
        self, kind: str, schema: Mapping[str, Any], stack: tuple[str, ...], depth: int
    ) -> Any:
        match kind:
            case "null":
                return None
            case "boolean":
                return False
            case "integer" | "number":
                return _number_value(schema, integer=kind == "integer")
            case "string":
                return _string_value(schema)
            case "array":
                return self._array(schema, stack, depth)
            case "object":
                return self._object(schema, stack, depth)
        raise NoExample(f"unknown type {kind!r}")

    def _is_object(self, schema: Any, stack: tuple[str, ...]) -> bool:
        """Whether array items are objects (worth one item to exercise them), looking through refs."""
        try:
            resolved, stack = self._deref(schema, stack)
            if not isinstance(resolved, Mapping):
                return False
            if _types(resolved)[:1] == ["object"]:
                return True
            branches = [*resolved.get("allOf", ()), *resolved.get("anyOf", ())[:1]]
            branches += resolved.get("oneOf", ())[:1]
            return any(self._is_object(b, stack) for b in branches)
        except NoExample:
            return False

    def _array(self, schema: Mapping[str, Any], stack: tuple[str, ...], depth: int) -> list[Any]:
        prefix = list(schema.get("prefixItems", []))
        items = schema.get("items", True)
        count = max(int(schema.get("minItems", 0)), 1 if "contains" in schema else 0)
        if (
            count == 0
            and schema.get("maxItems", 1) >= 1
            and self._is_object(prefix[0] if prefix else items, stack)
        ):
            try:
                return self._items(schema, prefix, items, 1, stack, depth)
            except NoExample:
                pass
        return self._items(schema, prefix, items, count, stack, depth)

    def _items(
        self,
        schema: Mapping[str, Any],
        prefix: list[Any],
        items: Any,
        count: int,
        stack: tuple[str, ...],
        depth: int,
    ) -> list[Any]:
        subs = [prefix[i] if i < len(prefix) else items for i in range(count)]
        if "contains" in schema and subs:
            subs[0] = {"allOf": [subs[0], schema["contains"]]}
        values = [self.build(sub, stack, depth + 1) for sub in subs]
        if schema.get("uniqueItems"):
            for i in range(1, count):
                if any(_same(values[i], v) for v in values[:i]):
                    values[i] = self._variant(values[i], i, subs[i], values[:i])
        return values

    def _variant(self, value: Any, index: int, schema: Any, taken: list[Any]) -> Any:
        if isinstance(value, str):
            options: list[Any] = [
                f"{value}{index}",
                f"{index}{value}",
                value[:-1] + chr(ord("a") + index),
            ]
        elif isinstance(value, int | float) and not isinstance(value, bool):
            options = [value + index, value - index]
        else:
            options = []
        for option in options:
            if self.accepts(schema, option, 0) and not any(_same(option, t) for t in taken):
                return option
        return value

    def _object(
        self, schema: Mapping[str, Any], stack: tuple[str, ...], depth: int
    ) -> dict[str, Any]:
        properties: Mapping[str, Any] = schema.get("properties", {})
        additional = schema.get("additionalProperties", True)
        out: dict[str, Any] = {}
        for name in dict.fromkeys(schema.get("required", ())):
            patterns = schema.get("patternProperties", {})
            matching = [s for p, s in patterns.items() if _search(p, name)]
            sub = properties.get(name, matching[0] if matching else additional)
            out[name] = self.build(sub, stack, depth + 1)
        wanted = int(schema.get("minProperties", 0))
        for name, sub in properties.items():
            if len(out) >= wanted:
                break
            if name not in out:
                try:
                    out[name] = self.build(sub, stack, depth + 1)
                except NoExample:
                    continue
        extra = 1
        while len(out) < wanted and additional is not False and extra <= wanted:
            out.setdefault(f"key{extra}", self.build(additional, stack, depth + 1))
            extra += 1
        return out


def _number_value(schema: Mapping[str, Any], *, integer: bool) -> int | float:
    low, low_open = _bound(schema, "minimum", "exclusiveMinimum", max)
    high, high_open = _bound(schema, "maximum", "exclusiveMaximum", min)
    step = _number(schema.get("multipleOf"))
    if step is not None and step <= 0:
        step = None
    if integer:
        # the integer multiples of p/q are the multiples of p
        step = Fraction(step.numerator) if step is not None else Fraction(1)

    def fits(value: Fraction) -> bool:
        above = low is None or value > low or (value == low and not low_open)
        below = high is None or value < high or (value == high and not high_open)
        return above and below

    candidates = [Fraction(0)]
    if step is not None:
        if low is not None:
            candidates.append(math.ceil(low / step) * step)
            candidates.append((math.floor(low / step) + 1) * step)
        if high is not None:
            candidates.append(math.floor(high / step) * step)
            candidates.append((math.ceil(high / step) - 1) * step)
    else:
        candidates += [b for b in (low, high) if b is not None]
        if low is not None:
            candidates.append(low + 1)
        if high is not None:
            candidates.append(high - 1)
        if low is not None and high is not None:
            candidates.append((low + high) / 2)
    fitting = sorted((c for c in candidates if fits(c)), key=lambda c: (abs(c), c))
    if not fitting:
        raise NoExample("no number satisfies the bounds")
    value = fitting[0]
    return int(value) if value.denominator == 1 else float(value)


def _bound(
    schema: Mapping[str, Any], closed: str, open_: str, tighter: Any
) -> tuple[Fraction | None, bool]:
    inclusive, exclusive = _number(schema.get(closed)), _number(schema.get(open_))
    if exclusive is None:
        return inclusive, False
    if inclusive is None or tighter(inclusive, exclusive) == exclusive:
        return exclusive, True
    return inclusive, False


def _fit(text: str, low: int, high: int | None) -> str:
    if len(text) < low:
        text += "x" * (low - len(text))
    return text if high is None else text[:high]


def _string_value(schema: Mapping[str, Any]) -> str:
    low, high = int(schema.get("minLength", 0)), schema.get("maxLength")
    if high is not None and low > high:
        raise NoExample("minLength exceeds maxLength")
    candidates = [_fit(_FORMATS.get(str(schema.get("format")), "string"), low, high)]
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        if _compiled(pattern) is None:
            raise NoExample(f"pattern {pattern!r} cannot be read by Python's re; add an example")
        extras = sorted({0, 1, 2, 3, 5, 8, 16, 32, low})
        candidates += _Regex.candidates(pattern, extras)
        candidates += [_fit(c, low, high) for c in _PATTERN_CANDIDATES]
    for candidate in candidates:
        if _string_ok(schema, candidate):
            return candidate
    raise NoExample("no string satisfies the pattern, format and length constraints")
