"""Planning: turn an :class:`Api` into the complete :class:`ServerPlan`.

Owns the package-level decisions (distribution, package and server names, the PEP 440 version,
environment variables for the base URL, timeout and each security scheme, instructions, the metadata a
package index shows: summary, SPDX license, keywords, project URLs) and the guiding prompts (one per
tag). Per-operation decisions are delegated to ``classify.py``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from . import naming
from .classify import ClassifyOptions, classify_operations
from .diagnostics import Report
from .ir import Api, ApiKeyScheme, HttpBasicScheme, HttpBearerScheme, SecurityScheme
from .plan import (
    EnvVar,
    PackageMetadata,
    Prompt,
    PromptArgument,
    PromptPart,
    ServerPlan,
    Tool,
)
from .prompting import configured_prompts

# words that say nothing about which API this is ("GitHub's official OpenAPI spec" → "github")
_NAME_NOISE = {
    "a", "an", "and", "api", "apis", "definition", "description", "document", "extension",
    "for", "http", "json", "of", "official", "openapi", "public", "rest", "restful", "s",
    "sample", "schema", "service", "spec", "specification", "swagger", "the", "v1", "v2", "v3",
    "web", "with", "yaml",
}  # fmt: skip
_NAME_WORDS = 3
# PEP 440 versions in any spelling the PEP accepts ("v1.0-Beta.2", "1.0.0-rc1", "2.0.post1")
_PEP440 = re.compile(
    r"v?(?:(?P<epoch>\d+)!)?(?P<release>\d+(?:\.\d+)*)"
    r"(?:[-_.]?(?P<pre>alpha|beta|preview|pre|rc|a|b|c)[-_.]?(?P<pre_n>\d+)?)?"
    r"(?:-(?P<post_implicit>\d+)|[-_.]?(?:post|rev|r)[-_.]?(?P<post_n>\d+)?(?P<post>))?"
    r"(?:[-_.]?dev[-_.]?(?P<dev_n>\d+)?(?P<dev>))?"
    r"(?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?",
    re.IGNORECASE,
)
_PRE_LABELS = {"alpha": "a", "a": "a", "beta": "b", "b": "b"}  # everything else is "rc"
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
# SPDX identifiers we accept from `info.license` (lower case → canonical spelling); a package index
# rejects unknown ones, so anything else leaves the license out rather than break the build
_SPDX = {
    spdx.lower(): spdx
    for spdx in (
        "0BSD", "AFL-3.0", "AGPL-3.0-only", "AGPL-3.0-or-later", "Apache-1.1", "Apache-2.0",
        "Artistic-2.0", "BlueOak-1.0.0", "BSD-1-Clause", "BSD-2-Clause", "BSD-3-Clause",
        "BSL-1.0", "CC-BY-3.0", "CC-BY-4.0", "CC-BY-SA-4.0", "CC0-1.0", "CDDL-1.0", "ECL-2.0",
        "EPL-1.0", "EPL-2.0", "EUPL-1.1", "EUPL-1.2", "GPL-2.0-only", "GPL-2.0-or-later",
        "GPL-3.0-only", "GPL-3.0-or-later", "ISC", "LGPL-2.1-only", "LGPL-2.1-or-later",
        "LGPL-3.0-only", "LGPL-3.0-or-later", "MIT", "MIT-0", "MPL-2.0", "MS-PL", "NCSA",
        "ODbL-1.0", "OFL-1.1", "OSL-3.0", "PostgreSQL", "PSF-2.0", "Python-2.0", "Unlicense",
        "UPL-1.0", "W3C", "WTFPL", "X11", "Zlib",
    )
}  # fmt: skip
# unambiguous license names seen in specs that are not SPDX identifiers themselves
_LICENSE_NAMES = {
    "apache 2.0": "Apache-2.0",
    "apache license 2.0": "Apache-2.0",
    "apache license, version 2.0": "Apache-2.0",
    "apache license version 2.0": "Apache-2.0",
    "mit license": "MIT",
    "the mit license": "MIT",
}
_LICENSE_REF = re.compile(r"LicenseRef-[A-Za-z0-9.-]+")
_CONTROL_OR_SPACE = re.compile(r"[\x00-\x20\x7f]")
INSTRUCTIONS_LIMIT = 1500
SUMMARY_LIMIT = 200


@dataclass(frozen=True, slots=True)
class PlanOptions:
    name: str | None = None
    classify: ClassifyOptions = field(default_factory=ClassifyOptions)
    # the package version (already PEP 440, see `pep440_version`); None = from info.version
    version: str | None = None


def build_plan(api: Api, options: PlanOptions, report: Report) -> ServerPlan:
    """Precedence for every setting: defaults < x-mcp < overlays < config file < CLI flags."""
    config = options.classify.config
    base = options.name or config.name or _short_title(api.title)
    distribution = naming.distribution_name(base)
    package = naming.package_name(distribution)
    prefix = naming.env_prefix(config.upstream.env_prefix or distribution.removesuffix("-mcp"))
    scheme = config.uri_scheme or naming.uri_scheme(distribution.removesuffix("-mcp"))
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
        EnvVar(
            base_url_env,
            f"Base URL of the API (default: {base_url or 'none'})",
            required=not base_url.startswith(("http://", "https://")),
        ),
        EnvVar(
            timeout_env,
            f"Upstream request timeout in seconds (default: {config.upstream.timeout:g})",
        ),
        *security_vars,
    )
    return ServerPlan(
        api=api,
        package=package,
        distribution=distribution,
        command=distribution,
        server_name=distribution,
        version=options.version or _version(api.version, report),
        title=api.title or distribution,
        description=_first_paragraph(api.description) or f"MCP server for {api.title}",
        instructions=_instructions(api, surface.tools),
        base_url=base_url,
        uri_scheme=scheme,
        tools=surface.tools,
        resources=surface.resources,
        resource_templates=surface.templates,
        prompts=configured_prompts(config, report)
        + _prompts(api, surface.tools, reserved={p.name for p in config.prompts}),
        decisions=surface.decisions,
        env_vars=env_vars,
        base_url_env=base_url_env,
        timeout_env=timeout_env,
        security=security,
        template_completions=surface.template_completions,
        metadata=_package_metadata(api, distribution, base_url, report),
        operation_tools=surface.all_tools,
        http_env_vars=_http_env_vars(prefix),
        timeout_seconds=config.upstream.timeout,
    )


def _http_env_vars(prefix: str) -> tuple[EnvVar, ...]:
    """What ``<api>-mcp http`` reads (runtime ``Settings.from_env`` and ``auth_config``)."""
    return (
        EnvVar(f"{prefix}_ALLOWED_ORIGINS", "Browser origins allowed to call the server, comma "
               "separated (default: localhost, 127.0.0.1 and [::1] on any port); others get 403"),
        EnvVar(f"{prefix}_MAX_BODY_BYTES", "Largest request body accepted (default: 4194304); "
               "larger gets 413"),
        EnvVar(f"{prefix}_PUBLIC_URL", "The endpoint's URL as clients reach it (OAuth resource id; "
               "default: the bound address)"),
        EnvVar(f"{prefix}_AUTH_TOKENS", "Static bearer tokens accepted from MCP clients, comma "
               "separated, at least 16 characters each (default: no authentication)", secret=True),
        EnvVar(f"{prefix}_AUTH_JWKS_URL", "Turns on OAuth 2.1: JWKS URL of the authorization "
               "server whose JWTs (RS256/PS256) are accepted"),
        EnvVar(f"{prefix}_AUTH_ISSUER", "Required with the JWKS URL: the exact issuer (iss) of the tokens"),
        EnvVar(f"{prefix}_AUTH_AUDIENCE", "Expected audience, aud (default: the public URL)"),
        EnvVar(f"{prefix}_AUTH_REQUIRED_SCOPES", "Scopes every token must carry, space or comma separated"),
        EnvVar(f"{prefix}_AUTH_AUTHORIZATION_SERVERS", "Authorization servers advertised in the "
               "protected resource metadata (default: the issuer)"),
    )  # fmt: skip


def _short_title(title: str) -> str:
    """The API's name from its title: noise words dropped, camel case kept whole, 3 words at most."""
    words = [w.lower() for w in re.split(r"[^A-Za-z0-9]+", naming.ascii_fold(title)) if w]
    kept = [w for w in words if w not in _NAME_NOISE][:_NAME_WORDS]
    return " ".join(kept or words[:_NAME_WORDS]) or "api"


