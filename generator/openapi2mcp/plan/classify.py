"""Classification: decide the MCP surface of an :class:`~openapi2mcp.ir.model.Api`.

Every operation becomes a tool (annotations from its HTTP verb, DESIGN.md §5); GET operations also
become a resource (a static URI when nothing is required to read them) or a resource template (RFC 6570,
path variables plus ``{?query}``); each tag becomes a guiding prompt (see ``prompting.py``). Names are
made unique here and every rename, skip or guess is reported as a diagnostic. An operation's ``x-mcp``
arrives typed (``ir/x_mcp.py``) and merged with the defaults of its path item and the document; a
default ``kind`` of resource applies to GETs only, and a default never brings back a deprecated
operation. Completion values (:func:`completion_values`) are an argument's enum, then its examples
that fit its schema. A POST that only reads (:func:`read_only_post`: a read word such as ``search``
or ``render`` and no side-effect word) gets the hints of a GET unless ``x-mcp`` or the config sets
hints itself.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import quote

from ..config import AnnotationOverride
from ..diagnostics import Report
from ..ir.model import Api, JsonSchema, Operation, Parameter
from ..ir.schema_utils import (
    NO_DEFAULT,
    defs_closure,
    documented_default,
    enum_values,
    is_scalar,
    json_type,
    merged_all_of,
    non_null,
    not_null_branches,
    resolve,
)
from ..render.examples import conforms
from ..render.runtime_schema import compilable
from ..shipped import runtime_module
from . import naming
from .body_arguments import body_arguments, lifted, optional_body_requires
from .hints import (
    VERB_HINTS,
    acting_command,
    acting_endpoint,
    acting_get,
    additive_post,
    dry_run,
    read_only_post,
    verb_place,
)
from .model import (
    Annotations,
    Argument,
    Decision,
    Kind,
    Resource,
    ResourceTemplate,
    Tool,
)
from .settings import OperationSettings, Placement, Settings
from .stems import (
    bare_verbs,
    function_names,
    server_named,
    without_id_prefix,
    without_path_prefix,
)

_LOCATION_ORDER = ("path", "query", "header", "cookie")
DIALECT = "https://json-schema.org/draft/2020-12/schema"
# RFC 9110 token characters; `x-mcp-header` values must be tokens (mcp-wire §3.2)
_TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
# a path segment that is an API version ("v3", "v1beta1"), which tells no operation apart
_MIRRORED_TYPES = {"string", "integer", "boolean"}
# completion values stored per argument: every enum value, then examples while there is room
MAX_COMPLETIONS = 100
_LONGEST_COMPLETION = 200


@dataclass(frozen=True, slots=True)
class Surface:
    tools: tuple[Tool, ...]
    resources: tuple[Resource, ...]
    templates: tuple[ResourceTemplate, ...]
    decisions: tuple[Decision, ...]
    template_completions: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...]
    # every operation's tool, exposed or not (a read kept only as a resource is still callable)
    all_tools: tuple[Tool, ...] = ()


def classify_operations(api: Api, settings: Settings, scheme: str, report: Report) -> Surface:
    namer = naming.Namer(max_length=settings.max_name_length)
    python_names = naming.Namer(max_length=200, reserved={"client"})
    tools: list[Tool] = []
    resources: list[Resource] = []
    uris: dict[str, str] = {}  # each resource URI and the operation it reads
    templates: list[ResourceTemplate] = []
    decisions: list[Decision] = []
    completions: list[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]] = []
    all_tools: list[Tool] = []
    stems = {
        **bare_verbs(api),
        **without_id_prefix(api),
        **without_path_prefix(api),
        **function_names(api),
        **server_named(api),
    }
    for op in api.operations:
        chosen = settings.for_operation(op)
        placement = chosen.placement
        skipped = _skipped(op, placement, settings, report)
        built = (
            None
            if skipped
            else _tool(api, op, chosen, stems, namer, python_names, settings, report)
        )
        if built is None:
            why = skipped or "its input schema does not compile"
            decisions.append(Decision(op, ("skipped",), (), None, why))
            continue
        tool, hints_rule = built
        all_tools.append(tool)
        kinds: list[Kind] = []
        names: list[str] = []
        if placement.read_tool or op.method != "GET":
            tools.append(tool)
            kinds.append("tool")
            names.append(tool.name)
        # a GET that acts (acting_get) is read only when x-mcp asks for a resource itself
        wants_resource = placement.kind in {"resource", "resource_template"} or (
            placement.kind == "default" and tool.annotations.read_only
        )
        if op.method == "GET" and wants_resource:
            exposed = _unique(_resource(api, op, tool, scheme, report), op, uris, report)
            if isinstance(exposed, Resource):
                resources.append(exposed)
                kinds.append("resource")
                names.append(exposed.uri)
            elif isinstance(exposed, ResourceTemplate):
                templates.append(exposed)
                kinds.append("resource_template")
                names.append(exposed.uri_template)
                offered = _variable_completions(api, op, exposed, tool)
                if offered:
                    completions.append((exposed.uri_template, offered))
        elif placement.kind in {"resource", "resource_template"}:
            report.warn(
                "rule-not-applicable",
                op.pointer,
                f"{placement.source} asks for a {placement.kind} but only GET operations can be read",
            )
        if not kinds:  # a read that could not become a resource stays a tool
            tools.append(tool)
            kinds.append("tool")
            names.append(tool.name)
        placed = "" if placement.source == "default" else f"by {placement.source}"
        note = "; ".join(n for n in (placed, hints_rule) if n)
        decisions.append(Decision(op, tuple(kinds), tuple(names), tool.annotations, note))
    return Surface(
        tuple(tools),
        tuple(resources),
        tuple(templates),
        tuple(decisions),
        tuple(completions),
        tuple(all_tools),
    )


def _skipped(op: Operation, placement: Placement, settings: Settings, report: Report) -> str:
    """Why the operation is left out by choice ("": it is not)."""
    if placement.kind == "exclude":
        return f"excluded by {placement.source}"
    chosen = placement.source != "default" and not placement.inherited
    if op.deprecated and not settings.include_deprecated and not chosen:
        report.info("op-deprecated", op.pointer, f"deprecated operation {op.key!r} not exposed")
        return "deprecated"
    if op.switches_protocols and not chosen:
        why = "its only answer switches protocols (101: a WebSocket), which a tool call cannot use"
        report.warn("op-switches-protocols", op.pointer, f"{op.key!r} is not exposed: {why}")
        return why
    return ""


def _tool(
    api: Api,
    op: Operation,
    chosen: OperationSettings,
    stems: Mapping[str, str],
    namer: naming.Namer,
    python_names: naming.Namer,
    settings: Settings,
    report: Report,
) -> tuple[Tool, str] | None:
    """The operation's tool, and the rule that decided its hints when one did (for ``inspect``);
    ``None`` when its input schema cannot be made one the server's validator compiles."""
    wanted = chosen.name
    source = wanted or stems.get(op.key) or op.operation_id or f"{op.method.lower()} {op.path}"
    name = namer.claim(naming.tool_name(source, max_length=namer.max_length), seed=op.key)
    if op.operation_id and name != op.operation_id and not wanted:
        report.info("tool-renamed", op.pointer, f"operationId {op.operation_id!r} → tool {name!r}")
    python_name = python_names.claim(naming.python_identifier(name, fallback="op"), seed=op.key)
    read_only, destructive, idempotent = VERB_HINTS[op.method]
    title = chosen.title or op.summary.strip() or _humanize(name)
    overrides = settings.annotations_for(chosen, name)
    # hints set by x-mcp or the config file win over the rules: they do not even run
    ruled = None if _sets_hints(*overrides) else _hint_rule(op, _fields(api, op), report)
    if ruled is not None:
        read_only, destructive, idempotent = ruled[0]
    annotations = _override(Annotations(title, read_only, destructive, idempotent), *overrides)
    arguments = _arguments(api, op, report)
    # the server refuses every call of a tool whose schema does not compile: repair it here
    input_schema = compilable(
        _input_schema(api, arguments, lifted(api, op, arguments)),
        op.pointer,
        f"input schema of tool {name!r}",
        report,
        otherwise="the operation is skipped",
    )
    if input_schema is None:
        return None
    output_schema = _output_schema(api, op)
    if output_schema is not None:
        output_schema = compilable(
            output_schema,
            op.pointer,
            f"output schema of tool {name!r}",
            report,
            otherwise="the tool advertises no output schema",
        )
    # a removal that acts on everything when no argument narrows it takes one more: the runtime
    # refuses such a call unless it is true (protocol.everything)
    everything = _unnarrowed(op, annotations, arguments)
    guard = runtime_module("protocol.everything")
    tool = Tool(
        name=name,
        operation=op,
        title=title,
        description="\n\n".join(
            part
            for part in (
                _description(chosen.description, op, settings.description_limit),
                guard.description(everything) if everything else "",
            )
            if part
        ),
        arguments=arguments,
        input_schema=guard.with_argument(input_schema, everything) if everything else input_schema,
        output_schema=output_schema,
        annotations=annotations,
        python_name=python_name,
        body_requires=optional_body_requires(api, op, arguments),
        settings=chosen,
        everything=everything,
    )
    return tool, ruled[1] if ruled is not None else ""


