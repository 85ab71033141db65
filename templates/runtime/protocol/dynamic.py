"""Tool modes: which tools ``tools/list`` shows and ``tools/call`` accepts, and dynamic mode's meta tools.

``full`` lists one tool per operation; ``toolsets`` only the tools of the selected toolsets (tags),
plus the package's custom tools; ``dynamic`` lists three tools whatever the size of the API:
``search_operations`` (ranked text search, ``search.py``), ``describe_operation`` (an operation's full
input schema and hints) and ``call_operation`` (runs an operation by name through ``Calls.run_tool``:
the same validation, request building and error handling as its own tool; the result starts by
naming the operation that ran). ``call_operation`` takes the catalog's ``selectArgument`` too, for a
read operation (``projection``): it is handed to the operation as its own argument, and refused for
an operation that takes no selection, with nothing sent. A tool the mode does not list cannot be
called directly either. ``code`` lists ``search_operations``, ``describe_operation`` (which also
names the operation's function) and ``run_code``, which runs a short Python program calling the
operations as async functions (``codemode.py``), within limits read at start-up
(``sandbox.CodeLimits``); it needs the ``code`` extra, checked at start-up too. The generator chose a
mode (``toolMode`` in the catalog); ``selection_from_env`` lets ``<PREFIX>_TOOL_MODE`` (``full``,
``dynamic``, ``toolsets``, ``code`` or ``auto``) and ``<PREFIX>_TOOLSETS`` (comma-separated toolset
names, which alone select ``toolsets``) override it at start-up. ``<PREFIX>_SEARCH_LOG`` (dynamic and
code modes) records each search and each operation called after it (``search_log.py``).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..ask.interaction import NO_INTERACTION, Interaction
from ..catalog.model import Catalog, catalog_counts
from ..environment import name as env_name
from ..errors import ToolModeError as ToolModeError  # noqa: PLC0414 - re-exported
from ..jsonschema import Validator
from .calls import Calls
from .codemode import RUN, CodeMode
from .jsonrpc import INVALID_PARAMS, JsonObject, JsonRpcError
from .pagination import ListItems, PageSource, PickedTools, ToolSource
from .reporting import NO_LOG, NO_PROGRESS, Progress, RequestLog
from .results import tool_error
from .sandbox import DEFAULT_CODE_LIMITS, CodeLimits, check_available
from .search import Entry, SearchIndex
from .search_catalog import index_of
from .search_log import SearchLog, caller_of
from .shaping import shape_tool_result

SEARCH = "search_operations"
DESCRIBE = "describe_operation"
CALL = "call_operation"
MODES = ("full", "dynamic", "toolsets", "code")
DEFAULT_AUTO_THRESHOLD = 60
DEFAULT_RESULTS = 10
_SUGGESTIONS = 3


@dataclass(frozen=True, slots=True)
class ToolSelection:
    """The active tool mode and, in ``toolsets`` mode, the toolsets it exposes; ``code`` holds
    the limits of code mode's programs; ``search_log`` records searches (``search_log.py``)."""

    mode: str = "full"
    toolsets: tuple[str, ...] = ()
    code: CodeLimits = field(default=DEFAULT_CODE_LIMITS)
    # where searches and the calls after them are recorded (``<PREFIX>_SEARCH_LOG``), if anywhere
    search_log: SearchLog | None = field(default=None, compare=False)


def default_selection(catalog: Catalog) -> ToolSelection:
    """The mode the generator chose (``full`` for catalogs that predate tool modes)."""
    chosen = catalog.get("toolMode")
    if chosen is None:
        return ToolSelection()
    toolsets = tuple(chosen["toolsets"]) if chosen["mode"] == "toolsets" else ()
    return ToolSelection(chosen["mode"], toolsets)


