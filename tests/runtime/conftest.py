"""The kit's stdio peer driving ``stdio_launcher.py`` (the runtime's stdio transport), its fixtures."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kit.meta import meta
from tests.kit.stdio import StdioPeer as KitPeer

# the recording upstream of the upstream-client tests
from tests.runtime.upstream_kit import api, make  # noqa: F401

HERE = Path(__file__).resolve().parent
LAUNCHER = HERE / "stdio_launcher.py"
CATALOG = json.loads((HERE / "fixtures" / "catalog.json").read_text(encoding="utf-8"))
META = meta("raw-test")
SERVER_INFO = {
    "name": "petstore-mcp",
    "version": "1.0.0",
    "title": "Petstore",
    "description": "MCP server for the Petstore API",
}
RESULT_META = {"io.modelcontextprotocol/serverInfo": SERVER_INFO}


class StdioPeer(KitPeer):
    """The launcher as a subprocess; the requests its fake upstream got are in ``request_log``."""

    def __init__(self, env: dict[str, str], request_log: Path) -> None:
        super().__init__([sys.executable, str(LAUNCHER), *env.pop("_ARGS", "").split()], env)
        self.request_log = request_log

    def upstream_requests(self) -> list[dict[str, Any]]:
        if not self.request_log.exists():
            return []
        lines = self.request_log.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines]


PeerFactory = Callable[..., StdioPeer]


@pytest.fixture
def start_peer(tmp_path: Path) -> Iterator[PeerFactory]:
    """Start a server; keyword arguments become environment variables (``page_size=2``...)."""
    peers: list[StdioPeer] = []

    def start(**overrides: str) -> StdioPeer:
        log = tmp_path / f"upstream-{len(peers)}.jsonl"
        env = {
            "PATH": os.environ.get("PATH", ""),
            "PETSTORE_API_KEY": "secret-key",
            "FIXTURE_REQUEST_LOG": str(log),
            "PYTHONUNBUFFERED": "1",
        }
        env.update(overrides)
        peer = StdioPeer(env, log)
        peers.append(peer)
        return peer

    yield start
    for peer in peers:
        peer.kill()


@pytest.fixture
def peer(start_peer: PeerFactory) -> StdioPeer:
    return start_peer()
