"""Workflow prompts from OpenAPI links: call A, take the linked values from its response, call B.

Response ``links`` between operations become one prompt per chain start (``<tool>_chain``), walked
breadth-first up to ``MAX_LINK_DEPTH`` links, with the values each step feeds into the next named
from the link's runtime expressions. Like tag prompts they are bounded (``PROMPT_LIMIT``) and say
"tool" or "operation" as the tool mode in force needs (parts with ``modes``), and in toolsets mode
name the steps whose toolset is not enabled.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import unquote

from ..diagnostics import Report, pointer
from ..ir.model import Api, Link, Operation
from . import naming
from .metatools import api_name
from .model import (
    Prompt,
    PromptPart,
    Tool,
    Toolset,
)
from .tag_prompts import (
    CALL_MODES,
    CODE_MODES,
    CODE_USE,
    DYNAMIC_USE,
    GOAL,
    NOT_TOOLS,
    PROMPT_LIMIT,
    TITLE_LIMIT,
    TOOL_MODES,
    delimited,
    longest_part,
    shortened,
    tool_line,
)

# links followed from a workflow's first operation at most (four operations in a chain)
MAX_LINK_DEPTH = 3
_LOCATIONS = ("path", "query", "header", "cookie")


@dataclass(frozen=True, slots=True)
class _Edge:
    """One usable link: after ``source`` (whose ``status`` response declares it) call ``target``."""

    link: Link
    source: Tool
    target: Tool
    # (what is filled: "argument `x`" or "the request body", where the value comes from)
    feeds: tuple[tuple[str, str], ...]


def link_prompts(
    api: Api,
    tools: tuple[Tool, ...],
    namer: naming.Namer,
    report: Report,
    toolsets: Sequence[Toolset] = (),
) -> tuple[Prompt, ...]:
    """A workflow prompt for each operation a chain of response links starts from.

    Each prompt walks the links from that operation (at most MAX_LINK_DEPTH links deep, each
    operation at the first step that reaches it): which tool to call next and which value of the
    earlier call feeds which of its arguments. Links to operations that are not exposed as tools are
    left out, with a diagnostic.
    """
    edges = _edges(api, tools, report)
    toolsets_of = {
        tool.name: tuple(t.name for t in toolsets if tool.name in t.tools) for tool in tools
    }
    order = [t.operation.key for t in tools if t.operation.key in edges]
    # a link to itself (the next page) does not make an operation part of another chain
    targets = {
        edge.target.operation.key
        for key, out in edges.items()
        for edge in out
        if edge.target.operation.key != key
    }
    starts = [key for key in order if key not in targets]
    covered: set[str] = set()
    prompts: list[Prompt] = []
    # an operation reached only through a cycle starts a chain of its own, in document order
    for key in [*starts, *(k for k in order if k not in starts)]:
        if key in covered:
            continue
        lines: list[str] = []
        start = edges[key][0].source
        covered |= _walk(edges, start, "1", None, lines, {})
        prompts.append(_link_prompt(api, start, edges[key], lines, namer, report, toolsets_of))
    return tuple(prompts)


def _link_prompt(
    api: Api,
    start: Tool,
    first: list[_Edge],
    lines: list[str],
    namer: naming.Namer,
    report: Report,
    toolsets_of: Mapping[str, tuple[str, ...]],
) -> Prompt:
    name = namer.claim(f"{start.name}_chain", seed=f"links:{start.operation.key}")
    following = ", ".join(dict.fromkeys(edge.target.name for edge in first))
    steps = _step_groups(lines)
    kept = len(steps)
    parts = _link_parts(api, start, steps, kept, toolsets_of)
    while kept > 1 and longest_part(parts) > PROMPT_LIMIT:
        kept -= 1
        parts = _link_parts(api, start, steps, kept, toolsets_of)
    if kept < len(steps):
        report.info(
            "prompt-summarised",
            start.operation.pointer,
            f"prompt {name!r} shows {kept} of the {len(steps)} steps its links lead to, to stay "
            f"under {PROMPT_LIMIT:,} characters",
        )
    return Prompt(
        name=name,
        title=f"{start.title}, then what it links to",
        description=f"Call {start.name}, then follow the links of its response ({following}), "
        "passing values from each response on",
        arguments=(GOAL,),
        parts=parts,
    )


_STEP = re.compile(r"\s*\d+(?:\.\d+)*\. ([A-Za-z0-9_.-]+): ")


def _step_groups(lines: list[str]) -> list[tuple[str, list[str]]]:
    """The lines of each step (its line and the ones below it), with the tool the step calls."""
    groups: list[tuple[str, list[str]]] = []
    for line in lines:
        step = _STEP.match(line)
        if step or not groups:
            groups.append((step.group(1) if step else "", [line]))
        else:
            groups[-1][1].append(line)
    return groups


def _link_parts(
    api: Api,
    start: Tool,
    steps: list[tuple[str, list[str]]],
    kept: int,
    toolsets_of: Mapping[str, tuple[str, ...]],
) -> tuple[PromptPart, ...]:
    """A workflow prompt's parts in every tool mode, showing its first ``kept`` steps."""
    shown = [line for _, group in steps[:kept] for line in group]
    if kept < len(steps):
        shown.append(f"… and {len(steps) - kept} more steps further down the chain (not shown)")
    block = delimited("Steps:\n" + "\n".join(shown))
    title = shortened(api_name(api.title), TITLE_LIMIT)
    head = f"You are helping a user with {title}. This workflow starts with the "
    links = (
        f"{start.name}; the API declares links from its response to the operations that can "
        "follow, and which values of one call feed the next.\n\n" + block + "\n\n"
    )
    follow = (
        "Start with step 1. After each call, continue with the linked step that serves the "
        "goal: fill the arguments it lists with the values named there, taken from the earlier "
        "call exactly as returned, and ask the user for any other required argument. "
    )
    parts = [
        PromptPart(
            text=f"{head}tool {links}{follow}Ask the user before calling any destructive tool.\n\n",
            modes=TOOL_MODES,
        ),
        *(
            PromptPart(
                text=f"{head}operation {links}{NOT_TOOLS}{use}{follow}Ask the user before running "
                "any destructive operation.\n\n",
                modes=modes,
            )
            for use, modes in ((DYNAMIC_USE, CALL_MODES), (CODE_USE, CODE_MODES))
        ),
    ]
    parts += _not_enabled([tool for tool, _ in steps[:kept] if tool], toolsets_of)
    parts += [PromptPart(text="The user's goal: "), PromptPart(argument=GOAL.name)]
    return tuple(parts)


