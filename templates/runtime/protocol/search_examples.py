"""Phrasings of an API's users, each with the operations that serve it: what the search learns from.

An API's owner may give the generator example task phrasings (the query file ``openapi2mcp eval``
reads: ``{"query": "who can push to acme/api", "expected": ["repos/list-collaborators"]}``).
The spec says what each operation does in the API's words; the examples say it in the users'
words, which the spec cannot teach ("push" for a collaborator, "freeze the thread" for a lock).
``ExampleIndex.near`` finds the examples most like a query (TF-IDF over their words and pairs of
words, spelled as the search spells them, values read as their kinds; cosine similarity) and
gives, per operation they name, how alike the nearest one is; the search favours those
operations and adds the ones its words did not find. Built with the search index; a few hundred
examples take milliseconds. Stdlib only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import pairwise

from .search_document import spelled
from .search_query import HINT_MARK, tokens
from .search_vocabulary import stem

# how many of the most alike examples speak for a query, and how alike one must be to speak
NEAREST = 5
ALIKE = 0.15


def _features(text: str) -> dict[str, float]:
    """A phrasing's terms (stemmed words, and pairs of them in order), sublinear counts. A value
    counts as the kind of thing it is ("acme/api": a repo), a name not at all (``tokens``)."""
    words = [
        token if token.startswith(HINT_MARK) else stem(token) for token in spelled(tokens(text))
    ]
    counts: dict[str, int] = {}
    for term in (*words, *(f"{a} {b}" for a, b in pairwise(words))):
        counts[term] = counts.get(term, 0) + 1
    return {term: 1 + math.log(count) for term, count in counts.items()}


class ExampleIndex:
    """Example phrasings and the tools that serve them; ask ``near`` for a query's neighbours."""

    def __init__(self, examples: Iterable[tuple[str, Sequence[str]]]) -> None:
        """Index ``examples``: (phrasing, tool names that serve it)."""
        pairs = [(text, tuple(tools)) for text, tools in examples if tools]
        self._tools = [tools for _, tools in pairs]
        counted = [_features(text) for text, _ in pairs]
        frequency: dict[str, int] = {}
        for features in counted:
            for term in features:
                frequency[term] = frequency.get(term, 0) + 1
        count = len(pairs)
        # as scikit-learn's smoothed idf: a term every example has still counts a little
        self._idf = {t: math.log((1 + count) / (1 + df)) + 1 for t, df in frequency.items()}
        self._postings: dict[str, list[tuple[int, float]]] = {}
        for position, features in enumerate(counted):
            vector = self._weighted(features)
            for term, weight in vector.items():
                self._postings.setdefault(term, []).append((position, weight))

    def __len__(self) -> int:
        return len(self._tools)

    def _weighted(self, features: dict[str, float]) -> dict[str, float]:
        """``features`` weighted by idf, unit length; a term no example has weighs as the rarest
        (it makes the phrasing less like any example)."""
        unseen = math.log(1 + len(self._tools)) + 1
        vector = {t: x * self._idf.get(t, unseen) for t, x in features.items()}
        norm = math.sqrt(sum(w * w for w in vector.values()))
        return {t: w / norm for t, w in vector.items()} if norm else {}

    def near(self, query: str) -> dict[str, float]:
        """Per tool an example of the ``NEAREST`` most like ``query`` names (at least ``ALIKE``):
        the similarity of the most alike (0 to 1)."""
        similarity: dict[int, float] = {}
        for term, weight in self._weighted(_features(query)).items():
            for position, other in self._postings.get(term, ()):
                similarity[position] = similarity.get(position, 0.0) + weight * other
        alike_enough = (item for item in similarity.items() if item[1] >= ALIKE)
        nearest = sorted(alike_enough, key=lambda item: (-item[1], item[0]))[:NEAREST]
        found: dict[str, float] = {}
        for position, alike in nearest:
            for tool in self._tools[position]:
                found[tool] = max(found.get(tool, 0.0), alike)
        return found
