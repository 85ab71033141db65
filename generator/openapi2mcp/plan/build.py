"""Planning: turn an :class:`Api` into the complete :class:`ServerPlan`.

Owns the package-level decisions (distribution, package and server names, the PEP 440 version,
environment variables for the base URL, timeout and each security scheme, instructions, the metadata a
package index shows: summary, SPDX license, keywords, project URLs), the guiding prompts (one per
tag) and how tools are exposed (``ToolExposure``: the tool mode, ``auto`` resolved by the number of
tools; the toolsets, one per tag; how much of the output schemas the catalog keeps). Per-operation
decisions are delegated to ``classify.py``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, assert_never
from urllib.parse import urlsplit

from ..diagnostics import Diagnostic, GenerationError, Report
from ..ir.model import (
    Api,
    ApiKeyScheme,
    HttpBasicScheme,
    HttpBearerScheme,
    OAuth2ClientCredentialsScheme,
    OAuth2PasswordScheme,
    SecurityScheme,
    Server,
)
from ..shipped import runtime_module
from . import naming
from .classify import classify_operations
from .interaction import plan_interaction
from .link_prompts import link_prompts
from .metatools import api_name, code_instructions, dynamic_instructions
from .model import (
    EnvVar,
    PackageMetadata,
    Prompt,
    ServerPlan,
    Tool,
    ToolExposure,
    ToolMode,
    Toolset,
)
from .settings import TOOL_MODES, Settings
from .tag_prompts import delimited, tag_prompts
from .titles import distinct_titles
from .user_prompts import configured_prompts, spec_prompts

if TYPE_CHECKING:
    from runtime.catalog import model as rt

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
UNTAGGED_TOOLSET = "untagged"


def build_plan(api: Api, settings: Settings, report: Report) -> ServerPlan:
    """The plan for ``api`` under ``settings`` (resolved by ``settings.resolve``)."""
    chosen = name_choice(api, settings)
    base = chosen.base
    if not settings.name and naming.framework_title(api.title):
        report.warn(
            "title-names-framework",
            "#/info/title",
            f"{api.title.strip()!r} is the title its framework gives a document and names no "
            f"API; the package is {naming.distribution_name(base)}: give it a name with --name",
        )
    distribution = naming.distribution_name(base)
    package = naming.package_name(distribution)
    prefix = naming.env_prefix(settings.env_prefix or distribution.removesuffix("-mcp"))
    scheme = settings.uri_scheme or naming.uri_scheme(distribution.removesuffix("-mcp"))
    surface = distinct_titles(classify_operations(api, settings, scheme, report))
    security, security_vars = _security(api, prefix)
    base_url_env, timeout_env = f"{prefix}_BASE_URL", f"{prefix}_TIMEOUT"
    base_url = api.servers[0] if api.servers else ""
    if not base_url.startswith(("http://", "https://")):
        # a relative one ("/api", as FastAPI's root_path writes it) is relative to where the
        # document is served, which the generator does not know
        relative = f" (only {base_url!r}, relative to where the spec is served)" if base_url else ""
        example = f", e.g. https://<host>{base_url}" if base_url.startswith("/") else ""
        report.warn(
            "base-url-missing",
            "#/servers",
            f"no absolute server URL in the spec{relative}; set {base_url_env} when running the "
            f"server{example}",
        )
    exposure = _exposure(api, surface.tools, settings, report)
    env_vars = (
        registered_env_var(
            prefix,
            "BASE_URL",
            default=_base_url_default(base_url),
            required=not base_url.startswith(("http://", "https://")),
        ),
        registered_env_var(prefix, "TIMEOUT", default=f"{settings.timeout:g}"),
        *security_vars,
        registered_env_var(prefix, "HEADERS"),
        *_server_env_vars(api, prefix),
    )
    interaction = plan_interaction(surface.tools, settings, security, report)
    # what "as generated" is for this server (a README that says "as generated" tells nothing)
    generated = {"CONFIRM": interaction.confirm}
    return ServerPlan(
        api=api,
        package=package,
        distribution=distribution,
        command=distribution,
        server_name=distribution,
        version=settings.version or _version(api.version, report),
        title=(api.title if not naming.framework_title(api.title) else "") or distribution,
        description=_first_paragraph(api.description) or f"MCP server for {api_name(api.title)}",
        instructions=_instructions(api, surface.tools),
        base_url=base_url,
        uri_scheme=scheme,
        tools=surface.tools,
        resources=surface.resources,
        resource_templates=surface.templates,
        prompts=_prompts(api, surface.tools, settings, report, exposure.toolsets, prefix),
        decisions=surface.decisions,
        env_vars=env_vars,
        base_url_env=base_url_env,
        timeout_env=timeout_env,
        security=security,
        template_completions=surface.template_completions,
        metadata=_package_metadata(api, distribution, base_url, settings),
        operation_tools=surface.all_tools,
        http_env_vars=_registered_env_vars(prefix, "http"),
        tuning_env_vars=_registered_env_vars(prefix, "tuning", generated),
        per_user_env_vars=_registered_env_vars(prefix, "per-user"),
        timeout_seconds=settings.timeout,
        exposure=exposure,
        interaction=interaction,
        upstream_headers=settings.headers,
        credentials=settings.credentials,
        api_name=api_name(api.title),
        deep_object_arrays=settings.deep_object_arrays,
    )


def _exposure(
    api: Api, tools: tuple[Tool, ...], settings: Settings, report: Report
) -> ToolExposure:
    toolsets = _toolsets(api, tools)
    known = {toolset.name for toolset in toolsets}
    unknown = [name for name in settings.toolsets if name not in known]
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
    mode = settings.tool_mode
    if mode not in TOOL_MODES:
        raise GenerationError(
            Diagnostic("tool-mode-unknown", "error", "", f"unknown tool mode {mode!r}")
        )
    if mode == "auto":
        mode = (
            "toolsets"
            if settings.toolsets
            else "dynamic"
            if len(tools) > settings.auto_threshold
            else "full"
        )
    if mode == "toolsets" and not settings.toolsets:
        raise GenerationError(
            Diagnostic(
                "toolsets-missing",
                "error",
                "",
                "tool mode 'toolsets' needs the toolsets to expose (--toolsets repos,issues); "
                "available: " + ", ".join(sorted(known)),
            )
        )
    resolved: dict[str, ToolMode] = {
        "full": "full",
        "dynamic": "dynamic",
        "toolsets": "toolsets",
        "code": "code",
    }
    select_argument, select_tools = _selection(tools, settings)
    return ToolExposure(
        mode=resolved[mode],
        default_toolsets=tuple(dict.fromkeys(settings.toolsets)),
        toolsets=toolsets,
        auto_threshold=settings.auto_threshold,
        output_schemas=settings.output_schemas,
        strict_output=frozenset(t.name for t in tools if t.settings.strict_output),
        description_limit=settings.description_limit,
        dynamic_instructions=_meta_instructions(api, dynamic_instructions(api.title, tools)),
        code_instructions=_meta_instructions(api, code_instructions(api.title, tools)),
        select_argument=select_argument,
        select_tools=select_tools,
    )


def _selection(tools: tuple[Tool, ...], settings: Settings) -> tuple[str, frozenset[str]]:
    """``ToolExposure``'s selection argument (a name no tool has already) and the tools that take
    it (the read tools with a JSON response), unless the config file turns it off."""
    projection = runtime_module("protocol.projection")
    reads = frozenset(
        tool.name
        for tool in tools
        if projection.selectable(tool.annotations.read_only, tool.operation.method, _media(tool))
    )
    name = projection.argument_name(a.name for tool in tools for a in tool.arguments)
    if not (settings.select_argument and reads and name):
        return "", frozenset()
    return name, reads


def _media(tool: Tool) -> str:
    response = tool.operation.response
    return response.content_type if response is not None else ""


def _meta_instructions(api: Api, text: str) -> str:
    """A meta-tool mode's instructions, then the API's own description, delimited."""
    about = _first_paragraph(api.description)
    if about:
        room = INSTRUCTIONS_LIMIT - len(text) - 80
        text = f"{text}\n\n{delimited(about[: max(room, 0)])}"
    return text


def _base_url_default(base_url: str) -> str:
    """The README's default for the base URL: a relative one ("/") is none, being relative to
    where the document was served."""
    if base_url.startswith(("http://", "https://")):
        return base_url
    return (
        f"none; the spec's {base_url!r} is relative to where it is served" if base_url else "none"
    )


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


def _registered_env_vars(
    prefix: str, group: str, generated: Mapping[str, str] | None = None
) -> tuple[EnvVar, ...]:
    """The runtime's variables of one group (its ``environment.VARIABLES``, the one description of
    them), with the values "as generated" for this server where the plan knows them
    (``generated``, by suffix)."""
    environment = runtime_module("environment")
    known = generated or {}
    return tuple(
        EnvVar(
            environment.name(prefix, variable.suffix),
            variable.meaning,
            secret=variable.secret,
            default=(
                known.get(variable.suffix, variable.default)
                if variable.default == environment.GENERATED
                else variable.default
            ),
        )
        for variable in environment.VARIABLES
        if variable.group == group
    )


def registered_env_var(
    prefix: str, suffix: str, *, default: str | None = None, required: bool = False
) -> EnvVar:
    """One of the runtime's variables as the API table shows it; ``default``: this server's, where
    the registry says it is generated."""
    environment = runtime_module("environment")
    variable = environment.variable(suffix)
    return EnvVar(
        environment.name(prefix, suffix),
        variable.meaning,
        required=required,
        secret=variable.secret,
        default=variable.default if default is None else default,
    )


@dataclass(frozen=True, slots=True)
class NameChoice:
    """The API name the package is named after, and where it came from (``inspect`` says)."""

    base: str
    origin: str


def name_choice(api: Api, settings: Settings) -> NameChoice:
    """``--name``, else the config file's ``name`` (``settings.name``), else the title's name for
    the API (``naming.api_words``), else the server host's (``api.stripe.com`` → ``stripe``), else
    the title's first words as they are (a title like "OpenAPI definition" on localhost)."""
    if settings.name:
        return NameChoice(settings.name, settings.name_source)
    title = " ".join(api.title.split())
    framework = naming.framework_title(title)
    short = "" if framework else _short_title(title)
    if short:
        return NameChoice(short, f'info.title "{title}"')
    url = api.servers[0] if api.servers else ""
    host = naming.host_name(url)
    if host:
        where = urlsplit(url if "//" in url else f"//{url}").hostname
        named = f'info.title "{title}" names no API' if title else "no info.title"
        return NameChoice(host, f"the server host {where} ({named})")
    words = [w.lower() for w in re.split(r"[^A-Za-z0-9]+", naming.ascii_fold(title)) if w]
    if words and not framework:
        return NameChoice(" ".join(words[:_NAME_WORDS]), f'info.title "{title}" as written')
    if framework:
        return NameChoice("api", f'nothing (info.title "{title}" names no API, no server host)')
    return NameChoice("api", "nothing (no info.title, no server host)")


