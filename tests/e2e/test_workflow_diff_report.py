"""The generated CI workflow's diff report: the full one kept as an artifact, a short one as PR body.

The workflow's own steps are run for real (``bash -eo pipefail``, with the variables Actions sets)
in a generated package whose surface changed in more ways than a pull-request body can hold: the
step writes the complete report as JSON and Markdown where the upload step picks them up, and the
pull-request body stays under GitHub's 65,536 characters, breaking rows first, naming that artifact.
"""

from __future__ import annotations

import gzip
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

from openapi2mcp import __version__
from openapi2mcp.cli import main
from openapi2mcp.diff.compare import diff_surfaces, load_surface
from openapi2mcp.diff.report import render_json, render_markdown
from openapi2mcp.diff.surface import SURFACE_FORMAT, standalone
from openapi2mcp.load.reading import parse_bytes
from openapi2mcp.render.actions import ACTIONS

SPEC = """\
openapi: 3.1.0
info: {title: Shop, version: "1.0"}
servers: [{url: "https://shop.example.com"}]
paths:
  /items:
    get:
      operationId: listItems
      responses: {"200": {description: ok}}
"""
SPEC_URL = "https://shop.example.com/openapi.yaml"
RUN_URL = "https://github.com/alice/shop-mcp/actions/runs/42"
# names the openapi2mcp that was installed (the one these steps run)
PREAMBLE = (
    f"The OpenAPI document at {SPEC_URL} changed: this pull request regenerates the MCP server "
    f"with openapi2mcp {__version__}, and the generated tests pass.\n"
)
TOOLS = 1500
GITHUB_BODY_LIMIT = 65_536


def surface(version: str) -> dict[str, Any]:
    """Each tool loses its own argument (breaking) and changes its title (compatible)."""
    items = []
    for i in range(TOOLS):
        props = {"query": {"type": "string"}}
        if version == "1.0":
            props[f"field_{i:04}"] = {"type": "string"}
        schema = {"type": "object", "properties": props}
        title = f"Tool {i} v{version}"
        items.append(
            {"kind": "tool", "name": f"tool_{i:04}", "title": title, "inputSchema": schema}
        )
    return {"format": SURFACE_FORMAT, "server": "shop-mcp", "version": version, "items": items}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("workflow")
    (where / "shop.yaml").write_text(SPEC)
    out = where / "shop-mcp"
    args = ["generate", str(where / "shop.yaml"), "-o", str(out), "--ci-workflow"]
    result = CliRunner().invoke(main, [*args, "--spec-url", SPEC_URL])
    assert result.exit_code == 0, result.output
    return out


def workflow(package: Path) -> dict[str, Any]:
    path = package / ".github/workflows/regenerate.yml"
    document: dict[str, Any] = parse_bytes(path.read_bytes(), path.name)
    return document


def step(document: dict[str, Any], name: str) -> dict[str, Any]:
    steps: list[dict[str, Any]] = document["jobs"]["regenerate"]["steps"]
    (found,) = [s for s in steps if s["name"] == name]
    return found


def run_step(
    document: dict[str, Any], name: str, repo: Path, runner_temp: Path, cwd: Path | None = None
) -> str:
    """Run one ``run:`` step as GitHub Actions does (in ``cwd``, by default the checkout); its
    standard output."""
    script = runner_temp / "step.sh"
    script.write_text(step(document, name)["run"])
    env = {
        **{k: str(v) for k, v in document["env"].items()},
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "RUNNER_TEMP": str(runner_temp),
        "GITHUB_WORKSPACE": str(repo),
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": "alice/shop-mcp",
        "GITHUB_RUN_ID": "42",
    }
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        cwd=cwd or repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def uploaded(document: dict[str, Any], runner_temp: Path) -> list[str]:
    """The files the upload step would find, after checking what it is told."""
    upload = step(document, "Keep the full report")
    assert upload["uses"] == f"actions/upload-artifact@{ACTIONS['actions/upload-artifact'].sha}"
    assert upload["with"]["name"] == "mcp-surface-diff"
    assert upload["with"]["if-no-files-found"] == "ignore"
    path = upload["with"]["path"].replace("${{ runner.temp }}", str(runner_temp))
    return sorted(p.name for p in Path(path).iterdir())


