"""Of two operations that reach one thing by its id or by its name (Prefect's ``GET
/variables/{id}`` and ``GET /variables/name/{name}``), which one a query's value asks for: a name
given (``slack_channel``, ``"prod"``) the one by name, an id (a UUID, hex, a number) the one by id.
Stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .search_document import Entry
from .search_vocabulary import words_of

__all__ = ["addressing", "given_value", "gives_value"]

# what a value given looks like: an id (a UUID, hex with a digit, a number of 3 digits or more) or
# a name (quoted, or words joined by "_", "-" or ".": slack_channel, nightly-etl)
_ID_VALUE = re.compile(
    r"\b(?:[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|(?=[0-9a-f]*\d)[0-9a-f]{6,}|\d{3,})\b", re.I
)
_NAME_VALUE = re.compile(r"\"[^\"]+\"|'[^'\s][^']*'|\b[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)+\b")


def addressing(entries: Sequence[Entry]) -> list[str]:
    """Per operation, "id" or "name" when it is one of two with one method that reach the same
    thing by its id or by its name (Prefect's ``GET /variables/{id}`` and ``GET
    /variables/name/{name}``), else ""."""
    groups: dict[tuple[str, str], dict[str, list[int]]] = {}
    for position, entry in enumerate(entries):
        kind, base = _addressed_by(entry.path)
        if kind:
            groups.setdefault((entry.method, base), {}).setdefault(kind, []).append(position)
    found = [""] * len(entries)
    for kinds in groups.values():
        if len(kinds) == 2:
            for kind, positions in kinds.items():
                for position in positions:
                    found[position] = kind
    return found


def _addressed_by(path: str) -> tuple[str, str]:
    """How a path reaches its thing ("id", "name" or "") and the collection it is in:
    ``/variables/name/{name}`` is ("name", "/variables"), ``/flows/{id}`` ("id", "/flows")."""
    segments = [part for part in path.split("/") if part]
    last = ""
    while segments and segments[-1].startswith("{"):
        last = last or segments[-1].strip("{}")
        segments.pop()
    said = words_of(last, shortest=2)
    if not said:
        return "", ""
    if segments and segments[-1].lower() in ("name", "by-name", "by_name", "byname"):
        return "name", "/".join(segments[:-1])
    if said[-1] == "name":
        return "name", "/".join(segments)
    if said[-1] in ("id", "uuid"):
        return "id", "/".join(segments)
    return "", ""


def given_value(query: str) -> str:
    """ "id" when the query gives only ids ("run 3f2a9c1e"), "name" when it gives only names
    ("the variable slack_channel", '"prod"'), else ""."""
    ids = _ID_VALUE.findall(query)
    names = [n for n in _NAME_VALUE.findall(query) if not _ID_VALUE.fullmatch(n.strip("\"'"))]
    if ids and not names:
        return "id"
    if names and not ids:
        return "name"
    return ""


def gives_value(query: str) -> bool:
    """Whether the query gives an id or a name (``conv_rate``, ``1001``): data of the user's."""
    return bool(_ID_VALUE.search(query) or _NAME_VALUE.search(query))
