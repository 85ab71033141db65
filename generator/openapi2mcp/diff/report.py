"""The reports of ``openapi2mcp diff``: text, JSON and a Markdown that fits a pull-request body.

Text and JSON have one line or entry per change (JSON is for scripts and always complete). Markdown
has one row per distinct change, naming the items it affects (the same wording, or the same change
inside one shared schema definition, across many tools is one row), breaking rows first, shortened to
``MARKDOWN_LIMIT`` characters with a note that counts what was left out and says where the full
report is. It never prints.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .compare import Change, Key, SurfaceDiff
from .schemas import Severity, quote
from .surface import KINDS

DIFF_FORMAT = 1
COLLAPSE_AFTER = 10
# GitHub refuses a pull-request body or comment over 65,536 characters; this leaves room for a preamble
MARKDOWN_LIMIT = 60_000
NAMES_SHOWN = 5
FULL_REPORT = "what `openapi2mcp diff` prints with `--max-length 0` (or with `--format json`)"
_KIND_NAMES = {
    "tool": ("tool", "tools"),
    "resource": ("resource", "resources"),
    "resource_template": ("resource template", "resource templates"),
    "prompt": ("prompt", "prompts"),
}


# --- rendering ------------------------------------------------------------------------------------


def render(
    result: SurfaceDiff,
    output_format: str,
    *,
    limit: int | None = MARKDOWN_LIMIT,
    full_report: str = FULL_REPORT,
) -> str:
    """``result`` in ``output_format``; ``limit`` and ``full_report`` apply to Markdown only."""
    match output_format:
        case "markdown":
            return render_markdown(result, limit=limit, full_report=full_report)
        case "json":
            return render_json(result)
        case _:
            return render_text(result)


def _heading(result: SurfaceDiff, code: Callable[[str], str] = str) -> str:
    old, new = result.old, result.new
    if old["server"] == new["server"]:
        return f"{code(old['server'])} {old['version']} → {new['version']}"
    return f"{code(old['server'])} {old['version']} → {code(new['server'])} {new['version']}"


def _summary(result: SurfaceDiff, strong: Callable[[str], str] = str) -> str:
    if not result.changes:
        return "No changes to the MCP surface."
    counts = result.counts()
    items = ", ".join(f"{counts[c]} {c}" for c in ("added", "removed", "renamed", "changed"))
    breaking = strong(f"{counts['breaking']} breaking")
    return f"{breaking}, {counts['compatible']} compatible ({items})"


def render_text(result: SurfaceDiff) -> str:
    lines = [f"MCP surface: {_heading(result)}", _summary(result)]
    for title, changes in (("Breaking", result.breaking), ("Compatible", result.compatible)):
        if changes:
            lines += ["", f"{title}:"]
            lines += [f"  {c.kind} {c.name}: {c.message}" for c in changes]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class ChangeGroup:
    """Changes of one severity that read alike (``message``), one or more per item."""

    severity: Severity
    message: str
    changes: tuple[Change, ...]

    @property
    def items(self) -> tuple[Key, ...]:
        """The (kind, name) of each item affected, in the order of the changes."""
        return tuple(dict.fromkeys((c.kind, c.name) for c in self.changes))


def group_changes(changes: Iterable[Change]) -> list[ChangeGroup]:
    """Changes that read alike, one group each, the groups affecting most items first.

    Changes with the same severity and shared wording (``Change.shared``: one change inside a
    definition that many tools use, reached along different paths), or else the same message, form
    a group, worded by the message when all its changes have the same one; groups then worded alike
    merge. Ties keep the order of the first change, and a group's changes keep their order.
    """
    order = {change: index for index, change in enumerate(changes)}
    by_key: dict[tuple[Severity, str], list[Change]] = {}
    for change in order:
        by_key.setdefault((change.severity, change.shared or change.message), []).append(change)
    by_wording: dict[tuple[Severity, str], list[Change]] = {}
    for (severity, key), found in by_key.items():
        alike = all(c.message == found[0].message for c in found)
        by_wording.setdefault((severity, found[0].message if alike else key), []).extend(found)
    groups = [
        ChangeGroup(severity, wording, tuple(sorted(found, key=order.__getitem__)))
        for (severity, wording), found in by_wording.items()
    ]
    return sorted(groups, key=lambda group: -len(group.items))


@dataclass(frozen=True, slots=True)
class _Section:
    title: str  # "Breaking" or "Compatible"
    groups: list[ChangeGroup]
    rows: list[str]

    def hidden(self, shown: int) -> tuple[int, int]:
        """(changes, rows) left out when only the first ``shown`` rows are shown."""
        return sum(len(g.changes) for g in self.groups[shown:]), len(self.groups) - shown


def render_markdown(
    result: SurfaceDiff, *, limit: int | None = MARKDOWN_LIMIT, full_report: str = FULL_REPORT
) -> str:
    """The report for a pull request, at most ``limit`` characters (None: no limit).

    When the rows do not all fit, they are taken in order (breaking first, the widest changes
    first) until the next does not fit; a note under the summary counts the changes and rows left
    out of each section and says where the full report is (``full_report``, one line of Markdown).
    A limit too small for the heading, summary and note alone yields just those.
    """
    sections = []
    for title, changes in (("Breaking", result.breaking), ("Compatible", result.compatible)):
        if changes:
            groups = group_changes(changes)
            sections.append(_Section(title, groups, [_row(g) for g in groups]))

    def shortened(rows: int) -> str:
        """The report with only its first ``rows`` rows, breaking ones first."""
        shown = []
        for section in sections:
            shown.append(min(rows, len(section.rows)))
            rows -= shown[-1]
        return _markdown(result, sections, shown, limit, full_report)

    # the length grows with the rows shown, but where a section's note goes as its last row comes:
    # bisecting finds a count that fits, at most a row short of the largest there
    low, high = 0, sum(len(s.rows) for s in sections)
    if limit is None or len(shortened(high)) <= limit:
        return shortened(high)
    while low < high - 1:
        middle = (low + high) // 2
        low, high = (middle, high) if len(shortened(middle)) <= limit else (low, middle)
    return shortened(low)


def _markdown(
    result: SurfaceDiff,
    sections: list[_Section],
    shown: list[int],
    limit: int | None,
    full_report: str,
) -> str:
    lines = [f"### MCP surface: {_heading(result, quote)}", "", _summary(result, _strong)]
    left_out = [
        _changes(*section.hidden(count), section.title.lower())
        for section, count in zip(sections, shown, strict=True)
        if count < len(section.rows)
    ]
    if left_out:
        where = " ".join(full_report.split())[:500]
        lines += [
            "",
            f"> **Shortened to {limit} characters** to fit a pull-request body: not shown here "
            f"are {' and '.join(left_out)}. The full report is {where}.",
        ]
    for section, count in zip(sections, shown, strict=True):
        lines += ["", f"#### {section.title} changes", ""]
        changes, rows = section.hidden(count)
        note = f"_Not shown here: {_changes(changes, rows, section.title.lower())}._"
        if not count:
            lines.append(note)
            continue
        table = ["| Change | Where |", "| --- | --- |", *section.rows[:count]]
        if changes:
            table += ["", note]
        if len(section.rows) > COLLAPSE_AFTER:
            total = sum(len(g.changes) for g in section.groups)
            summary = f"{total} {section.title.lower()} changes in {len(section.rows)} rows"
            lines += [f"<details><summary>{summary}</summary>", "", *table, "", "</details>"]
        else:
            lines += table
    return "\n".join(lines) + "\n"


def _strong(text: str) -> str:
    return f"**{text}**"


def _changes(changes: int, rows: int, severity: str) -> str:
    plural = "" if changes == 1 else "s"
    return f"{changes} {severity} change{plural} ({rows} row{'' if rows == 1 else 's'})"


def _row(group: ChangeGroup) -> str:
    return f"| {_cell(group.message)} | {_cell(_where(group))} |"


def _where(group: ChangeGroup) -> str:
    """The items a group affects: per kind, how many and the first few names."""
    by_kind: dict[str, list[str]] = {}
    for kind, name in group.items:
        by_kind.setdefault(kind, []).append(name)
    parts = []
    for kind in sorted(by_kind, key=KINDS.index):
        names = by_kind[kind]
        singular, plural = _KIND_NAMES[kind]
        shown = ", ".join(quote(name) for name in names[:NAMES_SHOWN])
        if len(names) == 1:
            parts.append(f"{singular} {shown}")
            continue
        more = f" and {len(names) - NAMES_SHOWN} more" if len(names) > NAMES_SHOWN else ""
        parts.append(f"{len(names)} {plural}: {shown}{more}")
    return "; ".join(parts)


def _cell(text: str) -> str:
    # GitHub splits table cells on every unescaped pipe, even inside code spans
    return text.replace("|", "\\|")


def render_json(result: SurfaceDiff) -> str:
    document = {
        "format": DIFF_FORMAT,
        "old": dict(result.old),
        "new": dict(result.new),
        "summary": result.counts(),
        "changes": [
            {
                "severity": c.severity,
                "category": c.category,
                "kind": c.kind,
                "name": c.name,
                "message": c.message,
                **({"oldName": c.old_name} if c.old_name else {}),
            }
            for c in result.changes
        ],
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
