"""Side-by-side benchmark: our generated server vs FastMCP 4.x ``FastMCP.from_openapi``, over stdio.

Both servers get the same spec and talk to the same fast upstream on 127.0.0.1. Printed per input
(Petstore, and GitHub's REST description when available): generation time (ours), cold start
(process start → first tools/list answered), warm tools/list time, tools/list bytes and tokens
(o200k_base, counted offline with bpe-openai), per-call overhead (tools/call round trip minus a direct
HTTP call to the same upstream) and peak RSS after tools/list — with the ratio for each.

    python benchmarks/compare_fastmcp.py [--github PATH] [--runs 5]

FastMCP and bpe-openai are installed into benchmarks/.cache/fastmcp-venv on first use (not into the
project's environment). Figures, not assertions; the issue notes quote them.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import venv
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CACHE = HERE / ".cache"
FASTMCP_VENV = CACHE / "fastmcp-venv"
PETSTORE = REPO / "samples" / "petstore" / "openapi.yaml"
GITHUB = CACHE / "node_modules/@octokit/openapi/generated/api.github.com.json"

FASTMCP_SERVER = textwrap.dedent(
    """
    import json, sys, httpx2
    from fastmcp import FastMCP
    spec = json.load(open(sys.argv[1]))
    client = httpx2.AsyncClient(base_url=sys.argv[2], headers={"X-API-Key": "bench"})
    FastMCP.from_openapi(openapi_spec=spec, client=client, name="bench").run()
    """
)


def fastmcp_python() -> Path:
    python = FASTMCP_VENV / "bin" / "python"
    if not python.exists():
        venv.EnvBuilder(with_pip=True).create(FASTMCP_VENV)
        subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                "fastmcp==4.*",
                "bpe-openai",
            ],
            check=True,
        )
    return python


class _Upstream(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args: object) -> None:
        pass

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        body = b'{"id": 1, "name": "Rex", "photoUrls": [], "status": "available"}'
        if self.path.split("?")[0].rstrip("/").endswith("pets"):
            body = b"[" + body + b"]"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _answer


@contextmanager
def upstream() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Upstream)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


class Stdio:
    """A server process driven with raw JSON-RPC lines (2025-11-25 handshake: both servers speak it)."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self._id = 0

    def request(
        self, method: str, params: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], int]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self._id += 1
        message = {"jsonrpc": "2.0", "id": self._id, "method": method, "params": params or {}}
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"server exited during {method}")
            reply = json.loads(line)
            if reply.get("id") == self._id:
                return reply, len(line)

    def handshake(self) -> None:
        self.request(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            },
        )
        assert self.process.stdin is not None
        self.process.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.process.stdin.flush()

    def list_tools(self) -> tuple[list[dict[str, Any]], int, str]:
        tools: list[dict[str, Any]] = []
        size = 0
        texts: list[str] = []
        cursor = None
        while True:
            reply, length = self.request("tools/list", {"cursor": cursor} if cursor else {})
            size += length
            result = reply["result"]
            tools += result["tools"]
            texts.extend(json.dumps(tool) for tool in result["tools"])
            cursor = result.get("nextCursor")
            if not cursor:
                return tools, size, "\n".join(texts)

    def rss_mb(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        kb = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))
        return kb / 1024

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def measure(
    command: list[str], env: dict[str, str], call: tuple[str, dict[str, Any]] | None, runs: int
) -> dict[str, float]:
    colds, warms, calls = [], [], []
    size = tokens = 0.0
    rss = 0.0
    for _ in range(runs):
        server = Stdio(command, env)
        server.handshake()
        tools, size_bytes, text = server.list_tools()
        colds.append(time.perf_counter() - server.started)
        start = time.perf_counter()
        server.list_tools()
        warms.append(time.perf_counter() - start)
        if call is not None:
            wanted = "".join(c for c in call[0].lower() if c.isalnum())
            name = next(
                (
                    t["name"]
                    for t in tools
                    if "".join(c for c in t["name"].lower() if c.isalnum()) == wanted
                ),
                None,
            )
            if name is not None:
                for _ in range(20):
                    start = time.perf_counter()
                    server.request("tools/call", {"name": name, "arguments": call[1]})
                    calls.append(time.perf_counter() - start)
        rss = server.rss_mb()
        size = float(size_bytes)
        tokens = float(count_tokens(text))
        server.close()
    return {
        "cold": statistics.median(colds),
        "warm": statistics.median(warms),
        "call": statistics.median(calls) if calls else float("nan"),
        "bytes": size,
        "tokens": tokens,
        "rss": rss,
        "tools": float(len(tools)),
    }


