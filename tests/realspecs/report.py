"""What a run says: the per-spec table and, for a failing spec, each bad call spelled out.

``SUMMARY`` collects the rows of the session. ``judge`` splits each call's problems into allowed ones (a ``SpecFault`` names them) and the rest;
``row`` is one line of the table (calls, then per kind the calls with a problem that is not
allowed, then the calls whose problems were all spec faults); ``explain`` writes a bad call as
its operation, tool and variant, its arguments (truncated), every problem and the request that
was sent (first line, ``Content-Type``, the body cut short).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from tests.realspecs.allowlist import SPEC_FAULTS, SpecFault
from tests.realspecs.harness import KINDS, Call, SpecRun

HEADER = ("spec", "ops", "tools", "calls", *KINDS, "spec faults")


@dataclass
class Summary:
    """What the session's tests found, printed by ``conftest`` at the end of the run."""

    rows: list[tuple[str, ...]] = field(default_factory=list)
    used: set[SpecFault] = field(default_factory=set)
    specs: set[str] = field(default_factory=set)

    def add(self, judged: Judged) -> None:
        self.rows.append(row(judged))
        self.used |= judged.used
        self.specs.add(judged.run.label)

    def stale(self) -> list[SpecFault]:
        return [f for f in SPEC_FAULTS if f.spec in self.specs and f not in self.used]


@dataclass
class Judged:
    run: SpecRun
    bad: list[tuple[Call, dict[str, list[str]]]] = field(default_factory=list)
    allowed: int = 0
    used: set[SpecFault] = field(default_factory=set)

    def count(self, kind: str) -> int:
        return sum(1 for _, problems in self.bad if kind in problems)


def judge(run: SpecRun, faults: tuple[SpecFault, ...] = SPEC_FAULTS) -> Judged:
    judged = Judged(run)
    for call in run.calls:
        left: dict[str, list[str]] = {}
        for kind, messages in call.problems.items():
            for message in messages:
                fault = next(
                    (
                        f
                        for f in faults
                        if f.allows(run.label, call.operation, call.tool, kind, message)
                    ),
                    None,
                )
                if fault is None:
                    left.setdefault(kind, []).append(message)
                else:
                    judged.used.add(fault)
        if left:
            judged.bad.append((call, left))
        elif call.problems:
            judged.allowed += 1
    return judged


def row(judged: Judged) -> tuple[str, ...]:
    run = judged.run
    counts = [str(judged.count(kind)) for kind in KINDS]
    return (
        run.label,
        str(run.selected),
        str(run.tools),
        str(len(run.calls)),
        *counts,
        str(judged.allowed),
    )


SUMMARY = Summary()


def table(rows: list[tuple[str, ...]]) -> list[str]:
    lines = [HEADER, *rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADER))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)) for line in lines
    ]


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def explain(call: Call, problems: dict[str, list[str]]) -> str:
    lines = [f"{call.operation}  (tool {call.tool}, {call.variant} arguments)"]
    lines.append("  arguments: " + _short(json.dumps(call.arguments, ensure_ascii=False), 300))
    for kind, messages in problems.items():
        lines.extend(f"  {kind}: {_short(m, 400)}" for m in messages)
    for captured in call.requests:
        sent = f"{captured.method} {captured.target}"
        content_type = captured.header("Content-Type")
        if content_type:
            sent += f"  Content-Type: {content_type}"
        lines.append("  sent: " + _short(sent, 300))
        if captured.body:
            lines.append("  body: " + _short(repr(captured.body)[2:-1], 300))
    return "\n".join(lines)


def failure_message(judged: Judged, limit: int = 40) -> str:
    run = judged.run
    shown = [explain(call, problems) for call, problems in judged.bad[:limit]]
    more = len(judged.bad) - limit
    head = (
        f"{run.label}: {len(judged.bad)} of {len(run.calls)} calls refused, failed, rejected "
        f"by the document or altered (spec faults allowed: {judged.allowed})"
    )
    tail = [f"… and {more} more"] if more > 0 else []
    return "\n\n".join([head, *shown, *tail])
