"""Runs the fixture catalog as a stdio MCP server whose upstream is an in-process fake.

Started as a subprocess by the stdio tests, exactly as an MCP client starts a generated server. The
fake upstream (an ``httpx.MockTransport``) serves a tiny pet store; every request it receives is
appended as one JSON line to the file named by ``FIXTURE_REQUEST_LOG`` so tests can assert the exact
HTTP request. ``FIXTURE_PAGE_SIZE`` and ``FIXTURE_MAX_LINE_BYTES`` override those settings.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import sys
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from templates.runtime.catalog.model import load_catalog  # noqa: E402
from templates.runtime.cli import run  # noqa: E402
from templates.runtime.server import McpServer, Settings  # noqa: E402

PETS = [
    {"id": 1, "name": "Rex", "species": "dog"},
    {"id": 2, "name": "Tom", "species": "cat"},
]
STATUS = {"available": [PETS[0]], "sold": [PETS[1]]}


def _log(request: httpx.Request) -> None:
    path = os.environ.get("FIXTURE_REQUEST_LOG")
    if not path:
        return
    entry = {
        "method": request.method,
        "url": str(request.url),
        "apiKey": request.headers.get("x-api-key"),
        "body": request.content.decode() or None,
    }
    with Path(path).open("a", encoding="utf-8") as log:
        log.write(json.dumps(entry) + "\n")


async def upstream(request: httpx.Request) -> httpx.Response:
    _log(request)
    method, path = request.method, request.url.path.removeprefix("/api/v3")
    parts = path.strip("/").split("/")
    if (method, path) == ("GET", "/pets"):
        limit = int(request.url.params.get("limit", "100"))
        return httpx.Response(200, json=PETS[:limit])
    if method == "GET" and parts[:2] == ["pets", "findByStatus"]:
        return httpx.Response(200, json=STATUS.get(parts[2], []))
    if method == "GET" and parts[0] == "pets" and len(parts) == 2:
        if parts[1].startswith("-"):
            return httpx.Response(422, json={"detail": "petId must be positive"})
        found = [pet for pet in PETS if str(pet["id"]) == parts[1]]
        if found:
            return httpx.Response(200, json=found[0])
        return httpx.Response(404, json={"message": "pet not found"})
    if (method, path) == ("POST", "/pets"):
        return httpx.Response(201, json={"id": 3, **json.loads(request.content)})
    if method == "DELETE" and parts[0] == "pets":
        return httpx.Response(204)
    if (method, path) == ("GET", "/slow"):
        await asyncio.sleep(3600)
    if (method, path) == ("GET", "/store/inventory"):
        # a careless library printing to stdout must not corrupt the MCP stream
        print("stray output on stdout")
        return httpx.Response(200, json={"available": 1, "sold": 1})
    if method == "GET" and parts[0] == "owners":
        return httpx.Response(200, json=PETS[:1])
    return httpx.Response(404, json={"message": "no such thing"})


def build() -> McpServer:
    catalog = load_catalog(HERE / "fixtures" / "catalog.json")
    settings = Settings.from_env(
        catalog,
        transport=httpx.MockTransport(upstream),
        page_size=int(os.environ.get("FIXTURE_PAGE_SIZE", "100")),
    )
    if "FIXTURE_MAX_LINE_BYTES" in os.environ:
        limit = int(os.environ["FIXTURE_MAX_LINE_BYTES"])
        settings = dataclasses.replace(settings, max_line_bytes=limit)
    return McpServer(catalog, settings)


if __name__ == "__main__":
    run(build, prog="petstore-mcp")
