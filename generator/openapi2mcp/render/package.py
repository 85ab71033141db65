"""Rendering: a :class:`ServerPlan` becomes the generated package, as ``{relative path: text}`` in memory.

One Jinja2 template per generated source file (``templates/package``), ``StrictUndefined`` so a missing
value fails loudly, and every spec string passed through a filter from ``filters.py``. JSON files are
serialised here, not templated. The runtime (``templates/runtime``) is copied verbatim. Nothing is
written to disk: ``emit.py`` formats and writes the tree. :class:`PublishOptions` carries the choices
that only change publishing files (the registry name, the CI workflow); :func:`kept_paths` names the
paths that belong to the user once they exist (the custom module, ``.github/``, licence files), which
writing and ``--check`` leave alone.
"""

from __future__ import annotations

import gzip
import json
import re
import shlex
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

import jinja2

from .. import __version__
from ..diagnostics import Report
from ..diff.surface import surface
from ..ir.model import Api, JsonSchema, Server
from ..ir.schema_utils import json_type
from ..plan.build import ready_credentials
from ..plan.model import ServerPlan, Tool
from ..shipped import templates_root
from .actions import DEFAULT_GENERATOR_REQUIREMENT, MCP_PUBLISHER, workflow_pins
from .catalog import catalog_files
from .examples import NoExample, example_instance
from .filters import FILTERS
from .models import render_models, schemas_for
from .pytypes import python_type

MARKER = ".openapi2mcp"
REGISTRY_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
# the registry schema's limits on server.json
REGISTRY_NAME_MAX = 200
REGISTRY_TEXT_MAX = 100
# reverse-DNS namespace (at least one dot), one slash, then the schema's name characters
_REGISTRY_NAME = re.compile(
    r"(?=.{3,200}$)[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)+/[a-zA-Z0-9._-]+"
)
# http(s) URL of printable ASCII URI characters; "$" is left out so GitHub never sees "${{"
_SPEC_URL = re.compile(
    r"https?://[A-Za-z0-9.-]+(?::[0-9]+)?(?:[/?#][A-Za-z0-9\-._~:/?#\[\]@!&'()*+,;=%]*)?"
)
# not a URL, so the workflow stops with a message until the user sets it
SPEC_URL_PLACEHOLDER = "set-me-to-the-url-of-the-openapi-document"
WORKFLOW_PATH = ".github/workflows/regenerate.yml"
PUBLISH_WORKFLOW_PATH = ".github/workflows/publish.yml"
# the README lists up to this many tools (and resources, templates, prompts); a bigger API gets a
# table of its tags instead: the list itself is what tools/list and `openapi2mcp inspect` are for
README_LISTED = 100
# warnings about what publishing needs (a license, a registry name), not about the spec
PUBLISHING_WARNINGS = frozenset(
    {"registry-name-placeholder", "package-license-missing", "license-text-missing"}
)
# a data file only programs read (the catalog, the surface, the smoke cases) is written
# gzip-compressed, as <name>.gz, above this many bytes: the biggest APIs stay committable
COMPRESS_OVER = 5_000_000
# a container is reached through its network interface; the README asks for origins and auth
CONTAINER_HOST = "0.0.0.0"  # noqa: S104
# besides the custom module: what a repository holding the package keeps across regenerations
_KEPT_REPOSITORY_PATHS = (
    ".git",
    ".github",
    ".gitignore",
    ".gitattributes",
    "LICENSE",
    "LICENSE.md",
    "LICENSE.txt",
)


@dataclass(frozen=True, slots=True)
class PublishOptions:
    """Choices that change only publishing files: ``server.json``, the README, the CI workflow."""

    # io.github.OWNER/NAME (see `registry_name_problem`); None: a placeholder to replace
    registry_name: str | None = None
    # also write .github/workflows/regenerate.yml (created once, then the user's)
    ci_workflow: bool = False
    # where the workflow downloads the spec (see `spec_url_problem`); None: a placeholder
    spec_url: str | None = None
    # further `openapi2mcp generate` options the workflow repeats (--name is always added)
    generate_args: tuple[str, ...] = ()
    # what the CI workflow installs openapi2mcp from (`pip install` of it; see actions.py)
    generator_requirement: str = DEFAULT_GENERATOR_REQUIREMENT
    # also write .github/workflows/publish.yml (created once, then the user's)
    publish_workflow: bool = False


