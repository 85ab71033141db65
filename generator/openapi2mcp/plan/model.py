"""The server plan: every decision about the MCP surface, made by ``classify.py``, consumed by rendering.

A :class:`ServerPlan` says which operations become which MCP primitives, under which names, with which
schemas and annotations. Templates only lay these values out; they never decide anything about the API.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..ir.model import Api, JsonSchema, Operation
from .settings import NO_SETTINGS, OperationSettings, OutputSchemas

if TYPE_CHECKING:
    # what the plan hands to the catalog is in the runtime's own types (catalog/model.py)
    from runtime.catalog import model as rt

Kind = Literal["tool", "resource", "resource_template", "prompt", "skipped"]
# how tools/list presents the tools: one per operation, the selected tags' only, or three meta tools
ToolMode = Literal["full", "dynamic", "toolsets", "code"]


@dataclass(frozen=True, slots=True)
class Annotations:
    title: str
    read_only: bool
    destructive: bool
    idempotent: bool
    open_world: bool = True


@dataclass(frozen=True, slots=True)
class Argument:
    """One tool argument and what it carries upstream."""

    name: str  # the JSON property name in inputSchema
    python_name: str  # the keyword in operations.py
    source: Literal["path", "query", "header", "cookie", "body", "body_property"]
    wire_name: str  # parameter name, body property name, or "" for a whole body
    required: bool
    schema: JsonSchema


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    operation: Operation
    title: str
    description: str
    arguments: tuple[Argument, ...]
    input_schema: JsonSchema
    output_schema: JsonSchema | None
    annotations: Annotations
    python_name: str  # the function name in operations.py
    # an optional, flattened body: the properties it needs once any of its fields is given
    body_requires: tuple[str, ...] = ()
    # what x-mcp and the config file say about the operation, resolved (settings.py)
    settings: OperationSettings = NO_SETTINGS
    # a removal that acts on everything when no argument narrows it: the boolean argument that
    # lets a call do so (runtime protocol.everything); "" for any other tool
    everything: str = ""


@dataclass(frozen=True, slots=True)
class Resource:
    uri: str
    name: str
    title: str
    description: str
    mime_type: str
    operation: Operation


@dataclass(frozen=True, slots=True)
class ResourceTemplate:
    uri_template: str
    name: str
    title: str
    description: str
    mime_type: str
    operation: Operation
    # RFC 6570 variable -> tool argument name; and the JSON type used to convert the matched string
    variables: tuple[tuple[str, str], ...]
    variable_types: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class PromptArgument:
    name: str
    description: str
    required: bool


@dataclass(frozen=True, slots=True)
class PromptPart:
    """Literal text, or the value of a prompt argument; rendered only where its conditions hold.

    The conditions let one generated prompt fit the tool mode the server runs in (the runtime's
    ``catalog.PromptPart`` defines them): ``modes`` (empty: every mode), ``unless_tool`` (that tool
    cannot be called in the mode in force) and ``toolset`` / ``unless_toolset`` (in toolsets mode,
    that toolset is / is not selected).
    """

    text: str = ""
    argument: str = ""
    modes: tuple[ToolMode, ...] = ()
    unless_tool: str = ""
    toolset: str = ""
    unless_toolset: str = ""

    def same_conditions(self, other: PromptPart) -> bool:
        return (self.modes, self.unless_tool, self.toolset, self.unless_toolset) == (
            other.modes,
            other.unless_tool,
            other.toolset,
            other.unless_toolset,
        )


@dataclass(frozen=True, slots=True)
class PromptText:
    """Text content: literal parts and argument values, concatenated by the runtime."""

    parts: tuple[PromptPart, ...]


@dataclass(frozen=True, slots=True)
class PromptImage:
    """Image content, embedded at generation time."""

    data: str  # base64
    mime_type: str


@dataclass(frozen=True, slots=True)
class PromptResource:
    """An embedded text resource; its URI and text are built from parts like text content."""

    uri: tuple[PromptPart, ...]
    mime_type: str
    text: tuple[PromptPart, ...]


PromptContent = PromptText | PromptImage | PromptResource


@dataclass(frozen=True, slots=True)
class PromptMessage:
    role: Literal["user", "assistant"]
    content: PromptContent


@dataclass(frozen=True, slots=True)
class Prompt:
    name: str
    title: str
    description: str
    arguments: tuple[PromptArgument, ...]
    # one user message of text; ignored when `messages` is given
    parts: tuple[PromptPart, ...] = ()
    # argument -> offered completion values
    completions: tuple[tuple[str, tuple[str, ...]], ...] = ()
    messages: tuple[PromptMessage, ...] = ()

    def all_messages(self) -> tuple[PromptMessage, ...]:
        """The messages ``prompts/get`` returns, in order."""
        return self.messages or (PromptMessage("user", PromptText(self.parts)),)


@dataclass(frozen=True, slots=True)
class Decision:
    """What happened to one operation, for ``inspect``."""

    operation: Operation
    kinds: tuple[Kind, ...]
    names: tuple[str, ...]
    annotations: Annotations | None
    note: str = ""


@dataclass(frozen=True, slots=True)
class EnvVar:
    name: str
    description: str
    required: bool = False
    secret: bool = False
    # a credential that is no secret (a user name an API key scheme sends): shown in the client
    # configuration like the secrets
    credential: bool = False
    # what the server does without it ("": nothing, or the description says)
    default: str = ""


@dataclass(frozen=True, slots=True)
class PackageMetadata:
    """What the generated ``pyproject.toml`` tells a package index about the server."""

    summary: str = ""  # one line, bounded
    # the package's SPDX license expression, the publisher's choice ("" when none was given)
    license: str = ""
    # the API's own license as its description declares it (name, SPDX id or both), for the README
    api_license: str = ""
    # (name, email) pairs, either may be ""
    authors: tuple[tuple[str, str], ...] = ()
    # besides the generated ones
    classifiers: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    # (label, absolute http(s) URL) for [project.urls], in display order
    urls: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Toolset:
    """The exposed tools of one OpenAPI tag; ``name`` is what ``--toolsets`` and the env var take."""

    name: str
    tag: str
    description: str
    tools: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ToolExposure:
    """The catalog's tool modes and how much of each schema it keeps (``planning.py`` decides)."""

    mode: ToolMode = "full"
    # the toolsets exposed in toolsets mode unless the environment names others
    default_toolsets: tuple[str, ...] = ()
    toolsets: tuple[Toolset, ...] = ()
    # `auto` (at generation or at run time) is dynamic above this many tools
    auto_threshold: int = 60
    output_schemas: OutputSchemas = "compact"
    # tools whose advertised output schema is the documented one (x-mcp strictOutput, the config
    # file's strict_output); every other tool advertises the lenient form (compact.lenient_output)
    strict_output: frozenset[str] = frozenset()
    # longest description kept inside input schemas (tool descriptions are capped by classify)
    description_limit: int = 1024
    # the server's instructions when it runs in dynamic mode, and in code mode
    dynamic_instructions: str = ""
    code_instructions: str = ""
    # the argument of read tools that carries a JMESPath selection ("": none takes one), and the
    # tools that take it (the runtime's protocol/projection.py says which may and what it does)
    select_argument: str = ""
    select_tools: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class InteractionPlan:
    """Server-wide defaults and each tool's catalog ``interaction`` entry (tools without one omitted)."""

    confirm: str = "off"
    elicit_missing: bool = True
    tools: Mapping[str, rt.ToolInteraction] | None = None

    def defaults(self) -> rt.Interaction:
        return {"confirm": self.confirm, "elicitMissing": self.elicit_missing}

    def for_tool(self, name: str) -> rt.ToolInteraction | None:
        return (self.tools or {}).get(name)


