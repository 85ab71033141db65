"""A typed-client façade over :class:`~.upstream.client.Upstream`, used by the generated ``operations.py``.

The MCP server never goes through here: it maps upstream responses to tool results itself. This is
for people who import a generated package as an ordinary async client for the API: a non-2xx answer
raises :class:`ApiError`, JSON comes back decoded, pydantic models passed as arguments are dumped to
plain JSON first. ``None`` leaves an argument out; :data:`NULL` sends it as JSON ``null`` (a body
field cleared on purpose), at the top level or anywhere inside a dict or list value. A
``304 Not Modified`` (to a conditional request) returns ``None``, a redirect the operation documents as
its answer (not followed: a download link) its ``Location``; JSON Lines come back as a list, and
a body that is not the JSON its content type says as text.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping
from types import TracebackType
from typing import Any

import httpx

from .catalog.model import Catalog, documented_redirect
from .errors import ApiError as ApiError  # noqa: PLC0414 - re-exported
from .upstream.client import Upstream

_NOT_MODIFIED = 304


class _Null:
    """The type of :data:`NULL`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NULL"


# an argument value meaning "send JSON null" (None means "leave the argument out"); typed Any so
# that it fits every parameter of the generated functions
NULL: Any = _Null()


def parsed(kind: Any, data: Any) -> Any:
    """``data`` validated as ``kind`` (a model class, or a type such as ``list[Model]``)."""
    return _adapter(kind).validate_python(data)


@functools.lru_cache(maxsize=1024)
def _adapter(kind: Any) -> Any:
    """One pydantic ``TypeAdapter`` per type (building one costs far more than validating)."""
    from pydantic import TypeAdapter  # noqa: PLC0415 - only the typed client needs pydantic

    return TypeAdapter(kind)


class ApiClient:
    """Calls operations by key with plain or pydantic arguments; ``None`` arguments are left out,
    :data:`NULL` ones sent as JSON null."""

    def __init__(self, upstream: Upstream) -> None:
        self._upstream = upstream

    @classmethod
    def from_catalog(
        cls,
        catalog: Catalog,
        *,
        environ: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> ApiClient:
        server = catalog["server"]
        upstream = Upstream(
            catalog["upstream"],
            catalog["operations"],
            environ=os.environ if environ is None else environ,
            user_agent=f"{server['name']}/{server['version']}",
            transport=transport,
        )
        return cls(upstream)

    async def call_keywords(
        self, operation: str, keywords: Mapping[str, Any], renames: Mapping[str, str] | None = None
    ) -> Any:
        """``call`` with a typed function's keyword arguments (its ``locals()``: ``client`` is the
        client itself), named as the API names them where ``renames`` says so."""
        renames = renames or {}
        arguments = {renames.get(k, k): v for k, v in keywords.items() if k != "client"}
        return await self.call(operation, arguments)

    async def call(self, operation: str, arguments: Mapping[str, Any]) -> Any:
        plain = {k: _plain(v) for k, v in arguments.items() if v is not None}  # NULL -> None
        response = await self._upstream.call(operation, plain)
        if response.status == _NOT_MODIFIED:
            return None
        if documented_redirect(response.status, self._upstream.redirects(operation)):
            return response.location  # the answer is where it points (a download link)
        if not 200 <= response.status < 300:
            raise ApiError(response)
        if not response.body:
            return None
        media = response.content_type.split(";", 1)[0].strip().lower()
        if media == "application/json" or media.endswith("+json") or "json" in media:
            text = response.body.decode("utf-8", "replace")
            try:
                return json.loads(text)
            except ValueError:
                try:
                    return [json.loads(line) for line in text.splitlines() if line.strip()]
                except ValueError:
                    return text
        if media.startswith("text/"):
            return response.body.decode("utf-8", "replace")
        return response.body

    async def aclose(self) -> None:
        await self._upstream.aclose()

    async def __aenter__(self) -> ApiClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


def _plain(value: Any) -> Any:
    if value is NULL:
        return None
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