def _not_enabled(tools: list[str], toolsets_of: Mapping[str, tuple[str, ...]]) -> list[PromptPart]:
    """What toolsets mode says about the steps' tools that ``tools/list`` may leave out: one
    sentence per toolset, and one per tool that is in several (it is listed if any is selected)."""
    grouped: dict[str, list[str]] = {}
    alone: list[str] = []
    for tool in dict.fromkeys(tools):
        owners = toolsets_of.get(tool, ())
        if len(owners) == 1:
            grouped.setdefault(owners[0], []).append(tool)
        else:
            alone.append(tool)

    def sentence(why: str, names: list[str]) -> str:
        them = "it" if len(names) == 1 else "them"
        return (
            f"Not enabled on this server, as {why} not selected: {', '.join(names)}. Skip the "
            f"steps that call {them}, and tell the user if the goal needs {them}.\n\n"
        )

    parts = [
        PromptPart(text=sentence(f"toolset {toolset!r} is", names), unless_toolset=toolset)
        for toolset, names in grouped.items()
    ]
    parts += [
        PromptPart(text=sentence("its toolsets are", [tool]), unless_tool=tool) for tool in alone
    ]
    return parts


def _walk(
    edges: dict[str, list[_Edge]],
    tool: Tool,
    number: str,
    via: _Edge | None,
    lines: list[str],
    numbers: dict[str, str],
) -> set[str]:
    """The step for ``tool`` and, indented below it, the steps its links lead to.

    Every operation gets one step, where the shortest chain reaches it (MAX_LINK_DEPTH links deep
    at most); a link to an operation that already has a step (itself, for the next page) is a
    "then ..." line with the values it passes.
    Returns the operations given a step.
    """
    depth = number.count(".")
    indent = "   " * depth
    numbers.setdefault(tool.operation.key, number)
    lines.append(f"{indent}{number}. {tool.name}: {tool_line(tool)}")
    if via is not None:
        lines.append(f"{indent}   (after {via.source.name}, {_by_link(via)})")
        lines.extend(f"{indent}   - {what} = {source}" for what, source in via.feeds)
    if depth >= MAX_LINK_DEPTH:
        return set(numbers)
    following: dict[str, _Edge] = {}
    for edge in edges.get(tool.operation.key, []):
        target = edge.target.operation.key
        if target in numbers:
            again = "again" if target == tool.operation.key else f"(as in step {numbers[target]})"
            lines.append(f"{indent}   then {edge.target.name} {again}, {_by_link(edge)}")
            lines.extend(f"{indent}   - {what} = {source}" for what, source in edge.feeds)
        else:
            following.setdefault(target, edge)
    # direct links are numbered before any is walked: each operation sits where it is reached first
    for step, key in enumerate(following, start=1):
        numbers[key] = f"{number}.{step}"
    for key, edge in following.items():
        _walk(edges, edge.target, numbers[key], edge, lines, numbers)
    return set(numbers)


