"""Protocol revisions and the per-era shape of everything the server sends.

The catalog and the result builders produce 2026-07-28 ("modern") objects. This module owns the
revision constants and turns those objects into what each revision's schema allows (mcp-wire §2.4):
no ``resultType``/``ttlMs``/``cacheScope`` for legacy peers, object-only structured output for
2025-11-25 and 2025-06-18 (array schemas are wrapped as ``{"result": ...}``), no structured output,
tool titles or ``lastModified`` for 2025-03-26, icons only from 2025-11-25 on. Functions never mutate
their input: catalog objects are shared by every request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .jsonrpc import JsonObject

MODERN = "2026-07-28"
V2025_11_25 = "2025-11-25"
V2025_06_18 = "2025-06-18"
V2025_03_26 = "2025-03-26"
LEGACY_VERSIONS = (V2025_11_25, V2025_06_18, V2025_03_26)
NEWEST_LEGACY = V2025_11_25
SUPPORTED_VERSIONS = (MODERN, *LEGACY_VERSIONS)

SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
# keys of a 2026 result that legacy schemas do not have
_MODERN_ONLY_RESULT_KEYS = ("resultType", "ttlMs", "cacheScope")
# schema keywords that must stay at the root when a schema is nested under "result"
_ROOT_KEYWORDS = ("$schema", "$defs", "definitions")


@dataclass(frozen=True, slots=True)
class CacheHint:
    """``ttlMs``/``cacheScope`` of a cacheable 2026 result."""

    ttl_ms: int
    scope: str


def has_icons(version: str) -> bool:
    return version in (MODERN, V2025_11_25)


def has_structured_output(version: str) -> bool:
    return version != V2025_03_26


def has_titles(version: str) -> bool:
    return version != V2025_03_26


def is_object_schema(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "object"


def wrap_output_schema(schema: Any) -> JsonObject:
    """An object schema with ``schema`` under the required property ``result``.

    ``$defs`` stay at the root so local ``#/$defs/...`` references still resolve after the move.
    """
    inner = schema
    wrapped: JsonObject = {}
    if isinstance(schema, dict):
        inner = {key: value for key, value in schema.items() if key not in _ROOT_KEYWORDS}
        if "$schema" in schema:
            wrapped["$schema"] = schema["$schema"]
    wrapped.update({"type": "object", "properties": {"result": inner}, "required": ["result"]})
    if isinstance(schema, dict):
        for key in _ROOT_KEYWORDS[1:]:
            if key in schema:
                wrapped[key] = schema[key]
    return wrapped


def _without(item: JsonObject, *keys: str) -> JsonObject:
    return {key: value for key, value in item.items() if key not in keys}


def _shape_annotations(item: JsonObject, version: str) -> JsonObject:
    annotations = item.get("annotations")
    if has_titles(version) or not isinstance(annotations, dict):
        return item
    if "lastModified" in annotations:
        item = {**item, "annotations": _without(annotations, "lastModified")}
    return item


def _shape_metadata(item: JsonObject, version: str) -> JsonObject:
    """Icons, titles and annotation fields common to resources, templates and prompts."""
    if version == MODERN:
        return item
    dropped = []
    if not has_icons(version):
        dropped.append("icons")
    if not has_titles(version):
        dropped.append("title")
    return _shape_annotations(_without(item, *dropped), version)


def shape_tool(tool: JsonObject, version: str) -> JsonObject:
    if version == MODERN:
        return tool
    shaped = _shape_metadata(tool, version)
    if not has_structured_output(version):
        shaped.pop("outputSchema", None)
        title = tool.get("title")
        annotations = shaped.get("annotations")
        # 2025-03-26 clients display annotations.title; keep the tool's display name visible there
        if isinstance(title, str) and isinstance(annotations, dict) and "title" not in annotations:
            shaped["annotations"] = {**annotations, "title": title}
        elif isinstance(title, str) and annotations is None:
            shaped["annotations"] = {"title": title}
    elif "outputSchema" in shaped and not is_object_schema(shaped["outputSchema"]):
        shaped["outputSchema"] = wrap_output_schema(shaped["outputSchema"])
    return shaped


def shape_resource(item: JsonObject, version: str) -> JsonObject:
    return _shape_metadata(item, version)


def shape_prompt(prompt: JsonObject, version: str) -> JsonObject:
    shaped = _shape_metadata(prompt, version)
    arguments = shaped.get("arguments")
    if not has_titles(version) and isinstance(arguments, list):
        shaped["arguments"] = [
            _without(argument, "title") if isinstance(argument, dict) else argument
            for argument in arguments
        ]
    return shaped


def shape_server_info(info: JsonObject, version: str) -> JsonObject:
    """``Implementation`` as the revision defines it (2025-03-26 has only name and version)."""
    if version in (MODERN, V2025_11_25):
        return info
    if version == V2025_06_18:
        return {key: info[key] for key in ("name", "title", "version") if key in info}
    return {"name": info["name"], "version": info["version"]}


def _shape_content_block(block: Any, version: str) -> Any:
    if not isinstance(block, dict) or version == MODERN:
        return block
    if version == V2025_03_26 and block.get("type") == "resource_link":
        # 2025-03-26 has no resource links; keep the information as text
        return {"type": "text", "text": str(block.get("uri", ""))}
    return _shape_metadata(block, version) if "annotations" in block or "icons" in block else block


def shape_tool_result(result: JsonObject, version: str, *, wrapped_output: bool) -> JsonObject:
    """A ``CallToolResult`` for ``version``; ``wrapped_output`` says the tool's schema was wrapped."""
    if version == MODERN:
        return result
    shaped = _without(result, *_MODERN_ONLY_RESULT_KEYS)
    content = shaped.get("content")
    if isinstance(content, list):
        shaped["content"] = [_shape_content_block(block, version) for block in content]
    if "structuredContent" not in shaped:
        return shaped
    structured = shaped["structuredContent"]
    if not has_structured_output(version):
        del shaped["structuredContent"]
    elif wrapped_output or not isinstance(structured, dict):
        shaped["structuredContent"] = {"result": structured}
    return shaped


def finish(
    result: JsonObject, version: str, server_info: JsonObject, cache: CacheHint | None = None
) -> JsonObject:
    """Add the 2026 envelope fields, or strip them for a legacy revision."""
    if version != MODERN:
        return _without(result, *_MODERN_ONLY_RESULT_KEYS)
    finished: JsonObject = {"resultType": result.get("resultType", "complete")}
    finished.update(result)
    if cache is not None:
        finished["ttlMs"] = cache.ttl_ms
        finished["cacheScope"] = cache.scope
    meta = finished.get("_meta")
    finished["_meta"] = {
        **(meta if isinstance(meta, dict) else {}),
        SERVER_INFO_KEY: server_info,
    }
    return finished
