"""One real spec end to end: prune, generate, call every tool, capture, validate, classify.

``prepare`` selects the operations and writes two documents: the pruned copy the server is generated
from (fixed absolute per-operation servers such as ``https://uploads.github.com`` become a server
variable, as an Overlay would make them, so that their calls can reach the recorder too) and the
validator's document (the pruned original, Swagger 2.0 converted by swagger2openapi, every server
pointed at the recorder with its base path kept). ``run`` imports the generated package, builds its
server in-process with the recorder as base URL and a dummy credential for every scheme, lists
its tools as a client would (``tools/list``), calls each tool with each instance of ``instances``
(made from the advertised ``inputSchema``) and classifies each call:

- **unusable**: no arguments can be made from the tool's ``inputSchema`` (e.g. a dangling
  ``$ref``), so the tool is not called;
- **refused**: a JSON-RPC error or ``isError`` with nothing sent to the recorder;
- **failed**: ``isError`` although the recorder answered as the operation documents success;
- **rejected**: openapi-core reports an error for a captured request (or its ``Content-Type`` is a
  media range such as ``*/*``, which openapi-core happily matches against a ``*/*`` body);
- **altered**: a captured request does not carry what the arguments said (``compare``).
"""

from __future__ import annotations

import copy
import importlib
import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.kit.meta import meta
from tests.kit.upstream import EMPTY_OBJECT, RecordingUpstream, Reply, Request
from tests.realspecs import compare
from tests.realspecs.instances import instances
from tests.realspecs.selection import METHODS, prune, select
from tests.realspecs.sources import Source, swagger_to_openapi
from tests.realspecs.validation import check, validator

META = meta()
KINDS = ("unusable", "refused", "failed", "rejected", "altered")


@dataclass
class Call:
    tool: str
    operation: str  # "POST /v1/customers"
    variant: str  # minimal | rich | partial | nulls
    arguments: dict[str, Any]
    problems: dict[str, list[str]] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)

    def add(self, kind: str, messages: list[str]) -> None:
        if messages:
            self.problems.setdefault(kind, []).extend(messages)


@dataclass
class SpecRun:
    label: str
    selected: int = 0
    tools: int = 0
    warnings: list[str] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)

    def count(self, kind: str) -> int:
        return sum(1 for c in self.calls if kind in c.problems)


@dataclass(frozen=True, slots=True)
class Prepared:
    label: str
    generation_spec: Path
    validator_doc: dict[str, Any]
    # server variable name (in the generation spec) -> the path of its original URL
    own_servers: dict[str, str]
    base_path: str
    selected: int


def _base_path(document: Mapping[str, Any]) -> str:
    if "swagger" in document:
        return str(document.get("basePath") or "").rstrip("/")
    servers = document.get("servers") or [{"url": "/"}]
    url = str(servers[0].get("url", "/"))
    for name, variable in (servers[0].get("variables") or {}).items():
        url = url.replace("{" + name + "}", str(variable.get("default", "")))
    return urlsplit(url).path.rstrip("/")


