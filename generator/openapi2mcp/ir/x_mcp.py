"""The ``x-mcp`` extension, typed: what the document, a path item or an operation says about its MCP
surface. :func:`read_level` checks one written ``x-mcp`` object as the config file is checked (strict
pydantic models; an unknown key gets the closest valid one suggested) but never drops the whole object:
each unknown key, wrong value, malformed question or prompt is a warning at its own JSON pointer saying
what is ignored, and the rest applies. :func:`merge` lays the levels over each other (document < path
item < operation, ``annotations`` key by key) into the :class:`XMcp` an operation carries, with the
pointer of the level that set each key. Nothing after the parser sees the raw mapping.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
)

from ..config import PromptConfig, RuleKind, parse_config
from ..diagnostics import GenerationError
from ..load.refs import Location

ELICIT, SAMPLE, ROOTS = "elicitation/create", "sampling/createMessage", "roots/list"
QuestionMethod = Literal["elicitation/create", "sampling/createMessage", "roots/list"]
DeepObjectArrays = Literal["indexed", "brackets", "repeat"]
# the runtime keeps its own answers under these keys of an operation's questions
RESERVED_KEYS: Final = frozenset({"missing_arguments", "confirm"})
MAX_TOKENS: Final = 100_000
_KEY: Final = re.compile(r"[A-Za-z0-9_.-]{1,64}")
# keys that describe one operation: meaningless as a default on the document or a path item
OPERATION_ONLY: Final = frozenset({"name", "title", "description"})
_PROMPTS: Final = "prompts"
Owner = Literal["the document", "a path item", "an operation"]
# resolver.warn: reports once per (code, place, message)
Warn = Callable[[str, Location, str], None]


class _Strict(BaseModel):
    """Keys as the spec spells them; each field's description completes "<key> must be ..."."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @classmethod
    def must_be(cls, key: str) -> str:
        """``"<key> must be <what the field accepts>"`` for the spec key ``key``."""
        return f"{key} must be {cls.model_fields[spec_keys(cls)[key]].description}"


class XMcpAnnotations(_Strict):
    """``annotations``: tool hints laid over the ones the HTTP verb gives (field names as the config
    file's ``[annotations.<operationId>]``)."""

    title: StrictStr | None = Field(default=None, description="a string")
    read_only: StrictBool | None = Field(
        default=None, alias="readOnlyHint", description="true or false"
    )
    destructive: StrictBool | None = Field(
        default=None, alias="destructiveHint", description="true or false"
    )
    idempotent: StrictBool | None = Field(
        default=None, alias="idempotentHint", description="true or false"
    )
    open_world: StrictBool | None = Field(
        default=None, alias="openWorldHint", description="true or false"
    )


