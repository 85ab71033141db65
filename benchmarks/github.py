"""Benchmark: generate GitHub's REST description (1,200+ operations) and start the generated server.

Prints generation time and peak memory, the size of the catalog files (what start-up reads: the index
and one page of tool lines; the rest is read on first use), and per tool mode the server's cold start
(process start → first tools/list page answered) and the size of the whole tools/list. Not a test:
figures, not assertions.

    python benchmarks/github.py [--spec path/to/api.github.com.json] [--runs 3]

Without --spec it installs the npm package @octokit/openapi into benchmarks/.cache/.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def github_spec() -> Path:
    spec = CACHE / "node_modules/@octokit/openapi/generated/api.github.com.json"
    if not spec.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        npm = shutil.which("npm")
        if npm is None:
            sys.exit("npm is needed to fetch @octokit/openapi (or pass --spec)")
        subprocess.run(
            [npm, "install", "--silent", "--prefix", str(CACHE), "@octokit/openapi"], check=True
        )
    return spec


def generate(spec: Path, out: Path) -> float:
    command = [
        sys.executable,
        "-m",
        "openapi2mcp",
        "generate",
        str(spec),
        "-o",
        str(out),
        "--force",
        "--no-progress",
    ]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def cold_start(package: Path, mode: str) -> tuple[float, float, int, int, int]:
    """Seconds to the first tools/list page, to the last page; tools, pages, bytes."""
    name = next(p.name for p in (package / "src").iterdir() if p.is_dir())
    index = json.loads((package / "src" / name / "catalog.index.json").read_text())
    prefix = index["upstream"]["baseUrlEnv"].removesuffix("_BASE_URL")
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", name],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={
            "PYTHONPATH": str(package / "src"),
            "PATH": "/usr/bin:/bin",
            f"{prefix}_TOOL_MODE": mode,
        },
    )
    assert process.stdin is not None and process.stdout is not None
    first = 0.0
    size = tools = pages = 0
    cursor: str | None = None
    while True:
        params: dict[str, object] = {"_meta": META}
        if cursor is not None:
            params["cursor"] = cursor
        message = {"jsonrpc": "2.0", "id": pages + 1, "method": "tools/list", "params": params}
        process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()
        line = process.stdout.readline()
        pages += 1
        if pages == 1:
            first = time.perf_counter() - start
        size += len(line)
        result = json.loads(line)["result"]
        tools += len(result["tools"])
        cursor = result.get("nextCursor")
        if cursor is None:
            break
    total = time.perf_counter() - start
    process.stdin.close()
    process.wait(timeout=30)
    return first, total, tools, pages, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--spec", type=Path)
    parser.add_argument("--runs", type=int, default=3, help="cold starts to measure")
    args = parser.parse_args()
    spec = args.spec or github_spec()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "github-mcp"
        seconds = generate(spec, out)
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        catalog = next(out.glob("src/*/catalog.json"))
        rows = [
            ("spec", f"{spec.name} ({spec.stat().st_size / 1e6:.1f} MB)"),
            ("generation", f"{seconds:.1f} s, peak RSS {peak_mb:.0f} MB"),
        ]
        for path in sorted(catalog.parent.glob("catalog*")):
            rows.append((path.name, f"{path.stat().st_size / 1e6:.2f} MB"))
        for mode in ("full", "dynamic"):
            starts = [cold_start(out, mode) for _ in range(args.runs)]
            firsts = [s[0] for s in starts]
            _, total, tools, pages, size = starts[-1]
            rows += [
                (
                    f"{mode}: cold start → first tools/list page",
                    f"median {statistics.median(firsts) * 1000:.0f} ms of {args.runs}",
                ),
                (
                    f"{mode}: whole tools/list",
                    f"{tools} tools, {pages} pages, {size:,} bytes, {total:.2f} s from start",
                ),
            ]
        width = max(len(k) for k, _ in rows)
        for key, value in rows:
            print(f"{key.ljust(width)}  {value}")


if __name__ == "__main__":
    main()
