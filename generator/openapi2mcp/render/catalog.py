"""Build ``catalog.json`` (the runtime's view of the API) and its companions from a plan.

The catalog's format is owned by ``templates/runtime/catalog/model.py``; this module only fills it. The MCP
objects are stored exactly as the 2026-07-28 list methods return them, in plan order, with compact
schemas (``compact.py``). ``catalog_files`` adds the two companions that keep start-up independent of
the API's size: ``catalog.index.json`` (what start-up reads) and ``catalog.tools.jsonl`` (one tool per
line, read a page at a time), the tool schemas' components written once (``catalog.defs.json``) and
every value that repeats across those files written once (``catalog.pool.jsonl``, ``pooling.py``).
``mode_sizes`` tells ``inspect`` what ``tools/list`` costs in each tool
mode: bytes exactly, tokens as an estimate (``estimate_tokens``; no tokenizer is involved).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, assert_never

from ..diagnostics import Report
from ..ir.bodies import sent_as_text
from ..ir.model import Api, BodyPart, Operation, Parameter, Server
from ..ir.operation_parts import JSON_TYPE, base_media_type
from ..ir.schema_utils import NO_DEFAULT, documented_default, non_null
from ..plan.build import server_variable_env
from ..plan.metatools import code_tools, dynamic_tools
from ..plan.model import (
    PromptImage,
    PromptMessage,
    PromptPart,
    PromptResource,
    PromptText,
    ServerPlan,
    Tool,
    ToolExposure,
    Toolset,
)
from ..shipped import runtime_module
from .compact import compact_input, lenient_output, output_schema, shared_definitions
from .pooling import POOL_FILE, pool_values
from .search_index import search_index

if TYPE_CHECKING:
    # the catalog's format is the runtime's: mypy checks what this module builds against it
    from runtime.catalog import model as rt

CATALOG_FORMAT = 1
DEFAULT_TIMEOUT_SECONDS = 30.0
CATALOG_FILE = "catalog.json"
INDEX_FILE = "catalog.index.json"
TOOLS_FILE = "catalog.tools.jsonl"
# the pooled component schemas of the tools (runtime catalog.SCHEMA_DEFS, DEFS_SUFFIX)
DEFS_FILE = "catalog.defs.json"
# what the runtime's index carries of the catalog itself (runtime catalog.INDEX_KEYS)
_INDEX_KEYS = (
    "format",
    "server",
    "instructions",
    "upstream",
    "toolMode",
    "toolsets",
    "dynamicTools",
    "dynamicInstructions",
    "codeTools",
    "codeInstructions",
    "interaction",
    "selectArgument",
)
# words, numbers in groups of three digits, runs of punctuation: roughly how BPE tokenizers split
# JSON with English text (GitHub's tools/list: 0.99x of o200k_base's count; the dynamic tools: 0.93x)
_TOKEN_PIECES = re.compile(r" ?[A-Za-z]+| ?[0-9]{1,3}|[^\sA-Za-z0-9]+|\s+")


def build_catalog(plan: ServerPlan, report: Report) -> rt.Catalog:
    with shared_definitions():
        return _catalog(plan, report)


def _catalog(plan: ServerPlan, report: Report) -> rt.Catalog:
    operations = {t.operation.key: _operation(plan, t, report) for t in plan.callable_tools}
    catalog: rt.Catalog = {
        "format": CATALOG_FORMAT,
        "server": {
            "name": plan.server_name,
            "version": plan.version,
            "title": plan.title,
            "description": plan.description,
        },
        "instructions": plan.instructions,
        "upstream": _upstream(plan),
        "tools": [tool_object(t, plan.exposure) for t in plan.tools],
        "resources": [
            _drop_empty(
                {
                    "uri": r.uri,
                    "name": r.name,
                    "title": r.title,
                    "description": r.description,
                    "mimeType": r.mime_type,
                }
            )
            for r in plan.resources
        ],
        "resourceTemplates": [
            _drop_empty(
                {
                    "uriTemplate": t.uri_template,
                    "name": t.name,
                    "title": t.title,
                    "description": t.description,
                    "mimeType": t.mime_type,
                }
            )
            for t in plan.resource_templates
        ],
        "prompts": [
            _drop_empty(
                {
                    "name": p.name,
                    "title": p.title,
                    "description": p.description,
                    "arguments": [
                        _drop_empty(
                            {"name": a.name, "description": a.description, "required": a.required}
                        )
                        for a in p.arguments
                    ],
                }
            )
            for p in plan.prompts
        ],
        "operations": operations,
        "toolBindings": {t.name: _tool_binding(plan, t) for t in plan.tools},
        "resourceBindings": {r.uri: {"operation": r.operation.key} for r in plan.resources},
        "templateBindings": {
            t.uri_template: {"operation": t.operation.key, "variables": dict(t.variables)}
            for t in plan.resource_templates
        },
        "promptMessages": {
            p.name: [_prompt_message(message) for message in p.all_messages()] for p in plan.prompts
        },
        "completions": {
            "prompts": {
                p.name: {arg: list(values) for arg, values in p.completions}
                for p in plan.prompts
                if p.completions
            },
            "resourceTemplates": {
                tpl: {var: list(values) for var, values in offered}
                for tpl, offered in plan.template_completions
            },
        },
    }
    catalog["toolMode"] = {
        "mode": plan.exposure.mode,
        "toolsets": list(plan.exposure.default_toolsets),
        "autoThreshold": plan.exposure.auto_threshold,
    }
    catalog["toolsets"] = {t.name: _toolset(t) for t in plan.exposure.toolsets}
    catalog["dynamicTools"] = dynamic_tools(
        plan.title, plan.tools, plan.exposure.toolsets, select=plan.exposure.select_argument
    )
    catalog["dynamicInstructions"] = plan.exposure.dynamic_instructions
    catalog["codeTools"] = code_tools(plan.title, plan.tools, plan.exposure.toolsets)
    catalog["codeInstructions"] = plan.exposure.code_instructions
    catalog["interaction"] = plan.interaction.defaults()
    if plan.exposure.select_argument:
        catalog["selectArgument"] = plan.exposure.select_argument
    catalog["searchIndex"] = search_index(catalog, plan)
    return catalog


def _upstream(plan: ServerPlan) -> rt.UpstreamInfo:
    upstream: rt.UpstreamInfo = {
        "baseUrl": plan.base_url,
        "baseUrlEnv": plan.base_url_env,
        "timeoutEnv": plan.timeout_env,
        "timeoutSeconds": plan.timeout_seconds,
        "securitySchemes": dict(plan.security),
    }
    if plan.api.server is not None:
        upstream["server"] = _server(plan.api.server, plan.env_prefix)
    if plan.upstream_headers:
        upstream["headers"] = dict(plan.upstream_headers)
    # the config file's style for the whole server; "indexed" is the runtime's default
    if plan.deep_object_arrays and plan.deep_object_arrays != "indexed":
        upstream["deepObjectArrays"] = plan.deep_object_arrays
    if plan.credentials != "environment":
        upstream["credentials"] = plan.credentials
    return upstream


def _tool_binding(plan: ServerPlan, tool: Tool) -> rt.ToolBinding:
    binding: rt.ToolBinding = {"operation": tool.operation.key}
    _, checks = root_checks(compact_input(tool.input_schema, plan.exposure.description_limit))
    if checks:
        binding["inputChecks"] = checks
    other = _other_output_schema(tool, plan.exposure)
    if other is not None:
        binding["outputSchemas"] = dict([other])
    interaction = plan.interaction.for_tool(tool.name)
    if interaction:
        binding["interaction"] = interaction
    if tool.everything:
        binding["everything"] = tool.everything
    return binding


# what Anthropic's API refuses at the root of a tool's input schema ("input_schema does not support
# oneOf, allOf, or anyOf at the top level"): one such tool fails every request that lists it
_ROOT_APPLICATORS = ("allOf", "anyOf", "oneOf")


def root_checks(schema: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``schema`` without its root ``allOf``/``anyOf``/``oneOf`` (a flattened body's "one of these
    fields at least"), and those keywords: the tool advertises the first, the runtime checks both
    (the binding's ``inputChecks`` go back into the root before arguments are validated)."""
    checks = {key: schema[key] for key in _ROOT_APPLICATORS if key in schema}
    if not checks:
        return dict(schema), {}
    return {k: v for k, v in schema.items() if k not in checks}, checks


