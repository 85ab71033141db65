"""Planning: turn an :class:`Api` into the complete :class:`ServerPlan`.

Owns the package-level decisions (distribution, package and server names, the PEP 440 version,
environment variables for the base URL, timeout and each security scheme, instructions, the metadata a
package index shows: summary, SPDX license, keywords, project URLs), the guiding prompts (one per
tag) and how tools are exposed (``ToolExposure``: the tool mode, ``auto`` resolved by the number of
tools; the toolsets, one per tag; how much of the output schemas the catalog keeps). Per-operation
decisions are delegated to ``classify.py``.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from ..config import Config
from ..diagnostics import Diagnostic, GenerationError, Report
from ..ir.model import (
    Api,
    ApiKeyScheme,
    HttpBasicScheme,
    HttpBearerScheme,
    OAuth2ClientCredentialsScheme,
    SecurityScheme,
    Server,
)
from ..render.publishing import author, license_expression
from . import naming
from .classify import ClassifyOptions, classify_operations
from .interaction import plan_interaction
from .link_prompts import link_prompts
from .metatools import api_name, dynamic_instructions
from .model import (
    EnvVar,
    OutputSchemas,
    PackageMetadata,
    Prompt,
    ServerPlan,
    Tool,
    ToolExposure,
    ToolMode,
    Toolset,
)
from .tag_prompts import delimited, tag_prompts
from .user_prompts import configured_prompts, spec_prompts

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
# `auto` exposes one tool per operation up to this many tools, and the three meta tools beyond
AUTO_THRESHOLD = 60
TOOL_MODES = ("auto", "full", "dynamic", "toolsets")
OUTPUT_SCHEMAS = ("full", "compact", "none")
UNTAGGED_TOOLSET = "untagged"


@dataclass(frozen=True, slots=True)
class PlanOptions:
    name: str | None = None
    classify: ClassifyOptions = field(default_factory=ClassifyOptions)
    # the package version (already PEP 440, see `pep440_version`); None = from info.version
    version: str | None = None
    # one of TOOL_MODES; `auto` is decided by AUTO_THRESHOLD
    tool_mode: str = "auto"
    # toolset names exposed in toolsets mode (given alone, they ask for toolsets mode)
    toolsets: tuple[str, ...] = ()
    output_schemas: OutputSchemas = "compact"
    # the package's SPDX license and authors ("Name <email>"); None / () = the config file's
    license: str | None = None
    authors: tuple[str, ...] = ()


def build_plan(api: Api, options: PlanOptions, report: Report) -> ServerPlan:
    """Precedence for every setting: defaults < x-mcp < overlays < config file < CLI flags."""
    config = options.classify.config
    base = name_choice(api, options.name, config.name).base
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
    exposure = _exposure(api, surface.tools, options, report)
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
        EnvVar(
            f"{prefix}_HEADERS",
            'Extra headers for every upstream call, as a JSON object (e.g. {"Authorization": '
            '"token ..."}); they replace headers of the same name, never go to another origin, '
            "and credential-like values are masked in results",
            secret=True,
        ),
        *_server_env_vars(api, prefix),
    )
    return ServerPlan(
        api=api,
        package=package,
        distribution=distribution,
        command=distribution,
        server_name=distribution,
        version=options.version or _version(api.version, report),
        title=api.title or distribution,
        description=_first_paragraph(api.description) or f"MCP server for {api_name(api.title)}",
        instructions=_instructions(api, surface.tools),
        base_url=base_url,
        uri_scheme=scheme,
        tools=surface.tools,
        resources=surface.resources,
        resource_templates=surface.templates,
        prompts=_prompts(api, surface.tools, config, report, exposure.toolsets, prefix),
        decisions=surface.decisions,
        env_vars=env_vars,
        base_url_env=base_url_env,
        timeout_env=timeout_env,
        security=security,
        template_completions=surface.template_completions,
        metadata=_package_metadata(api, distribution, base_url, options, report),
        operation_tools=surface.all_tools,
        http_env_vars=_http_env_vars(prefix),
        tuning_env_vars=_tuning_env_vars(prefix),
        timeout_seconds=config.upstream.timeout,
        exposure=exposure,
        interaction=plan_interaction(surface.tools, config.elicitation, security, report),
        upstream_headers=tuple(sorted(config.upstream.headers.items())),
        api_name=api_name(api.title),
        deep_object_arrays=config.deep_object_arrays,
    )


def _exposure(
    api: Api, tools: tuple[Tool, ...], options: PlanOptions, report: Report
) -> ToolExposure:
    toolsets = _toolsets(api, tools)
    known = {toolset.name for toolset in toolsets}
    unknown = [name for name in options.toolsets if name not in known]
    if unknown:
        raise GenerationError(
            Diagnostic(
                "toolset-unknown",
                "error",
                "#/tags",
                f"unknown toolset(s) {', '.join(map(repr, unknown))}; the toolsets are the tags: "
                + ", ".join(sorted(known)),
            )
        )
    mode = options.tool_mode
    if mode not in TOOL_MODES:
        raise GenerationError(
            Diagnostic("tool-mode-unknown", "error", "", f"unknown tool mode {mode!r}")
        )
    if mode == "auto":
        mode = (
            "toolsets" if options.toolsets else "dynamic" if len(tools) > AUTO_THRESHOLD else "full"
        )
    if mode == "toolsets" and not options.toolsets:
        raise GenerationError(
            Diagnostic(
                "toolsets-missing",
                "error",
                "",
                "tool mode 'toolsets' needs the toolsets to expose (--toolsets repos,issues); "
                "available: " + ", ".join(sorted(known)),
            )
        )
    resolved: dict[str, ToolMode] = {"full": "full", "dynamic": "dynamic", "toolsets": "toolsets"}
    return ToolExposure(
        mode=resolved[mode],
        default_toolsets=tuple(dict.fromkeys(options.toolsets)),
        toolsets=toolsets,
        auto_threshold=AUTO_THRESHOLD,
        output_schemas=options.output_schemas,
        strict_output=_strict_output(tools, options.classify.config),
        description_limit=options.classify.description_limit,
        dynamic_instructions=_dynamic_instructions(api, tools),
    )


def _strict_output(tools: tuple[Tool, ...], config: Config) -> frozenset[str]:
    """The tools that advertise their documented output schema (defaults < x-mcp < config)."""
    chosen: set[str] = set()
    for tool in tools:
        op = tool.operation
        flag = op.x_mcp.strict_output
        wanted = config.strict_output
        if isinstance(wanted, tuple):
            key = op.operation_id or op.key
            wanted = any(fnmatch.fnmatchcase(key, glob) for glob in wanted) or None
        strict = flag if wanted is None else wanted
        if strict:
            chosen.add(tool.name)
    return frozenset(chosen)


def _dynamic_instructions(api: Api, tools: tuple[Tool, ...]) -> str:
    text = dynamic_instructions(api.title, tools)
    about = _first_paragraph(api.description)
    if about:
        room = INSTRUCTIONS_LIMIT - len(text) - 80
        text = f"{text}\n\n{delimited(about[: max(room, 0)])}"
    return text


def toolset_name(tag: str) -> str:
    """``Pull Requests`` → ``pull-requests``: how ``--toolsets`` and the env var name a tag."""
    return "-".join(naming.words(tag)) or UNTAGGED_TOOLSET


def _toolsets(api: Api, tools: tuple[Tool, ...]) -> tuple[Toolset, ...]:
    """One toolset per tag (in the spec's tag order), holding the tools of that tag in plan order."""
    groups: dict[str, list[str]] = {}
    for tool in tools:
        for tag in tool.operation.tags or ("",):
            groups.setdefault(tag, []).append(tool.name)
    descriptions = {t.name: t.description for t in api.tags}
    ordered = [t.name for t in api.tags if t.name in groups]
    ordered += [tag for tag in groups if tag not in descriptions]
    namer = naming.Namer(max_length=64)
    return tuple(
        Toolset(
            name=namer.claim(toolset_name(tag), seed=tag),
            tag=tag,
            description=" ".join(descriptions.get(tag, "").split())[:200],
            tools=tuple(dict.fromkeys(groups[tag])),
        )
        for tag in ordered
    )


def _tuning_env_vars(prefix: str) -> tuple[EnvVar, ...]:
    """Read by the runtime on both transports (``dynamic.py``, ``resilience.Policy``, ``stdio``)."""
    return (
        EnvVar(f"{prefix}_TOOL_MODE", "full (a tool per operation), dynamic (three tools that search, "
               "describe and call the operations), toolsets or auto; default: the generated mode"),
        EnvVar(f"{prefix}_TOOLSETS", "Tags exposed in toolsets mode, comma separated; given alone it "
               "selects toolsets mode"),
        EnvVar(f"{prefix}_RETRIES", "Extra attempts after transport errors, timeouts and "
               "502/503/504 for idempotent methods, and after 429 for any method (0-10, default 2); "
               "a 500 is the API's answer and is not retried"),
        EnvVar(f"{prefix}_RETRY_BACKOFF", "Seconds before the first retry, doubling with jitter "
               "(default 0.25)"),
        EnvVar(f"{prefix}_RETRY_MAX_WAIT", "Longest wait before one retry, Retry-After included "
               "(default 10)"),
        EnvVar(f"{prefix}_CIRCUIT_THRESHOLD", "Consecutive failures of one operation (transport "
               "errors, timeouts, 502/503/504) that pause it; others go on (default 5; 0 = off)"),
        EnvVar(f"{prefix}_CIRCUIT_COOLDOWN", "Seconds a paused operation waits before one probe "
               "call (default 30)"),
        EnvVar(f"{prefix}_MAX_CONCURRENCY", "Upstream calls in flight at once (default 64; 0 = no "
               "limit)"),
        EnvVar(f"{prefix}_RATE_LIMIT", "Upstream calls per second, bursts of as many (default 100; "
               "0 = no limit)"),
        EnvVar(f"{prefix}_LIMIT_WAIT", "Seconds a call over the rate or concurrency limit waits "
               "for its turn before it is refused (default 2; 0 = refuse at once)"),
        EnvVar(f"{prefix}_MAX_LINE_BYTES", "Longest stdio message line accepted (default 4194304)"),
        EnvVar(f"{prefix}_MAX_RESULT_CHARS", "Characters one tool result may carry, text and "
               "structured content together; a longer one is cut with a notice saying how to get "
               "the rest (default 1048576, at least 100)"),
        EnvVar(f"{prefix}_OUTPUT_SCHEMAS", "lenient (output schemas real responses satisfy), "
               "strict (as documented) or off (none); default: as generated"),
        EnvVar(f"{prefix}_CONFIRM", "Tool calls that need the user's yes first: off, destructive, "
               "all or when-supported (destructive, for clients that can ask); default: as generated"),
        EnvVar(f"{prefix}_ELICIT_MISSING", "false stops asking the user for required arguments the "
               "model left out (default true)"),
        EnvVar(f"{prefix}_STATE_SECRET", "Secret (16+ bytes) signing the requestState of questions "
               "to the user; replicas behind a load balancer MUST share one (default: random per "
               "process, so a retry reaching another replica fails)", secret=True),
        EnvVar(f"{prefix}_STATE_TTL", "Seconds a question's requestState stays valid (default 600)"),
    )  # fmt: skip


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
               "server whose JWTs (RS256/PS256/ES256) are accepted"),
        EnvVar(f"{prefix}_AUTH_ISSUER", "Required with the JWKS URL: the exact issuer (iss) of the tokens"),
        EnvVar(f"{prefix}_AUTH_AUDIENCE", "Expected audience, aud (default: the public URL)"),
        EnvVar(f"{prefix}_AUTH_REQUIRED_SCOPES", "Scopes every token must carry, space or comma separated"),
        EnvVar(f"{prefix}_AUTH_SCOPE_HIERARCHY", "true (or a separator: ':', '.', '/') lets a granted "
               "scope cover its children: repo covers repo:read (default: exact scopes)"),
        EnvVar(f"{prefix}_AUTH_AUTHORIZATION_SERVERS", "Authorization servers advertised in the "
               "protected resource metadata (default: the issuer)"),
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class NameChoice:
    """The API name the package is named after, and where it came from (``inspect`` says)."""

    base: str
    origin: str


