"""Search examples learned from usage: ``openapi2mcp examples LOG...``.

A generated server started with ``<PREFIX>_SEARCH_LOG=FILE`` (dynamic and code modes) appends a JSON
line per search (``{"at", "search", "found", "by"?}``: the query and the operations it found, best
first) and per operation called (``{"at", "called", "ok", "by"?}``). Here each successful call is
paired with the search that led to it: the latest search by the same caller (``by``, a keyed hash;
callers without one pair among themselves), within ``window`` seconds before the call, whose results
listed the operation. That search's query is a phrasing the operation serves: an example for the
generator's ``--search-examples``, which then ranks the operation first for phrasings like it. A
search pairs once with each operation; a failed call pairs with nothing, and a call no search found
(the model knew its name) neither.

The examples are written as a query file (the file ``eval`` and ``--search-examples`` read): one
``{"query", "expected", "split": "usage", "uses", "rank"}`` a line, most used first; ``uses`` counts
the searches that led to the call and ``rank`` is where the latest one found it (1: already first).
The searches no successful call followed are counted too: what users asked for and the search did
not give them, for the owner to write examples of by hand.
Given a file that exists, the new phrasings are appended to it and what it holds is kept byte for
byte, so an owner's review (deleting a line with a customer's name, say) stands. Logs from several
replicas are read together, in time order.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .eval import QueryFileError

DEFAULT_WINDOW_SECONDS = 30 * 60
SPLIT = "usage"


class SearchLogError(Exception):
    """A log line that is not a record of a search log (the message names the file and line)."""


@dataclass(frozen=True, slots=True)
class Record:
    at: float
    by: str | None
    query: str | None = None  # a search
    found: tuple[str, ...] = ()
    called: str | None = None  # a call
    ok: bool = False


@dataclass(slots=True)
class Example:
    query: str
    tool: str
    uses: int
    rank: int


@dataclass(slots=True)
class Usage:
    """What the logs hold: the examples, and how many searches and calls there were."""

    examples: list[Example] = field(default_factory=list)
    # the searches no successful call followed (query -> how many), most frequent first
    unanswered: list[tuple[str, int]] = field(default_factory=list)
    searches: int = 0
    found_nothing: int = 0
    calls: int = 0
    succeeded: int = 0
    paired: int = 0


def read_log(path: Path) -> list[Record]:
    """The records of one log; :class:`SearchLogError` names the first bad line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SearchLogError(f"cannot read {path}: {exc}") from exc
    records: list[Record] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(_record(json.loads(line)))
        except ValueError as exc:
            raise SearchLogError(f"{path.name}: line {number}: {exc}") from None
    return records


def _record(item: Any) -> Record:
    if not isinstance(item, dict):
        raise ValueError("not a JSON object")
    at, by = item.get("at"), item.get("by")
    if isinstance(at, bool) or not isinstance(at, (int, float)) or not math.isfinite(at):
        raise ValueError("not a search log record (no time in at)")
    if by is not None and not isinstance(by, str):
        raise ValueError("by must be a string")
    query, found = item.get("search"), item.get("found")
    if isinstance(query, str) and isinstance(found, list):
        if not all(isinstance(name, str) for name in found):
            raise ValueError("found must be a list of operation names")
        return Record(float(at), by, query=query, found=tuple(found))
    called, ok = item.get("called"), item.get("ok")
    if isinstance(called, str) and isinstance(ok, bool):
        return Record(float(at), by, called=called, ok=ok)
    raise ValueError("not a search log record (neither a search nor a call)")


def usage(records: Iterable[Record], window: float = DEFAULT_WINDOW_SECONDS) -> Usage:
    """Each successful call paired with the search that found it (module docstring)."""
    result = Usage()
    # per caller: its searches, latest last, with the operations each already paired with
    searches: dict[str | None, list[tuple[Record, set[str]]]] = {}
    found: dict[tuple[str, str], Example] = {}
    for record in sorted(records, key=lambda r: r.at):
        if record.query is not None:
            result.searches += 1
            result.found_nothing += not record.found
            searches.setdefault(record.by, []).append((record, set()))
            continue
        result.calls += 1
        if not record.ok or record.called is None:
            continue
        result.succeeded += 1
        tool = record.called
        for search, paired in reversed(searches.get(record.by, [])):
            if record.at - search.at > window:
                break
            if tool in search.found:
                if tool not in paired:
                    paired.add(tool)
                    result.paired += 1
                    _count(found, search, tool)
                break
    result.examples = sorted(found.values(), key=lambda e: -e.uses)
    unanswered: dict[str, tuple[str, int]] = {}
    for history in searches.values():
        for search, paired in history:
            if not paired:
                query = " ".join((search.query or "").split())
                _, count = unanswered.get(query.casefold(), (query, 0))
                unanswered[query.casefold()] = (query, count + 1)
    result.unanswered = sorted(unanswered.values(), key=lambda item: -item[1])
    return result


def _count(found: dict[tuple[str, str], Example], search: Record, tool: str) -> None:
    query = " ".join((search.query or "").split())
    rank = search.found.index(tool) + 1
    key = (query.casefold(), tool)
    example = found.get(key)
    if example is None:
        found[key] = Example(query, tool, 1, rank)
    else:
        example.uses += 1
        example.rank = rank  # the latest search's


def example_lines(examples: Sequence[Example]) -> list[str]:
    return [
        json.dumps(
            {"query": e.query, "expected": e.tool, "split": SPLIT, "uses": e.uses, "rank": e.rank},
            ensure_ascii=False,
        )
        for e in examples
    ]


def known_pairs(text: str, source: str) -> set[tuple[str, str]]:
    """The (query, operation) pairs a query file already holds, as ``usage`` keys them."""
    pairs: set[tuple[str, str]] = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            item = json.loads(line)
        except ValueError:
            raise QueryFileError(f"{source}: line {number}: not JSON") from None
        query = item.get("query") if isinstance(item, dict) else None
        expected = item.get("expected") if isinstance(item, dict) else None
        if not isinstance(query, str):
            raise QueryFileError(f"{source}: line {number}: query must be a non-empty string")
        names = [expected] if isinstance(expected, str) else expected
        if isinstance(names, list):
            key = " ".join(query.split()).casefold()
            pairs.update((key, name) for name in names if isinstance(name, str))
    return pairs


def added_examples(examples: Sequence[Example], known: set[tuple[str, str]]) -> list[Example]:
    return [e for e in examples if (" ".join(e.query.split()).casefold(), e.tool) not in known]


def append_atomically(path: Path, text: str, lines: Sequence[str]) -> None:
    """``path`` becomes ``text`` (what it held) followed by ``lines``, or stays as it was."""
    head = text if not text or text.endswith("\n") else text + "\n"
    body = head + "".join(line + "\n" for line in lines)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(body)
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