@dataclass(frozen=True, slots=True)
class ServerPlan:
    api: Api
    package: str  # python import name, e.g. "petstore_mcp"
    distribution: str  # e.g. "petstore-mcp"
    command: str  # console script, same as distribution
    server_name: str  # MCP serverInfo.name
    version: str  # package version (PEP 440)
    title: str
    description: str
    instructions: str
    base_url: str
    uri_scheme: str
    tools: tuple[Tool, ...]
    resources: tuple[Resource, ...]
    resource_templates: tuple[ResourceTemplate, ...]
    prompts: tuple[Prompt, ...]
    decisions: tuple[Decision, ...]
    env_vars: tuple[EnvVar, ...]
    base_url_env: str
    timeout_env: str
    # scheme name -> catalog entry (runtime's SecurityScheme shape)
    security: Mapping[str, rt.SecurityScheme]
    # template variable completions: uri_template -> ((variable, values), ...)
    template_completions: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...] = ()
    metadata: PackageMetadata = PackageMetadata()
    # users' task phrasings and the tools that serve each (``--search-examples``), for the search
    search_examples: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # every callable operation (exposed tools plus reads kept only as resources), for the catalog's
    # request data and the typed client; empty means "the same as tools"
    operation_tools: tuple[Tool, ...] = ()
    # variables read only by the HTTP transport (origins, limits, inbound auth)
    http_env_vars: tuple[EnvVar, ...] = ()
    # tool mode, retries, circuit breaker and limits (both transports)
    tuning_env_vars: tuple[EnvVar, ...] = ()
    # per-user credentials (peruser/ of the runtime): read over HTTP when the mode is per-user
    per_user_env_vars: tuple[EnvVar, ...] = ()
    timeout_seconds: float = 30.0
    exposure: ToolExposure = ToolExposure()
    # questions for the user and the confirmation policy (interaction.py)
    interaction: InteractionPlan = InteractionPlan()
    # the API as prose names it: "the GitHub API" (metatools.api_name)
    api_name: str = ""
    # headers sent with every upstream call (the config file's [upstream.headers])
    upstream_headers: tuple[tuple[str, str], ...] = ()
    # whose credentials calls carry unless <PREFIX>_CREDENTIALS says: environment or per-user
    credentials: str = "environment"
    # arrays inside deepObject values: the config's setting (None: x-mcp per operation, else
    # indexed)
    deep_object_arrays: str | None = None

    @property
    def env_prefix(self) -> str:
        """The prefix of the server's environment variables: ``PETSTORE`` of ``PETSTORE_BASE_URL``."""
        return self.base_url_env.removesuffix("_BASE_URL")

    @property
    def callable_tools(self) -> tuple[Tool, ...]:
        return self.operation_tools or self.tools