def name_choice(api: Api, name: str | None, config_name: str | None) -> NameChoice:
    """``--name``, else the config file's ``name``, else the title's name for the API
    (``naming.api_words``), else the server host's (``api.stripe.com`` → ``stripe``), else the
    title's first words as they are (a title like "OpenAPI definition" on localhost)."""
    if name:
        return NameChoice(name, "--name")
    if config_name:
        return NameChoice(config_name, "the config file's name")
    title = " ".join(api.title.split())
    short = _short_title(title)
    if short:
        return NameChoice(short, f'info.title "{title}"')
    url = api.servers[0] if api.servers else ""
    host = naming.host_name(url)
    if host:
        where = urlsplit(url if "//" in url else f"//{url}").hostname
        named = f'info.title "{title}" names no API' if title else "no info.title"
        return NameChoice(host, f"the server host {where} ({named})")
    words = [w.lower() for w in re.split(r"[^A-Za-z0-9]+", naming.ascii_fold(title)) if w]
    if words:
        return NameChoice(" ".join(words[:_NAME_WORDS]), f'info.title "{title}" as written')
    return NameChoice("api", "nothing (no info.title, no server host)")


def _short_title(title: str) -> str:
    """The API's name from its title, lower case (``naming.api_words``); "" when it has none."""
    return " ".join(word.lower() for word in naming.api_words(title))


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
            case OAuth2ClientCredentialsScheme():
                token = stem if stem.endswith("TOKEN") else f"{stem}_TOKEN"
                client_id, secret = f"{stem}_CLIENT_ID", f"{stem}_CLIENT_SECRET"
                entries[name] = {
                    "type": "oauth2ClientCredentials",
                    "tokenUrl": scheme.token_url,
                    "clientIdEnv": client_id,
                    "clientSecretEnv": secret,
                    "env": token,
                }
                flow = f"OAuth2 client credentials for {name!r}"
                env_vars += [
                    EnvVar(client_id, f"Client id: {flow}, tokens from {scheme.token_url}", secret=True),
                    EnvVar(secret, f"Client secret: {flow}", secret=True),
                    EnvVar(token, f"Access token for {name!r}; when set, used instead of fetching "
                           "one with the client credentials", secret=True),
                ]  # fmt: skip
    return entries, tuple(env_vars)


