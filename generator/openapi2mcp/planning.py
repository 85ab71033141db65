"""Planning: turn an :class:`Api` into the complete :class:`ServerPlan`.

Owns the package-level decisions (distribution, package and server names, version, environment
variables for the base URL, timeout and each security scheme, instructions) and the guiding prompts
(one per tag). Per-operation decisions are delegated to ``classify.py``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import naming
from .classify import ClassifyOptions, classify_operations
from .diagnostics import Report
from .ir import Api, ApiKeyScheme, HttpBasicScheme, HttpBearerScheme, SecurityScheme
from .plan import EnvVar, Prompt, PromptArgument, PromptPart, ServerPlan, Tool

# words that say nothing about which API this is ("GitHub's official OpenAPI spec" → "github")
_NAME_NOISE = {
    "a", "an", "and", "api", "apis", "definition", "description", "document", "extension",
    "for", "http", "json", "of", "official", "openapi", "public", "rest", "restful", "s",
    "sample", "schema", "service", "spec", "specification", "swagger", "the", "v1", "v2", "v3",
    "web", "with", "yaml",
}  # fmt: skip
_NAME_WORDS = 3
_PEP440 = re.compile(r"^\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?$")
INSTRUCTIONS_LIMIT = 1500


@dataclass(frozen=True, slots=True)
class PlanOptions:
    name: str | None = None
    classify: ClassifyOptions = field(default_factory=ClassifyOptions)


def build_plan(api: Api, options: PlanOptions, report: Report) -> ServerPlan:
    base = options.name or _short_title(api.title)
    distribution = naming.distribution_name(base)
    package = naming.package_name(distribution)
    prefix = naming.env_prefix(distribution.removesuffix("-mcp"))
    scheme = naming.uri_scheme(distribution.removesuffix("-mcp"))
    surface = classify_operations(api, options.classify, scheme, report)
    security, security_vars = _security(api, prefix)
    base_url_env, timeout_env = f"{prefix}_BASE_URL", f"{prefix}_TIMEOUT"
    base_url = api.servers[0] if api.servers else ""
    if not base_url.startswith(("http://", "https://")):
        report.warn(
            "base-url-missing",
            "#/servers",
            f"no absolute server URL in the spec; set {base_url_env} when running the server",
        )
    env_vars = (
        EnvVar(base_url_env, f"Base URL of the API (default: {base_url or 'none'})", not base_url),
        EnvVar(timeout_env, "Upstream request timeout in seconds (default: 30)"),
        *security_vars,
    )
    return ServerPlan(
        api=api,
        package=package,
        distribution=distribution,
        command=distribution,
        server_name=distribution,
        version=_version(api.version, report),
        title=api.title or distribution,
        description=_first_paragraph(api.description) or f"MCP server for {api.title}",
        instructions=_instructions(api, surface.tools),
        base_url=base_url,
        uri_scheme=scheme,
        tools=surface.tools,
        resources=surface.resources,
        resource_templates=surface.templates,
        prompts=_prompts(api, surface.tools, surface.resources, surface.templates),
        decisions=surface.decisions,
        env_vars=env_vars,
        base_url_env=base_url_env,
        timeout_env=timeout_env,
        security=security,
        template_completions=surface.template_completions,
    )


def _short_title(title: str) -> str:
    """The API's name from its title: noise words dropped, camel case kept whole, 3 words at most."""
    words = [w.lower() for w in re.split(r"[^A-Za-z0-9]+", naming.ascii_fold(title)) if w]
    kept = [w for w in words if w not in _NAME_NOISE][:_NAME_WORDS]
    return " ".join(kept or words[:_NAME_WORDS]) or "api"


def _version(raw: str, report: Report) -> str:
    version = raw.strip().removeprefix("v")
    if _PEP440.match(version):
        return version
    report.warn("version-normalised", "#/info/version", f"{raw!r} is not PEP 440; using 0.0.0")
    return "0.0.0"


