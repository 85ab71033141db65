"""Lean results: the optional JMESPath argument of read tools, what it does and how it is advertised.

A read tool (``readOnlyHint``, a JSON response) takes one more optional argument, ``_select`` unless a
tool of the API already has an argument of that name (``argument_name``; the catalog's
``selectArgument`` names it, and a tool takes it when its ``inputSchema`` lists it). Its value is a
JMESPath expression (https://jmespath.org) applied to the parsed JSON response before anything is
returned, so that a model asks for ``items[].{id: id, title: title}`` instead of whole documents; the
argument is never sent upstream. The expression is compiled before the call (``compile_selection``: a
malformed one is refused and nothing is sent) and evaluated with a bounded number of steps, so that a
hostile expression cannot make the server spin. ``jmespath`` (pure Python, no dependencies) is
imported on the first call that carries an expression, never at start-up.

What a selection returns still keeps the promise of the tool's ``outputSchema`` (MCP: structured
content MUST conform to it): ``selected_output`` advertises the documented schema with one
alternative, keeping the root type so that nothing changes for calls without a selection in any
revision: an object root gains "any object" (a selected value that is not an object comes as
``{"result": value}``, the wrapping the 2025 revisions prescribe for such structured output), any
other root gains "any value" (the selected value as it is). The generator takes the argument's
schema, the line each read tool's description gains and its example from here, so the two sides
cannot drift apart.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import SelectionError as SelectionError  # noqa: PLC0414 - re-exported

__all__ = [
    "MAX_EXPRESSION",
    "MAX_STEPS",
    "Selection",
    "SelectionError",
    "argument_name",
    "argument_schema",
    "as_structured",
    "compile_selection",
    "description_line",
    "example",
    "nothing_selected",
    "selectable",
    "selected_output",
    "taking",
    "with_select",
]

# the argument's name, and what stands in when a tool of the API already has an argument so named:
# the leading underscore keeps it clear of parameter names (OData's ``$select``, PostgREST's ``select``)
NAMES = ("_select", "_jmespath")
MAX_EXPRESSION = 1000
# tree nodes one evaluation may visit: a projection over 100,000 items takes about 500,000; an
# expression that multiplies its input at every step stops here within about a second
MAX_STEPS = 1_000_000
# the key a selected value that is not an object goes under, when the output schema is an object
RESULT_KEY = "result"
_DEFS = "#/$defs/"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_JSON_LINES = ("ndjson", "jsonl", "jsonlines", "json-lines", "json-seq", "json-stream")
# the fields an example prefers, in this order; then the first scalar ones
_PREFERRED = ("id", "name", "title", "login", "username", "key", "number", "state", "status")
_LISTS = ("items", "data", "results", "values", "records", "entries", "list", "nodes")
_SCALARS = frozenset({"string", "integer", "number", "boolean"})
_FIELDS_SHOWN, _FIELD_CHARS = 20, 40
# any JSON value, spelled as every client's schema dialect reads it (not ``{}``, "unknown" to some)
_JSON_TYPES = ("object", "array", "string", "number", "boolean", "null")


def argument_name(taken: Iterable[str], names: Iterable[str] = NAMES) -> str:
    """The first of ``names`` (this argument's, by default) that no argument ``taken`` has
    (``""``: none is free); ``everything``'s guard is named so too."""
    used = set(taken)
    return next((name for name in names if name not in used), "")


def selectable(read_only: bool, method: str, media_type: str) -> bool:
    """Whether a tool takes the argument: it only reads and its response is JSON (or undocumented)."""
    if not read_only or method.upper() == "HEAD":
        return False
    media = media_type.split(";", 1)[0].strip().lower()
    subtype = media.rpartition("/")[2].removeprefix("x-")
    return not media or subtype == "json" or subtype.endswith("+json") or subtype in _JSON_LINES


def argument_schema() -> dict[str, Any]:
    """The argument's schema in a tool's ``inputSchema`` (short: the tool's description says the
    rest, and every read tool of a big API carries it)."""
    return {"type": "string", "maxLength": MAX_EXPRESSION, "description": "JMESPath expression"}


def description_line(argument: str, sample: str, *, only: str = "") -> str:
    """The one line a read tool's description gains (``only``: which calls take it, if not all;
    ``sample`` "": the response's shape is not known, and both forms are shown)."""
    shown = f"`{sample}`" if sample else f"`{_GENERIC}` on an object, `[].{_GENERIC}` on an array"
    return (
        f"Optional `{argument}`{f' ({only} only)' if only else ''}: a JMESPath expression picking "
        f"what to return from the JSON response, e.g. {shown}."
    )


_GENERIC = "{id: id, name: name}"


def without_select(description: str, argument: str) -> str:
    """A description :func:`with_select` wrote, without the line it added (the API's own text)."""
    head, _, last = description.rpartition("\n\n")
    return head if last.startswith(f"Optional `{argument}`") else description


def with_select(tool: Mapping[str, Any], argument: str, output: Any) -> dict[str, Any]:
    """``tool`` (as ``tools/list`` shows it) taking ``argument``: its input schema lists it and its
    description ends with the line that says what it does, with an example fitted to ``output``
    (the documented output schema, ``None`` when there is none)."""
    line = description_line(argument, example(output))
    described = tool.get("description")
    text = f"{described}\n\n{line}" if isinstance(described, str) and described else line
    # a description missing so far goes where tools/list puts it: after the title (or the name)
    anchor = "title" if "title" in tool else "name"
    result: dict[str, Any] = {}
    for key, value in tool.items():
        if key == "description":
            value = text  # noqa: PLW2901 - the line added
        elif key == "inputSchema" and isinstance(value, Mapping):
            value = taking(value, argument, argument_schema())  # noqa: PLW2901 - added
        result[key] = value
        if key == anchor and "description" not in tool:
            result["description"] = text
    result.setdefault("description", text)
    return result


def taking(schema: Mapping[str, Any], name: str, property_schema: Any) -> dict[str, Any]:
    """An input schema that lists property ``name`` too; the other keys keep their places (a
    pooled ``$defs`` must stay last). ``everything``'s argument is added so as well."""
    if not isinstance(schema.get("properties"), Mapping):
        return {"properties": {name: property_schema}, **schema}
    return {
        key: ({**value, name: property_schema} if key == "properties" else value)
        for key, value in schema.items()
    }


# -- the example -----------------------------------------------------------------------------------


def example(output: Any) -> str:
    """An expression that works on responses of the ``output`` schema: two fields of the array's
    items, of the items of the object's main list (``items``, ``data``…) or of the object itself;
    a nullable value (FastAPI's ``anyOf: [{$ref: Model}, {type: null}]``) is read as its other
    branch. "" when the schema does not say whether the response is an object or an array (none,
    ``{}``, either): an example of one form would return null on the other."""
    root = _unwrapped(output, output)
    kind = _kind(root) or next(
        (k for part in root.get("allOf") or () if (k := _kind(_unwrapped(part, output)))), ""
    )
    if kind == "array":
        fields = _fields(_unwrapped(root.get("items"), output), output)
        return f"[].{_pick(fields)}" if fields else "[:5]"
    if kind != "object":
        return ""
    lists = {
        name: fields
        for name, schema in _properties(root, output).items()
        if _IDENTIFIER.fullmatch(name)
        and _kind(listed := _unwrapped(schema, output)) == "array"
        and (fields := _fields(_unwrapped(listed.get("items"), output), output))
    }
    main = sorted(name for name in lists if name.lower() in _LISTS)
    if main:
        return f"{main[0]}[].{_pick(lists[main[0]])}"
    fields = _fields(root, output)
    if fields:
        return _pick(fields)
    if lists:
        first = min(lists)
        return f"{first}[].{_pick(lists[first])}"
    return "keys(@)"


def _pick(fields: list[str]) -> str:
    ranked = sorted(fields, key=lambda f: _PREFERRED.index(f) if f in _PREFERRED else 99)
    chosen = ranked[:2]
    return "{" + ", ".join(f"{name}: {name}" for name in chosen) + "}"


def _fields(schema: Mapping[str, Any], root: Any) -> list[str]:
    """The scalar properties of an object schema that JMESPath can name without quotes."""
    return [
        name
        for name, sub in _properties(schema, root).items()
        if _IDENTIFIER.fullmatch(name) and _kind(_unwrapped(sub, root)) in _SCALARS
    ]


def _properties(schema: Mapping[str, Any], root: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for branch in [schema, *(schema.get("allOf") or [])]:
        branch = _resolve(branch, root)  # noqa: PLW2901 - a reference followed
        properties = branch.get("properties")
        if isinstance(properties, Mapping):
            found.update(properties)
    return found


def _resolve(schema: Any, root: Any) -> Mapping[str, Any]:
    """``schema`` with local ``#/$defs/`` references followed (a bounded number of times)."""
    defs = root.get("$defs") if isinstance(root, Mapping) else None
    for _ in range(8):
        if not isinstance(schema, Mapping):
            return {}
        ref = schema.get("$ref")
        if not (isinstance(ref, str) and ref.startswith(_DEFS) and isinstance(defs, Mapping)):
            return schema
        schema = defs.get(ref[len(_DEFS) :])
    return {}


def _kind(schema: Mapping[str, Any]) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind is None and "items" in schema:
        return "array"
    if kind is None and "properties" in schema:
        return "object"
    return kind if isinstance(kind, str) else ""


def _unwrapped(schema: Any, root: Any) -> Mapping[str, Any]:
    """``schema`` resolved (:func:`_resolve`) and, when it is an ``anyOf``/``oneOf`` of one branch
    and null, that branch (resolved too). ``jsonschema.unwrap_nullable`` reads only branches that
    carry a ``type`` and would leave FastAPI's ``{$ref: Model}`` one as it is."""
    node = _resolve(schema, root)
    for _ in range(4):
        if "type" in node:
            return node
        branches = next(
            (node[k] for k in ("anyOf", "oneOf") if isinstance(node.get(k), list)), None
        )
        others = [b for b in branches or () if _resolve(b, root).get("type") != "null"]
        if branches is None or len(others) != 1:
            return node
        node = _resolve(others[0], root)
    return node


# -- the output schema -----------------------------------------------------------------------------

_ROOT_KEYWORDS = ("$schema", "$defs", "definitions")


def selected_output(documented: Any) -> Any:
    """The output schema a tool taking the argument advertises: ``documented`` or what a selection
    returns (see the module docstring); ``$defs`` stay at the root, where references find them."""
    if not isinstance(documented, Mapping):
        return documented  # none, or a boolean schema: nothing to add
    is_object = documented.get("type") == "object"
    alternative: dict[str, Any] = {
        "description": "What a selection picked",
        "anyOf": [{"type": kind} for kind in _JSON_TYPES],
    }
    if is_object:
        alternative = {
            "type": "object",
            "description": f'What a selection picked ({{"{RESULT_KEY}": value}} for a non-object)',
        }
    core = {key: value for key, value in documented.items() if key not in _ROOT_KEYWORDS}
    advertised: dict[str, Any] = {}
    if "$schema" in documented:
        advertised["$schema"] = documented["$schema"]
    if is_object:
        advertised["type"] = "object"
    advertised["anyOf"] = [core, alternative]
    for key in _ROOT_KEYWORDS[1:]:
        if key in documented:
            advertised[key] = documented[key]
    return advertised


def as_structured(value: Any, object_root: bool) -> Any:
    """The structured content of a selected ``value`` (see ``selected_output``)."""
    if object_root and not isinstance(value, dict):
        return {RESULT_KEY: value}
    return value


# -- evaluation ------------------------------------------------------------------------------------


class Selection:
    """A compiled expression; ``apply`` evaluates it on a parsed JSON value."""

    __slots__ = ("_parsed", "argument", "expression")

    def __init__(self, argument: str, expression: str, parsed: Any) -> None:
        self.argument = argument
        self.expression = expression
        self._parsed = parsed

    def apply(self, value: Any) -> Any:
        """What the expression picks from ``value``; ``SelectionError`` when it cannot be applied."""
        errors = _jmespath().exceptions
        try:
            return _interpreter()(MAX_STEPS).visit(self._parsed, value)
        except errors.JMESPathError as exc:
            raise SelectionError(_message(exc)) from None
        except RecursionError:
            raise SelectionError("the expression is nested too deeply") from None
        except (TypeError, ValueError, ArithmeticError) as exc:
            # a function given values of a type it cannot handle together
            raise SelectionError(f"it cannot be evaluated on this response ({exc})") from None


def compile_selection(argument: str, expression: Any) -> Selection:
    """``expression`` compiled; ``SelectionError`` says why it is not a usable JMESPath expression."""
    if not isinstance(expression, str):
        raise SelectionError("must be a string (a JMESPath expression)")
    if not expression.strip():
        raise SelectionError("is empty")
    if len(expression) > MAX_EXPRESSION:
        raise SelectionError(f"is longer than {MAX_EXPRESSION} characters")
    jmespath = _jmespath()
    try:
        parsed = jmespath.compile(expression).parsed
    except jmespath.exceptions.JMESPathError as exc:
        raise SelectionError(f"is not a valid JMESPath expression: {_message(exc)}") from None
    except RecursionError:
        raise SelectionError("is nested too deeply") from None
    problem = _function_problem(parsed)
    if problem:
        raise SelectionError(f"is not a valid JMESPath expression: {problem}")
    return Selection(argument, expression, parsed)


def _function_problem(parsed: Any) -> str:
    """An unknown function or a wrong number of arguments in the expression ("": none), found
    before the call rather than after it."""
    table = importlib.import_module("jmespath.functions").Functions.FUNCTION_TABLE
    pending = [parsed]
    while pending:
        node = pending.pop()
        if isinstance(node, list):
            pending.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        pending.extend(node.get("children") or ())
        if node.get("type") != "function_expression":
            continue
        name, given = node.get("value"), len(node.get("children") or ())
        spec = table.get(name)
        if spec is None:
            return f"unknown function {name}()"
        signature = spec.get("signature") or []
        variadic = bool(signature) and bool(signature[-1].get("variadic"))
        if given < len(signature) or (given > len(signature) and not variadic):
            wanted = f"at least {len(signature)}" if variadic else str(len(signature))
            return f"{name}() takes {wanted} argument(s), not {given}"
    return ""


def nothing_selected(value: Any, picked: Any = None, expression: str = "") -> str:
    """What the response holds, for a selection that picked nothing (a misspelt name picks null);
    a list picked from lists all empty is no misspelt name (ZenML's ``items`` of no tags), nor a
    name whose field holds null (Airflow's run ``note``, cleared)."""
    nulls = _null_fields(value, expression)
    if nulls:
        shown = ", ".join(json.dumps(name, ensure_ascii=False) for name in nulls[:3])
        held = "holds" if len(nulls) == 1 else "hold"
        return f"[The selection picked nothing: the response's {shown} {held} null.]"
    lists = (
        [key for key, item in value.items() if isinstance(item, list)]
        if isinstance(value, dict)
        else []
    )
    if picked == [] and lists and not any(value[key] for key in lists):
        shown = ", ".join(json.dumps(key[:_FIELD_CHARS], ensure_ascii=False) for key in lists[:3])
        return f"[The selection picked nothing: the response's lists are empty ({shown}).]"
    if isinstance(value, dict):
        held = f"an object with the fields {_names(value)}"
    elif isinstance(value, list):
        first = next((item for item in value if isinstance(item, dict)), None)
        held = f"an array of {len(value)} item{'' if len(value) == 1 else 's'}" + (
            f", the first with the fields {_names(first)}" if first is not None else ""
        )
    else:
        held = f"a {type(value).__name__} value" if value is not None else "null"
    return (
        "[The selection picked nothing: JMESPath gives null for a name the response does not have, "
        f"and leaves it out of a list. The response is {held}.]"
    )


def _null_fields(value: Any, expression: str) -> list[str]:
    """The names ``expression`` says that the response has, each holding null (in an object, or
    in every item of an array of objects that has it)."""
    said = set(_IDENTIFIER.findall(expression))
    if isinstance(value, dict):
        return [key for key, item in value.items() if key in said and item is None]
    items = [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
    keys = dict.fromkeys(key for item in items for key in item if key in said)
    return [key for key in keys if all(item.get(key) is None for item in items if key in item)]


def _names(value: Mapping[str, Any]) -> str:
    keys = [key[:_FIELD_CHARS] for key in list(value)[:_FIELDS_SHOWN]]
    more = ", …" if len(value) > _FIELDS_SHOWN else ""
    return json.dumps(keys, ensure_ascii=False)[1:-1] + more


def _message(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def _jmespath() -> Any:
    """The ``jmespath`` module, imported on first use (start-up never pays for it)."""
    return importlib.import_module("jmespath")


_BOUNDED: list[Any] = []


def _interpreter() -> Any:
    """A JMESPath tree interpreter that gives up after a number of steps (built on first use)."""
    if _BOUNDED:
        return _BOUNDED[0]
    base = importlib.import_module("jmespath.visitor").TreeInterpreter
    errors = _jmespath().exceptions

    class Bounded(base):  # type: ignore[misc, valid-type]
        def __init__(self, steps: int) -> None:
            super().__init__()
            self._left = steps
            self._methods: dict[str, Any] = {}

        def visit(self, node: Any, *args: Any, **kwargs: Any) -> Any:
            self._left -= 1
            if self._left < 0:
                raise errors.JMESPathError(
                    f"it takes more than {MAX_STEPS} steps on this response; select less, or "
                    "ask the API for less (fewer items per page)"
                )
            kind = node["type"]
            method: Any = self._methods.get(kind)
            if method is None:
                method = getattr(self, f"visit_{kind}", self.default_visit)
                self._methods[kind] = method
            return method(node, *args, **kwargs)

    _BOUNDED.append(Bounded)
    return Bounded