def server_variable_env(prefix: str, variable: str) -> str:
    """``PETSTORE_SERVER_REGION``: the variable that sets a server URL's ``{region}``."""
    return naming.env_name(prefix, "SERVER", variable)


def _server_env_vars(api: Api, prefix: str) -> tuple[EnvVar, ...]:
    """One variable per server URL variable (the API's, then each operation's), by name."""
    servers: list[Server] = [api.server] if api.server is not None else []
    servers += [op.server for op in api.operations if op.server is not None]
    found: dict[str, EnvVar] = {}
    for server in servers:
        for variable in server.variables:
            env = server_variable_env(prefix, variable.name)
            if env in found:
                continue
            default = "none" if variable.default is None else repr(variable.default)
            allowed = f"; one of {', '.join(variable.enum)}" if variable.enum else ""
            about = (
                f" ({' '.join(variable.description.split())[:120]})" if variable.description else ""
            )
            if server is api.server:
                scope = f"; not used when {prefix}_BASE_URL is set"
            else:
                scope = "; only for the operations that declare this server"
            found[env] = EnvVar(
                env,
                f"Server URL variable {{{variable.name}}} in {server.url}{about}"
                f" (default: {default}{allowed}{scope})",
                required=variable.default is None and server is api.server,
            )
    own = sorted({op.server.url for op in api.operations if op.server is not None})
    if own:
        listed = ", ".join(own[:3]) + (f" and {len(own) - 3} more" if len(own) > 3 else "")
        found[f"{prefix}_SERVER_URLS"] = EnvVar(
            f"{prefix}_SERVER_URLS",
            "Where the operations with a server of their own send their requests instead, as a "
            f"JSON object of the server URL as the spec declares it to a URL ({listed}); e.g. "
            '{"https://uploads.example.com": "http://127.0.0.1:8080"}',
        )
    return tuple(found.values())


