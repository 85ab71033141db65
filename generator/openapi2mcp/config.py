"""The configuration file, ``openapi2mcp.toml``: steer generation without editing the spec.

Validated with pydantic; an unknown key is an error that names it (as a dotted path) and suggests the
closest valid one. ``[[rules]]`` form an ordered table (first match wins) that overrides the default
classification; ``[rename]``, ``[annotations.<operationId>]`` and ``[[prompts]]`` adjust single items.
"""

from __future__ import annotations

import difflib
import fnmatch
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .diagnostics import Diagnostic, GenerationError

CONFIG_NAME = "openapi2mcp.toml"
RuleKind = Literal["tool", "resource", "resource_template", "exclude"]
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


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


class PromptConfig(_Strict):
    name: str
    title: str = ""
    description: str = ""
    arguments: tuple[PromptArgumentConfig, ...] = ()
    # literal text with {argument} placeholders; `{{` and `}}` stand for braces
    template: str

    def placeholders(self) -> list[str]:
        return _PLACEHOLDER.findall(self.template.replace("{{", "").replace("}}", ""))


class UpstreamConfig(_Strict):
    timeout: float = Field(default=30.0, gt=0)
    env_prefix: str | None = None


class Config(_Strict):
    name: str | None = None
    max_name_length: int = Field(default=64, ge=8, le=128)
    include_deprecated: bool = False
    description_limit: int = Field(default=1024, ge=0)
    uri_scheme: str | None = Field(default=None, pattern=r"^[A-Za-z][A-Za-z0-9+.\-]*$")
    rules: tuple[Rule, ...] = ()
    rename: dict[str, str] = Field(default_factory=dict)
    annotations: dict[str, AnnotationOverride] = Field(default_factory=dict)
    prompts: tuple[PromptConfig, ...] = ()
    upstream: UpstreamConfig = Field(default_factory=UpstreamConfig)

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
    return parse_config(data, source=path.name)


def parse_config(data: Mapping[str, Any], *, source: str = CONFIG_NAME) -> Config:
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        raise _error(Path(source), _explain(exc)) from exc
    for prompt in config.prompts:
        declared = {a.name for a in prompt.arguments}
        unknown = [p for p in prompt.placeholders() if p not in declared]
        if unknown:
            raise _error(
                Path(source),
                f"prompts.{prompt.name}: template uses undeclared argument {unknown[0]!r}",
            )
    return config


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
