"""Benchmark: the cost of one tool call inside the server, from ``tools/call`` to its result.

Generates the Petstore sample with the generator of ``--checkout`` (default: this one), starts the
sample's fake API on 127.0.0.1 and, in one process, sends ``--calls`` sequential ``tools/call``
requests for each of three tools straight to the server's dispatcher (no stdio, no HTTP in front):
``get_pet_by_id`` (a small JSON object with an output schema), ``list_pets`` (a JSON array) and
``update_pet`` (a PUT with a JSON body). Prints, per tool, the median and p90 microseconds per call,
the fake API's own time included (it is the same for every checkout). Run it for two checkouts, in
turn and more than once, to compare them: the figures are for the notes, not assertions.

    python benchmarks/call_path.py [--checkout DIR] [--calls 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
}
CALLS = (
    ("get_pet_by_id", {"petId": 1}),
    ("list_pets", {"limit": 20}),
    ("update_pet", {"petId": 1, "name": "Rex", "status": "available"}),
)


def generate(checkout: Path, out: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(checkout / "generator")}
    spec = checkout / "samples" / "petstore" / "openapi.yaml"
    command = [sys.executable, "-m", "openapi2mcp", "generate", str(spec), "-o", str(out)]
    subprocess.run([*command, "--force", "--no-progress"], check=True, env=env, capture_output=True)


async def timed(calls: int, once: Any) -> list[float]:
    for _ in range(min(50, calls)):  # warm-up: validators, connections, caches
        await once()
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        await once()
        times.append((time.perf_counter() - start) * 1e6)
    return times


async def run(package: Path, base_url: str, api_key: str, calls: int) -> None:
    sys.path.insert(0, str(package / "src"))
    server_module = importlib.import_module("petstore_mcp.server")
    os.environ.update({"PETSTORE_BASE_URL": base_url, "PETSTORE_API_KEY": api_key})
    os.environ["PETSTORE_RATE_LIMIT"] = "0"
    server = server_module.build_server()

    async def notify(message: Any) -> None:
        return None

    for name, arguments in CALLS:
        message = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"_meta": META, "name": name, "arguments": arguments},
        }

        async def call(message: dict[str, Any] = message) -> None:
            reply = await server.dispatcher.handle(message, None, notify)
            assert reply is not None and not reply["result"].get("isError"), json.dumps(reply)

        times = sorted(await timed(calls, call))
        median = statistics.median(times)
        p90 = times[int(len(times) * 0.9)]
        print(f"{name:14} median {median:,.0f} µs, p90 {p90:,.0f} µs")
    await server.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, default=REPO)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO / "samples" / "petstore"))
    fake_upstream = importlib.import_module("fake_upstream")
    with tempfile.TemporaryDirectory() as tmp:
        package = Path(tmp) / "petstore-mcp"
        generate(args.checkout.resolve(), package)
        with fake_upstream.FakePetstore() as fake:
            print(f"checkout {args.checkout}, {args.calls} calls per tool")
            asyncio.run(run(package, fake.base_url, fake.api_key, args.calls))


if __name__ == "__main__":
    main()
