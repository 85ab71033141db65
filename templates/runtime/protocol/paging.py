"""What a result cut to its budget says about getting the rest: the operation's paging arguments
(by their names: ``page``, ``per_page``, ``cursor``, ``limit``...), those that say how many come at
a time and those that say from where."""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["pagination_arguments", "paging_advice"]

# query parameter names that page through a collection (lower case, without "_" and "-")
_PAGING_NAMES = frozenset(
    {
        "page",
        "perpage",
        "pagesize",
        "size",
        "pagenumber",
        "pagetoken",
        "nextpagetoken",
        "limit",
        "offset",
        "cursor",
        "after",
        "before",
        "startingafter",
        "endingbefore",
        "since",
        "maxresults",
        "top",
        "skip",
        "count",
        "start",
        "marker",
        "continuationtoken",
        "continue",
        "next",
    }
)


# the paging arguments that say how many come at a time (the others say from where)
_SIZE_NAMES = frozenset(
    {"perpage", "pagesize", "limit", "size", "maxresults", "top", "count", "first", "pagelimit"}
)


def paging_advice(paging: tuple[str, ...]) -> str:
    """How to get what a cut left out: the next page starts after what was asked for, not after
    what is shown (ZenML's 50 flavors of a page, 1 shown: its page 2 began at the 51st)."""
    # by the end of the argument's name: Strapi's pagination[pageSize] is pagination_pageSize
    sizes = [a for a in paging if _paging_name(a).endswith(tuple(_SIZE_NAMES))]
    places = [a for a in paging if a not in sizes]
    if sizes and places:
        return (
            f" To get the rest, call again for fewer at a time ({', '.join(sizes)}) and page on"
            f" with {', '.join(places)}: a next page starts after what this call asked for, not"
            " after what is shown."
        )
    if sizes:
        return f" A smaller {', '.join(sizes)} returns fewer, whole."
    if places:
        return (
            f" Paging on with {', '.join(places)} starts after what this call asked for, not after"
            " what is shown."
        )
    return ""


def _paging_name(name: str) -> str:
    """A parameter's name as the sets above spell it: its last bracketed or dotted member alone
    when that is one of them (Strapi's ``pagination[pageSize]``), else all its words together
    (JSON:API's ``page[number]``: ``pagenumber``)."""
    words = [
        w.replace("_", "").replace("-", "") for w in re.split(r"[\[\].]+", name.lower().lstrip("$"))
    ]
    words = [w for w in words if w]
    if len(words) > 1 and words[-1] in _PAGING_NAMES:
        return words[-1]
    return "".join(words)


def pagination_arguments(parameters: Iterable[tuple[str, str, str]]) -> tuple[str, ...]:
    """The tool arguments that page through a collection, from ``(name, location, argument)``."""
    found = [
        argument
        for name, location, argument in parameters
        if location == "query" and _paging_name(name) in _PAGING_NAMES
    ]
    return tuple(found)