def checks_sentence(checks: Mapping[str, Any]) -> str:
    """What the root checks ask, in a sentence the tool's description ends with: "Give at least
    one of: state, assignees." or "Give exactly one of: id; owner, repo and number."."""
    if not checks:
        return ""
    said: list[str] = []
    for key, how in (("anyOf", "at least"), ("oneOf", "exactly")):
        if key not in checks:
            continue
        groups = runtime_module("jsonschema").required_groups(checks[key])
        if groups is None:
            said = []
            break
        several = any(len(group) > 1 for group in groups)
        named = [_and(group) for group in groups]
        said.append(f"Give {how} one of: {('; ' if several else ', ').join(named)}.")
    if said and set(checks) <= {"anyOf", "oneOf"}:
        return " ".join(said)
    return "The arguments must also fit together as the API says; the server checks it when called."


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _toolset(toolset: Toolset) -> rt.Toolset:
    if toolset.description:
        return {
            "tag": toolset.tag,
            "description": toolset.description,
            "tools": list(toolset.tools),
        }
    return {"tag": toolset.tag, "tools": list(toolset.tools)}


def tool_object(tool: Tool, exposure: ToolExposure | None = None) -> dict[str, Any]:
    """The ``Tool`` exactly as ``tools/list`` returns it (2026-07-28 shape).

    With an ``exposure`` (the catalog) its schemas are compacted as the exposure says and the
    annotations leave out a title equal to the tool's; without one (``mcp-surface.json``, which
    diffs compare) the schemas are the spec's, whole.
    """
    obj: dict[str, Any] = {"name": tool.name, "title": tool.title}
    if tool.description:
        obj["description"] = tool.description
    if exposure is None:
        obj["inputSchema"] = tool.input_schema
        output = tool.output_schema
    else:
        advertised, checks = root_checks(
            compact_input(tool.input_schema, exposure.description_limit)
        )
        obj["inputSchema"] = advertised
        said = checks_sentence(checks)
        if said:
            obj["description"] = f"{tool.description}\n\n{said}" if tool.description else said
        output = _output_schemas(tool, exposure)[tool.name in exposure.strict_output]
    if output is not None:
        obj["outputSchema"] = output
    a = tool.annotations
    annotations: dict[str, Any] = {}
    # the tool's own title says it already; 2025-03-26 peers get it copied back by the runtime
    if exposure is None or a.title != tool.title:
        annotations["title"] = a.title
    annotations.update(
        {
            "readOnlyHint": a.read_only,
            "destructiveHint": a.destructive,
            "idempotentHint": a.idempotent,
            "openWorldHint": a.open_world,
        }
    )
    obj["annotations"] = annotations
    if exposure is not None and tool.name in exposure.select_tools:
        # read tools take a JMESPath selection: the argument and one line of description
        projection = runtime_module("protocol.projection")
        obj = projection.with_select(obj, exposure.select_argument, tool.output_schema)
    return obj


