"""Arguments as text: what a URI template's variable is as its argument's type, and which
values of other types a parameter sends as the same text.

A resource read gives its arguments as text ("42" for an integer ``petId``); a model may give an
integer where a string id is asked, or the text of a number where an integer is: a parameter that
travels as text sends the same bytes either way (``texts_as_sent``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from ..catalog.model import OperationSpec
from ..jsonschema import Validator, unwrap_nullable
from ..upstream.encoding import scalar
from .jsonrpc import JsonObject
from .uritemplate import Listed, Matched

# methods whose query may say what they act on (PostgREST's DELETE /measurements?reading_ts=…):
# a filter left out there widens the change
_NARROWED = frozenset({"DELETE", "PATCH", "PUT"})

_INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")
_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def _primary_type(schema: Any) -> str | None:
    schema = unwrap_nullable(schema)
    kind = schema.get("type") if isinstance(schema, dict) else None
    if isinstance(kind, list):
        kind = next((name for name in kind if name != "null"), None)
    return kind if isinstance(kind, str) else None


def convert_variable(value: Matched, schema: Any) -> Any:
    """A matched URI-template variable as the type its argument schema declares: an array's
    items are its values given one by one (a query key repeated) or written with bare commas
    (:class:`Listed`); a comma written ``%2C`` is a character of its item.

    Raises ``ValueError`` when the text cannot be that type (the URI then names no resource).
    """
    schema = unwrap_nullable(schema)
    kind = _primary_type(schema)
    items = schema.get("items") if isinstance(schema, dict) else None
    if isinstance(value, Listed):
        if kind == "array":
            return [convert_variable(part, items) for part in value]
        value = ",".join(value)  # one value with commas of its own
    if isinstance(value, list):
        if kind != "array":
            raise ValueError(f"given {len(value)} times; it takes one value")
        return [convert_variable(part, items) for part in value]
    if kind == "integer":
        if not _INTEGER.fullmatch(value):
            raise ValueError(f"{value!r} is not an integer")
        return int(value)
    if kind == "number":
        if not _NUMBER.fullmatch(value):
            raise ValueError(f"{value!r} is not a number")
        return int(value) if _INTEGER.fullmatch(value) else float(value)
    if kind == "boolean":
        if value not in ("true", "false"):
            raise ValueError(f"{value!r} is not true or false")
        return value == "true"
    if kind == "array":
        return [convert_variable(value, items)] if value else []
    return value


# a JSON number or boolean as a parameter's text may spell it
_SCALAR_TEXT = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false")


def _as_value(value: Any) -> Any:
    """The JSON number or boolean a parameter's text spells ("17": 17), else ``value``."""
    if isinstance(value, str) and _SCALAR_TEXT.fullmatch(value):
        other = json.loads(value)
        return other if scalar(other) == value else value
    return value


def _as_text(value: Any) -> Any:
    """A number or a boolean as the text a parameter sends it as (17: "17"), else ``value``."""
    return scalar(value) if isinstance(value, bool | int | float) else value


def _same_text(value: Any) -> Iterator[Any]:
    """The values of other JSON types that a parameter sends as the same text as ``value`` ("17"
    and 17, "true" and true; a list's items all read one way or all written the other; a list
    of the one value)."""
    for convert in (_as_value, _as_text):
        other = [convert(item) for item in value] if isinstance(value, list) else convert(value)
        if other != value or type(other) is not type(value):
            yield other
    if value is not None and not isinstance(value, list | dict):
        # one value where a list is asked: a list of one goes as the very same text, in any
        # style (NetBox's status=active, refused as "not of type array")
        yield [value]
        for convert in (_as_value, _as_text):
            other = convert(value)
            if other != value or type(other) is not type(value):
                yield [other]


