"""Runs the official MCP conformance suite against a server generated from ``samples/conformance``.

It owns the whole conformance run: generate ``samples/conformance/openapi.yaml`` into a temporary
directory, start the sample's fake API and the generated server over Streamable HTTP (pointed at the
fake through ``TEST_BASE_URL``), run ``conformance server --requirements REVISION`` once per revision
with that revision's expected-failures baseline, and read each scenario's ``checks.json`` back. The
suite comes from ``.tools/node`` (``scripts/install_node.sh``). Baseline semantics are the suite's:
only scored scenarios count, a WARNING counts as a failure, and a listed scenario (or
``scenario:check``) that passes is stale. ``python -m tests.conformance.runner`` prints a summary
per revision and exits 1 on any unexpected failure or stale entry.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.kit.meta import PROTOCOL_VERSION, meta

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "conformance"
TOOLS_BIN = REPO / ".tools" / "node" / "node_modules" / ".bin"
SUITE_DIR = TOOLS_BIN.parent / "@modelcontextprotocol" / "conformance"
REVISIONS = ("2026-07-28", "2025-11-25")
PACKAGE = "test_mcp"
BASE_URL_ENV = "TEST_BASE_URL"
MCP_PATH = "/mcp"
SUITE_TIMEOUT_SECONDS = 240.0
START_TIMEOUT_SECONDS = 20.0
_RESULT_DIR = re.compile(r"^server-(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$")
_FAILED = frozenset({"FAILURE", "WARNING"})
_SEVERITY = {"FAILURE": 3, "WARNING": 2, "SUCCESS": 1}


class ConformanceSetupError(Exception):
    """The run could not start: tools missing, server not starting, suite crashed."""


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    """One scenario's checks, counted by status, and the ids of its failed checks."""

    scenario: str
    scored: bool
    counts: dict[str, int]
    failed_checks: tuple[str, ...]
    # check id -> its most severe status (the suite collapses repeated ids the same way)
    verdicts: dict[str, str]
    # the checks exactly as checks.json holds them
    checks: tuple[dict[str, Any], ...] = ()

    def details(self, check_id: str) -> dict[str, Any]:
        """The ``details`` of the first check with this id (``{}`` if none)."""
        for check in self.checks:
            if check.get("id") == check_id and isinstance(check.get("details"), dict):
                return dict(check["details"])
        return {}

    @property
    def passed(self) -> bool:
        return not self.failed_checks


@dataclass(slots=True)
class RevisionRun:
    """The outcome of ``conformance server --requirements <revision>``."""

    revision: str
    exit_code: int
    output: str
    scenarios: dict[str, ScenarioResult]
    baseline: list[str]
    unexpected: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.unexpected and not self.stale

    def scored(self) -> list[ScenarioResult]:
        return [s for s in self.scenarios.values() if s.scored]


@dataclass(slots=True)
class ConformanceRun:
    """Every revision's outcome plus the operations the fake API saw (method, path, status)."""

    revisions: list[RevisionRun]
    upstream_calls: list[tuple[str, str, int]]


def expected_failures_file(revision: str) -> Path:
    return SAMPLE / f"expected-failures-{revision}.yaml"


def load_baseline(path: Path) -> list[str]:
    """The ``server`` entries of an expected-failures file (``scenario`` or ``scenario:check``)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return [str(entry) for entry in data.get("server") or []]


def scored_scenarios(revision: str) -> set[str]:
    """Server scenarios the frozen requirement set scores for ``revision``."""
    data = yaml.safe_load((SUITE_DIR / "requirements" / f"{revision}.yaml").read_text("utf-8"))
    return set(data.get("server") or [])


def read_results(out_dir: Path, scored: set[str]) -> dict[str, ScenarioResult]:
    """Each scenario's ``checks.json`` under ``out_dir`` (one ``server-<name>-<time>`` folder each)."""
    results: dict[str, ScenarioResult] = {}
    for folder in sorted(out_dir.iterdir()):
        match = _RESULT_DIR.match(folder.name)
        checks_file = folder / "checks.json"
        if not match or not checks_file.is_file():
            continue
        checks: list[dict[str, Any]] = json.loads(checks_file.read_text(encoding="utf-8"))
        counts: dict[str, int] = {}
        verdicts: dict[str, str] = {}
        for check in checks:
            status, check_id = str(check.get("status")), str(check.get("id"))
            counts[status] = counts.get(status, 0) + 1
            if status != "INFO" and _SEVERITY.get(status, 0) >= _SEVERITY.get(
                verdicts.get(check_id, ""), -1
            ):
                verdicts[check_id] = status
        failed = tuple(check for check, status in verdicts.items() if status in _FAILED)
        name = match["scenario"]
        results[name] = ScenarioResult(
            name, name in scored, counts, failed, verdicts, tuple(checks)
        )
    return results


def judge(run: RevisionRun) -> None:
    """Fill ``unexpected`` and ``stale`` the way the suite judges a baseline."""
    wholesale = {entry for entry in run.baseline if ":" not in entry}
    per_check: dict[str, set[str]] = {}
    for entry in run.baseline:
        if ":" in entry:
            scenario, check = entry.split(":", 1)
            per_check.setdefault(scenario, set()).add(check)
    for result in run.scored():
        if result.scenario in wholesale:
            if result.passed:
                run.stale.append(result.scenario)
            continue
        listed = per_check.get(result.scenario, set())
        run.unexpected.extend(
            f"{result.scenario}:{check}" for check in result.failed_checks if check not in listed
        )
        # a listed check that passes, or that no longer runs in a passing scenario, excuses nothing
        run.stale.extend(
            f"{result.scenario}:{check}"
            for check in sorted(listed)
            if result.verdicts.get(check) == "SUCCESS"
            or (check not in result.verdicts and result.passed)
        )


