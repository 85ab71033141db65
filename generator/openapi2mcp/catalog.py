"""Build ``catalog.json`` (the runtime's view of the API) from a plan.

The catalog's format is owned by ``templates/runtime/catalog.py``; this module only fills it. The MCP
objects are stored exactly as the 2026-07-28 list methods return them, in plan order.
"""

from __future__ import annotations

from typing import Any, assert_never

from .diagnostics import Report
from .ir import Api, Operation
from .plan import (
    PromptImage,
    PromptMessage,
    PromptPart,
    PromptResource,
    PromptText,
    ServerPlan,
    Tool,
)

CATALOG_FORMAT = 1
DEFAULT_TIMEOUT_SECONDS = 30.0


def build_catalog(plan: ServerPlan, report: Report) -> dict[str, Any]:
    operations = {t.operation.key: _operation(plan.api, t, report) for t in plan.callable_tools}
    catalog: dict[str, Any] = {
        "format": CATALOG_FORMAT,
        "server": {
            "name": plan.server_name,
            "version": plan.version,
            "title": plan.title,
            "description": plan.description,
        },
        "instructions": plan.instructions,
        "upstream": {
            "baseUrl": plan.base_url,
            "baseUrlEnv": plan.base_url_env,
            "timeoutEnv": plan.timeout_env,
            "timeoutSeconds": plan.timeout_seconds,
            "securitySchemes": {k: dict(v) for k, v in plan.security.items()},
        },
        "tools": [tool_object(t) for t in plan.tools],
        "resources": [
            _drop_empty(
                {
                    "uri": r.uri,
                    "name": r.name,
                    "title": r.title,
                    "description": r.description,
                    "mimeType": r.mime_type,
                }
            )
            for r in plan.resources
        ],
        "resourceTemplates": [
            _drop_empty(
                {
                    "uriTemplate": t.uri_template,
                    "name": t.name,
                    "title": t.title,
                    "description": t.description,
                    "mimeType": t.mime_type,
                }
            )
            for t in plan.resource_templates
        ],
        "prompts": [
            _drop_empty(
                {
                    "name": p.name,
                    "title": p.title,
                    "description": p.description,
                    "arguments": [
                        _drop_empty(
                            {"name": a.name, "description": a.description, "required": a.required}
                        )
                        for a in p.arguments
                    ],
                }
            )
            for p in plan.prompts
        ],
        "operations": operations,
        "toolBindings": {t.name: {"operation": t.operation.key} for t in plan.tools},
        "resourceBindings": {r.uri: {"operation": r.operation.key} for r in plan.resources},
        "templateBindings": {
            t.uri_template: {"operation": t.operation.key, "variables": dict(t.variables)}
            for t in plan.resource_templates
        },
        "promptMessages": {
            p.name: [_prompt_message(message) for message in p.all_messages()] for p in plan.prompts
        },
        "completions": {
            "prompts": {
                p.name: {arg: list(values) for arg, values in p.completions}
                for p in plan.prompts
                if p.completions
            },
            "resourceTemplates": {
                tpl: {var: list(values) for var, values in offered}
                for tpl, offered in plan.template_completions
            },
        },
    }
    return catalog


def tool_object(tool: Tool) -> dict[str, Any]:
    """The ``Tool`` exactly as ``tools/list`` returns it (2026-07-28 shape)."""
    obj: dict[str, Any] = {"name": tool.name, "title": tool.title}
    if tool.description:
        obj["description"] = tool.description
    obj["inputSchema"] = tool.input_schema
    if tool.output_schema is not None:
        obj["outputSchema"] = tool.output_schema
    a = tool.annotations
    obj["annotations"] = {
        "title": a.title,
        "readOnlyHint": a.read_only,
        "destructiveHint": a.destructive,
        "idempotentHint": a.idempotent,
        "openWorldHint": a.open_world,
    }
    return obj


def _operation(api: Api, tool: Tool, report: Report) -> dict[str, Any]:
    op = tool.operation
    parameters = []
    by_wire = {(a.source, a.wire_name): a.name for a in tool.arguments}
    for param in op.parameters:
        entry: dict[str, Any] = {
            "name": param.name,
            "location": param.location,
            "argument": by_wire[param.location, param.name],
            "required": param.required,
            "style": param.style,
            "explode": param.explode,
        }
        if param.allow_reserved:
            entry["allowReserved"] = True
        parameters.append(entry)
    spec: dict[str, Any] = {
        "method": op.method,
        "path": op.path,
        "parameters": parameters,
        "security": _security(api, op, report),
        "responseMediaType": op.response.content_type if op.response else "",
        "pointer": op.pointer,
    }
    if op.body is not None:
        body: dict[str, Any] = {"contentType": op.body.content_type, "required": op.body.required}
        whole = [a for a in tool.arguments if a.source == "body"]
        if whole:
            body["argument"] = whole[0].name
        else:
            body["properties"] = {
                a.name: a.wire_name for a in tool.arguments if a.source == "body_property"
            }
        spec["body"] = body
    return spec


def _security(api: Api, op: Operation, report: Report) -> list[list[str]]:
    if not op.security:
        return [[]]
    usable: list[list[str]] = []
    for alternative in op.security:
        if all(name in api.security_schemes for name in alternative):
            usable.append(sorted(alternative))
    if not usable:
        report.warn(
            "security-unsupported",
            op.pointer,
            "none of the operation's security requirements can be satisfied; calling it anonymously",
        )
        return [[]]
    return usable


def _prompt_message(message: PromptMessage) -> dict[str, Any]:
    """A ``PromptMessage`` of the catalog: text ``parts``, an ``image`` or a ``resource``."""
    entry: dict[str, Any] = {"role": message.role}
    content = message.content
    match content:
        case PromptText(parts=parts):
            entry["parts"] = _parts(parts)
        case PromptImage(data=data, mime_type=mime_type):
            entry["image"] = {"data": data, "mimeType": mime_type}
        case PromptResource(uri=uri, mime_type=mime_type, text=text):
            entry["resource"] = {"uri": _parts(uri), "mimeType": mime_type, "text": _parts(text)}
        case _:
            assert_never(content)
    return entry


def _parts(parts: tuple[PromptPart, ...]) -> list[dict[str, str]]:
    return [{"argument": part.argument} if part.argument else {"text": part.text} for part in parts]


def _drop_empty(obj: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if v not in ("", None, [])}
