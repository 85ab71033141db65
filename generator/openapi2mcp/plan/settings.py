"""The settings step: every setting resolved once, defaults < x-mcp < overlays < config < CLI flags.

The defaults are the config file's (``config.Config``'s field defaults); the spec's ``x-mcp`` arrives
typed from the parser (``ir/x_mcp.py``), overlays have already edited the document (so what they set
is x-mcp too), the config file is ``config.Config`` and the command line is :class:`Flags`.
:func:`resolve` lays them over each other into :class:`Settings` (what holds for the whole server)
and :meth:`Settings.for_operation` into :class:`OperationSettings` (what holds for one operation, with
the setting that decided its place). The stages after this read these two and nothing else: no stage
compares a flag with the config file or an ``x-mcp`` key itself.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from ..config import AnnotationOverride, Config, ConfirmPolicy, PromptConfig, Rule
from ..ir.model import Operation
from ..ir.x_mcp import DeepObjectArrays, XMcp, XMcpQuestion
from ..render.publishing import author, license_expression

OutputSchemas = Literal["full", "compact", "none"]
ToolModeSetting = Literal["auto", "full", "dynamic", "toolsets", "code"]
TOOL_MODES: tuple[ToolModeSetting, ...] = ("auto", "full", "dynamic", "toolsets", "code")
OUTPUT_SCHEMAS: tuple[OutputSchemas, ...] = ("full", "compact", "none")
# true: always ask, false: never, "when-supported": only clients that can ask
Confirm = bool | Literal["when-supported"]
_DEFAULTS = Config()
# `auto` exposes one tool per operation up to this many tools, and the three meta tools beyond
AUTO_THRESHOLD = _DEFAULTS.auto_threshold
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Flags:
    """The command line's settings; ``None`` or ``()``: not given, the config file decides."""

    name: str | None = None
    max_name_length: int | None = None
    include_deprecated: bool | None = None
    # the package version, PEP 440 normal form; None: from info.version
    version: str | None = None
    tool_mode: str | None = None
    toolsets: tuple[str, ...] = ()
    output_schemas: OutputSchemas = "compact"
    description_limit: int | None = None
    license: str | None = None
    authors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Placement:
    """Where one operation goes, and which setting decided it (shown by ``inspect``)."""

    kind: str  # "default", "tool", "resource", "resource_template", "exclude"
    read_tool: bool
    source: str
    # decided by an x-mcp default of the document or a path item (does not bring back deprecated ones)
    inherited: bool = False


DEFAULT_PLACEMENT = Placement("default", True, "default")


@dataclass(frozen=True, slots=True)
class OperationSettings:
    """What the settings say about one operation (:meth:`Settings.for_operation`)."""

    placement: Placement = DEFAULT_PLACEMENT
    # the tool name asked for: the config file's [rename], else x-mcp name (None: from operationId)
    name: str | None = None
    title: str = ""
    description: str = ""
    # hint overrides in the order they apply: x-mcp annotations, then the config file's (by
    # operationId; :meth:`annotations` also finds them by tool name)
    x_mcp_annotations: AnnotationOverride | None = None
    config_annotations: AnnotationOverride | None = None
    # a confirmation asked for by the config file's [elicitation.tools] or x-mcp confirm
    confirm: Confirm | None = None
    questions: tuple[XMcpQuestion, ...] = ()
    # advertise the documented output schema rather than the lenient form
    strict_output: bool = False
    # the operation's own array style for deepObject and form fields, where the config file sets
    # none for the whole server (None: the server's)
    deep_object_arrays: DeepObjectArrays | None = None


# the settings of an operation nothing says anything about
NO_SETTINGS = OperationSettings()