def texts_as_sent(
    validator: Validator, arguments: JsonObject, textual: tuple[str, ...]
) -> JsonObject:
    """``arguments`` with each value of a parameter that travels as text (in the path, the query,
    a header, a cookie or a form body's field) that its schema refuses replaced by the value of
    another type that travels as the very same text and that the schema takes: "1796389847" where
    an integer is asked (an id a model read from an object's keys), 17 or true where a string is.
    The API receives the same bytes either way; ``arguments`` itself when nothing was replaced."""
    if not any(name in arguments for name in textual) or validator.is_valid(arguments):
        return arguments
    fixed = arguments
    for name in textual:
        if name in fixed and validator.fails_at(fixed, name):
            for other in _same_text(fixed[name]):
                trial = {**fixed, name: other}
                if not validator.fails_at(trial, name):
                    fixed = trial
                    break
    return fixed


def json_texts(arguments: JsonObject, spec: OperationSpec | None) -> JsonObject:
    """``arguments`` with each object or array given for a string parameter that holds JSON text
    (``jsonText``: TiTiler's ``colormap``, "JSON encoded custom Colormap") written as that text,
    compact: a model passes the object the words describe, and the schema asks for its text."""
    if spec is None:
        return arguments
    holding = [p["argument"] for p in spec["parameters"] if p.get("jsonText")]
    found = {
        name: json.dumps(arguments[name], separators=(",", ":"), ensure_ascii=False)
        for name in holding
        if isinstance(arguments.get(name), dict | list)
    }
    return {**arguments, **found} if found else arguments


def body_gathered(arguments: JsonObject, spec: OperationSpec | None, schema: Any) -> JsonObject:
    """``arguments`` with the fields given beside a whole body's argument gathered into it, when
    the call gives that argument none and every other name is no argument of the tool: a body
    that is one of several shapes (Phoenix's annotation configs, a ``oneOf``) is one argument,
    ``body``, and a model writes its fields as the tool's arguments, as it does for every other
    body. The schema then judges the body as it would have judged it given so."""
    body = spec.get("body") if spec is not None else None
    argument = body.get("argument") if body is not None else None
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not argument or argument in arguments or not isinstance(properties, dict):
        return arguments
    fields = {name: value for name, value in arguments.items() if name not in properties}
    if not fields:
        return arguments
    kept = {name: value for name, value in arguments.items() if name in properties}
    return {**kept, argument: fields}


def whole_numbers(value: Any) -> Any:
    """``value`` with each float that is a whole number written as an integer: a model writes
    ``"page": 2.0``, JSON Schema counts it an integer, and it went as ``page=2.0``, which Mayan
    answered "Invalid page." (and ``page_size=2.0`` it ignored); in a JSON body, Go's and Java's
    integers refuse ``1.0``."""
    if isinstance(value, float):
        return int(value) if value.is_integer() and abs(value) < 2**63 else value
    if isinstance(value, dict):
        changed = {k: v for k, item in value.items() if (v := whole_numbers(item)) is not item}
        return {**value, **changed} if changed else value  # copied only where one was found
    if isinstance(value, list):
        items = [whole_numbers(item) for item in value]
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    return value


def nulls_left_out(
    validator: Validator, arguments: JsonObject, spec: OperationSpec | None
) -> JsonObject:
    """``arguments`` without the optional parameters given as null where null is no value of
    theirs: models write ``"size": null`` for a parameter they mean to leave out (a ZenML list's
    page size), and a parameter left out is what that says. A field of a body is not left out:
    null there asks to clear it (NocoDB clears an email so), which the schema then refuses or
    lets through, never silently drops. Nor is a query parameter of a DELETE, PATCH or PUT: it
    may say what the change is made to, and a model that writes ``"reading_ts": null`` for "where
    it is null" had PostgREST delete every row; the schema refuses it, and the model says what
    it means."""
    if spec is None:
        return arguments
    narrowed = spec["method"].upper() in _NARROWED
    parameters = {
        p["argument"] for p in spec["parameters"] if not (narrowed and p["location"] == "query")
    }
    schema = validator.schema
    required = schema.get("required", []) if isinstance(schema, dict) else []
    nulls = [k for k, v in arguments.items() if v is None and k in parameters and k not in required]
    dropped = {k for k in nulls if validator.fails_at(arguments, k)}
    return {k: v for k, v in arguments.items() if k not in dropped} if dropped else arguments