def _fields(api: Api, op: Operation) -> tuple[str, ...]:
    """The names of what a POST takes (what the additive rule reads): its parameters and its
    body's properties; none for another method, which no rule asks about."""
    if op.method != "POST":
        return ()
    names = [param.name for param in op.parameters]
    if op.body is not None:
        properties = merged_all_of(non_null(op.body.schema), api.input_schemas).get("properties")
        names += list(properties) if isinstance(properties, dict) else []
    return tuple(names)


def _hint_rule(
    op: Operation, fields: tuple[str, ...], report: Report
) -> tuple[tuple[bool, bool, bool], str] | None:
    """The hints a rule gives ``op`` against its verb's, and the rule as ``inspect`` shows it: a
    POST that only reads (``read_only_post``), a change that is a dry run (``dry_run``), a GET that
    acts (``acting_get``), a POST that only adds (``additive_post``); each decision is reported."""
    change = "set its hints in x-mcp annotations or [annotations.<operationId>] to change this"
    reading = read_only_post(op)
    if reading is not None:
        report.info(
            "post-read-only",
            op.pointer,
            f"POST {op.path} is read-only, non-destructive and idempotent: {reading.word!r} in "
            f"its {reading.where} and no side-effect word; {change}",
        )
        return (True, False, True), reading.note()
    if dry_run(op):
        report.info(
            "dry-run-read-only",
            op.pointer,
            f"{op.method} {op.path} is read-only, non-destructive and idempotent: its path ends in"
            f" a dry run; {change}",
        )
        return (True, False, True), "by the dry-run rule: its path ends in a dry run"
    where = "operationId" if op.operation_id else "summary"
    acting = acting_get(op)
    endpoint = acting_endpoint(op) if acting is None else None
    command = acting_command(op) if acting is None and endpoint is None else None
    if acting is not None or endpoint is not None or command is not None:
        if acting is not None:
            said = f"{acting!r} {verb_place(op, acting)} its {where}"
        elif endpoint is not None:
            said = f"its path ends in {endpoint!r}"
        else:
            said = f"it takes the command {command!r}"
        report.warn(
            "get-acts",
            op.pointer,
            f"GET {op.path} acts ({said}): it is a tool that is not read-only, and no resource; "
            f"{change}",
        )
        return (False, True, False), f"by the acting GET rule: {said}"
    adding = additive_post(op, fields)
    if adding is not None:
        report.info(
            "post-additive",
            op.pointer,
            f"POST {op.path} only adds ({adding!r} {verb_place(op, adding)} its {where}): not "
            f"destructive; {change}",
        )
        said = f"{adding!r} {verb_place(op, adding)} its {where}"
        return (False, False, False), f"by the additive POST rule: {said}"
    return None