def _instructions(api: Api, tools: tuple[Tool, ...]) -> str:
    about = _first_paragraph(api.description)
    reads = sum(1 for t in tools if t.annotations.read_only)
    text = (
        f"Tools for {api_name(api.title)}: {len(tools)} operations, {reads} of them read-only "
        "(readOnlyHint). Each tool makes one HTTP request to the API and returns its response. "
        "Prefer read-only tools to look things up before changing anything; destructive tools "
        "(destructiveHint) modify or delete data."
    )
    if about:
        room = INSTRUCTIONS_LIMIT - len(text) - 80
        text = f"{text}\n\n{delimited(about[: max(room, 0)])}"
    return text


def _prompts(
    api: Api,
    tools: tuple[Tool, ...],
    config: Config,
    report: Report,
    toolsets: tuple[Toolset, ...],
    prefix: str,
) -> tuple[Prompt, ...]:
    """The config's prompts, the spec's own (x-mcp), then one per tag, then the workflows of
    response links (names unique, the config's and the spec's kept as written; the generated ones
    fit every tool mode, so they know the toolsets and the variable that selects them)."""
    written = configured_prompts(config, report) + spec_prompts(api, config, report)
    namer = naming.Namer(max_length=64, reserved={p.name for p in written})
    tags = tag_prompts(api, tools, namer, report, toolsets, prefix)
    return written + tags + link_prompts(api, tools, namer, report, toolsets)


