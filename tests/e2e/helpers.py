"""Launching a generated server: environment, stdio parameters, the kit's raw JSON-RPC peer on it."""

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
from tests import catalogs
from tests.kit.stdio import StdioPeer


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