def count_tokens(text: str) -> int:
    # one tool per line: the tokenizer refuses very long inputs, and tools are independent anyway
    script = (
        "import sys, bpe_openai\n"
        "enc = bpe_openai.get_encoding('o200k_base')\n"
        "print(sum(len(enc.encode(line)) for line in sys.stdin.read().splitlines()))\n"
    )
    done = subprocess.run(
        [str(fastmcp_python()), "-c", script], input=text.encode(), capture_output=True, check=True
    )
    return int(done.stdout)


def direct_call(base: str) -> float:
    with httpx.Client(base_url=base) as client:
        client.get("/v1/pets/1")
        samples = []
        for _ in range(50):
            start = time.perf_counter()
            client.get("/v1/pets/1")
            samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def spec_json(spec: Path, server: str, tmp: Path) -> Path:
    data = (
        yaml.safe_load(spec.read_text())
        if spec.suffix in {".yaml", ".yml"}
        else json.loads(spec.read_text())
    )
    data["servers"] = [{"url": server}]
    out = tmp / (spec.stem + ".json")
    out.write_text(json.dumps(data))
    return out


def compare(label: str, spec: Path, runs: int, call: tuple[str, dict[str, Any]] | None) -> None:
    with tempfile.TemporaryDirectory() as tmp_name, upstream() as base:
        tmp = Path(tmp_name)
        out = tmp / "ours"
        start = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "openapi2mcp",
                "generate",
                str(spec),
                "-o",
                str(out),
                "--name",
                "bench",
            ],
            check=True,
            capture_output=True,
        )
        generation = time.perf_counter() - start
        base_path = "/v1" if spec == PETSTORE else ""
        env = {
            "PATH": os.environ.get("PATH", ""),
            "PYTHONPATH": str(out / "src"),
            "BENCH_BASE_URL": base + base_path,
            "BENCH_API_KEY": "bench",
        }
        ours = measure([sys.executable, "-m", "bench_mcp"], env, call, runs)
        fast_spec = spec_json(spec, base + base_path, tmp)
        server_py = tmp / "fastmcp_server.py"
        server_py.write_text(FASTMCP_SERVER)
        theirs = measure(
            [str(fastmcp_python()), str(server_py), str(fast_spec), base + base_path],
            {"PATH": os.environ.get("PATH", "")},
            call,
            max(1, runs // 2),
        )
        direct = direct_call(base) if call is not None else float("nan")
    counts = f"{int(ours['tools'])} tools (FastMCP: {int(theirs['tools'])})"
    print(f"\n{label}: ours generated in {generation:.1f} s; {counts}")
    rows = [
        ("cold start → tools/list", ours["cold"] * 1000, theirs["cold"] * 1000, "ms", True),
        ("warm tools/list", ours["warm"] * 1000, theirs["warm"] * 1000, "ms", True),
        (
            "per-call overhead",
            (ours["call"] - direct) * 1000,
            (theirs["call"] - direct) * 1000,
            "ms",
            True,
        ),
        ("tools/list bytes", ours["bytes"], theirs["bytes"], "B", True),
        ("tools/list tokens (o200k)", ours["tokens"], theirs["tokens"], "tok", True),
        ("peak RSS after tools/list", ours["rss"], theirs["rss"], "MB", True),
    ]
    print(f"  {'metric':28} {'ours':>18} {'FastMCP':>18} {'FastMCP/ours':>13}")
    for name, a, b, unit, _ in rows:
        ratio = b / a if a and a == a and b == b else float("nan")
        print(f"  {name:28} {a:>14,.1f} {unit:<3} {b:>14,.1f} {unit:<3} {ratio:>12.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--github", type=Path, default=GITHUB if GITHUB.exists() else None)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    compare("Petstore", PETSTORE, args.runs, ("get_pet_by_id", {"petId": 1}))
    if args.github is not None:
        compare("GitHub", args.github, max(1, args.runs // 2), None)
    else:
        print(
            "\nGitHub: skipped (pass --github PATH, or run benchmarks/github.py once to fetch it)"
        )


if __name__ == "__main__":
    main()