def selection_from_env(catalog: Catalog, environ: Mapping[str, str], prefix: str) -> ToolSelection:
    """The selection ``<prefix>_TOOL_MODE`` and ``<prefix>_TOOLSETS`` ask for (else the default)."""
    mode_var, sets_var = env_name(prefix, "TOOL_MODE"), env_name(prefix, "TOOLSETS")
    raw_mode = environ.get(mode_var, "").strip().lower()
    asked = tuple(
        dict.fromkeys(n.strip() for n in environ.get(sets_var, "").split(",") if n.strip())
    )
    if raw_mode and raw_mode not in (*MODES, "auto"):
        raise ToolModeError(
            f"{mode_var} must be full, dynamic, toolsets, code or auto, got {raw_mode[:40]!r}"
        )
    limits = CodeLimits.from_env(environ, prefix)
    default = default_selection(catalog)
    mode = raw_mode or ("toolsets" if asked else default.mode)
    if mode == "auto":
        chosen = catalog.get("toolMode")
        threshold = chosen["autoThreshold"] if chosen else DEFAULT_AUTO_THRESHOLD
        mode = "dynamic" if catalog_counts(catalog)["tools"] > threshold else "full"
    if mode == "dynamic" and not catalog.get("dynamicTools"):
        raise ToolModeError(f"{mode_var}=dynamic: this server was generated without dynamic mode")
    if mode == "code":
        if not catalog.get("codeTools"):
            raise ToolModeError(f"{mode_var}=code: this server was generated without code mode")
        check_available(catalog["server"]["name"])
    search_log = _search_log(environ, prefix, mode)
    if mode in ("code", "dynamic"):
        return ToolSelection(mode, code=limits, search_log=search_log)
    if mode != "toolsets":
        return ToolSelection(mode, code=limits)
    known = catalog.get("toolsets") or {}
    toolsets = asked or default.toolsets
    listed = ", ".join(sorted(known)) or "(none)"
    if not toolsets:
        raise ToolModeError(f"toolsets mode needs {sets_var}: one or more of {listed}")
    unknown = [name for name in toolsets if name not in known]
    if unknown:
        raise ToolModeError(f"{sets_var}: no toolset {', '.join(unknown)}; choose from {listed}")
    return ToolSelection(mode, toolsets, limits)


def _search_log(environ: Mapping[str, str], prefix: str, mode: str) -> SearchLog | None:
    """The log ``<prefix>_SEARCH_LOG`` names, opened; only the modes that search have one."""
    log_var = env_name(prefix, "SEARCH_LOG")
    path = environ.get(log_var, "").strip()
    if not path:
        return None
    if mode not in ("dynamic", "code"):
        raise ToolModeError(
            f"{log_var} records the searches of dynamic and code modes; this server runs in "
            f"{mode} mode, which has no search"
        )
    secret = environ.get(env_name(prefix, "STATE_SECRET"), "")
    try:
        return SearchLog(path, secret.encode() or None)
    except OSError as exc:
        raise ToolModeError(
            f"{log_var}: cannot open {path} for appending: {exc.strerror}"
        ) from None


