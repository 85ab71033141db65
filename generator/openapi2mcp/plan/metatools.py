"""The three tools of dynamic mode (search, describe, call) and of code mode (search, describe,
run_code), as ``tools/list`` returns them.

Dynamic and code mode list three tools whatever the size of the API; the runtime (``dynamic.py`` and
``codemode.py`` in ``templates/runtime``) implements them by name. Their definitions are built here,
at generation time, so that ``inspect`` can tell what they cost and the catalog carries them ready to
serve. The call tool's annotations (and ``run_code``'s) are the conservative union of every operation
it can run: read-only only if all are, destructive if any is, idempotent only if all are, open-world
if any is. When read tools take a JMESPath selection (``select``, the runtime's
``protocol/projection.py``), the call tool takes it too, for the read operations it runs.
``run_code``'s description teaches the model how to write a program; the runtime appends the limits
in force.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..shipped import runtime_module
from .model import Tool, Toolset
from .naming import display_name

SEARCH = "search_operations"
DESCRIBE = "describe_operation"
CALL = "call_operation"
RUN = "run_code"
# the longest program run_code takes
MAX_PROGRAM_CHARS = 100_000
# a tag filter longer than this is left as free text: the enum would cost more than it helps
MAX_TAG_ENUM = 100
MAX_SEARCH_RESULTS = 50
DEFAULT_SEARCH_RESULTS = 10
_LOCAL = {
    "readOnlyHint": True,
    "destructiveHint": False,
    "idempotentHint": True,
    "openWorldHint": False,
}


def dynamic_tools(
    api_title: str, tools: Sequence[Tool], toolsets: Sequence[Toolset], *, select: str = ""
) -> list[Any]:
    """The three meta tools for an API with these exposed ``tools`` and ``toolsets``; ``select``
    names the selection argument of read operations ("": they take none)."""
    about = api_name(api_title)
    count = f"{len(tools)} operation{'s' if len(tools) != 1 else ''}"
    tag: dict[str, Any] = {
        "type": "string",
        "description": "Only operations with this tag",
    }
    if 0 < len(toolsets) <= MAX_TAG_ENUM:
        tag["enum"] = [toolset.name for toolset in toolsets]
    search = {
        "name": SEARCH,
        "title": "Search operations",
        "description": (
            f"Find operations of {about} ({count}) by what they do. Returns the best matches, one "
            f"per line: operation name, summary, HTTP method and path. Next: {DESCRIBE} for an "
            f"operation's arguments, then {CALL} to run it."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": "What you want to do, in a few words, e.g. 'create an issue'",
                },
                "tag": tag,
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_SEARCH_RESULTS,
                    "default": DEFAULT_SEARCH_RESULTS,
                },
            },
            "required": ["query"],
            "additionalProperties": False,
        },
        "annotations": _LOCAL,
    }
    describe = {
        "name": DESCRIBE,
        "title": "Describe an operation",
        "description": (
            "An operation's description, its arguments as a JSON Schema, and its hints "
            f"(read-only, destructive, idempotent). Use it before {CALL}."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": f"Operation name from {SEARCH}"},
            },
            "required": ["name"],
            "additionalProperties": False,
        },
        "annotations": _LOCAL,
    }
    call = {
        "name": CALL,
        "title": "Call an operation",
        "description": (
            f"Run one operation of {about} with its arguments (as {DESCRIBE} shows them) and "
            "return the API's response. The result names the operation that ran."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": f"Operation name from {SEARCH}"},
                "arguments": {
                    "type": "object",
                    "description": "The operation's arguments",
                    "default": {},
                },
            },
            "required": ["name"],
            "additionalProperties": False,
        },
        "annotations": union_annotations(tools),
    }
    if select:
        call = _selecting(call, select)
    return [search, describe, call]


def _selecting(call: dict[str, Any], select: str) -> dict[str, Any]:
    """The call tool taking ``select`` for the read operations it runs."""
    projection = runtime_module("protocol.projection")
    schema = call["inputSchema"]
    line = projection.description_line(select, projection.example(None), only="read operations")
    return {
        **call,
        "description": f"{call['description']}\n\n{line}",
        "inputSchema": {
            **schema,
            "properties": {**schema["properties"], select: projection.argument_schema()},
        },
    }


def api_name(title: str) -> str:
    """``the Petstore API`` (and ``the GitHub REST API``, not ``the GitHub REST API API``).

    A title that describes a document rather than naming the API reads as the API's name
    (``GitHub's official OpenAPI spec + Octokit extension`` → ``the GitHub API``, see
    ``naming.display_name``).
    """
    name = display_name(title)
    if not name:
        return "the API"
    return (
        f"the {name}"
        if name.lower().endswith(" api") or name.lower() == "api"
        else f"the {name} API"
    )


def union_annotations(tools: Sequence[Tool]) -> dict[str, bool]:
    """Hints that are true of every call the call tool may make."""
    hints = [tool.annotations for tool in tools]
    return {
        "readOnlyHint": all(a.read_only for a in hints),
        "destructiveHint": any(a.destructive and not a.read_only for a in hints),
        "idempotentHint": all(a.idempotent for a in hints),
        "openWorldHint": any(a.open_world for a in hints),
    }


def dynamic_instructions(api_title: str, tools: Sequence[Tool]) -> str:
    """The server's instructions in dynamic mode (the caller appends the API's own text, delimited)."""
    reads = sum(1 for tool in tools if tool.annotations.read_only)
    return (
        f"This server reaches the {len(tools)} operations of {api_name(api_title)} "
        f"({reads} of them read-only) through three tools: {SEARCH} finds operations by what "
        f"they do, {DESCRIBE} shows an operation's arguments and hints, and {CALL} runs it. "
        "Search first, describe before calling, and look things up with read-only operations "
        "before changing anything; ask the user before a destructive one. Operation names in "
        f"prompts are names for {CALL}."
    )


def code_tools(api_title: str, tools: Sequence[Tool], toolsets: Sequence[Toolset]) -> list[Any]:
    """Code mode's three tools: dynamic mode's search and describe, pointing to ``run_code``."""
    search, describe, _ = dynamic_tools(api_title, tools, toolsets)
    about = api_name(api_title)
    count = f"{len(tools)} operation{'s' if len(tools) != 1 else ''}"
    search = {
        **search,
        "description": (
            f"Find operations of {about} ({count}) by what they do. Returns the best matches, one "
            f"per line: operation name, summary, HTTP method and path. Next: {DESCRIBE} for an "
            f"operation's arguments, then {RUN} to call it from a program."
        ),
    }
    describe = {
        **describe,
        "description": (
            "An operation's description, its arguments as a JSON Schema, its hints (read-only, "
            f"destructive, idempotent) and its function name in {RUN} programs."
        ),
    }
    run = {
        "name": RUN,
        "title": "Run a program",
        "description": (
            f"Run a short Python program that calls operations of {about} and combines their "
            "results. Each operation is an async function of the same name (characters other "
            "than letters, digits and _ become _; a Python keyword, built-in or module name gets a "
            "trailing _): pass its arguments as keyword arguments and await it, e.g. "
            "`pets = await list_pets(limit=5)`. It returns the parsed JSON response (the text for "
            "other responses) and raises an exception when the call fails, with the HTTP status "
            "and the API's message. asyncio.gather runs calls at once. The program's last "
            "expression (or a top-level return) is its value; the result is what it prints, then "
            "that value as JSON.\n"
            "Available: Python's built-ins and the modules json, re, math, datetime, time, random, "
            "asyncio, collections, itertools, functools, typing, dataclasses, decimal, base64, "
            "hashlib, csv. No files, network, environment variables or other imports."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "code": {
                    "type": "string",
                    "description": "The Python program",
                    "minLength": 1,
                    "maxLength": MAX_PROGRAM_CHARS,
                },
            },
            "required": ["code"],
            "additionalProperties": False,
        },
        "annotations": union_annotations(tools),
    }
    return [search, describe, run]


def code_instructions(api_title: str, tools: Sequence[Tool]) -> str:
    """The server's instructions in code mode (the caller appends the API's own text, delimited)."""
    reads = sum(1 for tool in tools if tool.annotations.read_only)
    return (
        f"This server reaches the {len(tools)} operations of {api_name(api_title)} "
        f"({reads} of them read-only) through three tools: {SEARCH} finds operations by what "
        f"they do, {DESCRIBE} shows an operation's arguments and hints, and {RUN} runs a short "
        "Python program that calls operations as async functions and combines their results. "
        "Search first, describe before calling, and look things up with read-only operations "
        "before changing anything; ask the user before a destructive one. Operation names in "
        f"prompts are function names in {RUN} programs."
    )