def registry_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a registry server name, or ``None`` when it can."""
    if _REGISTRY_NAME.fullmatch(name):
        return None
    return (
        f"{name!r} is not an MCP registry name like io.github.OWNER/NAME: a reverse-DNS namespace "
        f"(io.github.<user or organisation>, or a domain you own reversed), one '/', then letters, "
        f"digits, '.', '_' or '-'; at most {REGISTRY_NAME_MAX} characters"
    )


def spec_url_problem(url: str) -> str | None:
    """Why the CI workflow cannot download the spec from ``url``, or ``None`` when it can."""
    if _SPEC_URL.fullmatch(url):
        return None
    return f"{url!r} is not an http(s) URL (plain ASCII, no spaces or '$')"


def custom_module_path(plan: ServerPlan) -> str:
    return f"src/{plan.package}/custom.py"


def kept_paths(plan: ServerPlan) -> tuple[str, ...]:
    """Paths that are the user's once they exist: never overwritten, never reported as drift."""
    return (custom_module_path(plan), *_KEPT_REPOSITORY_PATHS)


@dataclass(frozen=True, slots=True)
class FunctionParam:
    name: str
    argument: str
    annotation: str
    required: bool


@dataclass(frozen=True, slots=True)
class Function:
    name: str
    operation: str
    doc: str
    params: tuple[FunctionParam, ...]
    returns: str
    # the module constant mapping its keywords to the API's argument names where they differ
    renames: str = ""


def _with_renames(functions: list[Function]) -> tuple[list[Function], dict[str, dict[str, str]]]:
    """``functions`` naming the map of their keywords to the API's argument names, and the maps.

    APIs name many arguments alike (Microsoft Graph: ``$select``, ``$top`` in thousands of
    operations), so one module map, ``_NAMES``, holds each keyword's most common argument name; only a
    function it would get wrong has a map of its own (shared by the functions that need the same).
    """
    targets: dict[str, Counter[str]] = {}
    for function in functions:
        for p in function.params:
            targets.setdefault(p.name, Counter())[p.argument] += 1
    common = {
        name: argument
        for name, counter in sorted(targets.items())
        if (argument := counter.most_common(1)[0][0]) != name
    }
    tables: dict[tuple[tuple[str, str], ...], str] = {}
    named: list[Function] = []
    for function in functions:
        if not function.params:
            named.append(function)
        elif all(common.get(p.name, p.name) == p.argument for p in function.params):
            named.append(replace(function, renames="_NAMES" if common else ""))
        else:
            own = tuple((p.name, p.argument) for p in function.params if p.name != p.argument)
            table = tables.setdefault(own, f"_NAMES_{len(tables) + 1}")
            named.append(replace(function, renames=table))
    maps = {"_NAMES": common} if common else {}
    return named, maps | {name: dict(renames) for renames, name in tables.items()}


