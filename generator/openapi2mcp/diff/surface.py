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

Specs without components (a dereferenced document such as ``api.github.com.deref.json``) repeat
the same inline schemas instead: every subschema of at least :data:`SHARED_MIN_BYTES` that occurs
more than once is written once under ``$shared`` by content hash and stands as
``{"$shared": "<hash>"}`` where it occurred (only in schema positions, where no JSON Schema has that
keyword); ``standalone`` puts it back, so a diff never sees the difference.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from ..ir.model import Operation
from ..ir.schema_utils import defs_closure
from ..plan.model import ServerPlan
from ..render.catalog import tool_object

SURFACE_FORMAT = 3
# the formats standalone() reads
READABLE_FORMATS = (2, 3)
_DIRECTIONS = {"inputSchema": "input", "outputSchema": "output"}
# a repeated subschema at least this long (as compact JSON) is written once, under `$shared`
SHARED_MIN_BYTES = 200
_SHARED = "$shared"
_HASH_CHARS = 16
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
    return _share_repeats(sorted_document)


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
    document = _unshared(document)
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


# -- repeated inline subschemas, written once (see the module docstring) -------------------------


def _schema_children(schema: Mapping[str, Any]) -> list[tuple[str, str | int | None, Any]]:
    """(keyword, name or index or None, subschema) for every subschema directly below ``schema``."""
    found: list[tuple[str, str | int | None, Any]] = []
    for key, value in schema.items():
        if key in _SCHEMA_VALUED and isinstance(value, Mapping):
            found.append((key, None, value))
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            found.extend((key, i, v) for i, v in enumerate(value) if isinstance(v, Mapping))
        elif key in _SCHEMA_MAPS and isinstance(value, Mapping):
            found.extend((key, n, v) for n, v in value.items() if isinstance(v, Mapping))
    return found


def _replaced_children(schema: Mapping[str, Any], new: Mapping[tuple[str, Any], Any]) -> Any:
    """``schema`` with the subschemas named in ``new`` (by keyword and name/index) replaced."""
    if not new:
        return schema
    out = dict(schema)
    for (key, at), value in new.items():
        if at is None:
            out[key] = value
        elif isinstance(at, int):
            out[key] = list(out[key]) if out[key] is schema[key] else out[key]
            out[key][at] = value
        else:
            out[key] = dict(out[key]) if out[key] is schema[key] else out[key]
            out[key][at] = value
    return out


class _Sharing:
    """Finds the subschemas that occur more than once (by content) and writes each once."""

    def __init__(self) -> None:
        # id(node) -> (content hash, compact JSON length); the nodes stay alive in the document
        self._seen: dict[int, tuple[str, int]] = {}
        self.counts: dict[str, int] = {}
        self.shared: dict[str, Any] = {}
        self._names: dict[str, str] = {}
        self._done: dict[int, Any] = {}

    def count(self, schema: Mapping[str, Any]) -> tuple[str, int]:
        """The content hash of ``schema`` (children by their hashes) and its size; counts it."""
        known = self._seen.get(id(schema))
        if known is None:
            children = {(k, at): self.count(v) for k, at, v in _schema_children(schema)}
            shallow = _replaced_children(
                schema, {at: {_SHARED: h} for at, (h, _) in children.items()}
            )
            text = json.dumps(shallow, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            size = len(text) + sum(n - 64 for _, n in children.values())
            known = self._seen[id(schema)] = (hashlib.sha256(text.encode()).hexdigest(), size)
        self.counts[known[0]] = self.counts.get(known[0], 0) + 1
        return known

    def name_repeats(self) -> None:
        """A short name for each repeated hash (longer where two would collide)."""
        sizes = dict(self._seen.values())
        repeated = sorted(
            digest
            for digest, n in self.counts.items()
            if n > 1 and sizes[digest] >= SHARED_MIN_BYTES
        )
        prefixes: dict[str, int] = {}
        for digest in repeated:
            prefixes[digest[:_HASH_CHARS]] = prefixes.get(digest[:_HASH_CHARS], 0) + 1
        for digest in repeated:
            short = digest[:_HASH_CHARS]
            self._names[digest] = short if prefixes[short] == 1 else digest

    def write(self, schema: Mapping[str, Any]) -> Any:
        """``schema`` with its repeated subschemas (and itself, if repeated) as references."""
        done = self._done.get(id(schema))
        if done is not None:
            return done
        digest = self._seen[id(schema)][0]
        new = {(k, at): self.write(v) for k, at, v in _schema_children(schema)}
        written = _replaced_children(schema, new)
        name = self._names.get(digest)
        if name is not None:
            self.shared.setdefault(name, written)
            written = {_SHARED: name}
        self._done[id(schema)] = written
        return written


def _schema_roots(document: Mapping[str, Any]) -> list[tuple[Mapping[str, Any], str, Any]]:
    """(container, key, schema) for every tool schema and pooled component of a surface."""
    roots: list[tuple[Mapping[str, Any], str, Any]] = []
    pools = document.get("$defs")
    if isinstance(pools, Mapping):
        for pool in pools.values():
            if isinstance(pool, Mapping):
                roots.extend((pool, name, schema) for name, schema in pool.items())
    for item in document.get("items", []):
        if isinstance(item, Mapping) and item.get("kind") == "tool":
            roots.extend((item, key, item[key]) for key in _DIRECTIONS if key in item)
    return [(c, k, s) for c, k, s in roots if isinstance(s, Mapping)]


def _share_repeats(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with each repeated subschema written once under ``$shared``."""
    sharing = _Sharing()
    roots = _schema_roots(document)
    for _, _, schema in roots:
        sharing.count(schema)
    sharing.name_repeats()
    for container, key, schema in roots:
        assert isinstance(container, dict)  # built by surface(): plain dicts
        container[key] = sharing.write(schema)
    if sharing.shared:
        document[_SHARED] = dict(sorted(sharing.shared.items()))
    return document


def _unshared(document: Mapping[str, Any]) -> dict[str, Any]:
    """``document`` with every ``{"$shared": name}`` replaced by what it names (shared objects)."""
    pool = document.get(_SHARED)
    if not isinstance(pool, Mapping):
        return dict(document)
    restored: dict[str, Any] = {}

    def restore(schema: Any, depth: int = 0) -> Any:
        if not isinstance(schema, Mapping) or depth > 256:
            return schema
        name = schema.get(_SHARED)
        if isinstance(name, str) and len(schema) == 1 and name in pool:
            if name not in restored:
                restored[name] = restore(pool[name], depth + 1)
            return restored[name]
        new = {(k, at): restore(v, depth + 1) for k, at, v in _schema_children(schema)}
        return _replaced_children(schema, new)

    out = {key: value for key, value in document.items() if key != _SHARED}
    pools = out.get("$defs")
    if isinstance(pools, Mapping):
        out["$defs"] = {
            direction: {n: restore(s) for n, s in pool_.items()}
            if isinstance(pool_, Mapping)
            else pool_
            for direction, pool_ in pools.items()
        }
    items = []
    for item in out.get("items", []):
        if isinstance(item, Mapping) and item.get("kind") == "tool":
            items.append({k: restore(v) if k in _DIRECTIONS else v for k, v in item.items()})
        else:
            items.append(item)
    out["items"] = items
    return out


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