def _version(raw: str, report: Report) -> str:
    """The package version from ``info.version``: PEP 440 as is, a date as ``Y.M.D``, else 0.0.0."""
    date = _DATE.fullmatch(raw.strip())
    version = ".".join(str(int(part)) for part in date.groups()) if date else pep440_version(raw)
    if version is None:
        report.warn("version-normalised", "#/info/version", f"{raw!r} is not PEP 440; using 0.0.0")
        return "0.0.0"
    if version != raw:
        report.info("version-normalised", "#/info/version", f"{raw!r} is used as {version!r}")
    return version


def pep440_version(raw: str) -> str | None:
    """``raw`` in PEP 440's normal form ("1.0.0-beta.2" → "1.0.0b2", "v2" → "2"), or None."""
    match = _PEP440.fullmatch(raw.strip())
    if match is None:
        return None
    parts = match.groupdict()
    text = f"{int(parts['epoch'])}!" if parts["epoch"] else ""
    text += ".".join(str(int(n)) for n in parts["release"].split("."))
    if parts["pre"]:
        text += _PRE_LABELS.get(parts["pre"].lower(), "rc") + str(int(parts["pre_n"] or 0))
    if parts["post_implicit"] or parts["post"] is not None:
        text += f".post{int(parts['post_implicit'] or parts['post_n'] or 0)}"
    if parts["dev"] is not None:
        text += f".dev{int(parts['dev_n'] or 0)}"
    if parts["local"]:
        text += "+" + re.sub(r"[-_]", ".", parts["local"].lower())
    return text


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


