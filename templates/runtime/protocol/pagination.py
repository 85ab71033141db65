"""Pagination of the four list methods, with pages prepared once per revision.

A cursor is an opaque, URL-safe token naming the list and the offset of the next page, so it stays
valid across replicas and restarts as long as the catalog is the same, and it does not depend on the
page size. The order is the catalog's, so it is the same on every replica and every run. Each page of
each revision is shaped and serialised on first use and then served from memory: a list request does
no schema work. Items come from a ``PageSource``: a list, a list read from the catalog only when a
page is first asked for (``LazyItems``), or chosen tools of a ``ToolSource`` (``PickedTools``).
``tool_source`` gives the catalog's tools: read a page at a time from ``catalog.tools.jsonl``
(``FileTools``) while the catalog is a pristine ``LazyCatalog``, so that the first page never waits
for the whole catalog, else from memory (``MemoryTools``).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Protocol

from ..catalog.model import TOOLS_SUFFIX, Catalog, CatalogError, as_lazy, companion
from ..catalog.pool import Pool
from .jsonrpc import INVALID_PARAMS, JsonObject, JsonRpcError, PreparedResult

DEFAULT_PAGE_SIZE = 100
_CURSOR_PATTERN = re.compile(r"v1:([a-zA-Z]+):([1-9][0-9]{0,9})")

ShapeItem = Callable[[JsonObject, str], JsonObject]
FinishPage = Callable[[JsonObject, str], JsonObject]


def encode_cursor(kind: str, offset: int) -> str:
    return base64.urlsafe_b64encode(f"v1:{kind}:{offset}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str, kind: str) -> int | None:
    """The offset a cursor names, or ``None`` if it is not one of ours for this list."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    match = _CURSOR_PATTERN.fullmatch(raw)
    if match is None or match.group(1) != kind:
        return None
    return int(match.group(2))


class ToolSource(Protocol):
    """The catalog's tools in order: their names, and the objects of any of them."""

    @property
    def names(self) -> Sequence[str]: ...

    def pick(self, positions: Sequence[int]) -> list[JsonObject]:
        """The tools at ``positions`` (ascending), as stored."""
        ...


class MemoryTools:
    """Tools held in memory (a catalog read whole, or extended by custom code)."""

    def __init__(self, tools: Sequence[JsonObject]) -> None:
        self._tools = tools
        self.names: Sequence[str] = [tool["name"] for tool in tools]

    def pick(self, positions: Sequence[int]) -> list[JsonObject]:
        return [self._tools[position] for position in positions]


class FileTools:
    """Tools read from ``catalog.tools.jsonl`` a line at a time: only what a page shows."""

    def __init__(
        self, path: Path, names: Sequence[str], offsets: Sequence[int], pool: Callable[[], Pool]
    ) -> None:
        if len(offsets) != len(names) + 1:
            raise CatalogError(f"{path.name} does not match its index")
        self._path = path
        self.names = names
        self._offsets = offsets
        self._pool = pool  # the catalog's pool, read when a page is first read

    def pick(self, positions: Sequence[int]) -> list[JsonObject]:
        tools: list[JsonObject] = []
        try:
            with self._path.open("rb") as lines:
                for run_start, run_end in _runs(positions):
                    start = self._offsets[run_start]
                    lines.seek(start)
                    chunk = lines.read(self._offsets[run_end] - start)
                    tools.extend(self._pool().loads(line) for line in chunk.splitlines())
        except (OSError, ValueError) as exc:
            raise CatalogError(f"cannot read {self._path.name}: {exc}") from exc
        if len(tools) != len(positions):
            raise CatalogError(f"{self._path.name} does not match its index")
        return tools


def _runs(positions: Sequence[int]) -> Iterator[tuple[int, int]]:
    """Ascending positions as half-open runs of consecutive ones: [1, 2, 3, 7] -> (1, 4), (7, 8)."""
    start = previous = -2
    for position in positions:
        if position != previous + 1:
            if start >= 0:
                yield start, previous + 1
            start = position
        previous = position
    if start >= 0:
        yield start, previous + 1


def tool_source(catalog: Catalog) -> ToolSource:
    """Tools from the lines file while the catalog is a pristine ``LazyCatalog``, else from memory."""
    lazy = as_lazy(catalog)
    if lazy is not None:
        index = lazy.index
        return FileTools(
            companion(lazy.path, TOOLS_SUFFIX),
            index["toolNames"],
            index["toolOffsets"],
            lambda: lazy.pool,
        )
    return MemoryTools(catalog["tools"])


class PageSource(Protocol):
    """An ordered list of wire objects that can be read a slice at a time."""

    def __len__(self) -> int: ...

    def slice(self, start: int, end: int) -> list[JsonObject]: ...


class ListItems:
    """Items already in memory."""

    def __init__(self, items: Sequence[JsonObject]) -> None:
        self._items = items

    def __len__(self) -> int:
        return len(self._items)

    def slice(self, start: int, end: int) -> list[JsonObject]:
        return list(self._items[start:end])


class LazyItems:
    """Items whose number is known up front and whose list is fetched on the first slice."""

    def __init__(self, count: int, fetch: Callable[[], Sequence[JsonObject]]) -> None:
        self._count = count
        self._fetch = fetch

    def __len__(self) -> int:
        return self._count

    def slice(self, start: int, end: int) -> list[JsonObject]:
        return list(self._fetch()[start:end])


class PickedTools:
    """The tools at ``positions`` of a ``ToolSource``, in that order, read only for a page."""

    def __init__(self, source: ToolSource, positions: Sequence[int]) -> None:
        self._source = source
        self._positions = positions

    def __len__(self) -> int:
        return len(self._positions)

    def slice(self, start: int, end: int) -> list[JsonObject]:
        return self._source.pick(self._positions[start:end])


class Pager:
    """The pages of one list method (``key`` is the result member: ``tools``, ``prompts``, ...)."""

    def __init__(
        self,
        key: str,
        items: Sequence[JsonObject] | PageSource,
        *,
        page_size: int,
        shape: ShapeItem,
        finish: FinishPage,
    ) -> None:
        if page_size < 1:
            raise ValueError("page size must be at least 1")
        self._key = key
        self._items: PageSource = ListItems(items) if isinstance(items, Sequence) else items
        self._page_size = page_size
        self._shape = shape
        self._finish = finish
        self._pages: dict[tuple[str, int], PreparedResult] = {}

    def page(self, params: JsonObject, version: str) -> PreparedResult:
        offset = self._offset(params.get("cursor"))
        cached = self._pages.get((version, offset))
        if cached is not None:
            return cached
        end = offset + self._page_size
        result: JsonObject = {
            self._key: [self._shape(item, version) for item in self._items.slice(offset, end)]
        }
        if end < len(self._items):
            result["nextCursor"] = encode_cursor(self._key, end)
        prepared = PreparedResult(self._finish(result, version))
        # offsets from another page size (another replica's cursor) are served but not kept
        if offset % self._page_size == 0:
            self._pages[(version, offset)] = prepared
        return prepared

    def _offset(self, cursor: object) -> int:
        # "" is accepted as "from the start": the spec makes it a valid cursor value
        if cursor is None or cursor == "":
            return 0
        offset = decode_cursor(cursor, self._key) if isinstance(cursor, str) else None
        if offset is None or offset >= len(self._items):
            raise JsonRpcError(INVALID_PARAMS, "Invalid cursor")
        return offset