def render_package(
    plan: ServerPlan, report: Report, publish: PublishOptions | None = None
) -> dict[str, str | bytes]:
    publish = publish or PublishOptions()
    root = templates_root()
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(root / "package")),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # noqa: S701 - renders Python/TOML/Markdown; filters escape
        keep_trailing_newline=True,
        trim_blocks=False,
    )
    env.filters.update(FILTERS)
    header_text = (
        f"Generated by openapi2mcp {__version__}; do not edit, regenerate instead.\n"
        f"# Source: OpenAPI document sha256:{plan.api.source_sha256}"
    )
    annotated = [a.schema for t in plan.callable_tools for a in t.arguments]
    annotated += [t.output_schema for t in plan.callable_tools if t.output_schema is not None]
    models = render_models(schemas_for(annotated, plan.api.output_schemas), report)
    functions, renames = _with_renames(
        [_function(t, models.class_names, plan.api) for t in plan.callable_tools]
    )
    context: dict[str, Any] = {
        "plan": plan,
        "header": f"# {header_text}",
        "header_text": header_text.replace("\n# ", " "),
        "functions": functions,
        "renames": renames,
        "hints": {t.name: _hints(t) for t in plan.tools[:README_LISTED]},
        "readme_listed": README_LISTED,
        "toolset_rows": _toolset_rows(plan) if len(plan.tools) > README_LISTED else [],
        "client_config": _client_config(plan),
        "registry_name": _registry_name(plan, publish, report),
        "registry_name_placeholder": publish.registry_name is None,
        "generator_version": __version__,
        "env_prefix": plan.env_prefix,
        "docker_cmd": json.dumps(
            [plan.command, "http", "--host", CONTAINER_HOST, "--port", "8000"]
        ),
        "ci_workflow": publish.ci_workflow,
        "spec_url": publish.spec_url or SPEC_URL_PLACEHOLDER,
        "spec_url_placeholder": publish.spec_url is None,
        "generate_args": shlex.join(_generate_args(plan, publish)),
        "generator_requirement": publish.generator_requirement,
        "publish_workflow": publish.publish_workflow,
        "uses": workflow_pins(),
        "mcp_publisher": MCP_PUBLISHER,
        "kept_paths_md": ", ".join(f"`{p}`" for p in kept_paths(plan)),
    }
    pkg = f"src/{plan.package}"
    files: dict[str, str] = {
        "pyproject.toml": env.get_template("pyproject.toml.j2").render(context),
        "README.md": env.get_template("README.md.j2").render(context),
        f"{pkg}/__init__.py": env.get_template("src/__init__.py.j2").render(context),
        f"{pkg}/__main__.py": env.get_template("src/__main__.py.j2").render(context),
        f"{pkg}/server.py": env.get_template("src/server.py.j2").render(context),
        f"{pkg}/operations.py": env.get_template("src/operations.py.j2").render(context),
        f"{pkg}/models.py": models.source,
        f"{pkg}/py.typed": "",
        **{f"{pkg}/{name}": text for name, text in catalog_files(plan, report).items()},
        "mcp-surface.json": _json(surface(plan), indent=2),
        "server.json": _json(_registry_entry(plan, context["registry_name"]), indent=2),
        "Dockerfile": env.get_template("Dockerfile.j2").render(context),
        custom_module_path(plan): env.get_template("src/custom.py.j2").render(context),
        "tests/test_smoke.py": env.get_template("tests/test_smoke.py.j2").render(context),
        "tests/fake_upstream.py": (root / "package/tests/fake_upstream.py").read_text("utf-8"),
        "tests/smoke_cases.json": _json(_smoke_cases(plan, report), indent=2),
        MARKER: _json({"generator": "openapi2mcp", "version": __version__}, indent=2),
    }
    if publish.ci_workflow:
        files[WORKFLOW_PATH] = env.get_template("github/regenerate.yml.j2").render(context)
    if publish.publish_workflow:
        files[PUBLISH_WORKFLOW_PATH] = env.get_template("github/publish.yml.j2").render(context)
    runtime = root / "runtime"
    for source in sorted(runtime.rglob("*.py")):  # the runtime tree, its subpackages included
        if "__pycache__" not in source.parts:
            files[f"{pkg}/_runtime/{source.relative_to(runtime).as_posix()}"] = source.read_text(
                "utf-8"
            )
    # the runtime's own license travels with it (the package's license is the publisher's)
    files[f"{pkg}/_runtime/LICENSE"] = (root / "runtime" / "LICENSE").read_text("utf-8")
    license_text = _license_text(plan, env, report)
    if license_text is not None:
        files["LICENSE"] = license_text  # created once: a LICENSE file of yours is kept
    return _compressed(files, ("mcp-surface.json", f"{pkg}/catalog.json", "tests/smoke_cases.json"))


def _compressed(files: dict[str, str], names: tuple[str, ...]) -> dict[str, str | bytes]:
    """``files`` with each of ``names`` over :data:`COMPRESS_OVER` bytes as ``<name>.gz``.

    Deterministic (no timestamp, no file name), so regenerating an unchanged API changes nothing;
    the readers (the runtime, the smoke tests, ``openapi2mcp diff``) take either form.
    """
    tree: dict[str, str | bytes] = {}
    for path, text in files.items():
        data = text.encode("utf-8")
        if path in names and len(data) > COMPRESS_OVER:
            tree[path + ".gz"] = gzip.compress(data, compresslevel=9, mtime=0)
        else:
            tree[path] = text
    return tree


