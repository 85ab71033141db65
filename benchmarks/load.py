"""Benchmark: the generated Petstore server over Streamable HTTP under concurrent load.

Generates the Petstore sample, starts its fake API on 127.0.0.1 and the server (``petstore-mcp http``,
uvicorn) in a subprocess, then drives it with N concurrent clients (default 50) for a fixed number
of requests per round: 2026-07-28 ``tools/call`` (a read that reaches the API), ``resources/read``
and ``tools/list``, one POST each. Per round it prints errors (non-200 replies, JSON-RPC errors,
``isError`` results), throughput, p50/p99 latency and the server's resident memory; the memory must
not grow across rounds. The throughput rounds switch the rate limit off (``PETSTORE_RATE_LIMIT=0``);
a last round runs a second server with tight limits to show them holding: calls over the limits wait
for their turn (``PETSTORE_LIMIT_WAIT``, 2 s) and are refused, with a clear error, only beyond it.
Not a test: figures, not assertions (``tests/reliability/test_load_smoke.py`` runs a short version).

    python benchmarks/load.py [--clients 50] [--requests 5000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import queue
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
}
# (method, params, Mcp-Name) cycled by every client
WORK = [
    ("tools/call", {"name": "get_pet_by_id", "arguments": {"petId": 1}}, "get_pet_by_id"),
    ("tools/call", {"name": "list_pets", "arguments": {"limit": 5}}, "list_pets"),
    ("resources/read", {"uri": "petstore://pets/2"}, "petstore://pets/2"),
    ("tools/list", {}, None),
]


@dataclass
class Round:
    requests: int
    seconds: float
    latencies: list[float]
    errors: Counter[str] = field(default_factory=Counter)
    rss_kib: int = 0

    @property
    def throughput(self) -> float:
        return self.requests / self.seconds

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000

    def line(self, index: int) -> str:
        return (
            f"round {index}: {self.requests} requests, errors {sum(self.errors.values())}, "
            f"{self.throughput:,.0f} req/s, p50 {self.percentile(50):.1f} ms, "
            f"p99 {self.percentile(99):.1f} ms, server RSS {self.rss_kib:,} KiB"
        )


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def generate_petstore(out: Path) -> Path:
    sys.path.insert(0, str(ROOT / "generator"))
    from openapi2mcp.generate import GenerateOptions, generate  # noqa: PLC0415
    from openapi2mcp.render.emit import write_tree  # noqa: PLC0415
    from openapi2mcp.render.package import MARKER  # noqa: PLC0415

    package = out / "petstore-mcp"
    result = generate(str(ROOT / "samples" / "petstore" / "openapi.yaml"), GenerateOptions())
    write_tree(result.files, package, force=True, marker=MARKER)
    return package


@dataclass
class FastUpstream:
    """A keep-alive HTTP/1.1 server on 127.0.0.1 (asyncio, ``TCP_NODELAY``) replaying canned
    Petstore answers: the sample's fake API is thread-per-connection with a listen backlog of 5,
    which would measure itself rather than the MCP server."""

    replies: dict[str, bytes]
    base_url: str = ""
    api_key: str = ""

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            while head := await reader.readuntil(b"\r\n\r\n"):
                target = head.split(b" ", 2)[1].decode()
                length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
                if length:
                    await reader.readexactly(int(length[1]))
                body = self.replies.get(target, b'{"message":"not found"}')
                status = b"200 OK" if target in self.replies else b"404 Not Found"
                writer.write(
                    b"HTTP/1.1 " + status + b"\r\nContent-Type: application/json\r\n"
                    b"Content-Length: %d\r\n\r\n" % len(body) + body
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    @contextlib.contextmanager
    def running(self) -> Iterator[FastUpstream]:
        loop = asyncio.new_event_loop()
        server = loop.run_until_complete(
            asyncio.start_server(self._serve, "127.0.0.1", 0, backlog=1024)
        )
        port = server.sockets[0].getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        thread = threading.Thread(target=loop.run_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(10)
            server.close()
            loop.close()


@contextlib.contextmanager
def fast_petstore() -> Iterator[FastUpstream]:
    """Canned answers recorded from the sample's fake Petstore, served by ``FastUpstream``."""
    sys.path.insert(0, str(ROOT / "samples" / "petstore"))
    import fake_upstream  # noqa: PLC0415

    targets = ["/v1/pets/1", "/v1/pets?limit=5", "/v1/pets/2"]
    with fake_upstream.FakePetstore() as fake, httpx.Client() as http:
        headers = {"x-api-key": fake.api_key}
        replies = {
            t: http.get(fake.base_url.removesuffix("/v1") + t, headers=headers).content
            for t in targets
        }
    with FastUpstream(replies, api_key="bench-key").running() as upstream:
        yield upstream


class HttpServer:
    """``python -m petstore_mcp http --port 0``; the URL comes from its announcement on stderr."""

    def __init__(self, package: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "petstore_mcp", "http", "--port", "0"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={
                "PYTHONPATH": str(package / "src"),
                "PATH": os.environ.get("PATH", ""),
                **env,
            },
        )
        lines: queue.Queue[str | None] = queue.Queue()

        def pump() -> None:
            assert self.process.stderr is not None
            for raw in self.process.stderr:
                lines.put(raw.decode("utf-8", "replace"))
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        while True:
            line = lines.get(timeout=60)
            if line is None:
                raise RuntimeError("the server exited before serving")
            match = re.fullmatch(r"petstore-mcp: serving MCP on (http://\S+)\n", line)
            if match:
                self.url = match[1]
                return

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        assert self.process.stderr is not None
        self.process.stderr.close()