@dataclass(frozen=True, slots=True)
class Settings:
    """Every server-wide setting, resolved; :meth:`for_operation` gives one operation's."""

    # the package name asked for and by whom (None: the planner derives one from the spec)
    name: str | None = None
    name_source: str = ""
    version: str | None = None
    max_name_length: int = _DEFAULTS.max_name_length
    include_deprecated: bool = _DEFAULTS.include_deprecated
    description_limit: int = _DEFAULTS.description_limit
    # as asked for; "auto" is decided by the planner against auto_threshold
    tool_mode: str = _DEFAULTS.tool_mode
    toolsets: tuple[str, ...] = ()
    auto_threshold: int = _DEFAULTS.auto_threshold
    output_schemas: OutputSchemas = "compact"
    uri_scheme: str | None = None
    env_prefix: str | None = None
    timeout: float = _DEFAULTS.upstream.timeout
    headers: tuple[tuple[str, str], ...] = ()
    credentials: str = _DEFAULTS.upstream.credentials
    # for every operation whose x-mcp sets none (None: indexed, the runtime's default)
    deep_object_arrays: DeepObjectArrays | None = None
    confirm: ConfirmPolicy = _DEFAULTS.elicitation.confirm
    missing_arguments: bool = _DEFAULTS.elicitation.missing_arguments
    # the package's SPDX license ("" for none declared), authors (name, email) and extra classifiers
    license: str = ""
    authors: tuple[tuple[str, str], ...] = ()
    classifiers: tuple[str, ...] = ()
    prompts: tuple[PromptConfig, ...] = ()
    # what the config file says per operation; read through for_operation
    rules: tuple[Rule, ...] = ()
    rename: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, AnnotationOverride] = field(default_factory=dict)
    confirm_overrides: Mapping[str, Confirm] = field(default_factory=dict)
    strict_output: bool | tuple[str, ...] | None = None
    # read tools take a JMESPath selection argument (the config file's [tools] select_argument)
    select_argument: bool = _DEFAULTS.tools.select_argument

    def for_operation(self, op: Operation) -> OperationSettings:
        """One operation's settings: its x-mcp (document < path item < operation) < the config."""
        x_mcp = op.x_mcp
        key = op.operation_id or op.key
        confirm = self.confirm_overrides.get(op.operation_id) if op.operation_id else None
        if confirm is None:
            confirm = x_mcp.confirm
        return OperationSettings(
            placement=self._placement(op),
            name=self.rename.get(key) or x_mcp.name,
            title=_text(x_mcp.title),
            description=_text(x_mcp.description),
            x_mcp_annotations=_x_mcp_annotations(x_mcp),
            config_annotations=self.annotations.get(key),
            confirm=confirm,
            questions=x_mcp.elicit or (),
            strict_output=self._strict_output(op),
            deep_object_arrays=None if self.deep_object_arrays else x_mcp.deep_object_arrays,
        )

    def annotations_for(
        self, op: OperationSettings, tool_name: str
    ) -> tuple[AnnotationOverride | None, ...]:
        """The hint overrides of an operation whose tool is ``tool_name``, in the order they apply
        (the config file's ``[annotations.<name>]`` may name the tool rather than the operationId)."""
        return op.x_mcp_annotations, op.config_annotations or self.annotations.get(tool_name)

    def _placement(self, op: Operation) -> Placement:
        """The config file's first matching rule, else x-mcp's kind/exclude/read_tool, else default."""
        for index, rule in enumerate(self.rules):
            if rule.matches(op.method, op.path, op.tags, op.operation_id or op.key):
                return Placement(rule.kind, rule.read_tool, f"config rule #{index + 1}")
        x_mcp = op.x_mcp
        if x_mcp.exclude is True:
            return _x_mcp_placement(op, "exclude", "exclude", True)
        read_tool = x_mcp.read_tool is not False
        kind = x_mcp.kind
        if kind is not None:
            inherited = _x_mcp_origin(op, "kind") is not None
            # a default of the document or path item applies where it can: only GETs can be read
            if not (inherited and op.method != "GET" and kind.startswith("resource")):
                return _x_mcp_placement(op, "kind", kind, read_tool)
        if not read_tool and op.method == "GET":
            return _x_mcp_placement(op, "read_tool", "default", read_tool)
        return DEFAULT_PLACEMENT

    def _strict_output(self, op: Operation) -> bool:
        wanted = self.strict_output
        if isinstance(wanted, tuple):
            key = op.operation_id or op.key
            wanted = any(fnmatch.fnmatchcase(key, glob) for glob in wanted) or None
        return bool(op.x_mcp.strict_output if wanted is None else wanted)


def resolve(flags: Flags, config: Config) -> Settings:
    """The command line's flags over the config file (whose own defaults are the defaults)."""
    name, name_source = (
        (flags.name, "--name") if flags.name else (config.name, "the config file's name")
    )
    package = config.package
    return Settings(
        name=name or None,
        name_source=name_source if name else "",
        version=flags.version,
        max_name_length=flags.max_name_length or config.max_name_length,
        include_deprecated=_given(flags.include_deprecated, config.include_deprecated),
        description_limit=_given(flags.description_limit, config.description_limit),
        tool_mode=_tool_mode(flags, config),
        toolsets=flags.toolsets or config.toolsets,
        auto_threshold=config.auto_threshold,
        output_schemas=flags.output_schemas,
        uri_scheme=config.uri_scheme,
        env_prefix=config.upstream.env_prefix,
        timeout=config.upstream.timeout,
        headers=tuple(sorted(config.upstream.headers.items())),
        credentials=config.upstream.credentials,
        deep_object_arrays=config.deep_object_arrays,
        confirm=config.elicitation.confirm,
        missing_arguments=config.elicitation.missing_arguments,
        license=license_expression(flags.license) if flags.license else package.license or "",
        authors=tuple(author(text) for text in flags.authors or package.authors),
        classifiers=package.classifiers,
        prompts=config.prompts,
        rules=config.rules,
        rename=config.rename,
        annotations=config.annotations,
        confirm_overrides=config.elicitation.tools,
        strict_output=config.strict_output,
        select_argument=config.tools.select_argument,
    )


def _tool_mode(flags: Flags, config: Config) -> str:
    """CLI flags outrank the whole config file: ``--toolsets`` alone selects toolsets mode whatever
    ``tool_mode`` the file names, as it does without a file."""
    if flags.tool_mode is not None:
        return flags.tool_mode
    if flags.toolsets:
        return "toolsets"
    return config.tool_mode


def _given(flag: T | None, configured: T) -> T:
    return configured if flag is None else flag


def _x_mcp_annotations(x_mcp: XMcp) -> AnnotationOverride | None:
    """The ``x-mcp`` hints in the config file's terms (the parser has dropped invalid ones)."""
    if x_mcp.annotations is None:
        return None
    return AnnotationOverride.model_validate(x_mcp.annotations.model_dump(exclude_none=True))


def _x_mcp_origin(op: Operation, key: str) -> str | None:
    """The pointer of the document's or path item's ``x-mcp`` that set ``key``; None for the op's own."""
    origin = op.x_mcp_origins.get(key)
    return None if origin is None or origin == f"{op.pointer}/x-mcp" else origin


def _x_mcp_placement(op: Operation, key: str, kind: str, read_tool: bool) -> Placement:
    origin = _x_mcp_origin(op, key)
    source = "x-mcp" if origin is None else f"x-mcp at {origin}"
    return Placement(kind, read_tool, source, inherited=origin is not None)


def _text(value: str | None) -> str:
    return value.strip() if value is not None else ""
