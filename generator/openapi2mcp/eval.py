"""Search quality: how often dynamic mode's search ranks the operation a user means first, or in the
top five, for a file of task phrasings.

A query file is JSON Lines, one query per line: ``{"query": "make a PR for my branch", "expected":
["pulls/create"]}``, where ``expected`` lists the operationIds (or tool names) that are a right
answer; an optional ``"split"``, a word, groups them in the report (the benchmark's files use
``"dev"`` and ``"test"`` for tuning and held-out queries, ``"blind"``, ``"blind2"``... for sets
written by someone who never saw the search's code, tables or other queries).
Blank lines and lines starting with ``#`` are skipped. A line that is not such an object, or that
names an operation the plan does not have, is a :class:`QueryFileError` naming the line.

``cross_validated`` asks each part of a file with the search learning from the others as search
examples (``search_examples.py`` in the runtime): what learning from the file gives on phrasings
it has not seen.

The search is the generated server's own: the catalog built from the plan, served by the runtime's
tool surface in dynamic mode and asked through its ``search_operations`` tool, so what is measured
here is exactly what a model gets. Nothing is printed here (``cli.py`` and the benchmark print).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .diagnostics import Report
from .plan.metatools import SEARCH
from .plan.model import ServerPlan
from .render.catalog import build_catalog
from .shipped import runtime_module

# how many results a query looks at: a hit anywhere in them counts for top-5
TOP = 5
# a split's name: a word ("dev", "test", "blind3"), so that a report can name it
_SPLIT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
_MODERN = "2026-07-28"

# the operations a query ranks best first (tool names), at most ``limit``
Search = Callable[[str, int], list[str]]


class QueryFileError(Exception):
    """A query file that cannot be used; the message names the line."""


@dataclass(frozen=True, slots=True)
class Query:
    query: str
    # tool names that are a right answer
    expected: tuple[str, ...]
    split: str
    line: int


@dataclass(frozen=True, slots=True)
class Outcome:
    query: Query
    # tool names, best first (at most TOP)
    ranked: tuple[str, ...]

    @property
    def rank(self) -> int | None:
        """Where the first right answer is (1 = first), ``None`` when outside the top five."""
        for position, name in enumerate(self.ranked, 1):
            if name in self.query.expected:
                return position
        return None


@dataclass(frozen=True, slots=True)
class Score:
    outcomes: tuple[Outcome, ...]

    @property
    def count(self) -> int:
        return len(self.outcomes)

    @property
    def top1(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.rank == 1)

    @property
    def top5(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.rank is not None)

    @property
    def misses(self) -> list[Outcome]:
        """The queries whose right answer is not first."""
        return [outcome for outcome in self.outcomes if outcome.rank != 1]

    def only(self, split: str) -> Score:
        return Score(tuple(o for o in self.outcomes if o.query.split == split))


def parse_queries(text: str, names: Mapping[str, str], source: str = "") -> list[Query]:
    """The queries of a query file's ``text``; ``names`` maps operationIds and tool names to tool
    names. :class:`QueryFileError` names the first bad line (``source`` names the file)."""
    where = f"{source}: " if source else ""
    queries: list[Query] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            item: Any = json.loads(line)
        except ValueError as exc:
            raise QueryFileError(f"{where}line {number}: not JSON ({exc})") from exc
        if not isinstance(item, dict):
            raise QueryFileError(
                f"{where}line {number}: expected an object with query and expected"
            )
        query, expected, split = item.get("query"), item.get("expected"), item.get("split", "")
        if not isinstance(query, str) or not query.strip():
            raise QueryFileError(f"{where}line {number}: query must be a non-empty string")
        if isinstance(expected, str):
            expected = [expected]
        if (
            not isinstance(expected, list)
            or not expected
            or not all(isinstance(e, str) for e in expected)
        ):
            raise QueryFileError(
                f"{where}line {number}: expected must be an operationId or a non-empty list of them"
            )
        if split != "" and not (isinstance(split, str) and _SPLIT.fullmatch(split)):
            raise QueryFileError(
                f"{where}line {number}: split must be a word (letters, digits, _ . -), got {split!r}"
            )
        unknown = [e for e in expected if e not in names]
        if unknown:
            raise QueryFileError(
                f"{where}line {number}: no operation {', '.join(unknown)} among the planned tools"
            )
        tools = tuple(dict.fromkeys(names[e] for e in expected))
        queries.append(Query(query.strip(), tools, split, number))
    if not queries:
        raise QueryFileError(f"{where}no queries")
    return queries


def read_queries(path: Path, names: Mapping[str, str]) -> list[Query]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise QueryFileError(f"cannot read {path}: {exc}") from exc
    return parse_queries(text, names, path.name)


def operation_names(plan: ServerPlan) -> dict[str, str]:
    """operationId (and operation key, and tool name) -> tool name, for the plan's tools."""
    names: dict[str, str] = {}
    for tool in plan.callable_tools:
        operation = tool.operation
        for alias in (tool.name, operation.key, operation.operation_id):
            if alias:
                names.setdefault(alias, tool.name)
    return names