class RawClient:
    """One keep-alive HTTP/1.1 connection speaking just enough to POST JSON and read the answer.

    httpx costs 3-4 ms of CPU per request, so 50 httpx clients in one process measure the
    client; this costs a fraction of that, leaving the server as the thing measured.
    """

    def __init__(self, url: str) -> None:
        parts = httpx.URL(url)
        self._host, self._port, self._path = parts.host, parts.port or 80, parts.raw_path
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def post(self, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self._host, self._port)
        assert self._reader is not None
        lines = [f"POST {self._path.decode()} HTTP/1.1", f"Host: {self._host}:{self._port}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        lines.append(f"Content-Length: {len(body)}")
        self._writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        head = await self._reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
        if length:
            return status, await self._reader.readexactly(int(length[1]))
        chunks = []
        while size := int((await self._reader.readuntil(b"\r\n")).strip(), 16):
            chunks.append(await self._reader.readexactly(size + 2))
        await self._reader.readuntil(b"\r\n")
        return status, b"".join(c[:-2] for c in chunks)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(ConnectionError):
                await self._writer.wait_closed()


def _classify(status: int, content: bytes) -> str | None:
    """``None`` for a success, else a short error label."""
    if status != 200:
        return f"HTTP {status}"
    reply = json.loads(content)
    if "error" in reply:
        return f"JSON-RPC {reply['error']['code']}: {reply['error']['message'][:60]}"
    if reply["result"].get("isError"):
        text = reply["result"]["content"][0]["text"]
        return "isError: " + text.split(";")[0][:70]
    return None


async def run_round(url: str, clients: int, requests: int, pid: int) -> Round:
    """``requests`` POSTs shared by ``clients`` concurrent clients, each on its own connection."""
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    counter = iter(range(requests))

    async def client(number: int) -> None:
        connection = RawClient(url)
        try:
            for index in counter:
                method, params, name = WORK[index % len(WORK)]
                headers = {
                    "Content-Type": "application/json",
                    "Accept": "application/json, text/event-stream",
                    "MCP-Protocol-Version": MODERN,
                    "Mcp-Method": method,
                }
                if name is not None:
                    headers["Mcp-Name"] = name
                body = {"jsonrpc": "2.0", "id": index, "method": method}
                body["params"] = {"_meta": META, **params}
                started = time.perf_counter()
                try:
                    error = _classify(*await connection.post(json.dumps(body).encode(), headers))
                except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                    error = type(exc).__name__
                    await connection.close()
                    connection = RawClient(url)
                latencies.append(time.perf_counter() - started)
                if error is not None:
                    errors[error] += 1
        finally:
            await connection.close()

    started = time.perf_counter()
    await asyncio.gather(*(client(n) for n in range(clients)))
    return Round(requests, time.perf_counter() - started, latencies, errors, rss_kib(pid))


def run_load(
    package: Path,
    upstream_url: str,
    api_key: str,
    *,
    clients: int,
    requests: int,
    rounds: int,
    env: dict[str, str] | None = None,
) -> tuple[int, list[Round]]:
    """Start the server, run a warm-up and ``rounds`` rounds; the RSS after warm-up and the rounds."""
    settings = {
        "PETSTORE_BASE_URL": upstream_url,
        "PETSTORE_API_KEY": api_key,
        "PETSTORE_RATE_LIMIT": "0",
        **(env or {}),
    }
    server = HttpServer(package, settings)
    try:
        pid = server.process.pid
        asyncio.run(run_round(server.url, clients, max(requests // 5, clients), pid))
        warm = rss_kib(pid)
        results = [
            asyncio.run(run_round(server.url, clients, requests, pid)) for _ in range(rounds)
        ]
    finally:
        server.stop()
    return warm, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=5000, help="requests per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, fast_petstore() as fake:
        package = generate_petstore(Path(tmp))
        print(
            f"{args.clients} concurrent clients, {args.requests} requests per round, "
            f"mix: {', '.join(m if n is None else f'{m} {n}' for m, _, n in WORK)}"
        )
        warm, results = run_load(
            package,
            fake.base_url,
            fake.api_key,
            clients=args.clients,
            requests=args.requests,
            rounds=args.rounds,
        )
        print(f"server RSS after warm-up: {warm:,} KiB")
        for index, result in enumerate(results, 1):
            print(result.line(index))
            for label, count in sorted(result.errors.items()):
                print(f"    {count} x {label}")
        latencies = [x for r in results for x in r.latencies]
        total = Round(sum(r.requests for r in results), sum(r.seconds for r in results), latencies)
        print(
            f"all rounds: {total.requests} requests, errors "
            f"{sum(sum(r.errors.values()) for r in results)}, {total.throughput:,.0f} req/s, "
            f"p50 {total.percentile(50):.1f} ms, p99 {total.percentile(99):.1f} ms; server RSS "
            f"{warm:,} KiB after warm-up, {results[-1].rss_kib:,} KiB after the last round "
            f"({results[-1].rss_kib - warm:+,} KiB)"
        )
        limits = {"PETSTORE_RATE_LIMIT": "200", "PETSTORE_MAX_CONCURRENCY": "8"}
        _, limited = run_load(
            package,
            fake.base_url,
            fake.api_key,
            clients=args.clients,
            requests=args.requests,
            rounds=1,
            env=limits,
        )
        print(f"with {', '.join(f'{k}={v}' for k, v in limits.items())}: {limited[0].line(1)}")
        for label, count in sorted(limited[0].errors.items()):
            print(f"    {count} x {label}")


if __name__ == "__main__":
    main()
