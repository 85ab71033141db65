"""Schema-valid arguments for a tool: the generator's minimal instance and a richer one built here.

``minimal`` is ``openapi2mcp.render.examples.example_instance`` (required properties only). ``rich`` fills
optional properties too, to a bounded depth, so that encodings get exercised: arrays of two items,
objects with two extra keys where ``additionalProperties`` allows them, the first branch of
``anyOf``/``oneOf`` that validates (object branches first, so that deepObject and nested form
fields are reached), enum values other than the default. Free text carries a space, ``&``, ``=`` and
a non-ASCII letter (``a b&c=é``) so that percent-encoding is visible; header and cookie arguments
get plain ASCII (``ab``), since HTTP cannot carry more there. ``partial`` is the minimal instance
plus one optional field of a flattened body (a body missing the properties its schema requires,
unless the tool schema makes them required together); ``nulls`` is the minimal instance with
every top-level argument that admits ``null`` set to ``null``. Every instance is checked with
``jsonschema`` (Draft 2020-12, formats asserted); a rich instance that does not validate is
replaced by the minimal one (``Instances.rich_fell_back`` says so).
"""

from __future__ import annotations

import base64
import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from openapi2mcp.render.examples import NoExample, example_instance

RICH_TEXT = "a b&c=é"
PLAIN_TEXT = "ab"
BINARY = b"bin\x00\xff\r\n"
_MAX_DEPTH = 3
_EXTRA_KEYS = ("alpha", "beta")
_FORMATS = {
    "date": "2024-02-03",
    "date-time": "2024-02-03T04:05:06Z",
    "time": "04:05:06Z",
    "email": "user@example.com",
    "uuid": "00000000-0000-4000-8000-000000000001",
    "uri": "https://example.com/a",
    "url": "https://example.com/a",
    "uri-reference": "https://example.com/a",
    "hostname": "example.com",
    "ipv4": "192.0.2.7",
    "ipv6": "2001:db8::7",
    "int32": "7",
    "int64": "7",
}
_CONSTRAINTS = frozenset(
    {"pattern", "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
)


def validator(schema: Mapping[str, Any]) -> Draft202012Validator:
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


class _Skip(Exception):
    """This optional value cannot be built (a reference cycle, an impossible schema): leave it out."""


class _Rich:
    def __init__(self, root: Mapping[str, Any], plain: frozenset[str]) -> None:
        self._root = root
        self._plain = plain

    def resolve(self, ref: str) -> Any:
        node: Any = self._root
        for raw in ref.removeprefix("#").split("/")[1:]:
            node = node[raw.replace("~1", "/").replace("~0", "~")]
        return node

    def build(
        self, schema: Any, depth: int, trail: tuple[str, ...], variant: int, plain: bool
    ) -> Any:
        if schema is True or schema == {}:
            return PLAIN_TEXT if plain else RICH_TEXT
        if not isinstance(schema, Mapping):
            raise _Skip
        if "$ref" in schema:
            ref = schema["$ref"]
            if ref in trail:
                raise _Skip
            merged = {**self.resolve(ref), **{k: v for k, v in schema.items() if k != "$ref"}}
            return self.build(merged, depth, (*trail, ref), variant, plain)
        if "const" in schema:
            return copy.deepcopy(schema["const"])
        if "enum" in schema:
            values = [v for v in schema["enum"] if v is not None and v != schema.get("default")]
            values = values or list(schema["enum"])
            return copy.deepcopy(values[variant % len(values)])
        if "allOf" in schema:
            return self.build(self._merge(schema), depth, trail, variant, plain)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return self._branch(schema, key, depth, trail, variant, plain)
        return self._typed(schema, depth, trail, variant, plain)

    def _flat(self, member: Any) -> Any:
        """``member`` with its ``$ref`` followed and its own ``allOf`` merged in."""
        while isinstance(member, Mapping) and "$ref" in member:
            rest = {k: v for k, v in member.items() if k != "$ref"}
            member = {**self.resolve(member["$ref"]), **rest}
        if isinstance(member, Mapping) and "allOf" in member:
            return self._merge(member)
        return member

    def _merge(self, schema: Mapping[str, Any]) -> dict[str, Any]:
        merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
        for raw in schema["allOf"]:
            member = self._flat(raw)
            if not isinstance(member, Mapping):
                continue
            for key, value in member.items():
                if key == "properties":
                    merged["properties"] = {**merged.get("properties", {}), **value}
                elif key == "required":
                    merged["required"] = [*merged.get("required", []), *value]
                else:
                    merged.setdefault(key, value)
        return merged

    def _branch(
        self,
        schema: Mapping[str, Any],
        key: str,
        depth: int,
        trail: tuple[str, ...],
        variant: int,
        plain: bool,
    ) -> Any:
        rest = {k: v for k, v in schema.items() if k != key}
        branches = list(schema[key])
        # object and array branches first: they exercise nested encodings; null last
        branches.sort(
            key=lambda b: (
                0 if self._kind(b) in ("object", "array") else 2 if self._kind(b) == "null" else 1
            )
        )
        # the branch's own schema, with the root's $defs to resolve in (not the root's own
        # properties and required, which a nested value does not have)
        defs = self._root.get("$defs")
        check = validator({"$defs": defs, **schema} if defs else schema)
        for branch in branches:
            try:
                value = self.build(
                    {**rest, **branch} if isinstance(branch, Mapping) else branch,
                    depth,
                    trail,
                    variant,
                    plain,
                )
            except _Skip:
                continue
            if check.is_valid(value):
                return value
        raise _Skip

    def _kind(self, schema: Any) -> str:
        while isinstance(schema, Mapping) and "$ref" in schema:
            schema = self.resolve(schema["$ref"])
        if not isinstance(schema, Mapping):
            return "any"
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind is None:
            kind = "object" if "properties" in schema else "array" if "items" in schema else "any"
        return str(kind)

    def _typed(
        self,
        schema: Mapping[str, Any],
        depth: int,
        trail: tuple[str, ...],
        variant: int,
        plain: bool,
    ) -> Any:
        kind = self._kind(schema)
        if kind == "object":
            return self._object(schema, depth, trail, plain)
        if kind == "array":
            return self._array(schema, depth, trail, plain)
        if kind == "null":
            return None
        if _CONSTRAINTS & schema.keys() or (
            kind == "string" and "format" in schema and schema["format"] not in _FORMATS
        ):
            try:
                return example_instance(dict(schema), self._root.get("$defs", {}))
            except NoExample:
                raise _Skip from None
        if kind == "boolean":
            return variant % 2 == 0
        if kind == "integer":
            return 7 + variant
        if kind == "number":
            return 2.5 + variant
        return self._string(schema, variant, plain)

    def _string(self, schema: Mapping[str, Any], variant: int, plain: bool) -> str:
        if schema.get("contentEncoding") == "base64":
            return base64.b64encode(BINARY + bytes([variant])).decode()
        text = _FORMATS.get(str(schema.get("format")), PLAIN_TEXT if plain else RICH_TEXT)
        if variant and "format" not in schema:
            text += str(variant)
        low, high = int(schema.get("minLength", 0)), int(schema.get("maxLength", 10**6))
        if len(text) < low:
            text += "x" * (low - len(text))
        return text[:high]

    def _object(
        self, schema: Mapping[str, Any], depth: int, trail: tuple[str, ...], plain: bool
    ) -> dict[str, Any]:
        required = set(schema.get("required") or [])
        properties: Mapping[str, Any] = schema.get("properties") or {}
        value: dict[str, Any] = {}
        for name, sub in properties.items():
            if name not in required and (depth >= _MAX_DEPTH or _read_only(sub)):
                continue
            top_plain = depth == 0 and name in self._plain
            try:
                built = self.build(sub, depth + 1, trail, 0, plain or top_plain)
            except _Skip:
                if name in required:
                    raise
                continue
            # an empty optional container (the depth bound reached) says nothing: leave it out
            if name in required or built not in ({}, []):
                value[name] = built
        extra = schema.get("additionalProperties")
        if not properties and extra not in (None, False) and depth < _MAX_DEPTH:
            for index, key in enumerate(_EXTRA_KEYS):
                value[key] = self.build(extra, depth + 1, trail, index, plain)
        high = schema.get("maxProperties")
        if isinstance(high, int) and len(value) > high:
            value = {k: v for k, v in value.items() if k in required} | {
                k: v for k, v in value.items() if k not in required
            }
            value = dict(list(value.items())[:high])
        return value

    def _array(
        self, schema: Mapping[str, Any], depth: int, trail: tuple[str, ...], plain: bool
    ) -> list[Any]:
        low, high = int(schema.get("minItems", 0)), int(schema.get("maxItems", 2))
        count = max(low, min(2, high))
        items = schema.get("items", {})
        return [self.build(items, depth + 1, trail, i, plain) for i in range(count)]


def _read_only(schema: Any) -> bool:
    return isinstance(schema, Mapping) and schema.get("readOnly") is True


def _admits_null(schema: Any) -> bool:
    if not isinstance(schema, Mapping):
        return False
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(_admits_null(b) for key in ("anyOf", "oneOf") for b in schema.get(key) or [])


@dataclass(frozen=True, slots=True)
class Instances:
    """The argument sets one tool is called with, by name (``minimal``, ``rich``, ``nulls``)."""

    calls: dict[str, dict[str, Any]]
    rich_fell_back: bool


def instances(
    input_schema: Mapping[str, Any],
    plain: frozenset[str] = frozenset(),
    body_fields: tuple[str, ...] = (),
    swagger: bool = False,
) -> Instances:
    """Argument sets for a tool; ``plain`` names the arguments that are headers or cookies,
    ``body_fields`` the arguments that are properties of a flattened body (in schema order)."""
    check = validator(input_schema)
    minimal: dict[str, Any] = example_instance(dict(input_schema), input_schema.get("$defs", {}))
    assert check.is_valid(minimal), f"minimal instance invalid: {minimal}"
    calls = {"minimal": minimal}
    try:
        rich = _Rich(input_schema, plain).build(input_schema, 0, (), 0, False)
    except _Skip:
        rich = None
    fell_back = rich is None or not check.is_valid(rich)
    if not fell_back and rich != minimal:
        calls["rich"] = rich
    # one optional body field alone: a body that is partial unless the schema says otherwise
    extra = next((f for f in body_fields if f not in minimal and rich and f in rich), None)
    if extra is not None and rich is not None:
        partial = {**minimal, extra: rich[extra]}
        if check.is_valid(partial) and partial not in calls.values():
            calls["partial"] = partial
    properties = input_schema.get("properties") or {}
    # a Swagger 2.0 body field that takes null takes it by the server's leniency (2.0 cannot say
    # nullable), beyond what the document validates: not asked here
    lenient = set(body_fields) if swagger else set()
    nullable = [n for n, sub in properties.items() if _admits_null(sub) and n not in lenient]
    if nullable:
        nulls = {**minimal, **dict.fromkeys(nullable)}
        if check.is_valid(nulls):
            calls["nulls"] = nulls
    return Instances(calls, fell_back)
