"""Side-by-side benchmark: our generated server vs FastMCP 4.x ``FastMCP.from_openapi``, over stdio.

Both servers get the same spec and talk to the same fast upstream on 127.0.0.1. Per input (Petstore,
and GitHub's REST description when available) it prints our generation time, then for ours in full
mode, ours in dynamic mode and FastMCP: cold start (process start → the whole tools/list answered),
warm tools/list, per-call overhead (tools/call round trip minus a direct HTTP call to the same
upstream, each call timed right next to a direct call so both see the same machine load), tools/list
bytes and tokens (o200k_base, counted offline with bpe-openai) and peak RSS
after tools/list, with FastMCP/ours ratios. In dynamic mode it also checks that every operation is
reachable (``describe_operation`` answers for each full-mode tool). Last comes the issue's target
table: each target, the measured figure, met or missed.

    python benchmarks/compare_fastmcp.py [--github PATH] [--runs 5]

FastMCP and bpe-openai are installed into benchmarks/.cache/fastmcp-venv on first use (not into the
project's environment). GitHub's spec is generated with ``--include-deprecated`` so that both servers
expose all of its operations. Figures, not assertions; the issue notes quote them.
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
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
    threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True).start()
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

    def list_tools(self) -> tuple[list[dict[str, Any]], int]:
        """Every page: the tools and the bytes of the replies."""
        tools: list[dict[str, Any]] = []
        size = 0
        cursor = None
        while True:
            reply, length = self.request("tools/list", {"cursor": cursor} if cursor else {})
            size += length
            result = reply["result"]
            tools += result["tools"]
            cursor = result.get("nextCursor")
            if not cursor:
                return tools, size

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


# tools/call samples per server process, after a few unmeasured ones (validators, connections):
# fewer than the generated server's default rate limit lets through in a burst (100)
CALLS_PER_RUN = 40
WARM_CALLS = 5


@dataclass
class Figures:
    """One server on one input (medians over the runs)."""

    cold: float = float("nan")
    warm: float = float("nan")
    call: float = float("nan")
    # the direct HTTP calls timed between this server's tools/calls
    direct: float = float("nan")
    bytes: float = float("nan")
    tokens: float = float("nan")
    rss: float = float("nan")
    tools: int = 0
    names: list[str] = field(default_factory=list)
    reachable: int = 0


def measure(
    command: list[str],
    env: dict[str, str],
    call: tuple[str, dict[str, Any]] | None,
    runs: int,
    *,
    check: Callable[[Stdio], int] | None = None,
    direct: Callable[[], float] | None = None,
) -> Figures:
    colds, warms, calls, directs = [], [], [], []
    figures = Figures()
    for _ in range(runs):
        server = Stdio(command, env)
        server.handshake()
        tools, size_bytes = server.list_tools()
        colds.append(time.perf_counter() - server.started)
        for _ in range(3):
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
                params = {"name": name, "arguments": call[1]}
                for _ in range(WARM_CALLS):
                    server.request("tools/call", params)
                for _ in range(CALLS_PER_RUN):
                    start = time.perf_counter()
                    server.request("tools/call", params)
                    calls.append(time.perf_counter() - start)
                    if direct is not None:
                        directs.append(direct())
        figures.rss = server.rss_mb()
        figures.bytes = float(size_bytes)
        # one tool per line, re-serialised outside the timed listings
        figures.tokens = float(count_tokens("\n".join(json.dumps(tool) for tool in tools)))
        figures.tools = len(tools)
        figures.names = [t["name"] for t in tools]
        if check is not None:
            figures.reachable = check(server)
        server.close()
    figures.cold = statistics.median(colds)
    figures.warm = statistics.median(warms)
    figures.call = statistics.median(calls) if calls else float("nan")
    figures.direct = statistics.median(directs) if directs else float("nan")
    return figures


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


@contextmanager
def direct_caller(base: str, path: str) -> Iterator[Callable[[], float]]:
    """Times one direct GET of ``path`` on a kept-alive connection, as the servers' clients do."""
    with httpx.Client(base_url=base) as client:
        client.get(path)

        def timed() -> float:
            start = time.perf_counter()
            client.get(path)
            return time.perf_counter() - start

        yield timed


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


