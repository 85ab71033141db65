"""Pagination of the four list methods, with pages prepared once per revision.

A cursor is an opaque, URL-safe token naming the list and the offset of the next page, so it stays
valid across replicas and restarts as long as the catalog is the same, and it does not depend on the
page size. Each page of each revision is shaped and serialised on first use and then served from
memory: a list request does no schema work.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Sequence

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


class Pager:
    """The pages of one list method (``key`` is the result member: ``tools``, ``prompts``, ...)."""

    def __init__(
        self,
        key: str,
        items: Sequence[JsonObject],
        *,
        page_size: int,
        shape: ShapeItem,
        finish: FinishPage,
    ) -> None:
        if page_size < 1:
            raise ValueError("page size must be at least 1")
        self._key = key
        self._items = items
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
            self._key: [self._shape(item, version) for item in self._items[offset:end]]
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