def _arguments(api: Api, op: Operation, report: Report) -> tuple[Argument, ...]:
    taken: set[str] = set()
    py_names = naming.Namer(max_length=200, reserved={"client", "self"})
    result: list[Argument] = []
    params = sorted(op.parameters, key=lambda p: _LOCATION_ORDER.index(p.location))
    mirrored: set[str] = set()
    # a parameter whose name is already portable keeps it before another's made so (`$top`)
    exact = {p.name for p in params if naming.argument_name(p.name) == p.name}
    for param in params:
        name = naming.argument_name(param.name)
        if name in taken or (name != param.name and name in exact):
            name = f"{name}_{param.location}"
            report.warn(
                "argument-renamed",
                op.pointer,
                f"{param.location} parameter {param.name!r} is exposed as argument {name!r}",
            )
        elif name != param.name:
            report.info(
                "argument-portable",
                op.pointer,
                f"{param.location} parameter {param.name!r} is exposed as argument {name!r}: "
                "function calling takes letters, digits and _.- in argument names",
            )
        taken.add(name)
        py = py_names.claim(naming.python_identifier(name), seed=name)
        schema = _param_schema(param, api.input_schemas)
        if param.location == "header" and _mirrorable(param, mirrored):
            mirrored.add(param.name.lower())
            schema["x-mcp-header"] = param.name
        # a required query, header or cookie parameter with a default is the server's to fill
        # (render.catalog sends it): Netdata's /data requires after, points, group and format,
        # each with a default, and takes a call without them
        required = param.required and not _defaulted(param)
        result.append(Argument(name, py, param.location, param.name, required, schema))
    if op.body is not None:
        result.extend(body_arguments(api, op, taken, py_names, report))
    return tuple(result)