def _owners(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Path items and operations (the objects that may carry their own ``servers``)."""
    found = []
    for item in document.get("paths", {}).values():
        found.append(item)
        found.extend(item[m] for m in METHODS if isinstance(item.get(m), dict))
    return found


def _route_own_servers(
    generation: dict[str, Any], validation: dict[str, Any], recorder_url: str
) -> dict[str, str]:
    variables: dict[str, str] = {}
    for owner in _owners(generation):
        for server in owner.get("servers") or []:
            url = str(server.get("url", ""))
            if not url.startswith(("http://", "https://")):
                continue
            for name, variable in (server.get("variables") or {}).items():
                url = url.replace("{" + name + "}", str(variable.get("default", "")))
            name = "rs_" + re.sub(r"[^a-z0-9]+", "_", urlsplit(url).netloc.lower()).strip("_")
            variables[name] = urlsplit(url).path.rstrip("/")
            server["url"] = "{" + name + "}"
            server["variables"] = {name: {"default": url}}
    for owner in _owners(validation):
        for server in owner.get("servers") or []:
            url = str(server.get("url", ""))
            if url.startswith(("http://", "https://")) or "{" in url:
                for name, variable in (server.get("variables") or {}).items():
                    url = url.replace("{" + name + "}", str(variable.get("default", "")))
                server["url"] = recorder_url + urlsplit(url).path.rstrip("/")
                server.pop("variables", None)
    return variables


def prepare(source: Source, document: dict[str, Any], where: Path, recorder_url: str) -> Prepared:
    selected = select(document)
    pruned = prune(document, selected)
    generation = copy.deepcopy(pruned)
    # Swagger 2.0 is converted for the validator by an independent converter, never by ours
    swagger = "swagger" in pruned
    validation = swagger_to_openapi(pruned, where) if swagger else copy.deepcopy(pruned)
    own = _route_own_servers(generation, validation, recorder_url)
    base_path = _base_path(pruned)
    validation["servers"] = [{"url": recorder_url + base_path}]
    spec = where / f"{source.label}.json"
    spec.write_text(json.dumps(generation), encoding="utf-8")
    return Prepared(source.label, spec, validation, own, base_path, len(selected))


def _credentials(upstream: Mapping[str, Any]) -> dict[str, str]:
    env: dict[str, str] = {}
    for scheme in upstream["securitySchemes"].values():
        match scheme["type"]:
            case "apiKey":
                env[scheme["env"]] = "key-123"
            case "bearer" | "oauth2ClientCredentials" | "oauth2Password":
                env[scheme["env"]] = "token-123"
            case "basic":
                env[scheme["usernameEnv"]] = "user"
                env[scheme["passwordEnv"]] = "secret"
    return env


def _answer(validation: Mapping[str, Any], method: str, path: str) -> Reply:
    """200 ``{}``, or an empty 204 when that is the only documented success."""
    operation = (validation["paths"].get(path) or {}).get(method.lower()) or {}
    codes = {str(c).upper() for c in operation.get("responses") or {}}
    if "204" in codes and not codes & {"200", "201", "202", "203", "2XX", "DEFAULT"}:
        return Reply(204)
    return EMPTY_OBJECT


def generate_package(prepared: Prepared, out: Path, run: SpecRun) -> Path:
    result = generate(
        str(prepared.generation_spec),
        GenerateOptions(tool_mode="full", name=f"rs_{prepared.label}", include_deprecated=True),
    )
    run.warnings = [f"{d.code} at {d.pointer}: {d.message}"[:300] for d in result.report.warnings]
    write_tree(result.files, out, force=False, marker=MARKER)
    return out


def _dangling(schema: Mapping[str, Any]) -> set[str]:
    """References in a tool schema that do not resolve inside it (``#/$defs/...`` only)."""
    found: set[str] = set()
    pending: list[Any] = [schema]
    defs = schema.get("$defs") or {}
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not (
                ref.startswith("#/$defs/") and ref.removeprefix("#/$defs/") in defs
            ):
                found.add(ref)
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    return found


async def _request(server: Any, method: str, params: dict[str, Any]) -> dict[str, Any]:
    async def no_notify(message: dict[str, Any]) -> None:
        return None

    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"_meta": META, **params}}
    reply: dict[str, Any] = await server.dispatcher.handle(message, None, no_notify)
    return reply


