"""The catalog's search index, built at generation time (``searchIndex``).

The runtime's search (``protocol/search_catalog.py`` in the generated package) reads each operation
as a document of weighted fields. Two things only the generator can do cheaply: read what the spec
says of the resource an operation takes or returns (the description of its request body or response
schema, looking through ``$ref``, arrays and a Kubernetes-style ``spec``, so that "create a
LimitRange" also says "sets resource usage limits for each kind of resource in a namespace"), and
the values its body's kind of action takes (``type``: ``reboot``, ``power_cycle``: what one
"Initiate a Droplet Action" does), and build every document once, so that a server does no
text work when it starts or first searches.
The documents are built by the runtime's own code (``shipped.runtime_module``), so that the
generator and the servers never read an operation differently.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..ir.model import Api, JsonSchema
from ..ir.schema_utils import resolve
from ..plan.model import ServerPlan, Tool
from ..shipped import runtime_module

if TYPE_CHECKING:
    from runtime.catalog import model as rt

# how much of what the spec says of a resource is kept: its first sentences say what it is
_ABOUT_CHARS = 600
_SENTENCE_CHARS = 240
# the properties of a resource whose own description says more about it ("spec" of Kubernetes, the
# list of a page of results)
_INNER = ("spec", "data", "items", "results", "values")
_DEPTH = 2
# the body properties whose values name what an operation does ("type": "reboot"), and how much of
# them is kept
_CHOICE_KEYS = ("type", "action", "kind", "operation", "command")
_CHOICES_CHARS = 300


def search_index(catalog: rt.Catalog, plan: ServerPlan) -> rt.SearchIndexData:
    """The ``searchIndex`` of ``catalog`` (the catalog the plan became)."""
    about = {tool.name: about_text(tool, plan.api) for tool in plan.tools}
    data: rt.SearchIndexData = runtime_module("protocol.search_catalog").index_data(
        catalog, about, plan.search_examples
    )
    return data


def about_text(tool: Tool, api: Api) -> str:
    """What the spec says of the resource ``tool`` sends and of the one it returns."""
    operation = tool.operation
    found: list[str] = []
    choices: list[str] = []
    if operation.body is not None:
        found += _described(operation.body.schema, api.input_schemas, 0)
        choices = _choices(operation.body.schema, api.input_schemas, 0)
    if operation.response is not None and operation.response.schema is not None:
        found += _described(operation.response.schema, api.output_schemas, 0)
    said = " ".join(dict.fromkeys(found))[:_ABOUT_CHARS]
    chosen = " ".join(dict.fromkeys(choices))[:_CHOICES_CHARS]
    return f"{said} {chosen}".strip()


def _choices(schema: Any, defs: Mapping[str, JsonSchema], depth: int) -> list[str]:
    """The values a request body's kind of action takes (``type``: ``reboot``, ``power_cycle``,
    ``resize``...), through ``oneOf``/``anyOf``/``allOf`` branches: what one operation can do."""
    if not isinstance(schema, dict) or depth > _DEPTH:
        return []
    resolved = resolve(schema, defs)
    found: list[str] = []
    properties = resolved.get("properties")
    if isinstance(properties, dict):
        for key in _CHOICE_KEYS:
            choice = properties.get(key)
            if isinstance(choice, dict):
                values = resolve(choice, defs).get("enum")
                if isinstance(values, list):
                    found += [v.replace("_", " ") for v in values if isinstance(v, str)]
    for combinator in ("oneOf", "anyOf", "allOf"):
        branches = resolved.get(combinator)
        if isinstance(branches, list):
            for branch in branches:
                found += _choices(branch, defs, depth + 1)
    return found


def _described(schema: Any, defs: Mapping[str, JsonSchema], depth: int) -> list[str]:
    if not isinstance(schema, dict) or depth > _DEPTH:
        return []
    resolved = resolve(schema, defs)
    found = []
    said = _first_sentence(resolved.get("description") or resolved.get("title"))
    if said:
        found.append(said)
    if isinstance(resolved.get("items"), dict):
        found += _described(resolved["items"], defs, depth + 1)
    properties = resolved.get("properties")
    if isinstance(properties, dict):
        for key in _INNER:
            found += _described(properties.get(key), defs, depth + 1)
    return found


def _first_sentence(text: Any) -> str:
    if not isinstance(text, str):
        return ""
    plain = " ".join(text.split())
    return re.split(r"(?<=[.!?])\s", plain, maxsplit=1)[0][:_SENTENCE_CHARS]