def _security(api: Api, prefix: str) -> tuple[Mapping[str, Mapping[str, Any]], tuple[EnvVar, ...]]:
    entries: dict[str, Mapping[str, Any]] = {}
    env_vars: list[EnvVar] = []
    for name in sorted(api.security_schemes):
        scheme: SecurityScheme = api.security_schemes[name]
        stem = naming.env_name(prefix, name)
        match scheme:
            case ApiKeyScheme():
                env = stem if stem.endswith("KEY") else f"{stem}_KEY"
                entries[name] = {
                    "type": "apiKey",
                    "location": scheme.location,
                    "name": scheme.parameter,
                    "env": env,
                }
                what = f"{scheme.location} {scheme.parameter!r}"
                env_vars.append(EnvVar(env, f"API key for {name!r} (sent as {what})", secret=True))
            case HttpBearerScheme():
                env = stem if stem.endswith("TOKEN") else f"{stem}_TOKEN"
                entries[name] = {"type": "bearer", "env": env}
                env_vars.append(EnvVar(env, f"Bearer token for {name!r}", secret=True))
            case HttpBasicScheme():
                user, password = f"{stem}_USERNAME", f"{stem}_PASSWORD"
                entries[name] = {"type": "basic", "usernameEnv": user, "passwordEnv": password}
                env_vars.append(EnvVar(user, f"User name for {name!r} (HTTP basic)", secret=True))
                env_vars.append(
                    EnvVar(password, f"Password for {name!r} (HTTP basic)", secret=True)
                )
    return entries, tuple(env_vars)


def _instructions(api: Api, tools: tuple[Tool, ...]) -> str:
    about = _first_paragraph(api.description)
    reads = sum(1 for t in tools if t.annotations.read_only)
    text = (
        f"Tools for the {api.title} API: {len(tools)} operations, {reads} of them read-only "
        "(readOnlyHint). Each tool makes one HTTP request to the API and returns its response. "
        "Prefer read-only tools to look things up before changing anything; destructive tools "
        "(destructiveHint) modify or delete data."
    )
    if about:
        text = f"{about}\n\n{text}"
    return text[:INSTRUCTIONS_LIMIT]


def _first_paragraph(text: str) -> str:
    return text.strip().split("\n\n", 1)[0].strip()


def _prompts(
    api: Api, tools: tuple[Tool, ...], resources: Any, templates: Any
) -> tuple[Prompt, ...]:
    groups: dict[str, list[Tool]] = {}
    for tool in tools:
        for tag in tool.operation.tags or ("",):
            groups.setdefault(tag, []).append(tool)
    descriptions = {t.name: t.description for t in api.tags}
    ordered = [t.name for t in api.tags if t.name in groups] + [
        tag for tag in groups if tag not in descriptions
    ]
    namer = naming.Namer(max_length=64)
    prompts: list[Prompt] = []
    for tag in ordered:
        label = tag or "other"
        name = namer.claim(naming.tool_name(f"{label} workflow"), seed=f"prompt:{tag}")
        group = groups[tag]
        about = descriptions.get(tag, "").strip()
        listing = "\n".join(f"- {t.name}: {_tool_line(t)}" for t in group)
        intro = (
            f"You are helping a user with the {api.title} API"
            + (f", {label!r} operations" if tag else "")
            + ".\n"
            + (f"{about}\n" if about else "")
            + f"\nAvailable tools:\n{listing}\n\n"
            "Work out the steps needed, look things up with read-only tools first, and ask the "
            "user before calling any destructive tool.\n\nThe user's goal: "
        )
        prompts.append(
            Prompt(
                name=name,
                title=f"{api.title}: {label}" if tag else f"{api.title}: other operations",
                description=about or f"Guide the model through the {label} operations",
                arguments=(PromptArgument("goal", "What you want to achieve", required=True),),
                parts=(PromptPart(text=intro), PromptPart(argument="goal")),
            )
        )
    return tuple(prompts)


def _tool_line(tool: Tool) -> str:
    marks = (
        "read-only"
        if tool.annotations.read_only
        else ("destructive" if tool.annotations.destructive else "writes")
    )
    return f"{tool.title} ({tool.operation.method} {tool.operation.path}; {marks})"
