"""Operations documented twice, once with a trailing slash: one operation, kept once.

A FastAPI route declared under both spellings (Langflow's ``@router.get("")`` and
``@router.get("/")`` on one function: ``GET /api/v2/files`` and ``GET /api/v2/files/``) is in its
document twice, with the same summary, parameters and body. As two tools it listed the same
resource URI twice, and the names the collision left (``list_files_api_v2_files_get`` calling the
slashed path, ``…_get_2`` the other) said nothing true of either. The spelling without the slash is
kept; the twin is left out with a note. Twins that differ in anything a caller sees stay apart.
"""

from __future__ import annotations

from typing import Any

from ..load.refs import Location, Resolver
from .model import Operation

__all__ = ["without_slash_twins"]


def without_slash_twins(
    resolver: Resolver, operations: list[tuple[Operation, Location]]
) -> list[tuple[Operation, Location]]:
    """``operations`` without each that is another's twin with a trailing slash (see the module)."""
    plain = {
        (op.method, op.path): op
        for op, _ in operations
        if not op.path.endswith("/") and op.path.strip("/")
    }
    kept: list[tuple[Operation, Location]] = []
    for op, at in operations:
        twin = plain.get((op.method, op.path.rstrip("/"))) if op.path.endswith("/") else None
        if twin is not None and _alike(op, twin):
            resolver.info(
                "operation-slash-twin",
                at,
                f"{op.method} {op.path} is {twin.method} {twin.path} with a trailing slash, the "
                "same summary, parameters and body: one operation, kept as the one without it",
            )
            continue
        kept.append((op, at))
    return kept


def _alike(one: Operation, other: Operation) -> bool:
    """Whether two operations look the same to a caller: what they say, take and answer."""
    return (
        (one.summary, one.description, one.security)
        == (other.summary, other.description, other.security)
        and {(p.location, p.name, p.required) for p in one.parameters}
        == {(p.location, p.name, p.required) for p in other.parameters}
        and (one.body is None) == (other.body is None)
        and (
            one.body is None
            or other.body is None
            or _untitled(one.body.schema) == _untitled(other.body.schema)
        )
        and (one.response is None) == (other.response is None)
    )


def _untitled(schema: Any) -> Any:
    """``schema`` without its titles (FastAPI names each body after its function's operationId,
    ``Body_upload_user_file_api_v2_files_post`` and ``…_files__post``) and the references to
    such names, which differ between twins by the same spelling."""
    if isinstance(schema, dict):
        return {
            key: _untitled(value)
            for key, value in schema.items()
            if key != "title" and not (key == "$ref" and "/Body_" in str(value))
        }
    if isinstance(schema, list):
        return [_untitled(item) for item in schema]
    return schema