def _output_schemas(tool: Tool, exposure: ToolExposure) -> tuple[Any, Any]:
    """The tool's advertised output schema in its lenient and its documented (strict) form."""
    strict = output_schema(tool.output_schema, exposure.output_schemas, exposure.description_limit)
    return (None if strict is None else lenient_output(strict)), strict


def _other_output_schema(tool: Tool, exposure: ToolExposure) -> tuple[str, Any] | None:
    """The form the catalog does not advertise, when it differs: ``<PREFIX>_OUTPUT_SCHEMAS`` may
    ask for it at run time."""
    lenient, strict = _output_schemas(tool, exposure)
    if lenient == strict:
        return None
    return ("lenient", lenient) if tool.name in exposure.strict_output else ("strict", strict)


def compact_json(value: Any) -> str:
    """JSON as the runtime sends it: compact, UTF-8, no escaping of non-ASCII."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def catalog_files(plan: ServerPlan, report: Report) -> dict[str, str]:
    """``catalog.json`` and its companions, by file name (each text ends with a newline)."""
    catalog = build_catalog(plan, report)
    catalog["tools"], pools = _pooled_defs(catalog["tools"])
    completions = catalog["completions"]
    whole: Mapping[str, Any] = catalog
    index = {key: whole[key] for key in _INDEX_KEYS if key in whole}
    index["counts"] = {
        "tools": len(catalog["tools"]),
        "resources": len(catalog["resources"]),
        "resourceTemplates": len(catalog["resourceTemplates"]),
        "prompts": len(catalog["prompts"]),
        "completions": any(completions["prompts"].values())
        or any(completions["resourceTemplates"].values()),
    }
    index["toolNames"] = [tool["name"] for tool in catalog["tools"]]
    # the tools are in their lines file only (the runtime reads them from there)
    rest: Any = {k: v for k, v in catalog.items() if k != "tools"}
    defs: Any = {"format": CATALOG_FORMAT, **pools} if any(pools.values()) else None
    tools: list[Any] = catalog["tools"]
    pool: list[Any] = []
    pooled = pool_values([rest, defs, *tools])
    if pooled is not None:
        (rest, defs, *tools), pool = pooled
    lines = [compact_json(tool) for tool in tools]
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line.encode("utf-8")) + 1)
    index["toolOffsets"] = offsets
    files = {
        CATALOG_FILE: compact_json(rest) + "\n",
        INDEX_FILE: compact_json(index) + "\n",
        TOOLS_FILE: "".join(line + "\n" for line in lines),
    }
    if defs is not None:
        files[DEFS_FILE] = compact_json(defs) + "\n"
    if pool:
        files[POOL_FILE] = "".join(compact_json(value) + "\n" for value in pool)
    return files


_POOLED = (("inputSchema", "input"), ("outputSchema", "output"))


def _pooled_defs(tools: list[Any]) -> tuple[list[Any], dict[str, dict[str, Any]]]:
    """The tools with their schemas' ``$defs`` moved into one pool per direction.

    Big APIs repeat the same components in hundreds of tools (Kubernetes: 13 MB of tool lines); the
    runtime gives each schema back exactly the ``$defs`` it reaches before anyone sees it. A name
    pooled with another value (not expected) keeps that tool's own ``$defs``.
    """
    pools: dict[str, dict[str, Any]] = {"input": {}, "output": {}}
    pooled: list[Any] = []
    for tool in tools:
        tool = dict(tool)  # noqa: PLW2901 - a copy; the catalog's tool objects stay whole
        for key, role in _POOLED:
            schema = tool.get(key)
            if not isinstance(schema, dict) or not isinstance(schema.get("$defs"), dict):
                continue
            own: dict[str, Any] = schema["$defs"]
            if list(schema)[-1] != "$defs":
                continue  # the runtime appends $defs last: only pool what it can restore exactly
            pool = pools[role]
            if any(name in pool and pool[name] != value for name, value in own.items()):
                continue
            pool.update(own)
            tool[key] = {k: v for k, v in schema.items() if k != "$defs"}
        pooled.append(tool)
    return pooled, {role: dict(sorted(pool.items())) for role, pool in pools.items()}


def estimate_tokens(text: str) -> int:
    """An offline estimate of how many tokens a model spends on ``text`` (no tokenizer involved)."""
    return len(_TOKEN_PIECES.findall(text))


@dataclass(frozen=True, slots=True)
class ModeSize:
    """What ``tools/list`` returns in one tool mode: tools, bytes of JSON, estimated tokens."""

    mode: str
    tools: int
    bytes: int
    tokens: int


def mode_sizes(plan: ServerPlan, report: Report) -> list[ModeSize]:
    """``tools/list`` in full, dynamic and code mode, and in toolsets mode for the default
    selection (or for the smallest and the largest toolset when none is selected)."""
    catalog = build_catalog(plan, report)
    by_name = {tool["name"]: tool for tool in catalog["tools"]}

    def size(mode: str, tools: list[Any]) -> ModeSize:
        text = compact_json(tools)
        return ModeSize(mode, len(tools), len(text.encode("utf-8")), estimate_tokens(text))

    sizes = [
        size("full", catalog["tools"]),
        size("dynamic", catalog["dynamicTools"]),
        size("code", catalog["codeTools"]),
    ]
    toolsets = catalog["toolsets"]
    selected = plan.exposure.default_toolsets
    if selected:
        names = {name for toolset in selected for name in toolsets[toolset]["tools"]}
        chosen = [tool for tool in catalog["tools"] if tool["name"] in names]
        sizes.append(size(f"toolsets {','.join(selected)}", chosen))
    elif toolsets:
        each = [
            size(f"toolsets {name}", [by_name[t] for t in toolset["tools"]])
            for name, toolset in toolsets.items()
        ]
        each.sort(key=lambda s: (s.bytes, s.mode))
        sizes.extend(dict.fromkeys([each[0], each[-1]]))
    return sizes


def _operation(plan: ServerPlan, tool: Tool, report: Report) -> rt.OperationSpec:
    op = tool.operation
    by_wire: dict[tuple[str, str], str] = {
        (str(a.source), a.wire_name): a.name for a in tool.arguments
    }
    spec: rt.OperationSpec = {
        "method": op.method,
        "path": op.path,
        "parameters": [_parameter(param, by_wire) for param in op.parameters],
        "security": _security(plan.api, op, report),
        "responseMediaType": op.response.content_type if op.response else "",
    }
    if op.pointer != _path_pointer(op):
        spec["pointer"] = op.pointer
    accept = _accept(op)
    if accept and accept != spec["responseMediaType"]:
        spec["accept"] = accept
    if op.bare_content_type:
        spec["bareContentType"] = op.bare_content_type
    # the operation's own style (x-mcp), where the config file sets none for the whole server
    if tool.settings.deep_object_arrays is not None:
        spec["deepObjectArrays"] = tool.settings.deep_object_arrays
    scopes = {name: list(wanted) for name, wanted in op.scopes if wanted}
    if scopes:
        spec["scopes"] = scopes
    if op.server is not None:
        spec["server"] = _server(op.server, plan.env_prefix)
    if op.redirects:
        spec["redirects"] = list(op.redirects)
        if op.response is None or not op.response.status.startswith("2"):
            # no 2xx (a ``default`` is the errors'): the redirect is the answer, not a way to it
            spec["redirectAnswers"] = True
    told = _told_headers(op.response.headers if op.response is not None else ())
    if told:
        spec["responseHeaders"] = told
    if op.body is not None:
        spec["body"] = _body(tool)
    return spec


# documented response headers that say nothing about the answer itself: its framing, its cache,
# the caller's rate (the runtime reads Retry-After itself), a request's id
_UNTOLD_HEADERS = re.compile(
    r"content-(type|length|encoding|language)|transfer-encoding|connection|date|server|vary|"
    r"cache-control|expires|pragma|age|access-control-.*|strict-transport-security|set-cookie|"
    r"retry-after|(x-)?rate-?limit.*|.*request-?id|x-(content-type|frame)-options|keep-alive",
    re.IGNORECASE,
)


def _told_headers(documented: tuple[str, ...]) -> list[str]:
    """The documented response headers a result shows (lower case): the operation's own
    (GitHub's Link, n8n's X-N8n-Export-Counts), not the framing or rate of every answer."""
    return list(dict.fromkeys(h.lower() for h in documented if not _UNTOLD_HEADERS.fullmatch(h)))


def _path_pointer(op: Operation) -> str:
    """Where an operation of ``paths`` is in the spec (the catalog leaves this pointer out)."""
    escaped = op.path.replace("~", "~0").replace("/", "~1")
    return f"#/paths/{escaped}/{op.method.lower()}"


def _parameter(param: Parameter, by_wire: Mapping[tuple[str, str], str]) -> rt.ParameterSpec:
    entry: rt.ParameterSpec = {
        "name": param.name,
        "location": param.location,
        "argument": by_wire[param.location, param.name],
        "required": param.required,
        "style": param.style,
        "explode": param.explode,
    }
    if param.allow_reserved:
        entry["allowReserved"] = True
    if param.content_type:
        entry["contentType"] = param.content_type
    if param.location == "path" and _names_empty(param.schema):
        entry["allowEmpty"] = True
    if param.whole_path:
        entry["wholePath"] = True
    if not param.content_type and _holds_json(param):
        entry["jsonText"] = True
    if _presence_flag(param):
        entry["flag"] = True
    default = documented_default(param.schema)
    if param.required and param.location != "path" and default is not NO_DEFAULT:
        # the tool leaves it optional (plan.classify): a call without it sends this
        entry["default"] = default
    return entry


# a word that says a string parameter holds JSON text ("JSON encoded custom Colormap"; not JSONPath)
_JSON_WORD = re.compile(r"\bjson\b", re.IGNORECASE)
_WORDS = ("description", "title")


def _holds_json(param: Parameter) -> bool:
    """Whether a string parameter holds JSON text, by its schema (``contentMediaType``, ``format:
    json``) or its words (TiTiler's ``colormap``, "JSON encoded custom Colormap"): the server
    sends an object or array given for it as that text."""
    schema = non_null(param.schema)
    kind = schema.get("type")
    kinds = set(kind) - {"null"} if isinstance(kind, list) else {kind}
    if kinds != {"string"} or "enum" in schema or "const" in schema:
        return False
    media = schema.get("contentMediaType")
    if schema.get("format") == "json" or (isinstance(media, str) and "json" in media.lower()):
        return True
    return _says(param, _JSON_WORD)


def _says(param: Parameter, pattern: re.Pattern[str]) -> bool:
    """Whether ``param``'s description or its schema's words match ``pattern``; a nullable one's
    words are the union's, not its branch's (FastAPI's ``Query(None, description=...)``)."""
    schemas = (param.schema, non_null(param.schema))
    words = [param.description] + [s.get(k) for s in schemas for k in _WORDS]
    return any(isinstance(w, str) and pattern.search(w) for w in words)


# words that say a parameter acts by being there ("If passed, all enabled alarms are returned.")
_PRESENCE = re.compile(
    r"\b(if|when|whether) (it is |this is )?(passed|present|given|included|supplied)\b|\bpresence\b",
    re.IGNORECASE,
)


def _presence_flag(param: Parameter) -> bool:
    """Whether a boolean query parameter is a flag that acts by being there: one that may be sent
    empty (``allowEmptyValue``) and whose words say so (Netdata's ``all``, "If passed, all enabled
    alarms are returned.": ``?all`` lists 40 alarms, ``?all=true`` the 2 raised). True sends its
    bare name, false nothing. Without those words a boolean keeps its value (UniCourt's
    ``isVisible`` filters by it)."""
    boolean = non_null(param.schema).get("type") == "boolean"
    return param.allow_empty_value and boolean and _says(param, _PRESENCE)


def _names_empty(schema: Any) -> bool:
    """Whether a path parameter's schema lists the empty string as a value of its own (``enum:
    [""]``, ``const: ""``): only then may the segment be empty; otherwise an empty value is a
    missing one (``/users/{id}`` with "" would reach ``/users/``, another operation)."""
    if not isinstance(schema, dict):
        return False
    enum = schema.get("enum")
    return schema.get("const") == "" or (isinstance(enum, list) and "" in enum)


def _body(tool: Tool) -> rt.BodySpec:
    """The operation's ``BodySpec``: what is sent, from which arguments, encoded how."""
    op_body = tool.operation.body
    assert op_body is not None
    body: rt.BodySpec = {"contentType": op_body.content_type, "required": op_body.required}
    whole = [a for a in tool.arguments if a.source == "body"]
    if whole:
        body["argument"] = whole[0].name
        if sent_as_text(op_body):
            body["asText"] = True
        if op_body.required and not whole[0].required:  # body_arguments.empty_by_default
            body["emptyByDefault"] = True
    else:
        body["properties"] = {
            a.name: a.wire_name for a in tool.arguments if a.source == "body_property"
        }
        if tool.body_requires:
            body["requiredProperties"] = list(tool.body_requires)
    if op_body.declared_type:
        body["declaredType"] = op_body.declared_type
    if op_body.without_files:
        body["withoutFiles"] = op_body.without_files
    if op_body.parts:
        body["parts"] = {part.name: _part(part) for part in op_body.parts}
    return body


def _part(part: BodyPart) -> rt.BodyPart:
    """A ``BodyPart`` of the catalog: what the runtime needs to encode one form or multipart field."""
    entry: rt.BodyPart = {
        "contentType": part.content_type,
        "file": part.file,
        "base64": part.base64,
    }
    if part.style:
        entry["style"] = part.style
    if part.explode is not None:
        entry["explode"] = part.explode
    if part.allow_reserved:
        entry["allowReserved"] = True
    if part.headers:
        entry["headers"] = dict(part.headers)
    return entry


def _accept(op: Operation) -> str:
    """The ``Accept`` header: the documented success media types, the one the tool maps first;
    the others rank lower so that a server choosing by ``Accept`` sends the preferred one. Where an
    ``Accept`` header parameter enumerates its values, the server compares the header with each:
    one of them goes alone, the first the tool maps (InfluxDB answers TOML to anything but
    exactly ``application/json``)."""
    types = (
        [media.split(";", 1)[0].strip() for media in op.response.media_types] if op.response else []
    )
    types = [media for media in dict.fromkeys(types) if media]
    if op.accept:
        listed = {value.split(";", 1)[0].strip().lower(): value for value in op.accept}
        return next((listed[t.lower()] for t in types if t.lower() in listed), op.accept[0])
    if not types:
        return ""
    first, others = types[0], types[1:]
    if base_media_type(first).endswith("+json") and JSON_TYPE not in others:
        # JSON in a dialect (GeoJSON, HAL) is JSON still: a server that does not know the
        # dialect's name answers plain JSON to it, not the HTML it offers next (pygeoapi)
        return ", ".join([first, f"{JSON_TYPE};q=0.9", *(f"{media};q=0.8" for media in others)])
    return ", ".join([first, *(f"{media};q=0.9" for media in others)])


def _server(server: Server, prefix: str) -> rt.ServerSpec:
    """A ``ServerSpec``: the URL as declared and, per variable, its default, values and variable."""
    entry: rt.ServerSpec = {"url": server.url}
    variables: dict[str, rt.ServerVariableSpec] = {}
    for variable in server.variables:
        spec: rt.ServerVariableSpec = {"env": server_variable_env(prefix, variable.name)}
        if variable.default is not None:
            spec["default"] = variable.default
        if variable.enum:
            spec["enum"] = list(variable.enum)
        variables[variable.name] = spec
    if variables:
        entry["variables"] = variables
    return entry


def _security(api: Api, op: Operation, report: Report) -> list[list[str]]:
    if not op.security:
        return [[]]
    usable: list[list[str]] = []
    for alternative in op.security:
        if all(name in api.security_schemes for name in alternative):
            usable.append(sorted(alternative))
    if not usable:
        report.warn(
            "security-unsupported",
            op.pointer,
            "none of the operation's security requirements can be satisfied; calling it anonymously",
        )
        return [[]]
    return usable


def _prompt_message(message: PromptMessage) -> rt.PromptMessage:
    """A ``PromptMessage`` of the catalog: text ``parts``, an ``image`` or a ``resource``."""
    entry: rt.PromptMessage = {"role": message.role}
    content = message.content
    match content:
        case PromptText(parts=parts):
            entry["parts"] = _parts(parts)
        case PromptImage(data=data, mime_type=mime_type):
            entry["image"] = {"data": data, "mimeType": mime_type}
        case PromptResource(uri=uri, mime_type=mime_type, text=text):
            entry["resource"] = {"uri": _parts(uri), "mimeType": mime_type, "text": _parts(text)}
        case _:
            assert_never(content)
    return entry


def _parts(parts: tuple[PromptPart, ...]) -> list[rt.PromptPart]:
    """The runtime's ``PromptPart`` entries: the text or argument, then any conditions."""
    entries: list[rt.PromptPart] = []
    for part in parts:
        entry: rt.PromptPart = {"argument": part.argument} if part.argument else {"text": part.text}
        if part.modes:
            entry["modes"] = list(part.modes)
        if part.unless_tool:
            entry["unlessTool"] = part.unless_tool
        if part.toolset:
            entry["toolset"] = part.toolset
        if part.unless_toolset:
            entry["unlessToolset"] = part.unless_toolset
        entries.append(entry)
    return entries


def _drop_empty(obj: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if v not in ("", None, [])}