def _prompts(api: Api, tools: tuple[Tool, ...], *, reserved: set[str]) -> tuple[Prompt, ...]:
    groups: dict[str, list[Tool]] = {}
    for tool in tools:
        for tag in tool.operation.tags or ("",):
            groups.setdefault(tag, []).append(tool)
    descriptions = {t.name: t.description for t in api.tags}
    ordered = [t.name for t in api.tags if t.name in groups] + [
        tag for tag in groups if tag not in descriptions
    ]
    namer = naming.Namer(max_length=64, reserved=reserved)
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


def _package_metadata(
    api: Api, distribution: str, base_url: str, report: Report
) -> PackageMetadata:
    name = distribution.removesuffix("-mcp")
    return PackageMetadata(
        summary=_summary(api),
        license=_license(api, report),
        keywords=tuple(dict.fromkeys(("mcp", "openapi", name))),
        urls=_urls(api, base_url),
    )


def _summary(api: Api) -> str:
    """One line for the package index: what the server is for, then the spec's first paragraph."""
    title = " ".join(api.title.split())
    subject = title if title.lower().endswith(" api") else f"{title} API"
    line = f"MCP server for the {subject}" if title else "MCP server for an HTTP API"
    about = " ".join(_first_paragraph(api.description).split())
    if about:
        line = f"{line}. {about}"
    line = "".join(" " if ch.isspace() or not ch.isprintable() else ch for ch in line)
    if len(line) > SUMMARY_LIMIT:
        cut = line[: SUMMARY_LIMIT - 2]
        cut = cut.rsplit(" ", 1)[0] if " " in cut else cut[:-1]  # whole words only
        line = cut.rstrip(" .,;:") + "..."
    return line


def _license(api: Api, report: Report) -> str:
    """An SPDX expression from ``info.license`` (``identifier``, else ``name``), or ""."""
    for declared in (api.license_identifier, api.license_name):
        expression = _spdx_expression(declared)
        if expression:
            return expression
    declared = api.license_identifier or api.license_name
    if declared.strip():
        report.info(
            "license-omitted",
            "#/info/license",
            f"{declared.strip()[:80]!r} is not an SPDX license identifier; the package declares "
            "no license",
        )
    return ""


def _spdx_expression(declared: str) -> str:
    """Known SPDX identifiers joined by AND/OR, canonically spelled; "" for anything else."""
    alias = _LICENSE_NAMES.get(" ".join(declared.lower().split()))
    if alias:
        return alias
    tokens = declared.split()
    if not tokens or len(tokens) % 2 == 0:
        return ""
    canonical: list[str] = []
    for index, token in enumerate(tokens):
        if index % 2:
            if token.upper() not in ("AND", "OR"):
                return ""
            canonical.append(token.upper())
        elif token.lower() in _SPDX:
            canonical.append(_SPDX[token.lower()])
        elif _LICENSE_REF.fullmatch(token):
            canonical.append(token)
        else:
            return ""
    return " ".join(canonical)


def _urls(api: Api, base_url: str) -> tuple[tuple[str, str], ...]:
    """``[project.urls]``: the spec's documentation, contact, API, terms and license links."""
    candidates = (
        ("Documentation", api.external_docs_url),
        ("Contact", api.contact_url),
        ("API", base_url),
        ("Terms of Service", api.terms_of_service),
        ("License", api.license_url),
    )
    urls: dict[str, str] = {}
    for label, declared in candidates:
        url = declared.strip()
        if _is_web_url(url) and url not in urls:
            urls[url] = label
    return tuple((label, url) for url, label in urls.items())


def _is_web_url(url: str) -> bool:
    if not url or len(url) > 500 or _CONTROL_OR_SPACE.search(url):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)