def _defaulted(param: Parameter) -> bool:
    """Whether a parameter outside the path documents a default the server may send for it."""
    return param.location != "path" and documented_default(param.schema) is not NO_DEFAULT


def _mirrorable(param: Parameter, taken: set[str]) -> bool:
    """May this header argument be mirrored into an ``Mcp-Param-*`` HTTP header (mcp-wire §3.2)?"""
    lowered = param.name.lower()
    return (
        bool(_TOKEN.match(param.name))
        and lowered not in taken
        # headers that carry credentials or personal data are never mirrored (the runtime's list)
        and not runtime_module("sensitive").secret_header(param.name)
        and "$ref" not in param.schema
        and isinstance(param.schema.get("type"), str)
        and param.schema["type"] in _MIRRORED_TYPES
    )


# said of a parameter whose value is the path to call (``{task_href}``: ``encoding._whole_path``)
_WHOLE_PATH = (
    "A path of this API, as a response gave it (an href such as '/…/'): sent as is, slashes kept."
)
# the longest example string shown beside a parameter
_EXAMPLE_LENGTH = 60


def _param_schema(param: Parameter, defs: Mapping[str, Any]) -> dict[str, Any]:
    schema = dict(param.schema)
    if param.description and "description" not in schema:
        schema["description"] = param.description
    shown = _shown_example(param, schema, defs)
    if shown is not None:
        # the parameter's own example is the value the smoke tests send
        schema["examples"] = [shown]
    said = _said_example(param, schema, defs)
    if said is not None:
        # and tells the model the form a value takes (Directus's filter syntax, a UUID, a phone
        # number whose pattern also admits ""): in the description, since the advertised schemas
        # carry no examples (not every provider's dialect takes them)
        _say(schema, f"Example: {said}")
    if param.whole_path:
        _say(schema, _WHOLE_PATH)
    if param.deprecated:
        # a model uses what it is shown (Letta's use_legacy_format: "Legacy format is not
        # supported"); the advertised schemas keep no `deprecated` keyword
        _say(schema, "Deprecated: leave it out unless the task needs it.")
    listed = schema.get("type") == "array" and not param.content_type
    if param.required and listed and "minItems" not in schema:
        # an empty array sends no name at all (exploded) or an empty value (App Store Connect's
        # `filter[app]=`): the required parameter would be missing
        schema["minItems"] = 1
    return schema


def _say(schema: dict[str, Any], sentence: str) -> None:
    """``sentence`` added to the end of ``schema``'s description."""
    described = str(schema.get("description", "")).rstrip()
    stop = "" if not described or described.endswith((".", "!", "?", ":")) else "."
    schema["description"] = f"{described}{stop} {sentence}".lstrip()


# the longest example, as JSON, said in a parameter's description
_SAID_LENGTH = 80


def _said_example(
    param: Parameter, schema: Mapping[str, Any], defs: Mapping[str, Any]
) -> str | None:
    """The parameter's first example (its own, else its schema's) as compact JSON, when it is
    short, says something and its schema accepts it; None where an enum or a constant says it
    already, or the description quotes it."""
    if {"enum", "const"} & schema.keys():
        return None
    for value in [*param.examples, *_listed(schema.get("examples"))]:
        # a number or a boolean says no more than its type; "string" is a generator's placeholder
        if value in (None, "", "string", [], {}) or isinstance(value, bool | int | float):
            continue
        said = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        if len(said) > _SAID_LENGTH or not conforms(param.schema, value, defs):
            continue
        described = str(schema.get("description", ""))
        if said.strip('"') in described:
            return None
        return said
    return None


