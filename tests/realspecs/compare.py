"""Whether a captured request carries what the tool arguments said ("altered" when it does not).

Each argument is traced to where the catalog says it goes (a parameter, the whole body, a body
property) and compared with what arrived: parameters with openapi-core's unmarshalled values; JSON
bodies with the bytes decoded as JSON (a ``null`` argument must arrive as ``null``); form and
multipart bodies with openapi-core's decoded body (``null`` cannot be written there, so it is not
expected); other bodies byte for byte (base64 decoded only when the tool schema says
``contentEncoding: base64``). An argument that goes nowhere is altered too (dropped). Parts that
openapi-core could not read are left to the rejection that reports them.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from typing import Any

from tests.kit.upstream import Request
from tests.realspecs.validation import Verdict, json_or_none


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=repr)[:160]


def same(expected: Any, got: Any, *, exact: bool) -> bool:
    """``exact``: no extra keys allowed (a body decoded by us); else openapi-core may add defaults."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return expected is got
    if isinstance(expected, int | float) and isinstance(got, int | float):
        return float(expected) == float(got)
    if isinstance(expected, Mapping):
        if not isinstance(got, Mapping) or (exact and set(got) != set(expected)):
            return False
        return all(k in got and same(v, got[k], exact=exact) for k, v in expected.items())
    if isinstance(expected, list):
        return (
            isinstance(got, list | tuple)
            and len(got) == len(expected)
            and all(same(a, b, exact=exact) for a, b in zip(expected, got, strict=True))
        )
    if isinstance(expected, str) and isinstance(got, bytes):
        if got == expected.encode():
            return True
        return got == b64decoded(expected)
    return bool(expected == got)


def representable(value: Any) -> Any:
    """``value`` without the empty objects and arrays nested in it: form-style encodings (query
    parameters, form fields, deepObject) have no way to write them, so they cannot be expected."""
    if isinstance(value, Mapping):
        kept = {k: representable(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v not in ({}, [])}
    if isinstance(value, list):
        return [representable(v) for v in value]
    return value


def b64decoded(text: str) -> bytes | None:
    """``text`` as base64 (padding optional, as lenient decoders read it), else None."""
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def _is_base64(schema: Mapping[str, Any], argument: str) -> bool:
    prop = (schema.get("properties") or {}).get(argument) or {}
    return isinstance(prop, Mapping) and prop.get("contentEncoding") == "base64"


def _media(captured: Request) -> str:
    return (captured.header("Content-Type") or "").split(";")[0].strip().lower()


def _json_media(media: str) -> bool:
    return media == "application/json" or media.endswith("+json") or "/json" in media


def parameter_problems(
    operation: Mapping[str, Any], arguments: Mapping[str, Any], verdict: Verdict
) -> list[str]:
    problems = []
    for parameter in operation["parameters"]:
        argument, location, name = parameter["argument"], parameter["location"], parameter["name"]
        if arguments.get(argument) is None or f"{location}:{name}" in verdict.unreadable:
            continue
        got_all: Mapping[str, Any] = getattr(verdict.parameters, location)
        if name not in got_all:
            problems.append(f"{location} parameter {name!r} missing (argument {argument!r})")
        elif not same(representable(arguments[argument]), got_all[name], exact=False):
            problems.append(
                f"{location} parameter {name!r} arrived as {_text(got_all[name])}, "
                f"argument {argument!r} was {_text(arguments[argument])}"
            )
    return problems


def _expected_body(body: Mapping[str, Any], arguments: Mapping[str, Any]) -> tuple[bool, Any]:
    """(anything expected, the expected body value)."""
    if "argument" in body:
        return body["argument"] in arguments, arguments.get(body["argument"])
    fields = {
        prop: arguments[arg] for arg, prop in body.get("properties", {}).items() if arg in arguments
    }
    return bool(fields), fields


def body_problems(
    operation: Mapping[str, Any],
    schema: Mapping[str, Any],
    arguments: Mapping[str, Any],
    captured: Request,
    verdict: Verdict,
) -> list[str]:
    body = operation.get("body")
    if body is None:
        return []
    wanted, expected = _expected_body(body, arguments)
    if not wanted:
        return []
    media = _media(captured)
    if not captured.body:
        if expected == {} and not _json_media(media):
            return []  # an empty form is an empty object
        return [f"body missing: arguments gave {_text(expected)}"]
    flattened = "argument" not in body
    if _json_media(media):
        got = json_or_none(captured.body)
        if not same(expected, got, exact=True):
            return [f"JSON body {_text(got)} differs from the arguments {_text(expected)}"]
        return []
    if media == "application/x-www-form-urlencoded" or media.startswith("multipart/"):
        if "body" in verdict.unreadable or not isinstance(verdict.body, Mapping):
            return []
        if not isinstance(expected, Mapping):
            return [f"{media} body for a non-object argument {_text(expected)}"]
        problems = []
        for key, value in representable(expected).items():
            if value is None:
                continue
            if key not in verdict.body:
                problems.append(f"{media} field {key!r} missing (argument {_text(value)})")
            elif not same(value, verdict.body[key], exact=False):
                problems.append(
                    f"{media} field {key!r} arrived as {_text(verdict.body[key])}, "
                    f"argument was {_text(value)}"
                )
        return problems
    if flattened or not isinstance(expected, str):
        return [f"{media or 'untyped'} body for the arguments {_text(expected)}"]
    raw = b64decoded(expected) if _is_base64(schema, body["argument"]) else expected.encode()
    if captured.body != raw:
        return [f"{media} body {captured.body[:60]!r} is not the argument {_text(expected)}"]
    return []


def stray_arguments(operation: Mapping[str, Any], arguments: Mapping[str, Any]) -> list[str]:
    """Arguments the catalog sends nowhere."""
    placed = {p["argument"] for p in operation["parameters"]}
    body = operation.get("body") or {}
    placed |= set(body.get("properties", {}))
    if "argument" in body:
        placed.add(body["argument"])
    return [f"argument {a!r} is sent nowhere" for a in arguments if a not in placed]