def _by_link(edge: _Edge) -> str:
    link = edge.link
    about = f": {shortened(' '.join(link.description.split()))}" if link.description else ""
    return f"by the link {link.name!r} of its {link.status} response{about}"


def _edges(api: Api, tools: tuple[Tool, ...], report: Report) -> dict[str, list[_Edge]]:
    by_key = {tool.operation.key: tool for tool in tools}
    edges: dict[str, list[_Edge]] = {}
    for op in api.operations:
        source = by_key.get(op.key)
        for link in op.links:
            target = _target(api, link)
            if target is None:
                wanted = link.operation_id or link.operation_ref
                report.warn(
                    "link-unresolved", link.pointer, f"link {link.name!r}: no operation {wanted!r}"
                )
                continue
            if source is None or target.key not in by_key:
                report.info(
                    "link-skipped",
                    link.pointer,
                    f"link {link.name!r} from {op.key!r} to {target.key!r}: both ends must be "
                    "tools for a workflow prompt",
                )
                continue
            feeds = _feeds(link, source, by_key[target.key], report)
            edges.setdefault(op.key, []).append(_Edge(link, source, by_key[target.key], feeds))
    return edges


def _target(api: Api, link: Link) -> Operation | None:
    if link.operation_id:
        return next((op for op in api.operations if op.operation_id == link.operation_id), None)
    ref = link.operation_ref
    if not ref.startswith("#/"):
        return None  # another document: its operations are not part of this server
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in unquote(ref[2:]).split("/")]
    for op in api.operations:
        if op.pointer == pointer(*tokens) or (
            len(tokens) == 3
            and tokens[0] == "paths"
            and (tokens[1], tokens[2].upper()) == (op.path, op.method)
        ):
            return op
    return None


def _feeds(link: Link, source: Tool, target: Tool, report: Report) -> tuple[tuple[str, str], ...]:
    argument_of = {(a.source, a.wire_name): a.name for a in target.arguments}
    feeds: list[tuple[str, str]] = []
    for name, expression in link.parameters:
        location, _, bare = name.partition(".")
        candidates = [(where, name) for where in _LOCATIONS]
        if location in _LOCATIONS:
            candidates.append((location, bare))
        argument = next((argument_of[c] for c in candidates if c in argument_of), None)
        if argument is None:
            report.warn(
                "link-parameter-unknown",
                link.pointer,
                f"link {link.name!r}: {target.name} has no parameter {name!r}; it is left out",
            )
            continue
        feeds.append((f"argument `{argument}`", _value_source(expression, source, link.status)))
    if link.request_body is not None:
        feeds.append(("the request body", _value_source(link.request_body, source, link.status)))
    return tuple(feeds)


def _value_source(expression: object, source: Tool, status: str) -> str:
    """Where a link's value comes from, in words (OpenAPI runtime expressions)."""
    quoted = shortened(json.dumps(expression, ensure_ascii=False))
    if not isinstance(expression, str) or not expression.startswith("$"):
        if isinstance(expression, str) and "{$" in expression:
            return f"the text {quoted} with each {{$...}} part filled in"
        return f"the constant {quoted}"
    name = source.name
    head, _, fragment = expression.partition("#")
    field = _field(fragment)
    arguments: dict[tuple[str, str], str] = {
        (a.source, a.wire_name): a.name for a in source.arguments
    }
    match head.split(".", 2):
        case ["$response", "body"]:
            whole = f"the body of the {status} response of {name}"
            return f"`{field}` in {whole}" if field else whole
        case ["$response", "header", header]:
            return f"the {header} header of the {status} response of {name}"
        case ["$request", "body"]:
            body = f"the request body sent to {name}"
            return f"`{field}` in {body}" if field else body
        case ["$request", location, parameter] if location in _LOCATIONS:
            argument = arguments.get((location, parameter), parameter)
            return f"the `{argument}` argument given to {name}"
        case ["$url"]:
            return f"the URL {name} called"
        case ["$method"]:
            return f"the HTTP method of {name}"
        case ["$statusCode"]:
            return f"the status code of the response of {name}"
    return f"the value of {quoted} for the call of {name}"


def _field(fragment: str) -> str:
    """``/data/0/id`` → ``data[0].id``; "" for the whole document."""
    out = ""
    for raw in unquote(fragment).split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        out += f"[{token}]" if token.isdigit() else (f".{token}" if out else token)
    return out
