"""Prompts the API owner or the user wrote: the document's ``x-mcp: {prompts: [...]}`` and the config.

A prompt's template is literal text with ``{argument}`` placeholders (``{{``/``}}`` for braces),
split here into :class:`PromptPart` values, so neither the generator nor the runtime ever formats a
string with user data: the runtime only concatenates parts. A prompt's ``template`` becomes one user
message; its ``messages`` keep their roles and become text, image (already base64, from the config
loader) or embedded-resource content, whose URI and text are split the same way. These prompts are
never cut: their authors chose their length.
"""

from __future__ import annotations

import re

from ..config import PromptConfig, PromptMessageConfig
from ..diagnostics import Report
from ..ir.model import Api
from .model import (
    Prompt,
    PromptArgument,
    PromptContent,
    PromptImage,
    PromptMessage,
    PromptPart,
    PromptResource,
    PromptText,
)

_TOKEN = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")


def spec_prompts(
    api: Api, configured: tuple[PromptConfig, ...], report: Report
) -> tuple[Prompt, ...]:
    """Prompts the API owner wrote in the document's ``x-mcp: {prompts: [...]}``.

    Same shape as the config file's ``[[prompts]]`` (images inline as base64 only: the spec has no
    folder of its own), checked by the parser (``ir/x_mcp.py``: a bad one is reported and left out);
    a prompt the config file also defines is the config's. The texts are the owner's own prompt
    templates, offered to the user like any prompt.
    """
    prompts: list[Prompt] = []
    taken = {prompt.name for prompt in configured}
    for prompt, where in api.x_mcp_prompts:
        if prompt.name in taken:
            report.info(
                "x-mcp-prompt-overridden",
                where,
                f"prompt {prompt.name!r} is also defined by the config file, which wins",
            )
            continue
        taken.add(prompt.name)
        prompts.append(_prompt(prompt))
    return tuple(prompts)


def configured_prompts(configured: tuple[PromptConfig, ...], report: Report) -> tuple[Prompt, ...]:
    prompts: list[Prompt] = []
    seen: set[str] = set()
    for prompt in configured:
        if prompt.name in seen:
            report.warn("prompt-duplicate", "", f"config prompt {prompt.name!r} is defined twice")
            continue
        seen.add(prompt.name)
        prompts.append(_prompt(prompt))
    return tuple(prompts)


def template_parts(template: str) -> tuple[PromptPart, ...]:
    parts: list[PromptPart] = []
    text: list[str] = []
    position = 0
    for match in _TOKEN.finditer(template):
        text.append(template[position : match.start()])
        token = match.group(0)
        if token in ("{{", "}}"):
            text.append(token[0])
        else:
            if "".join(text):
                parts.append(PromptPart(text="".join(text)))
            text = []
            parts.append(PromptPart(argument=match.group(1)))
        position = match.end()
    text.append(template[position:])
    if "".join(text):
        parts.append(PromptPart(text="".join(text)))
    return tuple(parts)


def _prompt(prompt: PromptConfig) -> Prompt:
    return Prompt(
        name=prompt.name,
        title=prompt.title or prompt.name,
        description=prompt.description,
        arguments=tuple(
            PromptArgument(a.name, a.description, a.required) for a in prompt.arguments
        ),
        parts=template_parts(prompt.template or ""),
        completions=tuple((a.name, a.values) for a in prompt.arguments if a.values),
        messages=tuple(PromptMessage(m.role, _content(m)) for m in prompt.messages),
    )


def _content(message: PromptMessageConfig) -> PromptContent:
    """A config message's content; ``config`` has checked that exactly one kind is given."""
    if message.image is not None:
        assert message.image.data is not None and message.image.mime_type is not None
        return PromptImage(message.image.data, message.image.mime_type)
    if message.resource is not None:
        resource = message.resource
        return PromptResource(
            template_parts(resource.uri), resource.mime_type, template_parts(resource.text)
        )
    return PromptText(template_parts(message.text or ""))
