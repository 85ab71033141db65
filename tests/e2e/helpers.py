"""Launching a generated server: environment, stdio parameters, the kit's raw JSON-RPC peer on it,
and ``Served``, one generated in process in front of a fake API."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from mcp.client.stdio import StdioServerParameters

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from templates.runtime.server import McpServer, Settings
from tests import catalogs
from tests.catalogs import catalog_from_files
from tests.kit.stdio import StdioPeer
from tests.reliability.kit import META
from tests.runtime.upstream_kit import FakeApi


def generate_package(where: Path, spec: Any, name: str) -> Path:
    """``spec`` (a document as data) written to ``where`` and generated into ``where/name``."""
    path = where / "openapi.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    out = where / name
    write_tree(generate(str(path), GenerateOptions()).files, out, force=False, marker=MARKER)
    return out


def read_catalog(package: Path) -> dict[str, Any]:
    """The generated package's ``catalog.json``."""
    (path,) = package.glob("src/*/catalog.json")
    return catalogs.read_catalog(path)


def server_env(package: Path, base_url: str, api_key: str | None) -> dict[str, str]:
    env = {
        "PYTHONPATH": str(package / "src"),
        "PETSTORE_BASE_URL": base_url,
        "PATH": os.environ.get("PATH", ""),
    }
    if api_key is not None:
        env["PETSTORE_API_KEY"] = api_key
    return env


def stdio_params(package: Path, base_url: str, api_key: str | None) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "petstore_mcp"],
        env=server_env(package, base_url, api_key),
    )


class RawServer(StdioPeer):
    """The generated Petstore server over stdio, driven line by line with raw JSON-RPC."""

    def __init__(self, package: Path, base_url: str, api_key: str | None) -> None:
        super().__init__(
            [sys.executable, "-m", "petstore_mcp"], server_env(package, base_url, api_key)
        )


class Served:
    """The server generated (full tool mode) from ``document``, in this process, its base URL
    ``api``'s: each request goes through its dispatcher as a client's would."""

    def __init__(self, tmp: Path, api: FakeApi, document: Any) -> None:
        spec = tmp / "openapi.json"
        spec.write_text(json.dumps(document), "utf-8")
        self.generation = generate(str(spec), GenerateOptions(tool_mode="full"))
        [name] = [f for f in self.generation.files if f.endswith("/catalog.json")]
        catalog: Any = catalog_from_files(self.generation.files, name)
        prefix = catalog["upstream"]["baseUrlEnv"].removesuffix("_BASE_URL")
        self.catalog = catalog
        self.server = McpServer(
            catalog, Settings.from_env(catalog, {f"{prefix}_BASE_URL": api.url})
        )
        self.api = api

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return await self.ask("tools/call", {"name": name, "arguments": arguments})

    async def ask(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """The result of ``method``, or the whole reply when it is an error."""

        async def notify(message: dict[str, Any]) -> None:
            return None

        message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"_meta": META, **params}}
        reply = await self.server.dispatcher.handle(message, None, notify)
        assert reply is not None
        result: dict[str, Any] = reply.get("result", reply)
        return result
