"""Shared helpers for the reliability tests: hand-built catalogs, in-process calls, RSS, figures.

``FIGURES`` collects the numbers each test measured (inputs tried, crashes, probes, escapes, the
fault matrix, load figures); ``conftest.py`` prints them at the end of the run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from templates.runtime.catalog.model import Catalog, OperationSpec
from templates.runtime.server import McpServer, Settings
from tests.kit.meta import meta

META = meta()
FIGURES: dict[str, list[str]] = {}


def record(section: str, line: str) -> None:
    FIGURES.setdefault(section, []).append(line)


def rss_kib(pid: int | None = None) -> int:
    """Resident set size of a process (this one by default), from /proc."""
    status = Path(f"/proc/{pid or os.getpid()}/status").read_text()
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS in /proc status")


def tool(name: str, properties: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "description": f"test tool {name}",
        "inputSchema": {
            "type": "object",
            "properties": properties or {},
            "additionalProperties": False,
            **extra,
        },
    }


def catalog(
    operations: dict[str, OperationSpec],
    tools: list[dict[str, Any]],
    *,
    schemes: dict[str, Any] | None = None,
    base_url: str = "https://api.example.com",
) -> Catalog:
    """A minimal catalog: one tool per operation (tool name = operation key)."""
    return {
        "format": 1,
        "server": {"name": "rel-mcp", "version": "1.0.0"},
        "upstream": {
            "baseUrl": base_url,
            "baseUrlEnv": "REL_BASE_URL",
            "timeoutEnv": "REL_TIMEOUT",
            "timeoutSeconds": 30,
            "securitySchemes": schemes or {},
        },
        "tools": tools,
        "resources": [],
        "resourceTemplates": [],
        "prompts": [],
        "operations": operations,
        "toolBindings": {t["name"]: {"operation": t["name"]} for t in tools},
        "resourceBindings": {},
        "templateBindings": {},
        "promptMessages": {},
        "completions": {"prompts": {}, "resourceTemplates": {}},
    }


def operation(
    method: str,
    path: str,
    parameters: list[dict[str, Any]] | None = None,
    *,
    security: list[list[str]] | None = None,
    media: str = "application/json",
    body: dict[str, Any] | None = None,
) -> OperationSpec:
    spec: dict[str, Any] = {
        "method": method,
        "path": path,
        "parameters": parameters or [],
        "security": security or [],
        "responseMediaType": media,
        "pointer": "#/paths",
    }
    if body is not None:
        spec["body"] = body
    return spec  # type: ignore[return-value]


def parameter(
    name: str, location: str = "query", *, required: bool = False, style: str = ""
) -> dict[str, Any]:
    default = {"path": "simple", "query": "form", "header": "simple", "cookie": "form"}[location]
    style = style or default
    return {
        "name": name,
        "location": location,
        "argument": name,
        "required": required or location == "path",
        "style": style,
        "explode": style == "form",
    }


def server(cat: Catalog, environ: dict[str, str]) -> McpServer:
    return McpServer(cat, Settings.from_env(cat, environ))


async def call_tool(
    srv: McpServer, name: str, arguments: dict[str, Any], request_id: int = 1
) -> dict[str, Any]:
    """A modern ``tools/call`` through the dispatcher; returns the JSON-RPC reply."""

    async def no_notify(message: dict[str, Any]) -> None:
        return None

    message = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"_meta": META, "name": name, "arguments": arguments},
    }
    reply = await srv.dispatcher.handle(message, None, no_notify)
    assert reply is not None
    return reply


async def call_tools(
    cat: Any, environ: dict[str, str], *calls: tuple[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """Each ``(name, arguments)`` called in turn on one server made for ``environ``; the replies."""
    srv = server(cat, environ)
    try:
        return [await call_tool(srv, name, args, i) for i, (name, args) in enumerate(calls)]
    finally:
        await srv.aclose()


def texts(reply: dict[str, Any]) -> str:
    """All text of a tool result, joined."""
    return "\n".join(block.get("text", "") for block in reply["result"]["content"])