def _shown_example(param: Parameter, schema: Mapping[str, Any], defs: Mapping[str, Any]) -> Any:
    """The parameter's first example that is a short scalar its schema accepts, where the schema
    gives no example, enum or constant of its own; else None."""
    if {"examples", "example", "enum", "const"} & schema.keys():
        return None
    for value in param.examples:
        short = isinstance(value, bool | int | float) or (
            isinstance(value, str) and 0 < len(value) <= _EXAMPLE_LENGTH
        )
        if short and conforms(param.schema, value, defs):
            return value
    return None


def _input_schema(
    api: Api, arguments: tuple[Argument, ...], constraints: Mapping[str, Any] | None = None
) -> JsonSchema:
    schema: dict[str, Any] = {}
    if constraints:
        # applicators at the root: say which dialect gives them their meaning
        schema["$schema"] = DIALECT
    schema["type"] = "object"
    schema["properties"] = {a.name: a.schema for a in arguments}
    required = [a.name for a in arguments if a.required]
    if required:
        schema["required"] = required
    schema.update(constraints or {})
    schema["additionalProperties"] = False
    defs = defs_closure([a.schema for a in arguments], api.input_schemas)
    if defs:
        schema["$defs"] = defs
    return schema


def _output_schema(api: Api, op: Operation) -> JsonSchema | None:
    response = op.response
    if response is None or response.schema is None or not response.schema:
        return None
    schema = dict(response.schema)
    defs = defs_closure([schema], api.output_schemas)
    if defs:
        if "$defs" in schema:
            return None  # an inline $defs would clash with ours; stay honest and advertise nothing
        schema["$defs"] = defs
    return schema


def _resource(
    api: Api, op: Operation, tool: Tool, scheme: str, report: Report
) -> Resource | ResourceTemplate | None:
    if any(p.location in {"header", "cookie"} and p.required for p in op.parameters):
        report.info("resource-skipped", op.pointer, "required header/cookie parameters")
        return None
    if _streams(op):
        # a client reading every resource it lists would wait out the timeout on each
        report.info("resource-skipped", op.pointer, "it answers with a stream, which never ends")
        return None
    if any(p.whole_path for p in op.parameters):
        # "pulp://{+task_href}" would match every URI of every such template: the tool serves it
        report.info("resource-skipped", op.pointer, "a parameter holds the whole path")
        return None
    # what the answer is, when the document says: LNbits's backup (a ZIP) and QR codes (SVG)
    # document none, and a read says what came
    mime = op.response.content_type if op.response and op.response.content_type else ""
    path_params = [p for p in op.parameters if p.location == "path"]
    query = [p for p in op.parameters if p.location == "query"]
    if any(p.required and not _templatable(api, p) for p in query):
        report.info("resource-skipped", op.pointer, "a required query parameter is an object")
        return None
    optional_query = [p for p in query if _templatable(api, p)]
    if not path_params and not any(p.required for p in query):
        uri = f"{scheme}://{_uri_path(op.path, {})}"
        return Resource(uri, tool.name, tool.title, tool.description, mime, op)
    exposed = [*path_params, *optional_query]
    var_namer = naming.Namer(max_length=200)
    variables = {
        (p.location, p.name): var_namer.claim(_varname(p.name), seed=p.name) for p in exposed
    }
    argument_of = {(a.source, a.wire_name): a.name for a in tool.arguments}
    template = f"{scheme}://{_uri_path(op.path, {n: v for (_, n), v in variables.items()})}"
    if optional_query:
        template += "{?" + ",".join(variables["query", p.name] for p in optional_query) + "}"
    return ResourceTemplate(
        uri_template=template,
        name=tool.name,
        title=tool.title,
        description=tool.description,
        mime_type=mime,
        operation=op,
        variables=tuple(
            (variables[p.location, p.name], argument_of[p.location, p.name]) for p in exposed
        ),
        variable_types=tuple(
            (variables[p.location, p.name], json_type(p.schema, api.input_schemas) or "string")
            for p in exposed
        ),
    )


