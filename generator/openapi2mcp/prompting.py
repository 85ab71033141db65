"""User-defined prompts from the config file: templates split into literal text and arguments.

A template is literal text with ``{argument}`` placeholders (``{{``/``}}`` for braces). It is split
here into :class:`PromptPart` values, so neither the generator nor the runtime ever formats a
string with user data: the runtime only concatenates parts.
"""

from __future__ import annotations

import re

from .config import Config, PromptConfig
from .diagnostics import Report
from .plan import Prompt, PromptArgument, PromptPart

_TOKEN = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")


def configured_prompts(config: Config, report: Report) -> tuple[Prompt, ...]:
    prompts: list[Prompt] = []
    seen: set[str] = set()
    for prompt in config.prompts:
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
        parts=template_parts(prompt.template),
        completions=tuple((a.name, a.values) for a in prompt.arguments if a.values),
    )