def _license_text(plan: ServerPlan, env: jinja2.Environment, report: Report) -> str | None:
    """The text of the package's license for the generated code, when we carry it (MIT with the
    authors as holders, Apache-2.0); for any other license the publisher adds the file."""
    license_ = plan.metadata.license
    if license_ == "MIT":
        names = [name or email for name, email in plan.metadata.authors]
        holders = ", ".join(names) if names else f"the {plan.distribution} authors"
        return env.get_template("licenses/MIT.txt.j2").render(holders=holders)
    if license_ == "Apache-2.0":
        return (templates_root() / "package" / "licenses" / "Apache-2.0.txt").read_text("utf-8")
    if not license_:
        report.warn(
            "package-license-missing",
            "",
            "the package declares no license: set --license (an SPDX expression such as MIT) or "
            "[package] license in the config file before publishing; the API's own license, if its "
            "description names one, is not the package's",
        )
    else:
        report.warn(
            "license-text-missing",
            "",
            f"add the text of {license_} as LICENSE next to pyproject.toml: it is kept across "
            "regenerations and ships in the sdist and the wheel (openapi2mcp writes it only for "
            "MIT and Apache-2.0)",
        )
    return None


def _generate_args(plan: ServerPlan, publish: PublishOptions) -> list[str]:
    # the package name is pinned so that a new info.title never renames the package
    args = ["--name", plan.distribution.removesuffix("-mcp") or plan.distribution]
    if publish.registry_name is not None:
        args += ["--registry-name", publish.registry_name]
    return [*args, *publish.generate_args]


def _json(value: Any, *, indent: int | None = None) -> str:
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(value, ensure_ascii=False, indent=indent, separators=separators) + "\n"


def _function(tool: Tool, class_names: Mapping[str, str], api: Api) -> Function:
    params = []
    for arg in sorted(tool.arguments, key=lambda a: not a.required):
        annotation = python_type(arg.schema, class_names)
        is_object = json_type(arg.schema, api.input_schemas) == "object"
        if annotation.startswith("models.") and " " not in annotation and is_object:
            # plain dicts are accepted wherever a model object is
            annotation += " | dict[str, Any]"
        if not arg.required and annotation != "Any" and not annotation.endswith("| None"):
            annotation += " | None"
        params.append(FunctionParam(arg.python_name, arg.name, annotation, arg.required))
    op = tool.operation
    paragraphs = [tool.title, *tool.description.split("\n\n"), f"{op.method} {op.path}"]
    doc = "\n\n".join(p for i, p in enumerate(paragraphs) if p and p not in paragraphs[:i])
    returns = python_type(tool.output_schema, class_names) if tool.output_schema else "Any"
    if returns != "Any" and set(op.redirects) - {"307", "308"}:
        returns += " | str"  # a redirect it documents as its answer returns where it points
    return Function(tool.python_name, op.key, doc, tuple(params), returns)


def _toolset_rows(plan: ServerPlan) -> list[dict[str, Any]]:
    """One README row per tag (toolset): its name, how many tools, how many of them read-only."""
    read_only = {tool.name for tool in plan.tools if tool.annotations.read_only}
    return [
        {
            "tag": toolset.tag,
            "name": toolset.name,
            "tools": len(toolset.tools),
            "read_only": sum(1 for name in toolset.tools if name in read_only),
        }
        for toolset in plan.exposure.toolsets
    ]


def _hints(tool: Tool) -> str:
    a = tool.annotations
    if a.read_only:
        return "read-only"
    marks = ["destructive" if a.destructive else "additive"]
    if a.idempotent:
        marks.append("idempotent")
    return ", ".join(marks)