def _load_fake() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "conformance_fake_upstream", SAMPLE / "fake_upstream.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def generate_sample(out: Path) -> Path:
    """Generate the conformance sample into ``out``; returns the package's ``src`` folder."""
    result = generate(str(SAMPLE / "openapi.yaml"), GenerateOptions())
    write_tree(result.files, out, force=False, marker=MARKER)
    return out / "src"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _answers(url: str) -> bool:
    """Does a modern ``server/discover`` POST get a JSON-RPC reply (any HTTP status)?"""
    envelope = meta(**{PROTOCOL_VERSION: REVISIONS[0]})
    body = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": envelope}}
    ).encode()
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": REVISIONS[0],
            "Mcp-Method": "server/discover",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=2) as reply:
            return bool(reply.read())
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


@contextlib.contextmanager
def running_server(src: Path, base_url: str, log: Path) -> Iterator[str]:
    """The generated server over HTTP on a free loopback port; yields its MCP endpoint URL."""
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(src), BASE_URL_ENV: base_url}
    command = [sys.executable, "-m", PACKAGE, "http", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--path", MCP_PATH]
    url = f"http://127.0.0.1:{port}{MCP_PATH}"
    with log.open("wb") as stderr:
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            deadline = time.monotonic() + START_TIMEOUT_SECONDS
            while not _answers(url):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise ConformanceSetupError(
                        f"the generated server did not start on {url}:\n"
                        + log.read_text(encoding="utf-8", errors="replace")[-2000:]
                    )
                time.sleep(0.1)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def run_revision(url: str, revision: str, out_dir: Path) -> RevisionRun:
    """One ``conformance server`` run with the revision's baseline; results read from ``out_dir``."""
    suite = TOOLS_BIN / "conformance"
    if not suite.exists() or not (TOOLS_BIN / "node").exists():
        raise ConformanceSetupError(
            f"the conformance suite is not installed in {TOOLS_BIN}; run scripts/install_node.sh"
        )
    baseline = expected_failures_file(revision)
    # results of an earlier run in a kept folder would mix with this one's
    shutil.rmtree(out_dir, ignore_errors=True)
    command = [str(TOOLS_BIN / "node"), str(suite), "server", "--url", url]
    command += ["--requirements", revision, "-o", str(out_dir)]
    command += ["--expected-failures", str(baseline)]
    env = {**os.environ, "PATH": f"{TOOLS_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    env["NO_COLOR"] = "1"
    try:
        done = subprocess.run(
            command,
            env=env,
            capture_output=True,
            text=True,
            timeout=SUITE_TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise ConformanceSetupError(f"conformance {revision} did not finish in time") from exc
    run = RevisionRun(
        revision,
        done.returncode,
        done.stdout + done.stderr,
        read_results(out_dir, scored_scenarios(revision)),
        load_baseline(baseline),
    )
    if not run.scenarios:
        raise ConformanceSetupError(
            f"conformance {revision} wrote no results:\n{run.output[-3000:]}"
        )
    judge(run)
    return run


def run_conformance(
    revisions: tuple[str, ...] = REVISIONS, workdir: Path | None = None
) -> ConformanceRun:
    """Generate, start everything, run every revision concurrently against one server."""
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="conformance-")))
        src = generate_sample(workdir / "test-mcp")
        fake = stack.enter_context(_load_fake().FakeConformanceApi())
        url = stack.enter_context(running_server(src, fake.base_url, workdir / "server.log"))
        with ThreadPoolExecutor(max_workers=len(revisions)) as pool:
            futures = [
                pool.submit(run_revision, url, revision, workdir / f"results-{revision}")
                for revision in revisions
            ]
            runs = [future.result() for future in futures]
        return ConformanceRun(runs, fake.calls())


def summary(run: RevisionRun) -> str:
    """A readable table: one line per scenario, then the totals and the baseline verdict."""
    lines = [f"== MCP conformance, requirements {run.revision} (suite exit {run.exit_code})"]
    for result in sorted(run.scenarios.values(), key=lambda r: (not r.scored, r.scenario)):
        mark = "pass" if result.passed else "FAIL"
        note = "" if result.scored else " (not scored)"
        counts = ", ".join(f"{k.lower()} {v}" for k, v in sorted(result.counts.items()))
        failed = f" -- {', '.join(result.failed_checks)}" if result.failed_checks else ""
        lines.append(f"  {mark} {result.scenario}{note}: {counts}{failed}")
    scored = run.scored()
    passed = sum(1 for r in scored if r.passed)
    lines.append(f"  scored scenarios passed: {passed}/{len(scored)}")
    lines.extend(f"  unexpected failure: {entry}" for entry in run.unexpected)
    lines.extend(f"  stale baseline entry (now passing): {entry}" for entry in run.stale)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--revision", action="append", choices=REVISIONS, help="revision(s) to run (default: both)"
    )
    parser.add_argument("--keep", type=Path, help="keep the generated server and results here")
    parser.add_argument("--verbose", action="store_true", help="also print the suite's output")
    options = parser.parse_args(argv)
    if options.keep is not None:
        options.keep.mkdir(parents=True, exist_ok=True)
    try:
        result = run_conformance(tuple(options.revision or REVISIONS), options.keep)
    except ConformanceSetupError as exc:
        print(f"conformance: {exc}", file=sys.stderr)
        return 2
    for run in result.revisions:
        if options.verbose:
            print(run.output)
        print(summary(run))
    return 0 if all(run.ok for run in result.revisions) else 1


if __name__ == "__main__":
    sys.exit(main())
