"""Values the catalog files write once: ``catalog.pool.jsonl`` and the references to it.

Big APIs repeat the same values all over their catalog: a parameter described alike in a thousand
operations, the same description on a tool and on its resource template, the same schema in many
tools. The generator writes each such value (an object, array or string of a few dozen bytes or more
that occurs more than once) once, as a line of ``catalog.pool.jsonl``, and ``{"$": n}`` wherever it
occurred (``n``: the line's number, from 0) in ``catalog.json``, ``catalog.defs.json``,
``catalog.tools.jsonl`` and in later pool lines (a line refers only to lines before it). Reading
resolves each reference to the very value its line holds: the catalog in memory is what the generator
had, repeated values shared (treat it as read-only, like every catalog). Data that holds an object of
that shape itself is written without a pool.

This module owns that format. It is copied verbatim into every generated package: stdlib only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

POOL_SUFFIX = ".pool.jsonl"
# the only key of a reference object; its value is the pool line's number
REFERENCE = "$"


class Pool:
    """The values of one ``catalog.pool.jsonl`` (empty: a catalog written without one)."""

    __slots__ = ("_hook", "values")

    def __init__(self, values: list[Any] | None = None) -> None:
        self.values: list[Any] = [] if values is None else values
        self._hook = _resolver(self.values)

    @classmethod
    def read(cls, path: Path) -> Pool:
        """The pool at ``path`` (``OSError``, ``ValueError`` when it cannot be read)."""
        pool = cls()
        with path.open("rb") as lines:
            for line in lines:
                if line.strip():
                    # a line refers only to the lines before it: resolved as it is read
                    pool.values.append(json.loads(line, object_hook=pool._hook))
        return pool

    def loads(self, raw: bytes | str) -> Any:
        """JSON text of a catalog file with its references resolved (``ValueError`` if bad)."""
        return json.loads(raw, object_hook=self._hook)


def _resolver(values: list[Any]) -> Callable[[dict[str, Any]], Any]:
    def resolve(obj: dict[str, Any]) -> Any:
        if len(obj) == 1:
            number = obj.get(REFERENCE)
            if type(number) is int:
                if not 0 <= number < len(values):
                    raise ValueError(f"catalog pool reference {number} is not in the pool")
                return values[number]
        return obj

    return resolve


def read_pool(catalog_path: Path) -> Pool:
    """The pool of the catalog at ``catalog_path`` (``.../catalog.json``); empty without one."""
    path = catalog_path.with_name(catalog_path.stem + POOL_SUFFIX)
    return Pool.read(path) if path.is_file() else Pool()
