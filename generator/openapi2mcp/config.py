"""The configuration file, ``openapi2mcp.toml``: steer generation without editing the spec.

Validated with pydantic; an unknown key is an error that names it (as a dotted path) and suggests the
closest valid one. ``[[rules]]`` form an ordered table (first match wins) that overrides the default
classification; ``[rename]``, ``[annotations.<operationId>]`` and ``[[prompts]]`` adjust single items.
A prompt is one ``template`` (a user message) or a list of ``messages``, each text, an image (a file
next to the config, embedded as base64 when the config is loaded, or inline base64) or an embedded
text resource; ``{argument}`` placeholders may appear in texts and in a resource's URI and text.
"""

from __future__ import annotations

import base64
import binascii
import difflib
import fnmatch
import mimetypes
import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .diagnostics import Diagnostic, GenerationError
from .render.publishing import author, classifier, license_expression

CONFIG_NAME = "openapi2mcp.toml"
RuleKind = Literal["tool", "resource", "resource_template", "exclude"]
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_HEADER_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_SERVER_HEADERS = frozenset(
    {"host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te"}
    | {"trailer", "proxy-connection", "content-type", "accept-encoding"}
)
# an image is embedded in catalog.json; keep the catalog (read at every start-up) small
MAX_IMAGE_BYTES = 1024 * 1024


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Rule(_Strict):
    """Matches operations; every given criterion must hold (globs for path and operationId)."""

    methods: tuple[str, ...] | None = None
    path: str | None = None
    tags: tuple[str, ...] | None = None
    operation_id: str | None = None
    kind: RuleKind
    read_tool: bool = Field(
        default=True, description="for resources/templates: keep the read-only tool as well"
    )

    @field_validator("methods")
    @classmethod
    def _upper(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        return None if value is None else tuple(m.upper() for m in value)

    def matches(self, method: str, path: str, tags: tuple[str, ...], operation_id: str) -> bool:
        return (
            (self.methods is None or method in self.methods)
            and (self.path is None or fnmatch.fnmatchcase(path, self.path))
            and (self.tags is None or bool(set(self.tags) & set(tags)))
            and (self.operation_id is None or fnmatch.fnmatchcase(operation_id, self.operation_id))
        )


class AnnotationOverride(_Strict):
    title: str | None = None
    read_only: bool | None = None
    destructive: bool | None = None
    idempotent: bool | None = None
    open_world: bool | None = None


class PromptArgumentConfig(_Strict):
    name: str
    description: str = ""
    required: bool = False
    values: tuple[str, ...] = ()


class PromptImageConfig(_Strict):
    """An image message: a ``file`` next to the config, or base64 ``data``; ``mime_type`` image/*."""

    file: str | None = None
    data: str | None = None
    # default: from the file name's extension
    mime_type: str | None = None


class PromptResourceConfig(_Strict):
    """An embedded text resource; ``uri`` and ``text`` may hold placeholders."""

    uri: str
    text: str
    mime_type: str = "text/plain"


class PromptMessageConfig(_Strict):
    """One message: exactly one of ``text``, ``image`` and ``resource``."""

    role: Literal["user", "assistant"] = "user"
    text: str | None = None
    image: PromptImageConfig | None = None
    resource: PromptResourceConfig | None = None


class PromptConfig(_Strict):
    name: str
    title: str = ""
    description: str = ""
    arguments: tuple[PromptArgumentConfig, ...] = ()
    # literal text with {argument} placeholders; `{{` and `}}` stand for braces. One user message;
    # `messages` instead gives several, with roles and other content types
    template: str | None = None
    messages: tuple[PromptMessageConfig, ...] = ()

    def texts(self) -> Iterator[tuple[str, str]]:
        """Every text that may hold placeholders, with the key it comes from."""
        if self.template is not None:
            yield "template", self.template
        for index, message in enumerate(self.messages):
            key = f"messages[{index}]"
            if message.text is not None:
                yield f"{key}.text", message.text
            if message.resource is not None:
                yield f"{key}.resource.uri", message.resource.uri
                yield f"{key}.resource.text", message.resource.text

    def placeholders(self) -> list[str]:
        return [name for _, text in self.texts() for name in placeholders(text)]


def placeholders(text: str) -> list[str]:
    """The argument names a text refers to, in order (``{{``/``}}`` are literal braces)."""
    return _PLACEHOLDER.findall(text.replace("{{", "").replace("}}", ""))


ConfirmPolicy = Literal["off", "destructive", "all", "when-supported"]


class ElicitationConfig(_Strict):
    """Asking the user (the generated server's ``interaction`` runtime module).

    ``confirm``: which tool calls need the user's explicit yes (``when-supported``: destructive ones,
    and only for clients that can ask). ``tools``: per-operationId overrides, ``true`` (always ask),
    ``false`` (never) or ``"when-supported"``. ``missing_arguments``: ask the user for required
    arguments the model left out (form-compatible ones, never secrets).
    """

    confirm: ConfirmPolicy = "off"
    missing_arguments: bool = True
    tools: dict[str, bool | Literal["when-supported"]] = Field(default_factory=dict)


class ToolsConfig(_Strict):
    """``[tools]``: what the generated tools take besides the operations' own arguments.

    ``select_argument``: read tools (and ``call_operation`` for read operations) take ``_select``, a
    JMESPath expression that picks what they return from the JSON response; ``false`` leaves it out
    (and the ``jmespath`` dependency with it).
    """

    select_argument: bool = True


class UpstreamConfig(_Strict):
    timeout: float = Field(default=30.0, gt=0)
    env_prefix: str | None = None
    # sent with every call; not secrets (those go in <PREFIX>_HEADERS at run time)
    headers: dict[str, str] = Field(default_factory=dict)
    # whose credentials calls carry by default: the server's (environment), each caller's own
    # (per-user) or tokens exchanged for each caller's inbound one (exchange; both need HTTP with
    # inbound authentication); <PREFIX>_CREDENTIALS overrides it
    credentials: Literal["environment", "per-user", "exchange"] = "environment"

    @field_validator("headers")
    @classmethod
    def _usable_headers(cls, value: dict[str, str]) -> dict[str, str]:
        # the same rules as the runtime's upstream_credentials, checked before anything is written
        for name, text in value.items():
            if not _HEADER_NAME.fullmatch(name):
                raise ValueError(f"{name[:60]!r} is not a valid header name")
            if name.lower() in _SERVER_HEADERS:
                raise ValueError(f"the header {name} is set by the server itself")
            if any(not (" " <= c <= "~" or c == "\t") for c in text):
                raise ValueError(f"the value of header {name} must be printable ASCII on one line")
        return value


class PackageConfig(_Strict):
    """``[package]``: what the publisher declares about the generated package (``--license`` and
    ``--author`` override ``license`` and ``authors``)."""

    # an SPDX expression for the generated code and runtime (not the API's own license)
    license: str | None = None
    # "Name <email>", "Name" or "<email>"
    authors: tuple[str, ...] = ()
    # added to the generated ones, e.g. "Development Status :: 4 - Beta"
    classifiers: tuple[str, ...] = ()

    @field_validator("license")
    @classmethod
    def _spdx(cls, value: str | None) -> str | None:
        return None if value is None else license_expression(value)

    @field_validator("authors")
    @classmethod
    def _authors(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for text in value:
            author(text)
        return value

    @field_validator("classifiers")
    @classmethod
    def _classifiers(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(classifier(text) for text in value)


class Config(_Strict):
    name: str | None = None
    max_name_length: int = Field(default=64, ge=8, le=128)
    include_deprecated: bool = False
    description_limit: int = Field(default=1024, ge=0)
    # how tools/list presents the operations (`--tool-mode` and `--toolsets` override these)
    tool_mode: Literal["auto", "full", "dynamic", "toolsets", "code"] = "auto"
    toolsets: tuple[str, ...] = ()
    # users' task phrasings, each with the operations that serve it (a query file as `openapi2mcp
    # eval` reads, relative to this file): the search learns users' words from them
    search_examples: str | None = None
    # `auto` is full up to this many tools and dynamic beyond (also when chosen at run time)
    auto_threshold: int = Field(default=60, ge=1)
    uri_scheme: str | None = Field(default=None, pattern=r"^[A-Za-z][A-Za-z0-9+.\-]*$")
    # advertise the documented output schemas: true for all, or operationId globs; false for none
    # (None: as each operation's x-mcp strictOutput says, lenient otherwise)
    strict_output: bool | tuple[str, ...] | None = None
    # how arrays inside deepObject query parameters and form fields are written: indexed (a[0]=x,
    # as Stripe documents), brackets (a[]=x) or repeat (a=x&a=y); None: x-mcp, else indexed
    deep_object_arrays: Literal["indexed", "brackets", "repeat"] | None = None
    rules: tuple[Rule, ...] = ()
    rename: dict[str, str] = Field(default_factory=dict)
    annotations: dict[str, AnnotationOverride] = Field(default_factory=dict)
    prompts: tuple[PromptConfig, ...] = ()
    tools: ToolsConfig = Field(default_factory=ToolsConfig)
    upstream: UpstreamConfig = Field(default_factory=UpstreamConfig)
    elicitation: ElicitationConfig = Field(default_factory=ElicitationConfig)
    package: PackageConfig = Field(default_factory=PackageConfig)

    def rule_for(
        self, method: str, path: str, tags: tuple[str, ...], operation_id: str
    ) -> tuple[int, Rule] | None:
        for index, rule in enumerate(self.rules):
            if rule.matches(method, path, tags, operation_id):
                return index, rule
        return None


def find_config(spec: Path | None, explicit: Path | None) -> Path | None:
    """``--config`` when given, else ``openapi2mcp.toml`` next to the spec, else none."""
    if explicit is not None:
        return explicit
    if spec is not None:
        candidate = spec.parent / CONFIG_NAME
        if candidate.is_file():
            return candidate
    return None


def load_config(path: Path | None) -> Config:
    if path is None:
        return Config()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise _error(path, f"cannot read: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise _error(path, f"invalid TOML: {exc}") from exc
    return parse_config(data, source=path.name, base_dir=path.parent)


def parse_config(
    data: Mapping[str, Any], *, source: str = CONFIG_NAME, base_dir: Path | None = None
) -> Config:
    """Validate ``data``; image files are read from ``base_dir`` (the config file's folder)."""
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        raise _error(Path(source), _explain(exc)) from exc
    try:
        for prompt in config.prompts:
            _check_prompt(prompt)
        prompts = tuple(_embed_images(prompt, base_dir) for prompt in config.prompts)
    except _ConfigProblem as exc:
        raise _error(Path(source), str(exc)) from None
    return config.model_copy(update={"prompts": prompts})


class _ConfigProblem(Exception):
    """A problem found after validation; the message starts with the key."""


def _check_prompt(prompt: PromptConfig) -> None:
    key = f"prompts.{prompt.name}"
    if (prompt.template is None) == (not prompt.messages):
        raise _ConfigProblem(f"{key}: give either template or messages (one of them)")
    declared: dict[str, bool] = {}
    for argument in prompt.arguments:
        if argument.name in declared:
            raise _ConfigProblem(f"{key}.arguments: {argument.name!r} is declared twice")
        declared[argument.name] = argument.required
    for index, message in enumerate(prompt.messages):
        given = [k for k in ("text", "image", "resource") if getattr(message, k) is not None]
        if len(given) != 1:
            raise _ConfigProblem(
                f"{key}.messages[{index}]: give exactly one of text, image, resource"
            )
    for where, text in prompt.texts():
        for name in placeholders(text):
            if name not in declared:
                raise _ConfigProblem(f"{key}: {where} uses undeclared argument {name!r}")
            # a resource needs a URI: an omitted optional argument would leave it empty
            if where.endswith(".resource.uri") and not declared[name]:
                raise _ConfigProblem(
                    f"{key}: {where} uses optional argument {name!r}; make it required"
                )


def _embed_images(prompt: PromptConfig, base_dir: Path | None) -> PromptConfig:
    """The prompt with every image's base64 ``data`` and ``mime_type`` filled in."""
    messages = []
    for index, message in enumerate(prompt.messages):
        if message.image is None:
            messages.append(message)
            continue
        key = f"prompts.{prompt.name}.messages[{index}].image"
        image = _embedded(message.image, base_dir, key)
        messages.append(message.model_copy(update={"image": image}))
    return prompt.model_copy(update={"messages": tuple(messages)})


def _embedded(image: PromptImageConfig, base_dir: Path | None, key: str) -> PromptImageConfig:
    if (image.file is None) == (image.data is None):
        raise _ConfigProblem(f"{key}: give either file or data (one of them)")
    mime_type = image.mime_type
    if image.file is not None:
        raw = _read_image(image.file, base_dir, f"{key}.file")
        data = base64.b64encode(raw).decode("ascii")
        mime_type = mime_type or mimetypes.guess_type(image.file, strict=False)[0]
    else:
        assert image.data is not None
        data = "".join(image.data.split())
        try:
            raw = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise _ConfigProblem(f"{key}.data: not valid base64") from None
        if len(raw) > MAX_IMAGE_BYTES:
            raise _ConfigProblem(f"{key}.data: larger than {MAX_IMAGE_BYTES} bytes")
    if mime_type is None or not mime_type.startswith("image/"):
        raise _ConfigProblem(f"{key}.mime_type: needed, an image/* type (e.g. image/png)")
    return PromptImageConfig(file=image.file, data=data, mime_type=mime_type)


def _read_image(name: str, base_dir: Path | None, key: str) -> bytes:
    if base_dir is None:
        raise _ConfigProblem(f"{key}: image files need a config file to be relative to")
    folder = base_dir.resolve()
    path = (folder / name).resolve()
    # like $refs, files come only from the config's own folder tree
    if Path(name).is_absolute() or not path.is_relative_to(folder):
        raise _ConfigProblem(f"{key}: {name!r} is outside the config file's folder")
    try:
        if path.stat().st_size > MAX_IMAGE_BYTES:
            raise _ConfigProblem(f"{key}: {name!r} is larger than {MAX_IMAGE_BYTES} bytes")
        return path.read_bytes()
    except OSError as exc:
        raise _ConfigProblem(f"{key}: cannot read {name!r}: {exc.strerror or exc}") from None


def _explain(exc: ValidationError) -> str:
    first = exc.errors()[0]
    location = ".".join(str(part) for part in first["loc"])
    if first["type"] == "extra_forbidden":
        key = str(first["loc"][-1])
        parent = _model_at(first["loc"][:-1])
        hint = difflib.get_close_matches(key, list(parent.model_fields), n=1) if parent else []
        suggestion = f"; did you mean {hint[0]!r}?" if hint else ""
        return f"unknown key {location!r}{suggestion}"
    return f"{location}: {first['msg']}"


def _model_at(loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The model class that owns the key at ``loc`` (for suggestions)."""
    model: type[BaseModel] = Config
    mapping_key_next = False
    for part in loc:
        if isinstance(part, int):
            continue
        if mapping_key_next:  # a user-chosen key of a table such as [annotations.<operationId>]
            mapping_key_next = False
            continue
        field = model.model_fields.get(part)
        inner = _inner_model(field.annotation) if field is not None else None
        if field is None or inner is None:
            return None
        model = inner
        mapping_key_next = getattr(field.annotation, "__origin__", None) is dict
    return model


def _inner_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


def _error(path: Path, message: str) -> GenerationError:
    return GenerationError(Diagnostic("config-invalid", "error", "", f"{path.name}: {message}"))