async def _call(server: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return await _request(server, "tools/call", {"name": name, "arguments": arguments})


async def list_tools(server: Any) -> list[dict[str, Any]]:
    """Every tool as a modern ``tools/list`` advertises it, page by page (what a client sees)."""
    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        reply = await _request(server, "tools/list", {} if cursor is None else {"cursor": cursor})
        tools.extend(reply["result"]["tools"])
        cursor = reply["result"].get("nextCursor")
        if cursor is None:
            return tools


def _reply_text(reply: Mapping[str, Any]) -> str:
    if "error" in reply:
        return json.dumps(reply["error"])[:300]
    return " ".join(b.get("text", "") for b in reply["result"].get("content", []))[:300]


def _classify(
    call: Call,
    reply: Mapping[str, Any],
    requests: list[Request],
    operation: Mapping[str, Any],
    schema: Mapping[str, Any],
    openapi: Any,
    host_url: str,
) -> None:
    errored = "error" in reply or bool(reply["result"].get("isError"))
    if errored:
        call.add("failed" if requests else "refused", [_reply_text(reply)])
    call.add("altered", compare.stray_arguments(operation, call.arguments))
    call.requests = requests
    for captured in requests:
        verdict = check(openapi, captured, host_url)
        call.add("rejected", verdict.errors)
        sent_type = captured.header("Content-Type") or ""
        if "*" in sent_type.split(";")[0]:
            # openapi-core matches a range against a range; HTTP wants a media type here
            call.add("rejected", [f"Content-Type {sent_type!r} is a media range, not a media type"])
        if "*" in verdict.unreadable:
            continue
        call.add("altered", compare.parameter_problems(operation, call.arguments, verdict))
        call.add(
            "altered",
            compare.body_problems(operation, schema, call.arguments, captured, verdict),
        )


async def run(
    prepared: Prepared, package: Path, recorder: RecordingUpstream, result: SpecRun
) -> None:
    source = package / "src"
    module_name = next(p.name for p in source.iterdir() if (p / "server.py").is_file())
    sys.path.insert(0, str(source))
    try:
        server_module = importlib.import_module(f"{module_name}.server")
        catalog = server_module.load()
        upstream = catalog["upstream"]
        env = {upstream["baseUrlEnv"]: recorder.url + prepared.base_path}
        env |= _credentials(upstream)
        for operation in catalog["operations"].values():
            for name, variable in (operation.get("server") or {}).get("variables", {}).items():
                if name in prepared.own_servers:
                    env[variable["env"]] = recorder.url + prepared.own_servers[name]
        server = server_module.build_server(server_module.Settings.from_env(catalog, env))
        openapi = validator(prepared.validator_doc)
        swagger = "swagger" in json.loads(prepared.generation_spec.read_text(encoding="utf-8"))
        try:
            tools = await list_tools(server)
            result.tools = len(tools)
            for tool in tools:
                operation = catalog["operations"][
                    catalog["toolBindings"][tool["name"]]["operation"]
                ]
                plain = frozenset(
                    p["argument"]
                    for p in operation["parameters"]
                    if p["location"] in ("header", "cookie")
                )
                label = f"{operation['method']} {operation['path']}"
                # the projection argument trims results and is no argument of the API: left out;
                # so is a removal's guard (protocol.everything), given true to every call, whose
                # requests are then the document's to judge, narrowed or not
                binding = catalog["toolBindings"][tool["name"]]
                guard = binding.get("everything")
                schema = _without(
                    _without(tool["inputSchema"], catalog.get("selectArgument")), guard
                )
                try:
                    fields = tuple((operation.get("body") or {}).get("properties", {}))
                    calls = instances(schema, plain, fields, swagger).calls
                except Exception as exc:  # the schema itself is broken: that is a finding
                    broken = Call(tool["name"], label, "-", {})
                    dangling = ", ".join(sorted(_dangling(tool["inputSchema"])))
                    why = f"{type(exc).__name__}: {exc}" + (
                        f"; $ref to {dangling}" if dangling else ""
                    )
                    broken.add("unusable", [why[:400]])
                    result.calls.append(broken)
                    continue
                for variant, arguments in calls.items():
                    call = Call(tool["name"], label, variant, arguments)
                    recorder.requests.clear()
                    recorder.canned = _answer(
                        prepared.validator_doc, operation["method"], operation["path"]
                    )
                    given = {**arguments, guard: True} if guard else arguments
                    reply = await _call(server, tool["name"], given)
                    _classify(
                        call,
                        reply,
                        list(recorder.requests),
                        operation,
                        schema,
                        openapi,
                        recorder.url,
                    )
                    result.calls.append(call)
        finally:
            await server.aclose()
    finally:
        sys.path.remove(str(source))


def _without(schema: dict[str, Any], name: str | None) -> dict[str, Any]:
    """``schema`` without the property ``name`` (the catalog's projection argument)."""
    properties = schema.get("properties")
    if not name or not isinstance(properties, dict) or name not in properties:
        return schema
    return {**schema, "properties": {k: v for k, v in properties.items() if k != name}}