def _client_config(plan: ServerPlan) -> str:
    env = {
        v.name: f"<{v.name.lower()}>"
        for v in plan.env_vars
        # not what most never set (a password sign-in's client secret, which few endpoints want)
        if (v.secret or v.required or v.credential) and not (v.default and not v.required)
    }
    entry: dict[str, Any] = {"command": plan.command}
    if env:
        entry["env"] = env
    return json.dumps({"mcpServers": {plan.distribution: entry}}, indent=2, ensure_ascii=False)


def _registry_entry(plan: ServerPlan, name: str) -> dict[str, Any]:
    """MCP registry metadata (server.json, schema 2025-12-11) for the package on PyPI."""
    entry: dict[str, Any] = {
        "$schema": REGISTRY_SCHEMA,
        "name": name,
        "title": _bounded_text(plan.title, REGISTRY_TEXT_MAX) or plan.distribution,
        "description": _bounded_text(plan.metadata.summary, REGISTRY_TEXT_MAX)
        or _bounded_text(f"MCP server for {plan.api_name}", REGISTRY_TEXT_MAX),
        "version": plan.version,
        "packages": [
            {
                "registryType": "pypi",
                "identifier": plan.distribution,
                "version": plan.version,
                "runtimeHint": "uvx",
                "transport": {"type": "stdio"},
                "environmentVariables": [
                    {
                        "name": v.name,
                        "description": v.description,
                        "isRequired": v.required,
                        "isSecret": v.secret,
                    }
                    for v in plan.env_vars
                ],
            }
        ],
    }
    return entry


def _bounded_text(text: str, limit: int) -> str:
    """One line of at most ``limit`` characters, cut at a word boundary with an ellipsis."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    cut = line[: limit - 1]
    cut = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return cut.rstrip(" .,;:") + "…"


def _registry_name(plan: ServerPlan, publish: PublishOptions, report: Report) -> str:
    if publish.registry_name is not None:
        return publish.registry_name
    # a placeholder namespace the publisher replaces (`--registry-name`), within the name limit;
    # it passes the registry's schema, so it is said out loud
    placeholder = f"io.github.your-org/{plan.distribution}"[:REGISTRY_NAME_MAX]
    report.warn(
        "registry-name-placeholder",
        "",
        f"server.json and the README's mcp-name marker say {placeholder!r}, a placeholder: "
        f"generate with --registry-name io.github.<your GitHub user or organisation>/"
        f"{plan.distribution} before publishing to the MCP registry",
    )
    return placeholder


def _smoke_cases(plan: ServerPlan, report: Report) -> dict[str, Any]:
    credentials: dict[str, str] = {}
    for scheme in plan.security.values():
        for name in ready_credentials(scheme):
            credentials[name] = "smoke-test-secret"
    cases = []
    for tool in plan.tools:
        case = _smoke_case(plan, tool)
        if case is None and _fills_only_empty(plan, tool):
            report.warn(
                "path-value-empty-only",
                tool.operation.pointer,
                f"a path parameter of {tool.name} admits no value that fills its segment (e.g. an "
                "object whose properties are all read-only): the server will refuse every call",
            )
            continue
        if case is None:
            report.info(
                "smoke-skipped", tool.operation.pointer, f"no example input for {tool.name}"
            )
            continue
        cases.append(case)
    base_path = urlsplit(plan.base_url).path.rstrip("/") if plan.base_url else ""
    # operations with an absolute server of their own: the tests send them to the fake as well
    servers = sorted(
        {
            t.operation.server.url: _server_path(t.operation.server)
            for t in plan.tools
            if t.operation.server is not None and "://" in t.operation.server.url
        }.items()
    )
    return {
        "basePath": _wire_path(base_path),
        "servers": dict(servers),
        # the limits of a server in production would refuse a test calling every tool at once
        "environment": {f"{plan.env_prefix}_{name}": "0" for name in _UNLIMITED},
        "credentials": credentials,
        "tools": cases,
    }


# <PREFIX>_... limits the smoke tests switch off (0: no limit)
_UNLIMITED = ("RATE_LIMIT", "MAX_CONCURRENCY", "CIRCUIT_THRESHOLD", "RETRIES")


def _wire_path(path: str) -> str:
    """``path`` as it travels on the wire (the fake upstream records the raw path)."""
    return quote(path, safe="/%!$&'()*+,;=:@-._~")


def _server_path(server: Server) -> str:
    """The path of an operation's own server, its variables at their defaults."""
    url = server.url
    for variable in server.variables:
        url = url.replace("{" + variable.name + "}", variable.default or variable.name)
    return _wire_path(urlsplit(url).path.rstrip("/"))


