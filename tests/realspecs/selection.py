"""Which operations of a real spec are called, and the pruned copy of the document they live in.

``select`` picks up to 40 operations deterministically: a quota per HTTP method (every method the spec
has gets a share, at least four where it has them), filled round-robin across methods by a greedy
cover of serialization features (form bodies and their Encoding Objects, multipart, media-range and
binary bodies, optional bodies with required properties, deepObject, arrays and objects in the query,
header and cookie parameters, ``content`` parameters, nullable body fields, ``readOnly`` in ``allOf``,
Swagger 2.0 ``formData`` and ``collectionFormat``): each pick is the operation that adds the most
features not yet covered, then the one with the most features, then the earliest in the document.

``prune`` keeps those operations (and their path items' own fields) and, of ``components`` (or
Swagger's ``definitions``/``parameters``/``responses``), only what they reference, transitively;
security schemes and tags are kept whole. References into ``#/paths/…`` (APIs.guru bundles some
specs that way) are inlined, since the operations they point into are mostly gone.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

METHODS = ("get", "put", "post", "patch", "delete")
DEFAULT_COUNT = 40
_MIN_PER_METHOD = 4
_FORM = "application/x-www-form-urlencoded"


def pointer_get(document: Any, ref: str) -> Any:
    node = document
    for raw in ref.removeprefix("#").split("/")[1:]:
        # a reference is a URI fragment: percent-decoded before the pointer is read
        key = unquote(raw).replace("~1", "/").replace("~0", "~")
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


def _deref(document: dict[str, Any], node: Any, depth: int = 0) -> Any:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and depth < 20:
        node, depth = pointer_get(document, node["$ref"]), depth + 1
    return node


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """``(method, path, operation)`` in document order, deprecated operations left out."""
    for path, item in (document.get("paths") or {}).items():
        if not isinstance(item, dict):
            continue
        for method in METHODS:
            operation = item.get(method)
            if isinstance(operation, dict) and not operation.get("deprecated"):
                yield method, path, operation


def _schema_features(document: dict[str, Any], schema: Any, prefix: str) -> set[str]:
    found: set[str] = set()
    schema = _deref(document, schema)
    if not isinstance(schema, dict):
        return found
    members = [schema, *(_deref(document, s) for s in schema.get("allOf") or [])]
    for member in members:
        if not isinstance(member, dict):
            continue
        if member.get("required"):
            found.add(f"{prefix}-required")
        for prop in (member.get("properties") or {}).values():
            direct = prop if isinstance(prop, dict) else {}
            target = _deref(document, prop)
            if not isinstance(target, dict):
                continue
            if target.get("nullable") or "null" in (target.get("type") or []):
                found.add(f"{prefix}-nullable")
            if target.get("type") == "object" or "properties" in target:
                found.add(f"{prefix}-object")
            if target.get("type") == "array":
                found.add(f"{prefix}-array")
            if target.get("format") == "binary":
                found.add(f"{prefix}-binary")
            if any(isinstance(s, dict) and s.get("readOnly") for s in direct.get("allOf") or []):
                found.add("readonly-in-allof")
    return found


def _body_features(document: dict[str, Any], operation: dict[str, Any]) -> set[str]:
    body = _deref(document, operation.get("requestBody"))
    if not isinstance(body, dict):
        return set()
    found: set[str] = set()
    for declared, entry in (body.get("content") or {}).items():
        media = declared.lower()
        content = entry if isinstance(entry, dict) else {}
        schema = _deref(document, content.get("schema"))
        kind = (
            "form"
            if media == _FORM
            else "multipart"
            if media.startswith("multipart/")
            else "range"
            if "*" in media
            else "json"
            if "json" in media
            else "binary"
            if media == "application/octet-stream"
            else "text"
        )
        found.add(f"body-{kind}")
        if content.get("encoding"):
            found.add(f"body-{kind}-encoding")
        props = _schema_features(document, schema, f"body-{kind}")
        found |= props
        if isinstance(schema, dict) and schema.get("format") == "binary":
            found.add("body-whole-binary")
        if not body.get("required") and f"body-{kind}-required" in props:
            found.add("optional-body-required-props")
    return found


def _parameter_features(document: dict[str, Any], parameter: Any, swagger: bool) -> set[str]:
    parameter = _deref(document, parameter)
    if not isinstance(parameter, dict):
        return set()
    where = str(parameter.get("in"))
    schema = parameter if swagger else _deref(document, parameter.get("schema")) or {}
    kind = schema.get("type") if isinstance(schema, dict) else None
    found = {f"{where}-param"}
    if kind in ("array", "object"):
        found.add(f"{where}-{kind}")
    if "content" in parameter:
        found.add(f"{where}-content")
    if parameter.get("style"):
        found.add(f"{where}-{parameter['style']}")
    if parameter.get("explode") is False:
        found.add(f"{where}-no-explode")
    if parameter.get("collectionFormat"):
        found.add(f"{where}-collection-{parameter['collectionFormat']}")
    if where == "header" and str(parameter.get("name")).lower() == "authorization":
        found.add("header-authorization")
    if where == "body":
        found |= _schema_features(document, parameter.get("schema"), "body-json")
    return found


def features(document: dict[str, Any], method: str, path: str) -> frozenset[str]:
    """The serialization features one operation exercises."""
    swagger = "swagger" in document
    item = document["paths"][path]
    operation = item[method]
    found: set[str] = set()
    for parameter in [*(item.get("parameters") or []), *(operation.get("parameters") or [])]:
        found |= _parameter_features(document, parameter, swagger)
    if swagger:
        consumes = operation.get("consumes") or document.get("consumes") or []
        found |= {f"consumes-{c.lower()}" for c in consumes if "json" not in c.lower()}
    else:
        found |= _body_features(document, operation)
    if operation.get("servers") or item.get("servers"):
        found.add("own-server")
    if path.count("{") >= 2:
        found.add("path-several")
    return frozenset(found)


def _quotas(counts: dict[str, int], total: int) -> dict[str, int]:
    quotas = {m: min(n, _MIN_PER_METHOD) for m, n in counts.items()}
    left = total - sum(quotas.values())
    spare = {m: counts[m] - quotas[m] for m in counts}
    pool = sum(spare.values())
    if left <= 0 or pool == 0:
        return quotas
    shares = {m: left * spare[m] / pool for m in counts}
    for m in counts:
        quotas[m] += min(spare[m], int(shares[m]))
    # largest remainder first, then method order
    for m in sorted(counts, key=lambda m: (-(shares[m] - int(shares[m])), METHODS.index(m))):
        if sum(quotas.values()) >= min(total, sum(counts.values())):
            break
        if quotas[m] < counts[m]:
            quotas[m] += 1
    return quotas


def select(document: dict[str, Any], count: int = DEFAULT_COUNT) -> list[tuple[str, str]]:
    """Up to ``count`` ``(method, path)`` pairs, spread across methods, biased to encodings."""
    candidates: dict[str, list[tuple[int, str, frozenset[str]]]] = {}
    for index, (method, path, _) in enumerate(operations(document)):
        candidates.setdefault(method, []).append((index, path, features(document, method, path)))
    quotas = _quotas({m: len(c) for m, c in candidates.items()}, count)
    covered: set[str] = set()
    chosen: list[tuple[int, str, str]] = []
    while any(quotas.values()):
        for method in METHODS:
            if not quotas.get(method):
                continue
            pool = candidates[method]
            best = max(pool, key=lambda c: (len(c[2] - covered), len(c[2]), -c[0]))
            pool.remove(best)
            quotas[method] -= 1
            covered |= best[2]
            chosen.append((best[0], method, best[1]))
    return [(method, path) for _, method, path in sorted(chosen)]


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            yield ref
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _inline_path_refs(document: dict[str, Any], node: Any, trail: tuple[str, ...] = ()) -> Any:
    if isinstance(node, list):
        return [_inline_path_refs(document, value, trail) for value in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/paths/"):
        assert ref not in trail, f"reference cycle through {ref}"
        return _inline_path_refs(document, pointer_get(document, ref), (*trail, ref))
    return {key: _inline_path_refs(document, value, trail) for key, value in node.items()}


def _owner(ref: str, swagger: bool) -> tuple[str, ...]:
    """The top-level entry a local reference lives in: ``("components", "schemas", "X")``."""
    parts = tuple(
        unquote(p).replace("~1", "/").replace("~0", "~") for p in ref.removeprefix("#/").split("/")
    )
    return parts[:2] if swagger else parts[:3]


def prune(document: dict[str, Any], selected: list[tuple[str, str]]) -> dict[str, Any]:
    """A copy of ``document`` with only ``selected`` operations and what they reference."""
    swagger = "swagger" in document
    keep_top = (
        (
            "swagger",
            "info",
            "host",
            "basePath",
            "schemes",
            "consumes",
            "produces",
            "securityDefinitions",
            "security",
            "tags",
        )
        if swagger
        else ("openapi", "info", "servers", "security", "tags", "jsonSchemaDialect")
    )
    pruned: dict[str, Any] = {k: copy.deepcopy(document[k]) for k in keep_top if k in document}
    paths: dict[str, Any] = {}
    for method, path in selected:
        item = document["paths"][path]
        target = paths.setdefault(
            path,
            {
                k: copy.deepcopy(v)
                for k, v in item.items()
                if k not in (*METHODS, "head", "options", "trace")
            },
        )
        target[method] = copy.deepcopy(item[method])
    pruned["paths"] = _inline_path_refs(document, paths)
    if not swagger:
        schemes = (document.get("components") or {}).get("securitySchemes")
        if schemes:
            pruned["components"] = {"securitySchemes": copy.deepcopy(schemes)}
    seen: set[tuple[str, ...]] = set()
    pending = list(_refs(pruned["paths"]))
    while pending:
        ref = pending.pop()
        if not ref.startswith("#/"):
            continue
        owner = _owner(ref, swagger)
        if owner in seen:
            continue
        seen.add(owner)
        source: Any = document
        parent = pruned
        for key in owner[:-1]:
            source, parent = source[key], parent.setdefault(key, {})
        value = _inline_path_refs(document, source[owner[-1]])
        parent[owner[-1]] = value
        pending.extend(_refs(value))
    return pruned