def _short_title(title: str) -> str:
    """The API's name from its title, lower case (``naming.api_words``); "" when it has none."""
    return " ".join(word.lower() for word in naming.api_words(title))


def _version(raw: str, report: Report) -> str:
    """The package version from ``info.version``: PEP 440 as is, a date as ``Y.M.D``, else 0.0.0."""
    date = _DATE.fullmatch(raw.strip())
    version = ".".join(str(int(part)) for part in date.groups()) if date else pep440_version(raw)
    if version is None and (lead := _LEADING_VERSION.match(raw)) is not None:
        version = pep440_version(lead.group(1))  # NetBox's "4.7.3 (4.7)": its leading version
    if version is None:
        report.warn("version-normalised", "#/info/version", f"{raw!r} is not PEP 440; using 0.0.0")
        return "0.0.0"
    if version != raw:
        report.info("version-normalised", "#/info/version", f"{raw!r} is used as {version!r}")
    return version


# a version that leads a longer text ("4.7.3 (4.7)", "2.1.0 build 5")
_LEADING_VERSION = re.compile(r"\s*(v?\d+(?:\.\d+)+)(?=[\s(\[,;])")


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


def _basic_password(name: str) -> str:
    """The password's description: set to nothing, the user name goes alone (Stripe's and
    Karrio's keys, ``curl -u key:``)."""
    return f"Password for {name!r} (HTTP basic; set to nothing to send the user name alone)"