@pytest.mark.slow
def test_a_big_change_keeps_the_full_report_and_a_pull_request_body_that_fits(
    package: Path, tmp_path: Path
) -> None:
    old, new = surface("1.0"), surface("1.1")
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir()
    (runner_temp / "old-surface").mkdir()
    (runner_temp / "old-surface" / "mcp-surface.json").write_text(json.dumps(old))
    (package / "mcp-surface.json").write_text(json.dumps(new))
    document = workflow(package)
    assert run_step(document, "Describe the changes", package, runner_temp) == ""

    result = diff_surfaces(old, new)
    assert uploaded(document, runner_temp) == ["mcp-surface-diff.json", "mcp-surface-diff.md"]
    report = runner_temp / "mcp-surface-diff"
    assert (report / "mcp-surface-diff.json").read_text() == render_json(result)
    assert len(json.loads((report / "mcp-surface-diff.json").read_text())["changes"]) == 2 * TOOLS
    full = (report / "mcp-surface-diff.md").read_text()
    assert full == render_markdown(result, limit=None)
    assert len(full) > 150_000 and "Shortened" not in full

    body = (runner_temp / "pull-request.md").read_text()
    assert len(body) <= GITHUB_BODY_LIMIT
    assert body.startswith(PREAMBLE)
    where = f"in the `mcp-surface-diff` artifact of {RUN_URL}"
    assert body.endswith("\n\n" + render_markdown(result, full_report=where))
    # even the breaking rows do not all fit: those shown and those counted add up
    shown = re.findall(r"^\| argument `field_\d{4}` removed \| tool `tool_\d{4}` \|$", body, re.M)
    note = re.search(r"not shown here are (\d+) breaking changes \((\d+) rows\) and 1500 compatible"
                     r" changes \(1500 rows\)\. The full report is (.*)\.$", body, re.M)  # fmt: skip
    assert note is not None and 0 < len(shown) < TOOLS
    assert int(note[1]) == int(note[2]) == TOOLS - len(shown)
    assert note[3] == where
    assert "| title `Tool" not in body


def test_without_an_old_surface_there_is_nothing_to_compare_or_keep(
    package: Path, tmp_path: Path
) -> None:
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir()
    document = workflow(package)
    assert run_step(document, "Describe the changes", package, runner_temp) == ""
    assert uploaded(document, runner_temp) == []
    body = (runner_temp / "pull-request.md").read_text()
    assert body == PREAMBLE + "\n"


@pytest.mark.slow
def test_a_surface_that_cannot_be_compared_is_said_so(package: Path, tmp_path: Path) -> None:
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir()
    (runner_temp / "old-surface").mkdir()
    (runner_temp / "old-surface" / "mcp-surface.json").write_text(
        '{"items": "not a list", "format": 2}'
    )
    document = workflow(package)
    assert run_step(document, "Describe the changes", package, runner_temp) == ""
    assert uploaded(document, runner_temp) == []
    body = (runner_temp / "pull-request.md").read_text()
    assert body.endswith("\n\nopenapi2mcp diff could not compare the old and new MCP surfaces.\n")


@pytest.mark.slow
def test_a_compressed_old_surface_is_carried_over_and_compared(
    package: Path, tmp_path: Path
) -> None:
    """A big API's package has ``mcp-surface.json.gz``: the regenerate step keeps it, the report
    compares it with the new package's surface as it would a plain one."""
    repo = tmp_path / "repo"
    shutil.copytree(package, repo)
    (repo / "mcp-surface.json").unlink()
    old = surface("1.0")
    (repo / "mcp-surface.json.gz").write_bytes(gzip.compress(json.dumps(old).encode(), mtime=0))
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir()
    (runner_temp / "openapi-document").write_text(SPEC)
    document = workflow(repo)

    run_step(document, "Regenerate", repo, runner_temp, cwd=runner_temp)
    assert sorted(p.name for p in (runner_temp / "old-surface").iterdir()) == [
        "mcp-surface.json.gz"
    ]
    assert (repo / "mcp-surface.json").is_file() and not (repo / "mcp-surface.json.gz").exists()
    assert run_step(document, "Describe the changes", repo, runner_temp) == ""

    new = load_surface(str(repo / "mcp-surface.json"))
    result = diff_surfaces(standalone(old), new)
    assert result.counts()["removed"] == TOOLS and result.counts()["added"] == len(new["items"])
    report = runner_temp / "mcp-surface-diff"
    assert (report / "mcp-surface-diff.json").read_text() == render_json(result)
