"""Questions for the user: declared ``x-mcp`` elicitation and the confirmation policy, checked.

The generated server asks the user (not the model) for what it should not guess: an operation may
declare its own questions (``x-mcp: {elicit: [...]}``), and a policy says which calls need an explicit
yes (``x-mcp: {confirm: ...}`` per operation, ``[elicitation]`` in the config file, which wins; the
server's ``<PREFIX>_CONFIRM`` overrides the policy at run time). The parser has checked each
declaration's shape (``ir/x_mcp.py``); this module validates them against the tool they belong to and
turns them into the catalog's ``interaction`` entries (runtime ``catalog.ToolInteraction``); the
runtime module ``interaction.py`` acts on them.

A declared question is a form (``elicitation/create``: flat primitive ``fields`` only, as the MCP spec
allows), a request to the client's model (``sampling/createMessage`` with a ``prompt``) or for the
client's roots (``roots/list``); its answer becomes arguments (the fields by name, or ``maps_to``).
Nothing may ask for credentials: a question that would fill a credential-like argument is refused.
Every problem is a warning naming the JSON pointer of the offending entry, which is then left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..diagnostics import Report
from ..ir.x_mcp import ELICIT, SAMPLE, XMcpQuestion
from ..shipped import runtime_module
from .model import InteractionPlan, Tool
from .settings import Settings

if TYPE_CHECKING:
    from runtime.catalog import model as rt

_FORMATS = frozenset({"email", "uri", "date", "date-time"})
_COMMON = frozenset({"type", "title", "description", "default"})
_ALLOWED = {
    "string": _COMMON | {"minLength", "maxLength", "format", "enum", "enumNames", "oneOf"},
    "number": _COMMON | {"minimum", "maximum"},
    "integer": _COMMON | {"minimum", "maximum"},
    "boolean": _COMMON,
    "array": _COMMON | {"items", "minItems", "maxItems"},
}
_CONFIRM: dict[bool | str, str] = {
    True: "required",
    False: "off",
    "when-supported": "when-supported",
}


def plan_interaction(
    tools: Sequence[Tool],
    settings: Settings,
    security: Mapping[str, Mapping[str, Any]],
    report: Report,
) -> InteractionPlan:
    api_keys = {
        (str(s.get("location")), str(s.get("name", "")).lower())
        for s in security.values()
        if s.get("type") == "apiKey"
    }
    entries: dict[str, rt.ToolInteraction] = {}
    seen: set[str] = set()
    for tool in tools:
        op = tool.operation
        seen.add(op.operation_id or "")
        entry: rt.ToolInteraction = {}
        asks = _asks(tool, tool.settings.questions, _secrets(tool, api_keys), report)
        if asks:
            entry["ask"] = asks
        if tool.settings.confirm is not None:
            entry["confirm"] = _CONFIRM[tool.settings.confirm]
        if entry:
            entries[tool.name] = entry
    for operation_id in sorted(set(settings.confirm_overrides) - seen):
        report.warn(
            "config-elicitation-unknown",
            f"elicitation.tools.{operation_id}",
            f"no tool has operationId {operation_id!r}; this confirmation override does nothing",
        )
    return InteractionPlan(settings.confirm, settings.missing_arguments, entries)


def _secrets(tool: Tool, api_keys: set[tuple[str, str]]) -> frozenset[str]:
    """Arguments never asked for in a form: judged by the runtime's own list (``sensitive.py``)."""
    sensitive = runtime_module("sensitive")
    secret = set()
    for argument in tool.arguments:
        wire = argument.wire_name.lower()
        if (
            (argument.source == "header" and wire in sensitive.SECRET_HEADERS)
            or (argument.source, wire) in api_keys
            or sensitive.secret_argument(argument.wire_name or argument.name)
            or sensitive.secret_argument(argument.name)
            or argument.schema.get("format") == "password"
        ):
            secret.add(argument.name)
    return frozenset(secret)


def _asks(
    tool: Tool, declared: Sequence[XMcpQuestion], secrets: frozenset[str], report: Report
) -> list[rt.AskSpec]:
    arguments = {a.name for a in tool.arguments}
    asks: list[rt.AskSpec] = []
    keys: set[str] = set()
    for question in declared:
        try:
            ask = _ask(question, arguments, secrets)
        except _Invalid as exc:
            report.warn(
                "x-mcp-elicit-invalid", question.pointer + exc.at, f"{exc}; question left out"
            )
            continue
        if question.key in keys:
            report.warn(
                "x-mcp-elicit-invalid", question.pointer + "/key", "duplicate key; left out"
            )
            continue
        keys.add(question.key)
        asks.append(ask)
    return asks