def _security(api: Api, prefix: str) -> tuple[dict[str, rt.SecurityScheme], tuple[EnvVar, ...]]:
    entries: dict[str, rt.SecurityScheme] = {}
    env_vars: list[EnvVar] = []
    for name in sorted(api.security_schemes):
        scheme: SecurityScheme = api.security_schemes[name]
        stem = naming.env_name(prefix, name)
        match scheme:
            case ApiKeyScheme():
                env = stem if stem.endswith("KEY") else f"{stem}_KEY"
                key: rt.ApiKeyScheme = {
                    "type": "apiKey",
                    "location": scheme.location,
                    "name": scheme.parameter,
                    "env": env,
                }
                if scheme.prefix:
                    key["prefix"] = scheme.prefix
                # a key sent as X-SLURM-USER-NAME names the user: no secret, never masked
                identity = runtime_module("sensitive").names_someone(scheme.parameter)
                if identity:
                    key["identity"] = True
                # said as the runtime sends it: 'Token <key>', or the whole Authorization header
                what = runtime_module("upstream.schemes").ApiKey(name, key).sent_as()
                entries[name] = key
                env_vars.append(
                    EnvVar(env, f"User name or id for {name!r} (sent as {what})", credential=True)
                    if identity
                    else EnvVar(env, f"API key for {name!r} (sent as {what})", secret=True)
                )
            case HttpBearerScheme():
                env = stem if stem.endswith("TOKEN") else f"{stem}_TOKEN"
                bearer: rt.BearerScheme = {"type": "bearer", "env": env}
                env_vars.append(EnvVar(env, f"Bearer token for {name!r}", secret=True))
                code_flow = scheme.authorization_code
                if code_flow is not None:
                    client_id, secret = f"{stem}_CLIENT_ID", f"{stem}_CLIENT_SECRET"
                    code: rt.AuthorizationCodeSpec = {
                        "authorizationUrl": code_flow.authorization_url,
                        "tokenUrl": code_flow.token_url,
                        "clientIdEnv": client_id,
                        "clientSecretEnv": secret,
                    }
                    if code_flow.refresh_url:
                        code["refreshUrl"] = code_flow.refresh_url
                    bearer["authorizationCode"] = code
                    signin = f"per-user sign-in to {name!r} ({code_flow.authorization_url})"
                    env_vars += [
                        EnvVar(client_id, f"This server's OAuth client id for {signin}"),
                        EnvVar(secret, "Its client secret (none: a public client)", secret=True),
                    ]
                entries[name] = bearer
            case HttpBasicScheme():
                user, password = f"{stem}_USERNAME", f"{stem}_PASSWORD"
                entries[name] = {"type": "basic", "usernameEnv": user, "passwordEnv": password}
                env_vars.append(EnvVar(user, f"User name for {name!r} (HTTP basic)", secret=True))
                env_vars.append(EnvVar(password, _basic_password(name), secret=True))
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
            case OAuth2PasswordScheme():
                token = stem if stem.endswith("TOKEN") else f"{stem}_TOKEN"
                user, password = f"{stem}_USERNAME", f"{stem}_PASSWORD"
                client_id, secret = f"{stem}_CLIENT_ID", f"{stem}_CLIENT_SECRET"
                entries[name] = {
                    "type": "oauth2Password",
                    "tokenUrl": scheme.token_url,
                    "usernameEnv": user,
                    "passwordEnv": password,
                    "clientIdEnv": client_id,
                    "clientSecretEnv": secret,
                    "env": token,
                }
                flow = f"OAuth2 password sign-in for {name!r}"
                env_vars += [
                    EnvVar(user, f"User name: {flow}, tokens from {scheme.token_url}", secret=True),
                    EnvVar(password, f"Password: {flow}", secret=True),
                    EnvVar(client_id, f"Client id, if the token endpoint wants one: {flow}",
                           default="none is sent"),
                    EnvVar(secret, f"Client secret, if the token endpoint wants one: {flow}",
                           secret=True, default="none is sent"),
                    EnvVar(token, f"Access token for {name!r}; when set, used instead of signing "
                           "in with the user name and password", secret=True),
                ]  # fmt: skip
            case _:
                assert_never(scheme)
    return entries, tuple(env_vars)


