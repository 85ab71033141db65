"""Launching a generated server: environment, stdio parameters, a raw JSON-RPC line client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from mcp.client.stdio import StdioServerParameters

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests import catalogs

MODERN = "2026-07-28"


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


def modern_meta(**extra: Any) -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "1"},
        **extra,
    }


class RawServer:
    """A generated server over stdio, driven line by line with raw JSON-RPC."""

    def __init__(self, package: Path, base_url: str, api_key: str | None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "petstore_mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=server_env(package, base_url, api_key),
        )
        self._id = 0

    def send(self, message: Any) -> None:
        assert self.process.stdin is not None
        line = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def receive(self) -> Any:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "server closed stdout"
        return json.loads(line)

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self._id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        reply: dict[str, Any] = self.receive()
        assert reply.get("id") == self._id, reply
        return reply

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        code = self.process.wait(timeout=10)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
        return code
