"""Write the catalog's repeated values once: the generator's side of ``catalog.pool.jsonl``.

The format is owned by the runtime (``templates/runtime/catalog/pool.py``): every object, array or
string of at least :data:`MIN_BYTES` (as compact JSON) that occurs more than once across the catalog
files becomes one pool line, and ``{"$": n}`` where it occurred. Identical values are found by
hash-consing (each value's identity is its kind and its children's identities), so the cost is linear
in the size of the catalog; values the plan already shares (one Python object in many places) are
looked at once. Occurrences inside a value that is itself written once count once, so a value is
pooled only where the written files really repeat it. A pool line's references all point to earlier
lines (children are written first), which lets the runtime resolve the pool in one pass.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

POOL_FILE = "catalog.pool.jsonl"
# the only key of a reference object (runtime catalog_pool.REFERENCE)
REFERENCE = "$"
# smaller values are written where they occur: {"$": 12345} would save too little (see _worth)
MIN_BYTES = 28

_DICT, _LIST, _STRING, _OTHER = range(4)


class _Values:
    """Every distinct value of some documents, by identity number, with its kind and size."""

    def __init__(self) -> None:
        self.numbers: dict[Any, int] = {}
        self.kinds: list[int] = []
        self.sizes: list[int] = []
        self.children: list[tuple[Any, ...]] = []  # (key, number) pairs or numbers; () for scalars
        self.scalars: list[Any] = []
        self._by_object: dict[int, int] = {}
        self.clash = False  # the data holds a reference-shaped object of its own

    def number(self, value: Any) -> int:
        if isinstance(value, dict | list):
            known = self._by_object.get(id(value))
            if known is None:
                known = self._by_object[id(value)] = self._container(value)
            return known
        if isinstance(value, str):
            return self._add((_STRING, value), _STRING, len(_json(value)), (), value)
        return self._add(
            (_OTHER, type(value).__name__, value), _OTHER, len(_json(value)), (), value
        )

    def _container(self, value: dict[str, Any] | list[Any]) -> int:
        if isinstance(value, dict):
            if len(value) == 1 and type(value.get(REFERENCE)) is int:
                self.clash = True
            pairs = tuple((key, self.number(item)) for key, item in value.items())
            size = 1 + sum(len(_json(key)) + 2 + self.sizes[n] for key, n in pairs)
            return self._add((_DICT, pairs), _DICT, size + (not pairs), pairs, None)
        items = tuple(self.number(item) for item in value)
        size = 1 + sum(self.sizes[n] + 1 for n in items)
        return self._add((_LIST, items), _LIST, size + (not items), items, None)

    def _add(self, key: Any, kind: int, size: int, children: tuple[Any, ...], scalar: Any) -> int:
        known = self.numbers.get(key)
        if known is None:
            known = self.numbers[key] = len(self.kinds)
            self.kinds.append(kind)
            self.sizes.append(size)
            self.children.append(children)
            self.scalars.append(scalar)
        return known

    def child_numbers(self, number: int) -> list[int]:
        if self.kinds[number] == _DICT:
            return [n for _, n in self.children[number]]
        return list(self.children[number])


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def pool_values(documents: Sequence[Any]) -> tuple[list[Any], list[Any]] | None:
    """``documents`` with their repeated values as references, and the pool; ``None`` when nothing
    repeats (or the data holds a reference-shaped object, which a reference could not be told from).
    """
    values = _Values()
    roots = [values.number(document) for document in documents]
    if values.clash:
        return None
    counts = [0] * len(values.kinds)
    for root in roots:
        _count(values, root, counts)
    pool: list[Any] = []
    written: dict[int, dict[str, int]] = {}

    def write(number: int, *, root: bool = False) -> Any:
        kind = values.kinds[number]
        if not root and counts[number] > 1 and _poolable(values, number):
            reference = written.get(number)
            if reference is None:
                line = build(number)  # children first: a line refers only to earlier lines
                reference = written[number] = {REFERENCE: len(pool)}
                pool.append(line)
            return reference
        return build(number) if kind in (_DICT, _LIST) else values.scalars[number]

    def build(number: int) -> Any:
        kind = values.kinds[number]
        if kind == _DICT:
            return {key: write(n) for key, n in values.children[number]}
        if kind == _LIST:
            return [write(n) for n in values.children[number]]
        return values.scalars[number]

    if not any(counts[n] > 1 and _poolable(values, n) for n in range(len(counts))):
        return None
    return [write(root, root=True) for root in roots], pool


def _poolable(values: _Values, number: int) -> bool:
    return values.kinds[number] != _OTHER and values.sizes[number] >= MIN_BYTES


def _count(values: _Values, root: int, counts: list[int]) -> None:
    """How often each value is written; below a value that will be pooled, its first time only."""
    stack = [root]
    while stack:
        number = stack.pop()
        counts[number] += 1
        if counts[number] == 1 or not _poolable(values, number):
            stack.extend(values.child_numbers(number))
