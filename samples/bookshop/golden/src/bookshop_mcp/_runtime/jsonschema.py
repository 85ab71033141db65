"""A small JSON Schema 2020-12 validator for tool arguments and upstream outputs.

A ``Validator`` compiles its schema once into closures, so validating a value walks no
dictionaries of keywords; each issue carries a readable path (``body.tags[0]``, ``""`` for the
root) and a message a model can act on. Supported: the type, enum/const, object, array, string,
numeric and composition keywords plus local ``$ref`` (``#``, ``#/$defs/X``, anchors), compiled
lazily so recursive schemas are safe. ``format``, ``unevaluated*`` and unknown keywords are
annotations and are ignored. A ``$ref`` to another document is a ``SchemaError``: this module never
fetches anything. Stdlib only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

__all__ = ["SchemaError", "ValidationIssue", "Validator"]

# How many $ref hops one validation may nest: deep enough for any real document, small enough that a
# schema such as {"$ref": "#"} reports an issue instead of exhausting the stack.
MAX_REF_DEPTH = 200
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_TYPES = frozenset({"null", "boolean", "object", "array", "number", "string", "integer"})


class SchemaError(Exception):
    """The schema itself is unusable (bad keyword value, invalid pattern, non-local ``$ref``)."""


Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class ValidationIssue:
    """One reason a value does not conform: where (``body.tags[0]``, and as keys and indexes in
    ``location``) and why."""

    path: str
    message: str
    location: Path = ()


class _Issues:
    """Collects issues up to a limit; checks stop early once it is full."""

    __slots__ = ("items", "limit")

    def __init__(self, limit: int) -> None:
        self.items: list[ValidationIssue] = []
        self.limit = limit

    @property
    def full(self) -> bool:
        return len(self.items) >= self.limit

    def add(self, path: Path, message: str) -> None:
        if len(self.items) < self.limit:
            self.items.append(ValidationIssue(format_path(path), message, path))


Check = Callable[[Any, Path, _Issues], None]


def format_path(path: Path) -> str:
    """``("body", "tags", 0)`` → ``body.tags[0]``; odd keys are quoted: ``body["a b"]``."""
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _IDENT.match(part):
            out.append(f".{part}" if out else part)
        else:
            out.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "".join(out)


def _show(value: Any) -> str:
    """A short literal for messages: strings in single quotes, other values as JSON."""
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:57] + "...")
    if isinstance(value, list | tuple):
        shown = [_show(v) for v in value[:20]]
        return "[" + ", ".join(shown) + (", ...]" if len(value) > 20 else "]")
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def describe(value: Any) -> str:
    """``string "abc"``, ``integer 3``, ``object``: what a value is, for "got ..." messages."""
    kind = _kind(value)
    if kind in ("array", "object", "null"):
        return kind
    if isinstance(value, str):
        text = value if len(value) <= 60 else value[:57] + "..."
        return f"string {json.dumps(text, ensure_ascii=False)}"
    return f"{kind} {json.dumps(value, default=str)}"


def _is_type(value: Any, name: str) -> bool:
    if name == "string":
        return isinstance(value, str)
    if name == "integer":
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list | tuple)
    if name == "boolean":
        return isinstance(value, bool)
    return value is None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def freeze(value: Any) -> Any:
    """A hashable key with JSON equality: ``1 == 1.0``, ``true != 1``, key order irrelevant."""
    if isinstance(value, bool) or value is None:
        return ("b", value)
    if isinstance(value, float) and value.is_integer():
        return ("n", int(value))
    if isinstance(value, int | float):
        return ("n", value)
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, list | tuple):
        return ("a", tuple(freeze(v) for v in value))
    if isinstance(value, dict):
        return ("o", frozenset((k, freeze(v)) for k, v in value.items()))
    return ("x", repr(value))


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def _num(value: Any, keyword: str) -> float | int:
    if not _is_number(value):
        raise SchemaError(f"'{keyword}' must be a number, got {describe(value)}")
    return value  # type: ignore[no-any-return]


def _count(value: Any, keyword: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SchemaError(f"'{keyword}' must be a non-negative integer, got {describe(value)}")
    return value


def compile_pattern(pattern: Any) -> re.Pattern[str]:
    """Compile an ECMA-262 pattern with ``re`` (named groups translated); bad → SchemaError."""
    if not isinstance(pattern, str):
        raise SchemaError(f"pattern must be a string, got {describe(pattern)}")
    try:
        return re.compile(re.sub(r"\(\?<(?=[A-Za-z_])", "(?P<", pattern))
    except re.error as exc:
        raise SchemaError(f"invalid pattern {pattern!r}: {exc}") from None


def _accept(value: Any, path: Path, issues: _Issues) -> None:
    return None


def _reject(value: Any, path: Path, issues: _Issues) -> None:
    issues.add(path, "no value is allowed here")


def _sequence(checks: list[Check]) -> Check:
    if not checks:
        return _accept
    if len(checks) == 1:
        return checks[0]
    seq = tuple(checks)

    def run(value: Any, path: Path, issues: _Issues) -> None:
        for check in seq:
            check(value, path, issues)
            if issues.full:
                return

    return run


def probe(check: Check, value: Any, path: Path, limit: int = 1) -> list[ValidationIssue]:
    """Run ``check`` into a fresh collector (for anyOf/oneOf/not/if/contains)."""
    issues = _Issues(limit)
    check(value, path, issues)
    return issues.items


class Validator:
    """Validates JSON values against one schema; compile once, call ``issues`` many times."""

    def __init__(self, schema: Mapping[str, Any] | bool) -> None:
        self._root: Any = schema
        self._compiled: dict[str, Check] = {}
        self._anchors: dict[str, Any] | None = None
        self._ref_depth = 0
        root_id = schema.get("$id") if isinstance(schema, Mapping) else None
        self._root_id = root_id.split("#")[0] if isinstance(root_id, str) else ""
        self._check = self.compile(schema)

    def issues(self, instance: Any, limit: int = 10) -> list[ValidationIssue]:
        """Up to ``limit`` reasons ``instance`` does not conform ([] when it does)."""
        collector = _Issues(max(1, limit))
        self._ref_depth = 0
        try:
            self._check(instance, (), collector)
        except RecursionError:
            collector.add((), "value is nested too deeply to validate")
        return collector.items

    def is_valid(self, instance: Any) -> bool:
        return not self.issues(instance, limit=1)

    @property
    def schema(self) -> Any:
        """The schema this validator checks against, as given."""
        return self._root

    # -- compilation -------------------------------------------------------------------------

    def compile(self, schema: Any) -> Check:
        """Compile one (sub)schema into a check."""
        if schema is True:
            return _accept
        if schema is False:
            return _reject
        if not isinstance(schema, Mapping):
            raise SchemaError(f"a schema must be an object or a boolean, got {describe(schema)}")
        checks: list[Check] = []
        if "$ref" in schema:
            checks.append(self._ref(schema["$ref"]))
        checks.extend(_keywords(self, schema))
        return _sequence(checks)

    def _ref(self, ref: Any) -> Check:
        if not isinstance(ref, str):
            raise SchemaError(f"$ref must be a string, got {describe(ref)}")
        if self._root_id and ref.startswith(self._root_id + "#"):
            ref = ref[len(self._root_id) :]
        if not ref.startswith("#"):
            raise SchemaError(
                f"$ref {ref!r} points outside this schema; only local refs are allowed"
            )
        target = self._resolve(ref)  # fail at compile time on dangling refs
        cell: list[Check] = []

        def check(value: Any, path: Path, issues: _Issues) -> None:
            if not cell:
                cell.append(self._compiled.get(ref) or self._compile_ref(ref, target))
            self._ref_depth += 1
            try:
                if self._ref_depth > MAX_REF_DEPTH:
                    issues.add(path, "schema recursion is too deep ($ref nested too often)")
                    return
                cell[0](value, path, issues)
            finally:
                self._ref_depth -= 1

        return check

    def _compile_ref(self, ref: str, target: Any) -> Check:
        # Register a forwarding stub first so a schema that refers to itself compiles finitely.
        slot: list[Check] = []

        def forward(value: Any, path: Path, issues: _Issues) -> None:
            slot[0](value, path, issues)

        self._compiled[ref] = forward
        compiled = self.compile(target)
        slot.append(compiled)
        self._compiled[ref] = compiled
        return compiled

    def _resolve(self, ref: str) -> Any:
        fragment = unquote(ref[1:])
        if fragment and not fragment.startswith("/"):
            return self._anchor(fragment, ref)
        node: Any = self._root
        for raw in fragment.split("/")[1:]:
            token = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(node, Mapping) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise SchemaError(f"$ref {ref!r} does not resolve in this schema")
        return node

    def _anchor(self, name: str, ref: str) -> Any:
        if self._anchors is None:
            found: dict[str, Any] = {}
            stack: list[Any] = [self._root]
            while stack:
                node = stack.pop()
                if isinstance(node, Mapping):
                    anchor = node.get("$anchor")
                    if isinstance(anchor, str):
                        found.setdefault(anchor, node)
                    stack.extend(node.values())
                elif isinstance(node, list):
                    stack.extend(node)
            self._anchors = found
        if name not in self._anchors:
            raise SchemaError(f"$ref {ref!r} names an unknown anchor")
        return self._anchors[name]


def check_type(names: Any) -> Check:
    """The ``type`` keyword (a name or a list of names)."""
    wanted = [names] if isinstance(names, str) else names
    if not isinstance(wanted, list) or not wanted or not all(n in _TYPES for n in wanted):
        raise SchemaError(f"invalid type {_show(names)}")
    label = " or ".join(wanted)
    if len(wanted) == 1:
        name = wanted[0]

        def one(value: Any, path: Path, issues: _Issues) -> None:
            if not _is_type(value, name):
                issues.add(path, f"expected {label}, got {describe(value)}")

        return one

    def several(value: Any, path: Path, issues: _Issues) -> None:
        if not any(_is_type(value, n) for n in wanted):
            issues.add(path, f"expected {label}, got {describe(value)}")

    return several


def check_enum(values: Any) -> Check:
    if not isinstance(values, list):
        raise SchemaError(f"'enum' must be an array, got {describe(values)}")
    allowed = frozenset(freeze(v) for v in values)
    shown = _show(values)

    def check(value: Any, path: Path, issues: _Issues) -> None:
        if freeze(value) not in allowed:
            issues.add(path, f"{_show(value)} is not one of {shown}")

    return check


def check_const(expected: Any) -> Check:
    key = freeze(expected)

    def check(value: Any, path: Path, issues: _Issues) -> None:
        if freeze(value) != key:
            issues.add(path, f"expected {_show(expected)}, got {_show(value)}")

    return check


# -- keyword compilers ------------------------------------------------------------------------


def _mapping(schema: Mapping[str, Any], keyword: str) -> Mapping[str, Any]:
    value = schema.get(keyword, {})
    if not isinstance(value, Mapping):
        raise SchemaError(f"'{keyword}' must be an object, got {describe(value)}")
    return value


def _schemas(schema: Mapping[str, Any], keyword: str) -> list[Any]:
    value = schema.get(keyword, [])
    if not isinstance(value, list) or (
        keyword in schema and not value and keyword != "prefixItems"
    ):
        raise SchemaError(f"'{keyword}' must be a non-empty array of schemas")
    return value


def _keywords(v: Validator, schema: Mapping[str, Any]) -> list[Check]:
    checks: list[Check] = []
    if "type" in schema:
        checks.append(check_type(schema["type"]))
    if "enum" in schema:
        checks.append(check_enum(schema["enum"]))
    if "const" in schema:
        checks.append(check_const(schema["const"]))
    checks += _object_keywords(v, schema)
    checks += _array_keywords(v, schema)
    checks += _string_keywords(schema)
    checks += _number_keywords(schema)
    checks += _composition_keywords(v, schema)
    return checks


def _object_keywords(v: Validator, schema: Mapping[str, Any]) -> list[Check]:  # noqa: PLR0915
    checks: list[Check] = []
    named = {key: v.compile(sub) for key, sub in _mapping(schema, "properties").items()}
    patterns = [
        (compile_pattern(p), v.compile(sub))
        for p, sub in _mapping(schema, "patternProperties").items()
    ]
    additional = schema.get("additionalProperties", True)
    forbid = additional is False
    extra = None if additional is True or forbid else v.compile(additional)
    if named or patterns or forbid or extra is not None:

        def members(value: Any, path: Path, issues: _Issues) -> None:
            if not isinstance(value, dict):
                return
            for key, item in value.items():
                check = named.get(key)
                matched = check is not None
                if check is not None:
                    check(item, (*path, key), issues)
                for regex, pattern_check in patterns:
                    if regex.search(key):
                        matched = True
                        pattern_check(item, (*path, key), issues)
                if not matched:
                    if forbid:
                        issues.add(path, f"unexpected property {_show(key)}")
                    elif extra is not None:
                        extra(item, (*path, key), issues)
                if issues.full:
                    return

        checks.append(members)
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise SchemaError("'required' must be an array of strings")
    if required:

        def present(value: Any, path: Path, issues: _Issues) -> None:
            if isinstance(value, dict):
                for name in required:
                    if name not in value:
                        issues.add(path, f"missing required property {_show(name)}")

        checks.append(present)
    depends = dict(_mapping(schema, "dependentRequired"))
    dep_schemas = {k: v.compile(s) for k, s in _mapping(schema, "dependentSchemas").items()}
    for key, dep in _mapping(schema, "dependencies").items():  # draft-07 spelling
        if isinstance(dep, list):
            depends[key] = dep
        else:
            dep_schemas[key] = v.compile(dep)
    if depends or dep_schemas:

        def dependent(value: Any, path: Path, issues: _Issues) -> None:
            if not isinstance(value, dict):
                return
            for key, needed in depends.items():
                if key in value:
                    for name in needed:
                        if name not in value:
                            issues.add(
                                path,
                                f"property {_show(name)} is required when {_show(key)} is present",
                            )
            for key, check in dep_schemas.items():
                if key in value:
                    check(value, path, issues)

        checks.append(dependent)
    if "propertyNames" in schema:
        name_check = v.compile(schema["propertyNames"])

        def names(value: Any, path: Path, issues: _Issues) -> None:
            if isinstance(value, dict):
                for key in value:
                    for issue in probe(name_check, key, path):
                        issues.add(path, f"invalid property name {_show(key)}: {issue.message}")

        checks.append(names)
    low = _count(schema.get("minProperties", 0), "minProperties")
    high = schema.get("maxProperties")
    high = None if high is None else _count(high, "maxProperties")
    if low or high is not None:

        def size(value: Any, path: Path, issues: _Issues) -> None:
            if isinstance(value, dict):
                if len(value) < low:
                    got = len(value)
                    issues.add(path, f"expected at least {_plural(low, 'property')}, got {got}")
                elif high is not None and len(value) > high:
                    got = len(value)
                    issues.add(path, f"expected at most {_plural(high, 'property')}, got {got}")

        checks.append(size)
    return checks


def _array_keywords(v: Validator, schema: Mapping[str, Any]) -> list[Check]:  # noqa: PLR0915
    checks: list[Check] = []
    items = schema.get("items", True)
    prefix_schemas = _schemas(schema, "prefixItems")
    if isinstance(items, list):  # draft-07 tuple form
        prefix_schemas, items = items, schema.get("additionalItems", True)
    prefix = [v.compile(s) for s in prefix_schemas]
    closed = items is False
    rest = None if items is True or closed else v.compile(items)
    if prefix or rest is not None or closed:
        count = len(prefix)

        def elements(value: Any, path: Path, issues: _Issues) -> None:
            if not isinstance(value, list | tuple):
                return
            if closed and len(value) > count:
                issues.add(path, f"expected at most {_plural(count, 'item')}, got {len(value)}")
            for i, item in enumerate(value):
                if i < count:
                    prefix[i](item, (*path, i), issues)
                elif rest is not None:
                    rest(item, (*path, i), issues)
                else:
                    return
                if issues.full:
                    return

        checks.append(elements)
    low = _count(schema.get("minItems", 0), "minItems")
    high = schema.get("maxItems")
    high = None if high is None else _count(high, "maxItems")
    if low or high is not None:

        def size(value: Any, path: Path, issues: _Issues) -> None:
            if isinstance(value, list | tuple):
                if len(value) < low:
                    issues.add(path, f"expected at least {_plural(low, 'item')}, got {len(value)}")
                elif high is not None and len(value) > high:
                    issues.add(path, f"expected at most {_plural(high, 'item')}, got {len(value)}")

        checks.append(size)
    if schema.get("uniqueItems") is True:

        def unique(value: Any, path: Path, issues: _Issues) -> None:
            if isinstance(value, list | tuple):
                seen: dict[Any, int] = {}
                for i, item in enumerate(value):
                    first = seen.setdefault(freeze(item), i)
                    if first != i:
                        issues.add(path, f"items must be unique; items {first} and {i} are equal")
                        return

        checks.append(unique)
    if "contains" in schema:
        contains = v.compile(schema["contains"])
        at_least = _count(schema.get("minContains", 1), "minContains")
        at_most = schema.get("maxContains")
        at_most = None if at_most is None else _count(at_most, "maxContains")

        def containing(value: Any, path: Path, issues: _Issues) -> None:
            if isinstance(value, list | tuple):
                found = sum(1 for i, x in enumerate(value) if not probe(contains, x, (*path, i)))
                if found < at_least:
                    want = _plural(at_least, "item")
                    issues.add(path, f"expected at least {want} matching 'contains', got {found}")
                elif at_most is not None and found > at_most:
                    want = _plural(at_most, "item")
                    issues.add(path, f"expected at most {want} matching 'contains', got {found}")

        checks.append(containing)
    return checks


def _string_keywords(schema: Mapping[str, Any]) -> list[Check]:
    checks: list[Check] = []
    low = _count(schema.get("minLength", 0), "minLength")
    high = schema.get("maxLength")
    high = None if high is None else _count(high, "maxLength")
    if low or high is not None:

        def length(value: Any, path: Path, issues: _Issues) -> None:
            if isinstance(value, str):
                # len() counts code points, which is what JSON Schema means by length
                if len(value) < low:
                    want = _plural(low, "character")
                    issues.add(path, f"expected at least {want}, got {len(value)}")
                elif high is not None and len(value) > high:
                    want = _plural(high, "character")
                    issues.add(path, f"expected at most {want}, got {len(value)}")

        checks.append(length)
    if "pattern" in schema:
        source = schema["pattern"]
        regex = compile_pattern(source)

        def matches(value: Any, path: Path, issues: _Issues) -> None:
            if isinstance(value, str) and not regex.search(value):
                issues.add(path, f"{_show(value)} does not match pattern {source!r}")

        checks.append(matches)
    return checks


def _bound(op: str, limit: float) -> Check:
    shown = json.dumps(limit)
    test: Callable[[Any], bool] = {
        ">=": lambda x: x >= limit,
        ">": lambda x: x > limit,
        "<=": lambda x: x <= limit,
        "<": lambda x: x < limit,
    }[op]

    def check(value: Any, path: Path, issues: _Issues) -> None:
        if _is_number(value) and not test(value):
            issues.add(path, f"expected a number {op} {shown}, got {json.dumps(value)}")

    return check


def _is_multiple(value: float, step: float) -> bool:
    if isinstance(value, int) and isinstance(step, int):
        return value % step == 0
    try:
        quotient = value / step
    except OverflowError:
        return False
    if quotient in (float("inf"), float("-inf")):
        return False
    return abs(quotient - round(quotient)) <= 1e-9 * max(1.0, abs(quotient))


def _number_keywords(schema: Mapping[str, Any]) -> list[Check]:
    checks: list[Check] = []
    for keyword, op, exclusive_key, exclusive_op in (
        ("minimum", ">=", "exclusiveMinimum", ">"),
        ("maximum", "<=", "exclusiveMaximum", "<"),
    ):
        exclusive = schema.get(exclusive_key)
        if keyword in schema:
            # draft-04 spelling: a boolean exclusive flag turns the bound itself exclusive
            strict = exclusive is True
            checks.append(_bound(exclusive_op if strict else op, _num(schema[keyword], keyword)))
        if exclusive is not None and not isinstance(exclusive, bool):
            checks.append(_bound(exclusive_op, _num(exclusive, exclusive_key)))
    if "multipleOf" in schema:
        step = _num(schema["multipleOf"], "multipleOf")
        if step <= 0:
            raise SchemaError("'multipleOf' must be greater than 0")

        def multiple(value: Any, path: Path, issues: _Issues) -> None:
            if _is_number(value) and not _is_multiple(value, step):
                issues.add(
                    path, f"expected a multiple of {json.dumps(step)}, got {json.dumps(value)}"
                )

        checks.append(multiple)
    return checks


def _report_alternatives(
    failures: list[list[ValidationIssue]], path: Path, issues: _Issues, value: Any
) -> None:
    """No alternative matched: explain with the one that got furthest, or merge type mismatches."""
    here = format_path(path)
    expected: list[str] = []
    for found in failures:
        issue = found[0]
        if len(found) != 1 or issue.path != here or not issue.message.startswith("expected "):
            break
        head, sep, _ = issue.message[len("expected ") :].partition(", got ")
        if not sep:
            break
        expected.extend(part for part in head.split(" or ") if part not in expected)
    else:
        issues.add(path, f"expected {' or '.join(expected)}, got {describe(value)}")
        return

    def score(found: list[ValidationIssue]) -> tuple[int, bool, int]:
        first = found[0]
        return (len(first.path), ", got " not in first.message, -len(found))

    for issue in max(failures, key=score):
        if issues.full:
            return
        issues.items.append(issue)


def _composition_keywords(v: Validator, schema: Mapping[str, Any]) -> list[Check]:
    checks: list[Check] = [v.compile(s) for s in _schemas(schema, "allOf")]
    if "anyOf" in schema:
        any_of = [v.compile(s) for s in _schemas(schema, "anyOf")]

        def any_check(value: Any, path: Path, issues: _Issues) -> None:
            failures = []
            for check in any_of:
                found = probe(check, value, path, limit=3)
                if not found:
                    return
                failures.append(found)
            _report_alternatives(failures, path, issues, value)

        checks.append(any_check)
    if "oneOf" in schema:
        one_of = [v.compile(s) for s in _schemas(schema, "oneOf")]

        def one_check(value: Any, path: Path, issues: _Issues) -> None:
            failures, passed = [], []
            for i, check in enumerate(one_of):
                found = probe(check, value, path, limit=3)
                if found:
                    failures.append(found)
                else:
                    passed.append(i)
                    if len(passed) > 1:
                        which = f"#{passed[0]} and #{passed[1]}"
                        issues.add(path, f"matches more than one oneOf alternative ({which})")
                        return
            if not passed:
                _report_alternatives(failures, path, issues, value)

        checks.append(one_check)
    if "not" in schema:
        negated = v.compile(schema["not"])

        def not_check(value: Any, path: Path, issues: _Issues) -> None:
            if not probe(negated, value, path):
                issues.add(path, f"{_show(value)} is not allowed here (matches the 'not' schema)")

        checks.append(not_check)
    if "if" in schema:
        condition = v.compile(schema["if"])
        then = v.compile(schema.get("then", True))
        otherwise = v.compile(schema.get("else", True))

        def if_check(value: Any, path: Path, issues: _Issues) -> None:
            branch = otherwise if probe(condition, value, path) else then
            branch(value, path, issues)

        checks.append(if_check)
    return checks