class ToolSurface:
    """The tools of one mode: the ``tools/list`` items and the routing of ``tools/call``."""

    def __init__(
        self, catalog: Catalog, calls: Calls, tools: ToolSource, selection: ToolSelection
    ) -> None:
        self.mode = selection.mode
        self._catalog = catalog
        self._calls = calls
        self._meta: dict[str, JsonObject] = {}
        self._exposed: frozenset[str] | None = None
        self._validators: dict[str, Validator] = {}
        self._index: SearchIndex | None = None
        self._search_log = selection.search_log
        # code mode's programs (None in the other modes)
        self._code: CodeMode | None = None
        names = tools.names
        self.listing: PageSource
        if self.mode == "dynamic":
            meta = catalog.get("dynamicTools") or []
            self._meta = {tool["name"]: tool for tool in meta}
            self._exposed = frozenset()
            self.listing = ListItems(meta)
        elif self.mode == "code":
            code = self._code = CodeMode(catalog, calls, selection.code, selection.search_log)
            meta = [
                t if t["name"] != RUN else code.listed(t) for t in catalog.get("codeTools") or []
            ]
            self._meta = {tool["name"]: tool for tool in meta}
            self._exposed = frozenset()
            self.listing = ListItems(meta)
        elif self.mode == "toolsets":
            toolsets = catalog.get("toolsets") or {}
            chosen = {
                name
                for key in selection.toolsets
                if key in toolsets
                for name in toolsets[key]["tools"]
            }
            tagged = {name for toolset in toolsets.values() for name in toolset["tools"]}
            # custom tools belong to no toolset: the package's author wants them in every mode
            positions = [i for i, n in enumerate(names) if n in chosen or n not in tagged]
            self._exposed = frozenset(names[i] for i in positions)
            self.listing = PickedTools(tools, positions)
        else:
            self.listing = PickedTools(tools, range(len(names)))

    def instructions(self, default: str | None) -> str | None:
        if self.mode == "dynamic":
            return self._catalog.get("dynamicInstructions") or default
        if self.mode == "code":
            return self._catalog.get("codeInstructions") or default
        return default

    async def call(
        self,
        params: JsonObject,
        version: str,
        progress: Progress = NO_PROGRESS,
        log: RequestLog = NO_LOG,
        interaction: Interaction = NO_INTERACTION,
    ) -> JsonObject:
        """``tools/call`` in this mode (the result shaped for ``version``, without envelope)."""
        name = params.get("name")
        if isinstance(name, str) and name in self._meta:
            result = await self._call_meta(name, params, progress, log, interaction)
            return shape_tool_result(result, version, wrapped_output=False)
        if isinstance(name, str) and self._exposed is not None and name not in self._exposed:
            raise JsonRpcError(INVALID_PARAMS, f"Unknown tool: {name}")
        return await self._calls.call_tool(params, version, progress, log, interaction)

    # -- the meta tools --------------------------------------------------------------------------

    async def _call_meta(
        self,
        name: str,
        params: JsonObject,
        progress: Progress,
        log: RequestLog,
        interaction: Interaction,
    ) -> JsonObject:
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise JsonRpcError(INVALID_PARAMS, "tools/call params.arguments must be an object")
        validator = self._validators.get(name)
        if validator is None:
            validator = self._validators[name] = Validator(self._meta[name]["inputSchema"])
        issues = validator.issues(arguments)
        if issues:
            lines = [f"Invalid arguments for tool {name!r}:"]
            lines += [f"- {issue.path or '(arguments)'}: {issue.message}" for issue in issues]
            return tool_error("\n".join(lines))
        if name == SEARCH:
            return self._search(arguments, caller_of(interaction))
        if name == DESCRIBE:
            return self._describe(arguments["name"])
        if name == RUN and self._code is not None:
            return await self._code.run(arguments["code"], interaction, progress, log)
        operation, inner = arguments["name"], arguments.get("arguments") or {}
        select = self._catalog.get("selectArgument")
        if isinstance(select, str) and select in arguments:
            refused = self._refused_selection(operation, select, arguments[select], inner)
            if refused is not None:
                return refused
            inner = {**inner, select: arguments[select]}
        result = await self._run(operation, inner, progress, log, interaction)
        if self._search_log is not None and result.get("resultType") != "input_required":
            known = self._calls.tool(operation) is not None
            if known:
                ok = not result.get("isError", False)
                self._search_log.called(operation, ok, caller_of(interaction))
        return result

    def _refused_selection(
        self, operation: str, argument: str, expression: Any, inner: JsonObject
    ) -> JsonObject | None:
        """Why the call tool's selection cannot go to ``operation`` (an unknown operation, one that
        takes no selection, a different selection among its arguments); ``None``: it can."""
        tool = self._calls.tool(operation)
        if tool is None:
            return tool_error(self._unknown(operation))
        if self._calls.select_argument(tool) is None:
            return tool_error(
                f"Operation {operation!r} does not take {argument}: only read-only operations "
                "that return JSON do. Nothing was sent to the API."
            )
        if argument in inner and inner[argument] != expression:
            return tool_error(
                f"{argument} is given twice, with different expressions (once in arguments); "
                "give it once. Nothing was sent to the API."
            )
        return None

    def _search(self, arguments: JsonObject, who: tuple[str, str] | None) -> JsonObject:
        query: str = arguments["query"]
        tag = arguments.get("tag")
        toolsets = self._catalog.get("toolsets") or {}
        allowed: Sequence[str] | None = None
        if isinstance(tag, str):
            if tag not in toolsets:
                return tool_error(f"No tag {tag!r}; the tags are: {', '.join(toolsets)}")
            allowed = toolsets[tag]["tools"]
        index = self._search_index()
        found = index.search(query, limit=arguments.get("limit", DEFAULT_RESULTS), allowed=allowed)
        if self._search_log is not None:
            self._search_log.searched(query, [entry.name for entry in found], who)
        if not found:
            text = f"No operation matches {query!r}. Try other or fewer words, or another tag."
            return {"resultType": "complete", "content": [_text(text)]}
        head = (
            f"{len(found)} operation(s) for {query!r}, best first "
            f"({len(index)} in all; {DESCRIBE} shows one's arguments):"
        )
        lines = [head, *(f"- {e.name}: {_line(e)}" for e in found)]
        return {"resultType": "complete", "content": [_text("\n".join(lines))]}

    def _describe(self, name: str) -> JsonObject:
        tool = self._calls.tool(name)
        if tool is None:
            return tool_error(self._unknown(name))
        described: JsonObject = {"name": name}
        function = self._code.function_name(name) if self._code is not None else None
        if function is not None:
            described["function"] = function
        for key in ("title", "description"):
            if key in tool:
                described[key] = tool[key]
        spec = self._calls.operation(name)
        if spec is not None:
            described["method"] = spec["method"].upper()
            described["path"] = spec["path"]
        for key in ("annotations", "inputSchema", "outputSchema"):
            if key in tool:
                described[key] = tool[key]
        text = json.dumps(described, ensure_ascii=False, separators=(",", ":"))
        return {"resultType": "complete", "content": [_text(text)], "structuredContent": described}

    async def _run(
        self,
        name: str,
        arguments: Any,
        progress: Progress,
        log: RequestLog,
        interaction: Interaction,
    ) -> JsonObject:
        result = await self._calls.run_tool(name, arguments, progress, log, interaction)
        if result is None:
            return tool_error(self._unknown(name))
        if result.get("resultType") == "input_required":
            return result
        spec = self._calls.operation(name)
        where = f" ({spec['method'].upper()} {spec['path']})" if spec is not None else ""
        content = [_text(f"Operation {name}{where}:"), *result.get("content", [])]
        return {**result, "content": content}

    def _unknown(self, name: str) -> str:
        names = [entry.name for entry in self._search_index().entries]
        near = difflib.get_close_matches(name, names, n=_SUGGESTIONS, cutoff=0.75)
        if not near:
            near = [entry.name for entry in self._search_index().search(name, limit=_SUGGESTIONS)]
        hint = f" Did you mean {', '.join(near)}?" if near else ""
        return f"Unknown operation {name!r}.{hint} {SEARCH} finds operations by what they do."

    def _search_index(self) -> SearchIndex:
        if self._index is None:
            # built at generation time (the catalog's searchIndex), else from the catalog now
            self._index = index_of(self._catalog)
        return self._index


def _text(text: str) -> JsonObject:
    return {"type": "text", "text": text}


def _line(entry: Entry) -> str:
    summary = " ".join(entry.summary.split()) or " ".join(entry.text.split())[:100]
    where = f" ({entry.method} {entry.path})" if entry.method else ""
    return f"{summary}{where}"
