"""The MCP surface of a generated server (``mcp-surface.json``): what clients see, kept for diffs.

This module owns the surface format (``SURFACE_FORMAT``). One entry per tool, resource, resource
template and prompt, sorted by kind and name, each with its MCP name, the operation behind it
(``operationId`` when the spec has one, and ``"METHOD /path"``), title, description, and for tools the
annotations and the full ``inputSchema``/``outputSchema`` exactly as the spec describes them,
normalised: object keys sorted at every level, ``required`` and ``type`` lists sorted. The component
schemas the tools refer to (``#/$defs/<Name>``) are written once, in ``$defs.input`` and
``$defs.output`` (a component may differ by direction: readOnly, writeOnly), not in every tool: big
APIs repeat the same components across hundreds of tools. ``standalone`` gives each tool schema its
own ``$defs`` back (sharing the pooled objects, so it costs no copies), which is what ``openapi2mcp
diff`` (``diff.py``) compares; format 2 files (``$defs`` in each schema) read as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .catalog import tool_object
from .ir import Operation
from .plan import ServerPlan
from .schema_utils import defs_closure

SURFACE_FORMAT = 3
# the formats standalone() reads
READABLE_FORMATS = (2, 3)
_DIRECTIONS = {"inputSchema": "input", "outputSchema": "output"}
KINDS = ("tool", "resource", "resource_template", "prompt")

# keywords whose value is a schema, a list of schemas, or a map of name -> schema
_SCHEMA_VALUED = frozenset(
    {
        "items",
        "additionalProperties",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas"})


def surface(plan: ServerPlan) -> dict[str, Any]:
    """The ``mcp-surface.json`` document for ``plan``."""
    items: list[dict[str, Any]] = []
    pools: dict[str, dict[str, Any]] = {"input": {}, "output": {}}
    originals: dict[str, dict[str, Any]] = {"input": {}, "output": {}}
    for tool in plan.tools:
        obj = tool_object(tool)
        entry = {
            "kind": "tool",
            "name": tool.name,
            **_operation(tool.operation),
            "title": tool.title,
            "description": tool.description,
            "annotations": obj["annotations"],
        }
        for key, direction in _DIRECTIONS.items():
            if key in obj:
                entry[key] = _pooled(obj[key], pools[direction], originals[direction])
        items.append(entry)
    for resource in plan.resources:
        items.append(
            {
                "kind": "resource",
                "name": resource.name,
                **_operation(resource.operation),
                "uri": resource.uri,
                "mimeType": resource.mime_type,
                "title": resource.title,
                "description": resource.description,
            }
        )
    for template in plan.resource_templates:
        items.append(
            {
                "kind": "resource_template",
                "name": template.name,
                **_operation(template.operation),
                "uriTemplate": template.uri_template,
                "mimeType": template.mime_type,
                "title": template.title,
                "description": template.description,
            }
        )
    for prompt in plan.prompts:
        items.append(
            {
                "kind": "prompt",
                "name": prompt.name,
                "title": prompt.title,
                "description": prompt.description,
                "arguments": [
                    {"name": a.name, "description": a.description, "required": a.required}
                    for a in sorted(prompt.arguments, key=lambda a: a.name)
                ],
            }
        )
    items.sort(key=lambda item: (KINDS.index(item["kind"]), item["name"]))
    document = {
        "format": SURFACE_FORMAT,
        "server": plan.server_name,
        "version": plan.version,
        "$defs": pools,
        "items": items,
    }
    sorted_document: dict[str, Any] = _sorted_keys(document)
    return sorted_document


def _pooled(schema: Any, pool: dict[str, Any], originals: dict[str, Any]) -> Any:
    """``schema`` normalised, its ``$defs`` moved into ``pool`` (once per name).

    A name already pooled with another value (no two components share a name in one direction, so
    this does not happen with the generator's schemas) keeps this schema's own ``$defs``.
    """
    if not isinstance(schema, Mapping) or not isinstance(schema.get("$defs"), Mapping):
        return normalise_schema(schema)
    clash = False
    for name, definition in schema["$defs"].items():
        if name not in pool:
            pool[name], originals[name] = normalise_schema(definition), definition
        elif originals[name] is not definition and pool[name] != normalise_schema(definition):
            clash = True
    if clash:
        return normalise_schema(schema)
    return normalise_schema({key: value for key, value in schema.items() if key != "$defs"})


def standalone(document: Mapping[str, Any]) -> dict[str, Any]:
    """A surface document whose tool schemas each carry the ``$defs`` they reach (for diffs)."""
    pools = document.get("$defs")
    if not isinstance(pools, Mapping):
        return dict(document)
    items = []
    for item in document.get("items", []):
        if not isinstance(item, Mapping) or item.get("kind") != "tool":
            items.append(item)
            continue
        tool = dict(item)
        for key, direction in _DIRECTIONS.items():
            pool = pools.get(direction)
            if isinstance(tool.get(key), Mapping) and isinstance(pool, Mapping):
                tool[key] = _with_defs(tool[key], pool)
        items.append(tool)
    return {**{k: v for k, v in document.items() if k != "$defs"}, "items": items}


def _with_defs(schema: Mapping[str, Any], pool: Mapping[str, Any]) -> dict[str, Any]:
    if "$defs" in schema:
        return dict(schema)
    reached = defs_closure([schema], pool)
    return {**schema, "$defs": reached} if reached else dict(schema)


def normalise_schema(schema: Any) -> Any:
    """A JSON Schema with sorted ``required``/``type`` lists in every schema position (keys as is)."""
    if not isinstance(schema, Mapping):
        return schema
    result: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _SCHEMA_VALUED:
            result[key] = normalise_schema(value)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            result[key] = [normalise_schema(v) for v in value]
        elif key in _SCHEMA_MAPS and isinstance(value, Mapping):
            result[key] = {name: normalise_schema(v) for name, v in value.items()}
        elif key in ("required", "type") and isinstance(value, list):
            result[key] = (
                sorted(set(value), key=str) if all(isinstance(v, str) for v in value) else value
            )
        else:
            result[key] = value
    return result


def _operation(op: Operation) -> dict[str, str]:
    found = {"operation": f"{op.method} {op.path}"}
    if op.operation_id:
        found["operationId"] = op.operation_id
    return found


def _sorted_keys(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _sorted_keys(value[key]) for key in sorted(value)}
    if isinstance(value, list | tuple):
        return [_sorted_keys(v) for v in value]
    return value