def _first_paragraph(text: str) -> str:
    return text.strip().split("\n\n", 1)[0].strip()


def _package_metadata(
    api: Api, distribution: str, base_url: str, options: PlanOptions, report: Report
) -> PackageMetadata:
    name = distribution.removesuffix("-mcp")
    declared = options.classify.config.package
    license_ = license_expression(options.license) if options.license else declared.license or ""
    return PackageMetadata(
        summary=_summary(api),
        license=license_,
        api_license=_api_license(api),
        authors=tuple(author(text) for text in options.authors or declared.authors),
        classifiers=declared.classifiers,
        keywords=tuple(dict.fromkeys(("mcp", "openapi", name))),
        urls=_urls(api, base_url),
    )


def _summary(api: Api) -> str:
    """One line for the package index: what the server is for, then the spec's first paragraph."""
    title = " ".join(api.title.split())
    line = f"MCP server for {api_name(title)}" if title else "MCP server for an HTTP API"
    about = " ".join(_first_paragraph(api.description).split())
    if about:
        line = f"{line}. {about}"
    line = "".join(" " if ch.isspace() or not ch.isprintable() else ch for ch in line)
    if len(line) > SUMMARY_LIMIT:
        cut = line[: SUMMARY_LIMIT - 2]
        cut = cut.rsplit(" ", 1)[0] if " " in cut else cut[:-1]  # whole words only
        line = cut.rstrip(" .,;:") + "..."
    return line


def _api_license(api: Api) -> str:
    """The API's license as ``info.license`` declares it: the SPDX expression when it is one, else
    the name as written (the README records it; the package's license is the publisher's)."""
    for declared in (api.license_identifier, api.license_name):
        expression = _spdx_expression(declared)
        if expression:
            return expression
    return " ".join((api.license_name or api.license_identifier).split())[:120]


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
        ("API License", api.license_url),
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
