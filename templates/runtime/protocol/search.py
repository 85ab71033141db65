"""Ranked text search over a catalog's operations, for the search tool of dynamic mode.

Each operation is a document with weighted fields: its name, summary, tags, path, parameter names and
the start of its description. Words are split at case changes and punctuation, lower-cased, reduced
to a crude stem (``issues`` and ``issue`` match) and mapped through a few REST synonyms (``repository``
is ``repo``); common English words are ignored. Scores are BM25F: each field's term frequency is
weighted and normalised by the field's length, so a short name that says exactly what was asked beats
a long description that mentions it in passing. A query whose verb suggests an HTTP method ("create",
"delete", "list") lifts operations with that method a little, operations matching more of the
query's words rank first, and a summary that the query says in full ("Create a release" for "create
a release") is preferred to one that says more. Ties keep catalog order, so results are stable.
Stdlib only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

_WORD = re.compile(r"[A-Za-z]+|[0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_STOP = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from",
        "how", "i", "in", "is", "it", "me", "my", "of", "on", "or", "our", "the", "this", "that",
        "to", "with", "what", "which", "want", "need", "please", "some", "all", "any", "your",
    }
)  # fmt: skip
# REST vocabulary spelled several ways; the right-hand side is what both sides of a match use
_SYNONYMS = {
    "repository": "repo",
    "repositories": "repo",
    "organization": "org",
    "organisation": "org",
    "organizations": "org",
    "pr": "pull",
    "prs": "pull",
    "configuration": "config",
    "authentication": "auth",
    "information": "info",
    "environment": "env",
    "environments": "env",
    "remove": "delete",
    "add": "create",
    "new": "create",
    "fetch": "get",
    "retrieve": "get",
    "modify": "update",
    "edit": "update",
    "change": "update",
}
# query verbs (after synonyms) and the HTTP methods they suggest
_VERB_METHODS = {
    "create": ("POST", "PUT"),
    "make": ("POST",),
    "open": ("POST",),
    "post": ("POST",),
    "delete": ("DELETE",),
    "update": ("PATCH", "PUT"),
    "set": ("PUT", "PATCH"),
    "replace": ("PUT",),
    "list": ("GET",),
    "show": ("GET",),
    "find": ("GET",),
    "search": ("GET",),
    "read": ("GET",),
    "view": ("GET",),
    "get": ("GET",),
}
FIELD_WEIGHTS = {"name": 3.0, "summary": 2.5, "tags": 1.5, "path": 1.0, "params": 0.7, "text": 0.4}
_K1 = 1.2
_B = 0.75
_METHOD_BOOST = 1.15
# the most a summary made only of query words multiplies a score by
_SUMMARY_BOOST = 0.5
# how much of a description is searched: its first words say what the operation does
_TEXT_CHARS = 300


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def terms(text: str) -> list[str]:
    """The searchable terms of ``text``, in order (stop words dropped)."""
    found: list[str] = []
    for word in _WORD.findall(_CAMEL.sub(" ", text)):
        lowered = word.lower()
        if lowered in _STOP:
            continue
        lowered = _SYNONYMS.get(lowered, lowered)
        found.append(_SYNONYMS.get(_stem(lowered), _stem(lowered)))
    return found


@dataclass(frozen=True, slots=True)
class Entry:
    """One operation as the search sees it."""

    name: str
    summary: str
    method: str = ""
    path: str = ""
    tags: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    text: str = ""


@dataclass(slots=True)
class _Document:
    entry: Entry
    fields: dict[str, dict[str, int]] = field(default_factory=dict)
    lengths: dict[str, int] = field(default_factory=dict)
    # the distinct terms of the summary (of the name when there is no summary)
    headline: frozenset[str] = frozenset()


class SearchIndex:
    """BM25F over ``Entry`` fields; build once, query many times."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self._documents: list[_Document] = []
        frequency: dict[str, int] = {}
        totals = dict.fromkeys(FIELD_WEIGHTS, 0)
        for entry in entries:
            document = _Document(entry)
            texts = {
                "name": [entry.name],
                "summary": [entry.summary],
                "tags": list(entry.tags),
                "path": [entry.path],
                "params": list(entry.params),
                "text": [entry.text[:_TEXT_CHARS]],
            }
            seen: set[str] = set()
            for name, values in texts.items():
                counts: dict[str, int] = {}
                for value in values:
                    # presence, not frequency: "issues_list_labels_on_issue" is not more about
                    # issues than "issues_list"
                    counts.update(dict.fromkeys(terms(value), 1))
                document.fields[name] = counts
                document.lengths[name] = sum(counts.values())
                totals[name] += document.lengths[name]
                seen.update(counts)
            document.headline = frozenset(document.fields["summary"] or document.fields["name"])
            for term in seen:
                frequency[term] = frequency.get(term, 0) + 1
            self._documents.append(document)
        count = max(len(self._documents), 1)
        self._average = {name: max(total / count, 1.0) for name, total in totals.items()}
        self._idf = {
            term: math.log(1 + (len(self._documents) - df + 0.5) / (df + 0.5))
            for term, df in frequency.items()
        }

    def __len__(self) -> int:
        return len(self._documents)

    @property
    def entries(self) -> list[Entry]:
        return [document.entry for document in self._documents]

    def search(
        self, query: str, *, limit: int = 10, allowed: Sequence[str] | None = None
    ) -> list[Entry]:
        """The best ``limit`` entries for ``query``, best first; only ``allowed`` names if given."""
        wanted = list(dict.fromkeys(terms(query)))
        if not wanted:
            return []
        methods = {m for term in wanted for m in _VERB_METHODS.get(term, ())}
        asked = frozenset(wanted)
        permitted = set(allowed) if allowed is not None else None
        scored: list[tuple[float, int, Entry]] = []
        for position, document in enumerate(self._documents):
            if permitted is not None and document.entry.name not in permitted:
                continue
            score, matched = self._score(document, wanted)
            if not matched:
                continue
            score *= (1 + matched) / (1 + len(wanted))
            if document.entry.method in methods:
                score *= _METHOD_BOOST
            if document.headline:
                said = len(document.headline & asked) / len(document.headline)
                score *= 1 + _SUMMARY_BOOST * said
            scored.append((-score, position, document.entry))
        scored.sort(key=lambda item: (item[0], item[1]))
        return [entry for _, _, entry in scored[:limit]]

    def _score(self, document: _Document, wanted: list[str]) -> tuple[float, int]:
        score = 0.0
        matched = 0
        for term in wanted:
            weighted = 0.0
            for name, weight in FIELD_WEIGHTS.items():
                tf = document.fields[name].get(term, 0)
                if tf:
                    norm = 1 - _B + _B * document.lengths[name] / self._average[name]
                    weighted += weight * tf / norm
            if weighted:
                matched += 1
                score += self._idf.get(term, 0.0) * weighted / (_K1 + weighted)
        return score, matched