class _Invalid(ValueError):
    def __init__(self, message: str, at: str = "") -> None:
        super().__init__(message)
        self.at = at


def _ask(question: XMcpQuestion, arguments: set[str], secrets: frozenset[str]) -> rt.AskSpec:
    method, maps_to = question.method, question.maps_to
    ask: rt.AskSpec = {"key": question.key}
    if method != ELICIT:
        ask["method"] = method
    if maps_to is not None:
        if maps_to not in arguments:
            raise _Invalid(f"maps_to names no argument of this tool: {maps_to!r}", "/maps_to")
        ask["mapsTo"] = maps_to
    elif method != ELICIT:
        raise _Invalid(f"a {method} question needs maps_to (the argument it fills)")
    if question.round != 1:
        ask["round"] = question.round
    if question.needed:
        ask["needed"] = True
    if method == ELICIT:
        ask["message"], ask["fields"], ask["required"] = _form(question, arguments)
    elif method == SAMPLE:
        ask["prompt"], ask["maxTokens"] = _sampling(question)
    targets = [maps_to] if maps_to else list(ask.get("fields", {}))
    leaked = sorted(t for t in targets if t in secrets)
    if leaked:
        raise _Invalid(f"never ask the user for credentials in a form ({', '.join(leaked)})")
    return ask


def _form(
    question: XMcpQuestion, arguments: set[str]
) -> tuple[str, dict[str, dict[str, Any]], list[str]]:
    """The form's message, fields and required fields."""
    message, fields = question.message, question.fields
    if message is None:
        raise _Invalid(XMcpQuestion.must_be("message"), "/message")
    if not fields:
        raise _Invalid(XMcpQuestion.must_be("fields"), "/fields")
    for name, schema in fields.items():
        problem = _field_problem(schema)
        if problem:
            raise _Invalid(problem, f"/fields/{_escape(name)}")
        if question.maps_to is None and name not in arguments:
            raise _Invalid(
                f"field {name!r} is no argument of this tool (add maps_to)",
                f"/fields/{_escape(name)}",
            )
    required = list(fields) if question.required is None else list(question.required)
    if not all(r in fields for r in required):
        raise _Invalid("required must list some of the fields", "/required")
    return message, dict(fields), required


def _sampling(question: XMcpQuestion) -> tuple[str, int]:
    """The prompt for the client's model, and the most tokens it may answer with."""
    if question.prompt is None:
        raise _Invalid(
            "a sampling question needs a prompt (text for the client's model)", "/prompt"
        )
    return question.prompt, question.max_tokens


def _field_problem(schema: Any) -> str | None:
    """Why ``schema`` is not a flat primitive a form may hold (None when it is)."""
    if not isinstance(schema, Mapping):
        return "a field's schema must be an object"
    kind = schema.get("type")
    if kind not in _ALLOWED:
        return "a field's type must be string, number, integer, boolean or array (multi-select)"
    extra = sorted(set(schema) - _ALLOWED[kind])
    if extra:
        return f"a form field of type {kind} cannot have {', '.join(extra)}"
    if kind == "string" and "format" in schema and schema["format"] not in _FORMATS:
        return "format must be email, uri, date or date-time"
    if "enum" in schema and not _strings(schema["enum"]):
        return "enum must be a list of strings"
    if "oneOf" in schema and not _titled(schema["oneOf"]):
        return "oneOf must be a list of {const, title} options"
    if kind == "array":
        items = schema.get("items")
        if not isinstance(items, Mapping) or not (
            _strings(items.get("enum")) or _titled(items.get("anyOf"))
        ):
            return "an array field is a multi-select: items need a string enum or anyOf options"
    return None


def _strings(values: Any) -> bool:
    return isinstance(values, list) and bool(values) and all(isinstance(v, str) for v in values)


def _titled(options: Any) -> bool:
    return (
        isinstance(options, list)
        and bool(options)
        and all(
            isinstance(o, Mapping)
            and isinstance(o.get("const"), str)
            and set(o) <= {"const", "title"}
            for o in options
        )
    )


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")