class XMcpQuestion(_Strict):
    """One entry of ``elicit``: a question asked before the call. What depends on the tool (which
    arguments exist, which are credentials, what a form field may be) is checked by the planner."""

    key: StrictStr = Field(
        description="1-64 of A-Z a-z 0-9 _ . - and not missing_arguments or confirm"
    )
    method: QuestionMethod = Field(
        default="elicitation/create", description=f"{ELICIT}, {SAMPLE} or {ROOTS}"
    )
    message: StrictStr | None = Field(default=None, description="a non-empty string")
    fields: dict[StrictStr, dict[StrictStr, Any]] | None = Field(
        default=None, description="an object that maps field names to schemas"
    )
    required: tuple[StrictStr, ...] | None = Field(
        default=None, description="a list of field names"
    )
    maps_to: StrictStr | None = Field(default=None, description="an argument name")
    round: StrictInt = Field(default=1, ge=1, description="a positive integer")
    needed: StrictBool = Field(default=False, description="true or false")
    prompt: StrictStr | None = Field(default=None, description="a non-empty string")
    max_tokens: StrictInt = Field(
        default=256, ge=1, le=MAX_TOKENS, description=f"an integer between 1 and {MAX_TOKENS}"
    )
    # where the question is written, for the planner's diagnostics (not a spec key)
    _pointer: str = PrivateAttr(default="")

    @field_validator("key")
    @classmethod
    def _usable_key(cls, value: str) -> str:
        if not _KEY.fullmatch(value) or value in RESERVED_KEYS:
            raise ValueError("not a usable key")
        return value

    @field_validator("message", "prompt")
    @classmethod
    def _not_blank(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("blank")
        return value

    @property
    def pointer(self) -> str:
        """The JSON pointer of the question in the spec."""
        return self._pointer


class XMcp(_Strict):
    """An operation's ``x-mcp``, merged over its path item's and the document's; every key optional
    (``None``: not set at any level)."""

    name: StrictStr | None = Field(default=None, description="a string")
    title: StrictStr | None = Field(default=None, description="a string")
    description: StrictStr | None = Field(default=None, description="a string")
    exclude: StrictBool | None = Field(default=None, description="true or false")
    kind: RuleKind | None = Field(
        default=None, description="tool, resource, resource_template or exclude"
    )
    read_tool: StrictBool | None = Field(default=None, description="true or false")
    annotations: XMcpAnnotations | None = Field(default=None, description="an object")
    confirm: StrictBool | Literal["when-supported"] | None = Field(
        default=None, description='true, false or "when-supported"'
    )
    elicit: tuple[XMcpQuestion, ...] | None = Field(default=None, description="a list of questions")
    strict_output: StrictBool | None = Field(
        default=None, alias="strictOutput", description="true or false"
    )
    deep_object_arrays: DeepObjectArrays | None = Field(
        default=None, alias="deepObjectArrays", description="indexed, brackets or repeat"
    )


@dataclass(frozen=True, slots=True)
class XMcpLevel:
    """One written ``x-mcp`` object, checked: the keys it sets and the pointer where it is written."""

    x_mcp: XMcp
    pointer: str
    # the document's prompts, each with its JSON pointer (empty below the document)
    prompts: tuple[tuple[PromptConfig, str], ...] = ()


def spec_keys(model: type[BaseModel]) -> dict[str, str]:
    """The keys ``model`` accepts as the spec spells them, mapped to its field names."""
    return {field.alias or name: name for name, field in model.model_fields.items()}


def read_level(owner: Mapping[str, Any], at: Location, level: Owner, warn: Warn) -> XMcpLevel:
    """The ``x-mcp`` of ``owner`` (``level`` says what it is), written at ``at``."""
    if "x-mcp" not in owner:
        return XMcpLevel(XMcp(), at.pointer)
    raw = owner["x-mcp"]
    if not isinstance(raw, Mapping):
        warn("x-mcp-invalid", at, "x-mcp must be an object; ignored")
        return XMcpLevel(XMcp(), at.pointer)
    kept: dict[str, Any] = {}
    prompts: tuple[tuple[PromptConfig, str], ...] = ()
    for key, value in raw.items():
        where = at.child(key)
        if key == _PROMPTS and level == "the document":
            prompts = _prompts(value, where, warn)
        elif _accepted(key, level, where, warn):
            checked: Any
            if key == "annotations":
                checked = _annotations(value, where, warn)
            elif key == "elicit":
                checked = _questions(value, where, warn)
            else:
                checked = _checked(XMcp, key, value, "", where, warn)
            if checked is not _INVALID:
                kept[key] = checked
    return XMcpLevel(XMcp.model_validate(kept), at.pointer, prompts)


def _accepted(key: Any, level: Owner, at: Location, warn: Warn) -> bool:
    """Whether ``key`` may be set at ``level``; when it may not, the warning says why."""
    valid = set(spec_keys(XMcp))
    if level != "an operation":
        valid -= OPERATION_ONLY
    if level == "the document":
        valid.add(_PROMPTS)
    if key in OPERATION_ONLY and level != "an operation":
        warn(
            "x-mcp-not-a-default",
            at,
            f"x-mcp '{key}' describes a single operation and cannot be set on {level}; ignored",
        )
    elif key == _PROMPTS and level != "the document":
        warn("x-mcp-invalid", at, "prompts can only be set on the document; ignored")
    elif key not in valid:
        warn("x-mcp-invalid", at, f"{_unknown(str(key), valid)}; ignored")
    else:
        return True
    return False


def merge(levels: Iterable[XMcpLevel]) -> tuple[XMcp, dict[str, str]]:
    """Later levels win (document < path item < operation); ``annotations`` merge key by key.

    Returns the merged :class:`XMcp` and, per spec key, the pointer of the level that set it last.
    """
    merged: dict[str, Any] = {}
    origins: dict[str, str] = {}
    for level in levels:
        for key, name in spec_keys(XMcp).items():
            if name not in level.x_mcp.model_fields_set:
                continue
            value = getattr(level.x_mcp, name)
            earlier = merged.get(key)
            if isinstance(value, XMcpAnnotations) and isinstance(earlier, XMcpAnnotations):
                value = earlier.model_copy(update=value.model_dump(exclude_unset=True))
            merged[key] = value
            origins[key] = level.pointer
    return XMcp.model_validate(merged), origins


class _Invalid(Enum):
    """A value that does not fit (and has been reported)."""

    VALUE = "invalid"


_INVALID: Final = _Invalid.VALUE


def _checked(
    model: type[_Strict], key: str, value: Any, prefix: str, at: Location, warn: Warn
) -> Any:
    """``value`` of ``key`` as ``model`` types it, or :data:`_INVALID` (reported) when it does not fit."""
    try:
        validated = model.model_validate({key: value})
    except ValidationError:
        warn("x-mcp-invalid", at, f"{prefix}{model.must_be(key)}; ignored")
        return _INVALID
    return getattr(validated, spec_keys(model)[key])


def _unknown(key: str, valid: Iterable[str], prefix: str = "") -> str:
    """``unknown key 'x'``, with the closest valid key when one is close (as the config file says)."""
    hint = difflib.get_close_matches(key, sorted(valid), n=1)
    suggestion = f" (did you mean {hint[0]!r}?)" if hint else ""
    return f"unknown key {prefix + key!r}{suggestion}"


def _annotations(raw: Any, at: Location, warn: Warn) -> XMcpAnnotations | _Invalid:
    """The valid hints of ``annotations`` as :class:`XMcpAnnotations`; :data:`_INVALID` when it is
    not an object."""
    if not isinstance(raw, Mapping):
        warn("x-mcp-invalid", at, f"{XMcp.must_be('annotations')}; ignored")
        return _INVALID
    valid = spec_keys(XMcpAnnotations)
    kept: dict[str, Any] = {}
    for key, value in raw.items():
        where = at.child(key)
        if key not in valid:
            warn("x-mcp-invalid", where, f"{_unknown(str(key), valid, 'annotations.')}; ignored")
            continue
        checked = _checked(XMcpAnnotations, key, value, "annotations.", where, warn)
        if checked is not _INVALID:
            kept[key] = checked
    return XMcpAnnotations.model_validate(kept)


def _questions(raw: Any, at: Location, warn: Warn) -> tuple[XMcpQuestion, ...] | _Invalid:
    """The well-formed questions of ``elicit``, each other one reported and left out;
    :data:`_INVALID` when it is not a list."""
    if not isinstance(raw, list):
        warn("x-mcp-invalid", at, f"{XMcp.must_be('elicit')}; ignored")
        return _INVALID
    questions: list[XMcpQuestion] = []
    for index, item in enumerate(raw):
        where = at.child(index)
        try:
            question = XMcpQuestion.model_validate(item)
        except ValidationError as exc:
            token, problem = _question_problem(item, exc)
            warn(
                "x-mcp-elicit-invalid",
                where.child(token) if token else where,
                f"{problem}; question left out",
            )
            continue
        question._pointer = where.pointer
        questions.append(question)
    return tuple(questions)


def _question_problem(item: Any, exc: ValidationError) -> tuple[str, str]:
    """The key of a question that is wrong (``""``: the whole question) and what is wrong with it."""
    if not isinstance(item, Mapping):
        return "", "a question must be an object"
    valid = spec_keys(XMcpQuestion)
    for error in exc.errors():
        key = str(error["loc"][0]) if error["loc"] else ""
        if error["type"] == "extra_forbidden":
            return key, _unknown(key, valid)
        if key in valid:
            return key, XMcpQuestion.must_be(key)
    return "", "the question cannot be read"


def _prompts(raw: Any, at: Location, warn: Warn) -> tuple[tuple[PromptConfig, str], ...]:
    """The document's prompts, checked like the config file's ``[[prompts]]``; a bad one is left out."""
    if not isinstance(raw, list):
        warn("x-mcp-invalid", at, "prompts must be a list of prompts; ignored")
        return ()
    prompts: list[tuple[PromptConfig, str]] = []
    for index, item in enumerate(raw):
        where = at.child(index)
        try:
            (prompt,) = parse_config({"prompts": [item]}, source="x-mcp").prompts
        except GenerationError as exc:
            message = exc.diagnostic.message.removeprefix("x-mcp: ")
            warn("x-mcp-prompt-invalid", where, f"{message}; prompt left out")
            continue
        prompts.append((prompt, where.pointer))
    return tuple(prompts)
