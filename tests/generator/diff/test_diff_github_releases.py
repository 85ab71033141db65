"""`openapi2mcp diff` between two real GitHub releases fits a pull-request body and loses nothing.

``@octokit/openapi`` 22.0.0 and 23.0.2 (GitHub's published description, ~1,100 operations each) are
installed from npm once into a git-ignored cache, each side is planned in memory exactly as ``diff``
plans a spec, and the Markdown report is checked against the complete JSON one: under the limit,
every breaking change in a row (or counted as left out when the limit is tighter), and the one field
change GitHub repeated across dozens of tools reported as one row.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from openapi2mcp.diff.compare import SurfaceDiff, diff_surfaces, load_surface
from openapi2mcp.diff.report import MARKDOWN_LIMIT, group_changes, render_json, render_markdown
from tests.kit.locks import installing

CACHE = Path(__file__).resolve().parents[3] / ".work" / "cache" / "github-releases"
RELEASES = ("22.0.0", "23.0.2")
SPEC_FILE = "node_modules/@octokit/openapi/generated/api.github.com.json"

pytestmark = [pytest.mark.node, pytest.mark.slow]


def fetch(version: str) -> Path:
    """GitHub's document from ``@octokit/openapi@version``, installed into the cache once."""
    prefix = CACHE / version
    spec = prefix / SPEC_FILE
    manifest = spec.parents[1] / "package.json"
    with installing(prefix):
        if spec.is_file() and json.loads(manifest.read_text())["version"] == version:
            return spec
        prefix.mkdir(parents=True, exist_ok=True)
        (prefix / "package.json").write_text('{"name": "github-releases", "private": true}\n')
        subprocess.run(
            ["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--silent",
             f"@octokit/openapi@{version}"],
            cwd=prefix,
            check=True,
            capture_output=True,
            timeout=600,
        )  # fmt: skip
    return spec


@pytest.fixture(scope="module")
def github_diff() -> SurfaceDiff:
    old, new = (load_surface(str(fetch(version))) for version in RELEASES)
    return diff_surfaces(old, new)


def rows(markdown: str, title: str) -> list[str]:
    """The table rows of one section of the report, header rows left out."""
    section = markdown.split(f"#### {title} changes\n")[1].split("\n#### ", maxsplit=1)[0]
    return [line for line in section.splitlines() if line.startswith("| ")][2:]


def row_message(group_message: str) -> str:
    return "| " + group_message.replace("|", "\\|") + " | "


def test_the_report_fits_a_pull_request_body_and_names_every_breaking_change(
    github_diff: SurfaceDiff,
) -> None:
    document = json.loads(render_json(github_diff))
    markdown = render_markdown(github_diff)
    assert len(markdown) <= MARKDOWN_LIMIT
    summary = markdown.splitlines()[2]
    breaking = document["summary"]["breaking"]
    assert summary == (
        # 23.0.2 adds Dependabot's variables, titled as Actions' are: both are told apart now,
        # a title change of 22 tools (titles.distinct_titles)
        f"**{breaking} breaking**, {document['summary']['compatible']} compatible (230 added, "
        "42 removed, 0 renamed, 358 changed)"
    )
    assert breaking == 172 == sum(c["severity"] == "breaking" for c in document["changes"])
    # nothing left out: every breaking change is in a row, each row once
    assert "Shortened" not in markdown and "Not shown here" not in markdown
    groups = group_changes(github_diff.breaking)
    assert sum(len(g.changes) for g in groups) == breaking
    shown = rows(markdown, "Breaking")
    assert len(shown) == len(groups)
    for row, group in zip(shown, groups, strict=True):
        assert row.startswith(row_message(group.message))
    # the change GitHub made in one schema, seen by 49 tools along several paths, is one row
    assert shown[0].startswith(
        "| output field `license.url` in schema `minimal-repository`: type string → null\\|string"
        " | 49 tools: `actions_get_workflow_run`, `actions_get_workflow_run_attempt`, "
    )
    assert shown[0].endswith(" and 44 more |")
    repeated = [
        c
        for c in github_diff.breaking
        if c.message.endswith("license.url`: type string → null|string")
    ]
    assert len(repeated) > 49  # some tools reach it along two paths: still one row, 49 tools
    assert rows(markdown, "Compatible")[0].startswith("| added | 152 tools: ")


@pytest.mark.parametrize(("limit", "cut"), [(20_000, "compatible"), (4_000, "breaking")])
def test_a_tighter_limit_counts_exactly_what_it_leaves_out(
    github_diff: SurfaceDiff, limit: int, cut: str
) -> None:
    markdown = render_markdown(github_diff, limit=limit, full_report="in the run's artifact")
    assert len(markdown) <= limit
    notes = []
    for title, changes in (
        ("Breaking", github_diff.breaking),
        ("Compatible", github_diff.compatible),
    ):
        groups, shown = group_changes(changes), rows(markdown, title)
        # the rows shown are the first ones, in order; the rest are counted
        for row, group in zip(shown, groups[: len(shown)], strict=True):
            assert row.startswith(row_message(group.message))
        hidden = groups[len(shown) :]
        if hidden:
            left_out = sum(len(g.changes) for g in hidden)
            notes.append(f"{left_out} {title.lower()} changes ({len(hidden)} rows)")
            assert f"_Not shown here: {notes[-1]}._" in markdown
    assert notes[0].split(" ")[1] == cut and rows(markdown, cut.title())
    note = (
        f"> **Shortened to {limit} characters** to fit a pull-request body: not shown here are "
        f"{' and '.join(notes)}. The full report is in the run's artifact."
    )
    assert note in markdown.splitlines()
