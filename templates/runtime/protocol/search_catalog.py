"""The search's index as a catalog carries it: built when the package is generated, read at run time.

``catalog_entries`` reads what the search sees of each callable tool from the catalog (its name,
title, description, method and path, tags from the toolsets, parameter names). At generation time
the generator adds what the spec says of the resource each operation takes or returns (``about``,
its schema's description), builds every ``Document`` (``search_document.py``: terms by field,
intent, subject, compounds the whole API teaches) and writes them under the catalog's
``searchIndex`` (``index_data``), so that a server neither tokenizes nor stems its API when it
starts or on its first search: ``index_of`` only counts the written terms. A catalog without an
index, or with one of another format, or that misses a tool, is indexed from its entries instead,
as before. The index also carries the users' phrasings its owner gave as search examples
(``--search-examples``), whatever the documents' format. Stdlib only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .projection import without_select
from .search import SearchIndex, build_documents
from .search_document import Entry, document_data, document_from_data

# the format of ``searchIndex``; another value is ignored (the index is then built at run time)
INDEX_FORMAT = 1
# a parameter more than this share of the operations take is no operation's own (from this many)
_COMMON_SHARE = 0.5
_COMMON_MIN_OPERATIONS = 8


def catalog_entries(
    catalog: Mapping[str, Any], about: Mapping[str, str] | None = None
) -> list[Entry]:
    """The search's view of each tool bound to an operation, in catalog order."""
    tags: dict[str, list[str]] = {}
    for key, toolset in (catalog.get("toolsets") or {}).items():
        for name in toolset["tools"]:
            tags.setdefault(name, []).append(key)
    bindings = catalog.get("toolBindings") or {}
    operations = catalog.get("operations") or {}
    select = catalog.get("selectArgument")
    entries = []
    for tool in catalog["tools"]:
        name = tool["name"]
        binding = bindings.get(name)
        if binding is None:
            continue  # a custom tool: not an operation of the API
        spec = operations.get(binding["operation"])
        schema = tool.get("inputSchema")
        properties = schema.get("properties") if isinstance(schema, dict) else None
        params = tuple(properties) if isinstance(properties, dict) else ()
        text = str(tool.get("description") or "")
        if select and select in params:
            # the selection argument and the line saying so are the server's, not the API's
            params = tuple(param for param in params if param != select)
            text = without_select(text, select)
        entries.append(
            Entry(
                name=name,
                summary=str(tool.get("title") or ""),
                method=spec["method"].upper() if spec else "",
                path=spec["path"] if spec else "",
                tags=tuple(tags.get(name, ())),
                params=params,
                text=text,
                about=(about or {}).get(name, ""),
            )
        )
    return _without_common_params(entries)


def _without_common_params(entries: list[Entry]) -> list[Entry]:
    """``entries`` without the parameters most of them take: a header every operation sends
    (Prefect's ``x-prefect-api-version``, Azure's ``api-version``) says nothing of any one, and
    its words would say nothing anywhere ("what version is running")."""
    if len(entries) < _COMMON_MIN_OPERATIONS:
        return entries
    uses: dict[str, int] = {}
    for entry in entries:
        for param in set(entry.params):
            uses[param] = uses.get(param, 0) + 1
    common = {param for param, count in uses.items() if count > len(entries) * _COMMON_SHARE}
    if not common:
        return entries
    return [
        replace(entry, params=tuple(p for p in entry.params if p not in common))
        for entry in entries
    ]


def index_data(
    catalog: Mapping[str, Any],
    about: Mapping[str, str],
    examples: Sequence[tuple[str, Sequence[str]]] = (),
) -> dict[str, Any]:
    """The catalog's ``searchIndex``: every tool's document, by tool name, and the users'
    phrasings the search learns from (``search_examples.py``), each with the tools serving it."""
    documents = build_documents(catalog_entries(catalog, about))
    data: dict[str, Any] = {
        "format": INDEX_FORMAT,
        "documents": {each.entry.name: document_data(each) for each in documents},
    }
    if examples:
        data["examples"] = [{"query": text, "tools": list(tools)} for text, tools in examples]
    return data


def _examples(data: Any) -> list[tuple[str, list[str]]]:
    """The examples of a ``searchIndex``; malformed ones are left out."""
    written = data.get("examples") if isinstance(data, dict) else None
    if not isinstance(written, list):
        return []
    return [
        (each["query"], [t for t in each["tools"] if isinstance(t, str)])
        for each in written
        if isinstance(each, dict)
        and isinstance(each.get("query"), str)
        and isinstance(each.get("tools"), list)
    ]


def index_of(catalog: Mapping[str, Any]) -> SearchIndex:
    """The search index of ``catalog``: from its written documents when it has them all."""
    entries = catalog_entries(catalog)
    data = catalog.get("searchIndex")
    examples = _examples(data)
    if isinstance(data, dict) and data.get("format") == INDEX_FORMAT:
        written = data.get("documents")
        if isinstance(written, dict) and all(entry.name in written for entry in entries):
            try:
                documents = [document_from_data(e, written[e.name]) for e in entries]
            except ValueError:
                pass  # an index this runtime cannot read: build it as if there were none
            else:
                return SearchIndex(entries, documents=documents, examples=examples)
    return SearchIndex(entries, examples=examples)