def _streams(op: Operation) -> bool:
    """Whether ``op`` answers with a stream: server-sent events (``text/event-stream``), a media
    type that says it streams (Kubernetes' ``application/json;stream=watch``), JSON lines its
    words call streamed (Airflow's wait for a DAG run, a long poll: "streamed as
    newline-delimited JSON"), or a path that ends in ``stream``, ``sse`` or ``longpoll``
    (Mayan's and ZenML's event streams, which document no body or JSON; Jellyfin's audio and
    video, Twitter's firehose)."""
    media = [m.lower() for m in (op.response.media_types if op.response else ())]
    bare = {m.split(";", 1)[0].strip() for m in media}
    if "text/event-stream" in bare or any(_STREAM_PARAMETER.search(m) for m in media):
        return True
    said = f"{op.summary} {op.description}".lower()
    if bare & _JSON_LINES and "stream" in said:
        return True
    last = op.path.rstrip("/").rsplit("/", 1)[-1].lower()
    return last in ("stream", "sse", "eventstream", "longpoll")


_STREAM_PARAMETER = re.compile(r";\s*stream\s*=")
_JSON_LINES = frozenset(
    {"application/x-ndjson", "application/ndjson", "application/jsonl", "application/json-seq"}
)


def _templatable(api: Api, param: Parameter) -> bool:
    """Scalars and arrays of scalars round-trip through ``{?name}`` (arrays comma-separated)."""
    return _round_trips(param.schema, api.input_schemas)


def _round_trips(
    schema: JsonSchema, defs: Mapping[str, JsonSchema], depth: int = 0, arrays: bool = True
) -> bool:
    """Whether a value of ``schema`` is text a URI variable carries: a scalar, an array of them,
    or a union of those (ZenML's filters: ``anyOf`` a UUID, a string, an array of either, null;
    the text is then read as the union's string)."""
    if is_scalar(schema, defs):
        return True
    resolved = resolve(non_null(resolve(schema, defs)), defs)
    items = resolved.get("items")
    if json_type(resolved, defs) == "array" and isinstance(items, Mapping):
        return arrays and _round_trips(items, defs, depth + 1, arrays=False)
    for keyword in ("anyOf", "oneOf"):
        branches = resolved.get(keyword)
        if isinstance(branches, list) and branches and depth < 4:
            others = not_null_branches(branches)
            return bool(others) and all(
                isinstance(b, Mapping) and _round_trips(b, defs, depth + 1, arrays) for b in others
            )
    return False


def _unique(
    exposed: Resource | ResourceTemplate | None,
    op: Operation,
    uris: dict[str, str],
    report: Report,
) -> Resource | ResourceTemplate | None:
    """``exposed`` when its URI reads no other operation yet (``uris``: each URI taken and what it
    reads); else ``None``, said: ``/api/v2/tags`` and ``/api/v2/tags/``, two operations, one URI."""
    if exposed is None:
        return None
    uri = exposed.uri if isinstance(exposed, Resource) else exposed.uri_template
    if uri in uris:
        report.warn(
            "resource-uri-taken",
            op.pointer,
            f"{uri} already reads {uris[uri]}: {op.method} {op.path} is a tool, no resource",
        )
        return None
    uris[uri] = f"{op.method} {op.path}"
    return exposed


# RFC 6570 takes RFC 3986's sub-delimiters as literals (TiTiler's /cog/point/{lon},{lat}: a client
# reads titiler://cog/point/10,45); not ':' or '@', which the first segment, a URI's authority,
# would read as a port or a user, nor "'", which a template may not hold
_LITERAL: Final = "/-._~!$&()*+,;="


def _uri_path(path: str, variables: Mapping[str, str]) -> str:
    """``/pets/{petId}`` → ``pets/{petId}`` with literal parts percent-encoded where a URI
    template needs it."""
    out: list[str] = []
    rest = path.strip("/") or "root"
    while rest:
        start = rest.find("{")
        end = rest.find("}", start)
        if start < 0 or end < 0:
            out.append(quote(rest, safe=_LITERAL))
            break
        out.append(quote(rest[:start], safe=_LITERAL))
        name = rest[start + 1 : end]
        out.append("{" + variables.get(name, naming.python_identifier(name)) + "}")
        rest = rest[end + 1 :]
    return "".join(out)