def operation_ids(plan: ServerPlan) -> dict[str, str]:
    """tool name -> operationId (its key when it has none), to print results in the spec's words."""
    return {t.name: t.operation.operation_id or t.operation.key for t in plan.callable_tools}


class _NoUpstream:
    """The search never calls the API; a call would be a bug here."""

    async def call(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("search_operations must not call the upstream API")


def planned_search(plan: ServerPlan) -> Search:
    """The plan's search, served as a generated server serves ``search_operations``."""
    return catalog_search(build_catalog(plan, Report()))


def catalog_search(catalog: Any) -> Search:
    """The search of a built catalog, served as a generated server serves ``search_operations``."""
    dynamic = runtime_module("protocol.dynamic")
    calls = runtime_module("protocol.calls").Calls(catalog, _NoUpstream())
    tools = runtime_module("protocol.pagination").MemoryTools(catalog["tools"])
    surface = dynamic.ToolSurface(catalog, calls, tools, dynamic.ToolSelection("dynamic"))

    def search(query: str, limit: int) -> list[str]:
        params = {"name": SEARCH, "arguments": {"query": query, "limit": limit}}
        result = asyncio.run(surface.call(params, _MODERN))
        text = "\n".join(b["text"] for b in result.get("content", []) if b.get("type") == "text")
        # result lines read "- <name>: <summary> (<METHOD> <path>)"
        return [line[2:].split(":", 1)[0] for line in text.splitlines() if line.startswith("- ")]

    return search


def evaluate(search: Search, queries: Iterable[Query]) -> Score:
    return Score(tuple(Outcome(query, tuple(search(query.query, TOP))) for query in queries))


def cross_validated(plan: ServerPlan, queries: Sequence[Query], folds: int) -> Score:
    """Each of ``folds`` parts of ``queries`` (every ``folds``-th line) asked with the search
    learning from the others (besides the plan's own examples): what learning from the file
    gives on phrasings it has not seen. Outcomes in the file's order."""
    catalog: Any = build_catalog(plan, Report())
    own = [{"query": text, "tools": list(tools)} for text, tools in plan.search_examples]
    outcomes: list[Outcome] = []
    for fold in range(folds):
        asked = queries[fold::folds]
        learned = [q for i, q in enumerate(queries) if i % folds != fold]
        index = dict(catalog["searchIndex"])
        index["examples"] = own + [{"query": q.query, "tools": list(q.expected)} for q in learned]
        search = catalog_search({**catalog, "searchIndex": index})
        outcomes += evaluate(search, asked).outcomes
    return Score(tuple(sorted(outcomes, key=lambda outcome: outcome.query.line)))


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def summary_line(label: str, score: Score) -> str:
    """``label: 50 queries; top-1 40 (80.0%), top-5 48 (96.0%)``."""
    n = score.count
    return (
        f"{label}: {n} queries; top-1 {score.top1} ({percent(score.top1, n)}), "
        f"top-5 {score.top5} ({percent(score.top5, n)})"
    )


def miss_lines(score: Score, ids: Mapping[str, str]) -> list[str]:
    """One line per miss: where it is, the query, what was expected, its rank, what came first."""
    lines = []
    for outcome in score.misses:
        query = outcome.query
        expected = ", ".join(ids.get(name, name) for name in query.expected)
        rank = outcome.rank
        placed = f"rank {rank}" if rank is not None else f"not in top {TOP}"
        first = ids.get(outcome.ranked[0], outcome.ranked[0]) if outcome.ranked else "nothing"
        lines.append(
            f"  line {query.line}: {query.query!r} expected {expected} ({placed}); first: {first}"
        )
    return lines


def splits_of(score: Score) -> list[str]:
    """The splits of ``score``'s queries, in the order they first come."""
    return list(dict.fromkeys(o.query.split for o in score.outcomes if o.query.split))


def report_lines(label: str, score: Score, ids: Mapping[str, str], *, misses: bool) -> list[str]:
    """The summary, per split when the file has splits, then the misses."""
    lines = [summary_line(label, score)]
    splits = splits_of(score)
    if splits:
        lines += [summary_line(f"  {split}", score.only(split)) for split in splits]
    if misses and score.misses:
        lines.append(f"misses ({len(score.misses)}):")
        lines += miss_lines(score, ids)
    return lines