def describes_every(names: list[str]) -> Callable[[Stdio], int]:
    """How many of ``names`` the dynamic server's describe tool knows (every one, we hope)."""

    def check(server: Stdio) -> int:
        known = 0
        for name in names:
            reply, _ = server.request(
                "tools/call", {"name": "describe_operation", "arguments": {"name": name}}
            )
            result = reply.get("result")
            known += isinstance(result, dict) and not result.get("isError", False)
        return known

    return check


def generate(spec: Path, out: Path, extra: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        [
            *(sys.executable, "-m", "openapi2mcp", "generate", str(spec), "-o", str(out)),
            *("--name", "bench", "--force", "--no-progress", *extra),
        ],
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start


@dataclass
class Input:
    """What one input measured: generation time, ours (full, dynamic) and FastMCP."""

    label: str
    generation: float
    full: Figures
    dynamic: Figures
    fastmcp: Figures


def compare(
    label: str, spec: Path, runs: int, call: tuple[str, dict[str, Any]] | None, extra: list[str]
) -> Input:
    with (
        tempfile.TemporaryDirectory() as tmp_name,
        upstream() as base,
        direct_caller(base, "/v1/pets/1") as direct,
    ):
        tmp = Path(tmp_name)
        out = tmp / "ours"
        generations = [generate(spec, out, extra) for _ in range(1 if extra else 3)]
        base_path = "/v1" if spec == PETSTORE else ""
        env = {
            "PATH": os.environ.get("PATH", ""),
            "PYTHONPATH": str(out / "src"),
            "BENCH_BASE_URL": base + base_path,
            "BENCH_API_KEY": "bench",
        }
        command = [sys.executable, "-m", "bench_mcp"]
        full = measure(command, {**env, "BENCH_TOOL_MODE": "full"}, call, runs, direct=direct)
        dynamic = measure(
            command,
            {**env, "BENCH_TOOL_MODE": "dynamic"},
            None,
            1,
            check=describes_every(full.names),
        )
        fast_spec = spec_json(spec, base + base_path, tmp)
        server_py = tmp / "fastmcp_server.py"
        server_py.write_text(FASTMCP_SERVER)
        theirs = measure(
            [str(fastmcp_python()), str(server_py), str(fast_spec), base + base_path],
            {"PATH": os.environ.get("PATH", "")},
            call,
            max(1, runs // 2),
            direct=direct,
        )
    result = Input(label, statistics.median(generations), full, dynamic, theirs)
    print_input(result)
    return result


def _ratio(theirs: float, ours: float) -> str:
    if not (ours == ours and theirs == theirs) or not ours:
        return "-"
    return f"{theirs / ours:.1f}x"


def print_input(result: Input) -> None:
    full, dynamic, theirs = result.full, result.dynamic, result.fastmcp
    print(
        f"\n{result.label}: ours generated in {result.generation:.1f} s; {full.tools} tools "
        f"(FastMCP: {theirs.tools}); dynamic mode: {dynamic.tools} tools, "
        f"{dynamic.reachable} of {full.tools} operations reachable through them"
    )
    over = (full.call - full.direct) * 1000, (theirs.call - theirs.direct) * 1000
    rows = [
        (
            "cold start → tools/list",
            full.cold * 1000,
            dynamic.cold * 1000,
            theirs.cold * 1000,
            "ms",
        ),
        ("warm tools/list", full.warm * 1000, dynamic.warm * 1000, theirs.warm * 1000, "ms"),
        ("tools/call round trip", full.call * 1000, float("nan"), theirs.call * 1000, "ms"),
        (
            "  direct call, same moments",
            full.direct * 1000,
            float("nan"),
            theirs.direct * 1000,
            "ms",
        ),
        ("per-call overhead", over[0], float("nan"), over[1], "ms"),
        ("tools/list bytes", full.bytes, dynamic.bytes, theirs.bytes, "B"),
        ("tools/list tokens (o200k)", full.tokens, dynamic.tokens, theirs.tokens, "tok"),
        ("peak RSS after tools/list", full.rss, dynamic.rss, theirs.rss, "MB"),
    ]
    print(
        f"  {'metric':28} {'ours (full)':>18} {'ours (dynamic)':>18} {'FastMCP':>18} {'ratio':>8}"
    )
    for name, ours, dyn, fast, unit in rows:
        digits = 2 if unit == "ms" and max(ours, fast) < 10 else 1
        cells = [
            f"{v:>14,.{digits}f} {unit:<3}" if v == v else f"{'-':>18}" for v in (ours, dyn, fast)
        ]
        print(f"  {name:28} {' '.join(cells)} {_ratio(fast, ours):>8}")


@dataclass
class Target:
    what: str
    figure: str
    goal: str
    met: bool | None  # None: not measured


def targets(petstore: Input, github: Input | None) -> list[Target]:
    def faster(ours: float, theirs: float, times: float, what: str) -> Target:
        ratio = theirs / ours
        return Target(
            what,
            f"{ours * 1000:,.0f} ms vs {theirs * 1000:,.0f} ms = {ratio:.1f}x",
            f">= {times:g}x faster",
            ratio >= times,
        )

    p = petstore
    p_over = (p.full.call - p.full.direct, p.fastmcp.call - p.fastmcp.direct)
    rows = [
        Target(
            "generation time, Petstore",
            f"{p.generation:.1f} s",
            "<= 2 s",
            p.generation <= 2,
        ),
        faster(p.full.cold, p.fastmcp.cold, 5, "cold start, Petstore"),
        Target(
            "per-call overhead, Petstore",
            f"{p_over[0] * 1000:.2f} ms vs {p_over[1] * 1000:.2f} ms "
            f"= {p_over[0] / p_over[1]:.2f} of FastMCP's",
            "<= 1/3 of FastMCP's",
            p_over[0] <= p_over[1] / 3,
        ),
    ]
    if github is None:
        return [*rows, Target("GitHub rows", "not measured (no spec)", "-", None)]
    g = github
    rows += [
        Target("generation time, GitHub", f"{g.generation:.1f} s", "<= 30 s", g.generation <= 30),
        faster(g.full.cold, g.fastmcp.cold, 15, "cold start, GitHub (full mode)"),
        faster(g.full.warm, g.fastmcp.warm, 50, "warm tools/list, GitHub (full mode)"),
        Target(
            "tools/list bytes, GitHub (full mode)",
            f"{g.full.bytes:,.0f} vs {g.fastmcp.bytes:,.0f} = {g.full.bytes / g.fastmcp.bytes:.2f}",
            "<= 1/4 of FastMCP's",
            g.full.bytes <= g.fastmcp.bytes / 4,
        ),
        Target(
            "tools/list tokens, GitHub (full mode)",
            f"{g.full.tokens:,.0f} vs {g.fastmcp.tokens:,.0f} = "
            f"{g.full.tokens / g.fastmcp.tokens:.2f}",
            "<= 1/4 of FastMCP's",
            g.full.tokens <= g.fastmcp.tokens / 4,
        ),
        Target(
            "tools/list tokens, GitHub (dynamic mode)",
            f"{g.dynamic.tokens:,.0f} tokens; {g.dynamic.reachable} of {g.full.tools} reachable",
            "<= 3,000, all callable",
            g.dynamic.tokens <= 3000 and g.dynamic.reachable == g.full.tools,
        ),
        Target(
            "peak RSS after tools/list, GitHub",
            f"{g.full.rss:.0f} MB vs {g.fastmcp.rss:.0f} MB = {g.full.rss / g.fastmcp.rss:.2f}",
            "<= 1/3 of FastMCP's",
            g.full.rss <= g.fastmcp.rss / 3,
        ),
    ]
    return rows


def print_targets(rows: list[Target]) -> None:
    print("\nTargets (issue 6)")
    width = max(len(row.what) for row in rows)
    figure = max(len(row.figure) for row in rows)
    goal = max(len(row.goal) for row in rows)
    for row in rows:
        verdict = "-" if row.met is None else "met" if row.met else "MISSED"
        print(f"  {row.what:{width}}  {row.figure:{figure}}  {row.goal:{goal}}  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--github", type=Path, default=GITHUB if GITHUB.exists() else None)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    petstore = compare("Petstore", PETSTORE, args.runs, ("get_pet_by_id", {"petId": 1}), [])
    github = None
    if args.github is not None:
        github = compare(
            "GitHub", args.github, max(1, args.runs // 2), None, ["--include-deprecated"]
        )
    else:
        print(
            "\nGitHub: skipped (pass --github PATH, or run benchmarks/github.py once to fetch it)"
        )
    print_targets(targets(petstore, github))


if __name__ == "__main__":
    main()
