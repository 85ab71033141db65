"""Swagger 2.0 parameters in an OpenAPI 3 document, read as Swagger 2.0 means them.

Documents written by hand or with flasgger keep 2.0's habits in a 3.0 document (Kitsu's Zou: 246
parameters of its 853 operations): a parameter's ``type``, ``format`` and ``items`` beside it
instead of in ``schema``, and ``in: formData`` or ``in: body`` parameters instead of a
``requestBody``. OpenAPI 3 knows neither: read literally, the first describe nothing (any value
taken, a path id unchecked) and the second no operation at all (an unknown location). They are read
with :mod:`swagger2`'s conversion: the value keywords become the parameter's ``schema``, and the
form fields or the body parameter the operation's request body when it has none. One warning says
how many there are and where the first is. Works on the document in place (the caller's copy).
"""

from __future__ import annotations

from typing import Any, Final

from ..diagnostics import Report
from .refs import ROOT, Location, Resolver
from .swagger2 import VALUE_SCHEMA, BodyPart, Converter, media_types

__all__ = ["read_swagger2_parameters", "writes_swagger2_parameters"]

JsonObject = dict[str, Any]

_METHODS: Final = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_BODY_KINDS: Final = ("formData", "body")
# keywords that say a parameter's value the 2.0 way, beside it
_VALUE_KEYWORDS: Final = ("type", "items", "format", "enum")
# a 2.0 parameter's keywords that its 3.0 form says otherwise (in its schema, or its style)
_SWAGGER_ONLY: Final = VALUE_SCHEMA | {"collectionFormat"}


def _swagger_style(parameter: Any) -> bool:
    if not isinstance(parameter, dict) or "$ref" in parameter:
        return False
    if parameter.get("in") in _BODY_KINDS:
        return True
    return (
        "schema" not in parameter
        and "content" not in parameter
        and any(key in parameter for key in _VALUE_KEYWORDS)
    )


def _parameter_lists(document: JsonObject) -> list[tuple[Any, Location]]:
    paths = document.get("paths")
    found: list[tuple[Any, Location]] = []
    for path, item in paths.items() if isinstance(paths, dict) else ():
        if not isinstance(item, dict) or str(path).startswith("x-"):
            continue
        at = ROOT.child("paths", path)
        found.append((item.get("parameters"), at.child("parameters")))
        for method in _METHODS:
            operation = item.get(method)
            if isinstance(operation, dict):
                found.append((operation.get("parameters"), at.child(method, "parameters")))
    return found


def writes_swagger2_parameters(document: JsonObject) -> bool:
    """Whether a 3.x ``document`` has a parameter written as in Swagger 2.0."""
    return any(
        isinstance(listed, list) and any(_swagger_style(p) for p in listed)
        for listed, _ in _parameter_lists(document)
    )


def read_swagger2_parameters(document: JsonObject, resolver: Resolver, report: Report) -> None:
    """Rewrite ``document``'s Swagger 2.0 parameters in their OpenAPI 3 form, in place."""
    converter = Converter(document, Report(), resolver)
    consumes = media_types(document.get("consumes"))
    seen: list[Location] = []
    paths = document.get("paths")
    for path, item in paths.items() if isinstance(paths, dict) else ():
        if not isinstance(item, dict) or str(path).startswith("x-"):
            continue
        at = ROOT.child("paths", path)
        shared = _rewritten(converter, item, at.child("parameters"), seen)
        for method in _METHODS:
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            parts = {
                **shared,
                **_rewritten(converter, operation, at.child(method, "parameters"), seen),
            }
            if parts and "requestBody" not in operation:
                media = media_types(operation.get("consumes")) or consumes
                body = converter.request_body(list(parts.values()), at.child(method), media)
                if body is not None:
                    operation["requestBody"] = body
    if seen:
        report.warn(
            "swagger2-parameters",
            seen[0].pointer,
            f"{len(seen)} parameter(s) are written as in Swagger 2.0 (their type beside them, or "
            "in: formData / body), which OpenAPI 3 does not read: read as Swagger 2.0 means them "
            "(a schema; the operation's request body, where it has none)",
        )


def _rewritten(
    converter: Converter, owner: JsonObject, at: Location, seen: list[Location]
) -> dict[tuple[str, str], BodyPart]:
    """``owner``'s parameters in 3.0 form (in place), and its form and body ones, taken out."""
    listed = owner.get("parameters")
    if not isinstance(listed, list):
        return {}
    kept: list[Any] = []
    parts: dict[tuple[str, str], BodyPart] = {}
    for index, parameter in enumerate(listed):
        if not _swagger_style(parameter):
            kept.append(parameter)
            continue
        where = at.child(index)
        seen.append(where)
        kind = parameter.get("in")
        if kind in _BODY_KINDS:
            parts[str(kind), str(parameter.get("name"))] = BodyPart(kind, parameter, where, None)
            continue
        converted = converter.parameter(parameter, where)
        # what 3.0 reads beside the schema stays (example, examples, style, explode)
        beside = {
            k: v for k, v in parameter.items() if k not in converted and k not in _SWAGGER_ONLY
        }
        kept.append({**converted, **beside})
    owner["parameters"] = kept
    return parts