def _smoke_case(plan: ServerPlan, tool: Tool) -> dict[str, Any] | None:
    api = plan.api
    try:
        arguments = example_instance(
            _path_values_present(tool, api.input_schemas), api.input_schemas
        )
        body = (
            example_instance(tool.output_schema, api.output_schemas)
            if tool.output_schema is not None
            else None
        )
    except NoExample:
        return None
    if tool.everything:
        # a removal's guard (runtime protocol.everything): the case acts as its example says
        arguments = {**arguments, tool.everything: True}
    response = tool.operation.response
    status = int(response.status) if response and response.status.isdigit() else 200
    content_type = response.content_type if response and response.content_type else ""
    if body is None:
        text = "" if status == 204 or not content_type else "{}" if "json" in content_type else "ok"
    else:
        text = json.dumps(body)
    path = _expected_path(tool, arguments)
    server = tool.operation.server
    if path is not None and server is not None:
        if "://" in server.url:
            path = _server_path(server) + path
        else:  # relative to the base URL, as a URL reference
            base = urlsplit(plan.base_url).path.rstrip("/") + "/" if plan.base_url else "/"
            path = _wire_path(urlsplit(urljoin(base, server.url)).path.rstrip("/")) + path
    elif path is not None:
        path = _wire_path(urlsplit(plan.base_url).path.rstrip("/") if plan.base_url else "") + path
    return {
        "tool": tool.name,
        "arguments": arguments,
        "response": {"status": status, "contentType": content_type or "text/plain", "body": text},
        # the path as the upstream receives it, base or server path included
        "expect": {"method": tool.operation.method, "path": path},
    }


def _fills_only_empty(plan: ServerPlan, tool: Tool) -> bool:
    """Whether the tool has example arguments only when a path segment may be left empty."""
    try:
        example_instance(tool.input_schema, plan.api.input_schemas)
    except NoExample:
        return False
    return True


def _path_values_present(tool: Tool, defs: Mapping[str, JsonSchema]) -> JsonSchema:
    """The tool's input schema, each path argument held to a value that fills its segment: at
    least one item or character (the server refuses an empty segment unless the spec lists "")."""
    schema = tool.input_schema
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return schema
    tightened = dict(properties)
    for arg in tool.arguments:
        value = properties.get(arg.name)
        if arg.source != "path" or not isinstance(value, dict):
            continue
        enum = value.get("enum")
        if value.get("const") == "" or (isinstance(enum, list) and "" in enum):
            continue
        floor = {"array": "minItems", "string": "minLength", "object": "minProperties"}
        keyword = floor.get(json_type(value, defs))
        if keyword is not None:
            # with allOf, also through a $ref (an object whose every property is read-only
            # admits only {}: no example, so the smoke test is skipped with a diagnostic)
            tightened[arg.name] = {"allOf": [value, {keyword: 1}]}
    return {**schema, "properties": tightened}


def _expected_path(tool: Tool, arguments: Mapping[str, Any]) -> str | None:
    path = tool.operation.path
    for arg in tool.arguments:
        if arg.source != "path":
            continue
        value = arguments.get(arg.name)
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            return None
        param = next(
            p for p in tool.operation.parameters if p.location == "path" and p.name == arg.wire_name
        )
        if param.style != "simple":
            return None
        placeholder = "{" + arg.wire_name + "}"
        if param.whole_path:  # a path of the API in place of the template's "/{name}"
            text = quote(str(value).removeprefix("/"), safe="/")
            follows = path.partition(placeholder)[2]
            ends = "/" if follows[:1] not in ("", "/") and not text.endswith("/") else ""
            path = path.replace(placeholder, text + ends)
        else:
            path = path.replace(placeholder, quote(str(value), safe=""))
    return path