def ready_credentials(scheme: rt.SecurityScheme) -> tuple[str, ...]:
    """The environment variables that, all set, satisfy a scheme of the catalog without a network
    call (a client-credentials scheme: its ready token, not the client id and secret)."""
    if scheme["type"] == "basic":
        return scheme["usernameEnv"], scheme["passwordEnv"]
    if scheme["type"] == "apiKey" or scheme["type"] == "bearer":
        return (scheme["env"],)
    if scheme["type"] == "oauth2ClientCredentials" or scheme["type"] == "oauth2Password":
        return (scheme["env"],)
    assert_never(scheme["type"])


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
        urls = registered_env_var(prefix, "SERVER_URLS")
        found[urls.name] = dataclasses.replace(
            urls,
            description=f"{urls.description} ({listed}); e.g. "
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
    settings: Settings,
    report: Report,
    toolsets: tuple[Toolset, ...],
    prefix: str,
) -> tuple[Prompt, ...]:
    """The config's prompts, the spec's own (x-mcp), then one per tag, then the workflows of
    response links (names unique, the config's and the spec's kept as written; the generated ones
    fit every tool mode, so they know the toolsets and the variable that selects them)."""
    written = configured_prompts(settings.prompts, report) + spec_prompts(
        api, settings.prompts, report
    )
    namer = naming.Namer(max_length=64, reserved={p.name for p in written})
    tags = tag_prompts(api, tools, namer, report, toolsets, prefix)
    return written + tags + link_prompts(api, tools, namer, report, toolsets)


def _first_paragraph(text: str) -> str:
    return text.strip().split("\n\n", 1)[0].strip()


def _package_metadata(
    api: Api, distribution: str, base_url: str, settings: Settings
) -> PackageMetadata:
    name = distribution.removesuffix("-mcp")
    return PackageMetadata(
        summary=_summary(api),
        license=settings.license,
        api_license=_api_license(api),
        authors=settings.authors,
        classifiers=settings.classifiers,
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
