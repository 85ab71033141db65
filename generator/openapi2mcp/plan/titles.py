"""Titles that tell tools apart.

A document often gives several operations one summary: FastAPI's summary is its function's name,
and Aim's five ``search_api`` functions (images, texts, distributions, audios, figures) are all
"Search Api"; Letta's three "Create Block". A client shows the title, and five alike say nothing
of which is which. Each title shared by several tools gets the words of its tool's name it does
not say (``Search Api (images)``), or, where those are alike too, its method and path.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from . import naming
from .classify import Surface
from .model import Tool

__all__ = ["distinct_titles"]


def distinct_titles(surface: Surface) -> Surface:
    """``surface`` with each title that several tools share told apart (see the module)."""
    groups: dict[str, list[Tool]] = defaultdict(list)
    for tool in surface.all_tools:
        groups[tool.title.casefold()].append(tool)
    titles: dict[str, str] = {}
    for members in groups.values():
        if len(members) > 1:
            titles.update(_told_apart(members))
    if not titles:
        return surface

    def retitled(tool: Tool) -> Tool:
        title = titles.get(tool.name)
        if title is None:
            return tool
        return replace(tool, title=title, annotations=replace(tool.annotations, title=title))

    return replace(
        surface,
        tools=tuple(map(retitled, surface.tools)),
        all_tools=tuple(map(retitled, surface.all_tools)),
        resources=tuple(replace(r, title=titles.get(r.name, r.title)) for r in surface.resources),
        templates=tuple(replace(t, title=titles.get(t.name, t.title)) for t in surface.templates),
    )


def _told_apart(members: list[Tool]) -> dict[str, str]:
    """New titles for tools sharing one: by the words of their names, else by method and path."""
    found: dict[str, str] = {}
    # words every name says tell none apart (TiTiler's cog_get_data_for_point and
    # stac_get_data_for_point, both "Point": "cog" and "stac" do, not "get data for")
    shared = set.intersection(*(set(naming.words(tool.name)) for tool in members))
    for tool in members:
        said = set(naming.words(tool.title.lower())) | shared
        extra = [word for word in naming.words(tool.name) if word not in said]
        found[tool.name] = f"{tool.title} ({' '.join(extra)})" if extra else tool.title
    if len({title.casefold() for title in found.values()}) < len(members):
        return {
            tool.name: f"{tool.title} ({tool.operation.method} {tool.operation.path})"
            for tool in members
        }
    return found
