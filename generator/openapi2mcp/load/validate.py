"""The document-level shape check, with openapi-pydantic, reported as warnings with JSON pointers.

This module owns :func:`check_document`: it validates the root document against the OpenAPI 3.0 or 3.1
model of openapi-pydantic and turns each validation error into a ``spec-invalid`` warning, said in the
document's words ("should be an object, not an array", not the model's class names). Parsing
carries on regardless (``parse.py`` is tolerant and skips only what it cannot understand), so these
warnings tell the user what is wrong without stopping them. Pydantic reports a failed union once per
alternative (``Reference``/``Schema``, ...); those branch names are removed from the error location and
the "missing $ref" noise of the Reference branch is dropped when the other branch says more. In 3.1 a
schema may be ``true`` or ``false`` (JSON Schema 2020-12), which the models do not accept: those
complaints are dropped too.
"""

from __future__ import annotations

import json
from typing import Any, Final

import pydantic
from openapi_pydantic.v3 import v3_0, v3_1

from ..diagnostics import Report, pointer

MAX_REPORTED: Final = 50
# reported by parse.py with their own codes
_HANDLED_ELSEWHERE: Final = frozenset({(("info",), "version"), (("info",), "title")})
_MODEL_VERSIONS: Final = {"3.0": "3.0.4", "3.1": "3.1.1"}
# where a boolean is a schema: the value of these keywords, or a member of these maps and lists
_SCHEMA_KEYWORDS: Final = frozenset(
    {
        "schema",
        "items",
        "additionalProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "contentSchema",
    }
)
_SCHEMA_CONTAINERS: Final = frozenset(
    {
        "schemas",
        "properties",
        "patternProperties",
        "dependentSchemas",
        "$defs",
        "prefixItems",
        "allOf",
        "anyOf",
        "oneOf",
    }
)


def _location(data: Any, loc: tuple[int | str, ...], missing: bool) -> tuple[tuple[str, ...], str]:
    """Pointer tokens into ``data`` for a pydantic ``loc``, and the missing field name if any."""
    tokens: list[str] = []
    node = data
    for index, part in enumerate(loc):
        if isinstance(node, dict) and str(part) in node:
            node = node[str(part)]
            tokens.append(str(part))
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
            tokens.append(str(part))
        elif missing and index == len(loc) - 1:
            return tuple(tokens), str(part)
        # anything else is the name of a union branch, not a place in the document
    return tuple(tokens), ""


def _boolean_schema(data: Any, tokens: tuple[str, ...]) -> bool:
    """Whether ``tokens`` lead to ``true``/``false`` in a place where a schema belongs."""
    node = data
    for token in tokens:
        node = node[int(token)] if isinstance(node, list) else node[token]
    if not isinstance(node, bool) or not tokens:
        return False
    return tokens[-1] in _SCHEMA_KEYWORDS or (len(tokens) > 1 and tokens[-2] in _SCHEMA_CONTAINERS)


def _kind(value: Any) -> str:
    """``value``'s JSON type, with its article: "an array", "the number 3", "a string"."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def _plain(error: Any) -> str:
    """Pydantic's message in the document's words: "should be an object, not an array" rather than
    "Input should be a valid dictionary or instance of Reference" (the model's class names)."""
    kind, value = error["type"], error.get("input")
    shown = _kind(value)
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return f"should be an object, not {shown}"
    if kind in ("list_type", "tuple_type"):
        return f"should be a list, not {shown}"
    if kind == "string_type":
        return f"should be a string, not {shown}"
    if kind == "too_short" and value in ([], {}, ""):
        return "should not be empty"
    return str(error["msg"])


def _issues(
    errors: list[Any], data: Any, boolean_schemas: bool
) -> list[tuple[tuple[str, ...], str]]:
    found: list[tuple[tuple[str, ...], str, bool]] = []
    for error in errors:
        missing = error["type"] == "missing"
        tokens, field = _location(data, tuple(error["loc"]), missing)
        if (tokens, field) in _HANDLED_ELSEWHERE:
            continue
        message = f"required field '{field}' is missing" if field else _plain(error)
        if boolean_schemas and not field and _boolean_schema(data, tokens):
            message = ""  # valid after all; it still explains the Reference branch's complaint
        found.append((tokens, message, field == "$ref"))
    kept: dict[tuple[str, ...], str] = {}
    for tokens, message, ref_branch in found:
        if ref_branch and any(
            other[: len(tokens)] == tokens and not other_ref for other, _, other_ref in found
        ):
            continue  # the object is not a Reference; the other branch's error says why
        if message:
            kept.setdefault(tokens, message)
    return list(kept.items())


def _extension(key: object) -> bool:
    return isinstance(key, str) and key.startswith("x-")


def check_document(data: dict[str, Any], report: Report) -> bool:
    """Validate ``data``'s shape; add ``spec-invalid`` warnings; True when it is valid."""
    version = str(data.get("openapi", ""))
    if not isinstance(data.get("openapi"), str):
        report.warn(
            "spec-invalid", "#/openapi", f"'openapi' must be a string such as \"{version}.0\""
        )
    model: type[pydantic.BaseModel] = v3_1.OpenAPI if version.startswith("3.1") else v3_0.OpenAPI
    # the models only accept the patch versions they know; the version was checked on loading
    patched = {**data, "openapi": _MODEL_VERSIONS[version[:3]]}
    paths = data.get("paths")
    if isinstance(paths, dict) and any(_extension(key) for key in paths):
        # the models read every key of paths as a path; ``x-`` keys are extensions (4.8.8.2)
        patched["paths"] = {k: v for k, v in paths.items() if not _extension(k)}
    try:
        model.model_validate(patched)
    except pydantic.ValidationError as exc:
        issues = _issues(exc.errors(include_url=False), data, version.startswith("3.1"))
    except RecursionError:
        report.warn("spec-invalid", "#", "the document is nested too deeply to check its shape")
        return False
    else:
        return True
    for tokens, message in issues[:MAX_REPORTED]:
        report.warn("spec-invalid", pointer(*tokens), message)
    if len(issues) > MAX_REPORTED:
        report.warn(
            "spec-invalid", "#", f"{len(issues) - MAX_REPORTED} more shape problems not listed"
        )
    return not issues
