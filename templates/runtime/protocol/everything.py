"""A removal called with none of its arguments: refused unless the call says it means everything.

ArchiveBox's ``cli_remove``, called with no argument, removed every snapshot of an archive, and
PostgREST's ``DELETE /books`` without a filter deletes every row: a destructive removal whose
arguments are all optional acts on what they narrow it to, and on everything when none is given.
The generator marks such a tool (the binding's ``everything`` names the argument, ``_all`` unless
the tool has one so named): its input schema takes that boolean too, and its description ends with
``description``. A call none of whose other arguments narrows it (each is missing, empty, a boolean
or its default) is refused before anything is sent unless the argument is true (``unnarrowed``);
the argument itself is never sent upstream. The generator takes the argument's name, schema and
sentence from here, so the two sides cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..catalog.model import OperationSpec, ToolBinding
from .projection import argument_name as free_name
from .projection import taking

__all__ = [
    "argument_name",
    "argument_schema",
    "description",
    "guard",
    "unnarrowed",
    "with_argument",
]

NAMES = ("_all", "_everything")
_EMPTY: tuple[Any, ...] = (None, "", [], {})
_NO_DEFAULT = object()


def argument_name(taken: Iterable[str]) -> str:
    """The argument's name for a tool whose arguments are ``taken`` (``""``: none is free)."""
    return free_name(taken, NAMES)


def argument_schema() -> dict[str, Any]:
    return {
        "type": "boolean",
        "description": "true to let a call with none of the other arguments act on everything",
    }


def description(argument: str) -> str:
    """The sentence the tool's description ends with."""
    return (
        "Its arguments say what it acts on: called with none of them, the API may act on"
        f" everything it holds, so such a call is refused unless `{argument}` is true."
    )


def with_argument(schema: Mapping[str, Any], argument: str) -> dict[str, Any]:
    """An input schema that takes ``argument`` too."""
    return taking(schema, argument, argument_schema())


def guard(
    binding: ToolBinding | None,
    spec: OperationSpec | None,
    tool: Mapping[str, Any],
    name: str,
    arguments: Mapping[str, Any],
) -> tuple[dict[str, Any], str]:
    """``unnarrowed`` for tool ``name`` (its ``tools/list`` entry ``tool``), when its ``binding``
    marks it; the arguments as they are otherwise."""
    argument = binding.get("everything") if binding is not None else None
    if not argument or spec is None:
        return dict(arguments), ""
    schema = tool.get("inputSchema")
    located = {p["argument"]: p["location"] for p in spec["parameters"]}
    label = f"{spec['method'].upper()} {spec['path']}"
    return unnarrowed(
        arguments, argument, schema if isinstance(schema, Mapping) else {}, located, name, label
    )


def unnarrowed(
    arguments: Mapping[str, Any],
    argument: str,
    schema: Mapping[str, Any],
    located: Mapping[str, str],
    tool: str,
    label: str,
) -> tuple[dict[str, Any], str]:
    """``arguments`` without ``argument``, and why the call is refused ("" when it may go): none
    of the others narrows it and ``argument`` is not true. A value narrows unless it is empty, a
    boolean (``force``, ``cascade``: how to remove, never what), its property's ``default`` in
    ``schema``, the tool's input schema (ArchiveBox's ``filter_type: "exact"`` alone removed every
    snapshot all the same), or it goes in a header or a cookie (``located`` gives the parameters'
    places: PostgREST's ``Prefer`` says what to answer, not what to delete). A parameter given
    null is left to the request, which refuses a null filter of a removal in its own words."""
    rest = {key: value for key, value in arguments.items() if key != argument}
    narrowing = (k for k, v in rest.items() if _narrows(k, v, schema, located.get(k, "body")))
    if arguments.get(argument) is True or any(True for _ in narrowing):
        return rest, ""
    which = "which narrows" if len(rest) == 1 else "which narrow"
    given = f" (given only {', '.join(sorted(rest))}, {which} nothing)" if rest else ""
    return rest, (
        f"Tool {tool!r} was called with none of the arguments that say what it acts on{given}:"
        f" {label} would act on everything the API holds. Nothing was sent. Give them, or"
        f" `{argument}: true` to act on everything."
    )


def _narrows(name: str, value: Any, schema: Mapping[str, Any], location: str) -> bool:
    if location in ("header", "cookie"):
        return False
    if value is None and location in ("query", "path"):
        return True
    if value in _EMPTY or isinstance(value, bool):
        return False
    properties = schema.get("properties")
    declared = properties.get(name) if isinstance(properties, Mapping) else None
    return not (isinstance(declared, Mapping) and declared.get("default", _NO_DEFAULT) == value)