def _varname(name: str) -> str:
    """An RFC 6570 varname (ALPHA / DIGIT / ``_``, dots inside) for a parameter name; a name
    that leads with ``_`` keeps it (drf-spectacular's ``_ordering``: the tool's argument and a
    list resource's query say it so), one that leads with another mark drops it (OData's
    ``$filter``: ``filter``)."""
    cleaned = "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_" for c in name)
    kept = cleaned.rstrip("_") if name.startswith("_") else cleaned.strip("_")
    return kept if kept.strip("_") else "value"


def _variable_completions(
    api: Api, op: Operation, template: ResourceTemplate, tool: Tool
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    var_of_argument = {argument: var for var, argument in template.variables}
    argument_of = {(a.source, a.wire_name): a.name for a in tool.arguments}
    offered: list[tuple[str, tuple[str, ...]]] = []
    for param in op.parameters:
        var = var_of_argument.get(argument_of.get((param.location, param.name), ""))
        values = completion_values(param.schema, param.examples, api.input_schemas) if var else ()
        if var and values:
            offered.append((var, values))
    return tuple(offered)


def completion_values(
    schema: JsonSchema, examples: Sequence[Any], defs: Mapping[str, JsonSchema]
) -> tuple[str, ...]:
    """What ``completion/complete`` offers for a value of ``schema``: the whole enum first, then the
    parameter's ``examples`` and the schema's own that fit it, deduplicated, while fewer than
    :data:`MAX_COMPLETIONS` are offered. An array offers values for its items."""
    offered = dict.fromkeys(enum_values(schema, defs))
    resolved = resolve(schema, defs)
    candidates = [*examples, *_listed(resolved.get("examples"))]
    single, many = schema, json_type(resolved, defs) == "array"
    if many and isinstance(resolved.get("items"), Mapping):
        single = resolved["items"]
        candidates += _listed(resolve(single, defs).get("examples"))
    for candidate in candidates:
        for value in candidate if many and isinstance(candidate, list) else [candidate]:
            text = _completion_text(value)
            if len(offered) >= MAX_COMPLETIONS:
                return tuple(offered)
            if text is not None and text not in offered and conforms(single, value, defs):
                offered[text] = None
    return tuple(offered)


def _listed(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def _completion_text(value: Any) -> str | None:
    """A scalar example as the string a client would type; None for anything else or too long."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        text = str(value)
        if 0 < len(text) <= _LONGEST_COMPLETION and text.isprintable():
            return text
    return None


def _sets_hints(*overrides: AnnotationOverride | None) -> bool:
    """Does an ``x-mcp`` or config override say anything about readOnly, destructive or idempotent?"""
    return any(
        o is not None and (o.read_only, o.destructive, o.idempotent) != (None, None, None)
        for o in overrides
    )


def _override(base: Annotations, *overrides: AnnotationOverride | None) -> Annotations:
    """Later overrides win; only the fields they set change."""
    result = base
    for override in overrides:
        if override is not None:
            result = dataclasses.replace(result, **override.model_dump(exclude_none=True))
    return result


def _description(text: str, op: Operation, limit: int) -> str:
    if not text:
        parts = [op.summary.strip(), op.description.strip()]
        text = "\n\n".join(p for i, p in enumerate(parts) if p and p not in parts[:i])
    if op.deprecated and "deprecated" not in text.lower():
        # kept by --include-deprecated or chosen: said, so a model prefers what replaces it
        text = f"Deprecated. {text}".rstrip()
    if limit and len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


# verbs of a change that a filter narrows: called with none, many APIs apply it to everything
_REMOVING = frozenset({"delete", "remove", "purge", "clear", "wipe", "erase", "destroy", "prune"})


def _unnarrowed(op: Operation, annotations: Annotations, arguments: tuple[Argument, ...]) -> str:
    """The argument a destructive removal whose arguments are all optional takes to act on
    everything ("": it is not one, or none is free): ArchiveBox's cli_remove, called with none,
    removed every snapshot; PostgREST's DELETE /books without a filter deletes every row."""
    said = set(naming.words(op.operation_id or op.summary))
    removes = op.method == "DELETE" or bool(said & _REMOVING)
    if not (annotations.destructive and removes and arguments):
        return ""
    if any(argument.required for argument in arguments):
        return ""
    name: str = runtime_module("protocol.everything").argument_name(a.name for a in arguments)
    return name


def _humanize(name: str) -> str:
    spaced = " ".join(naming.words(name))
    return spaced[:1].upper() + spaced[1:]
