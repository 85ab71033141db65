"""Diagnostics: every warning or error the generator has to report, as values.

Library code never prints. Each stage appends :class:`Diagnostic` values, with a stable code and a JSON
pointer into the spec, to a :class:`Report`; only ``cli.py`` formats and prints them. A fatal problem
(the input is not an OpenAPI document at all) is raised as :class:`GenerationError`, which carries the
diagnostic that explains it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Level = Literal["error", "warning", "info"]


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    level: Level
    pointer: str
    message: str

    def render(self) -> str:
        where = f" at {self.pointer}" if self.pointer else ""
        return f"{self.level}[{self.code}]{where}: {self.message}"


@dataclass(slots=True)
class Report:
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def add(self, code: str, level: Level, pointer: str, message: str) -> None:
        self.diagnostics.append(Diagnostic(code, level, pointer, message))

    def warn(self, code: str, pointer: str, message: str) -> None:
        self.add(code, "warning", pointer, message)

    def info(self, code: str, pointer: str, message: str) -> None:
        self.add(code, "info", pointer, message)

    def error(self, code: str, pointer: str, message: str) -> None:
        self.add(code, "error", pointer, message)

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.level == "warning"]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.level == "error"]


class GenerationError(Exception):
    """The input cannot be turned into a server at all (not OpenAPI, unreadable, invalid YAML/JSON)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.render())
        self.diagnostic = diagnostic


def pointer_escape(token: str) -> str:
    """Escape one JSON pointer reference token (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")


def pointer(*tokens: str) -> str:
    """Build ``#/a/b~1c`` from raw tokens."""
    return "#/" + "/".join(pointer_escape(t) for t in tokens) if tokens else "#"
