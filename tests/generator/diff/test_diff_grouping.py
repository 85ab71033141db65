"""`openapi2mcp diff --format markdown`: one row per distinct change, breaking first, shortened to fit.

Synthetic surfaces, exact Markdown: the same change in many items is one row naming how many and the
first few; one change inside a shared schema definition is one row however many tools and paths reach
it; rows are ordered breaking first, widest first; a report over the limit keeps rows in that order
and says what it left out and where the full report is. Text and JSON stay one entry per change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from openapi2mcp.cli import main
from openapi2mcp.diff.compare import diff_surfaces
from openapi2mcp.diff.report import group_changes, render_json, render_markdown, render_text
from openapi2mcp.diff.schemas import compare_schemas
from openapi2mcp.diff.surface import SURFACE_FORMAT

REF = {"$ref": "#/$defs/minimal-repository"}
# one output schema per tool, each reaching the shared definition along its own paths
SHAPES: dict[str, dict[str, Any]] = {
    "get_repo": REF,
    "list_repos": {"type": "array", "items": REF},
    "get_run": {"type": "object", "properties": {"repository": REF, "head_repository": REF}},
}


def repository(url_type: Any) -> dict[str, Any]:
    licence = {"type": "object", "properties": {"url": {"type": url_type}}}
    return {"type": "object", "properties": {"license": licence, "name": {"type": "string"}}}


def repo_tool(name: str, output: dict[str, Any], url_type: Any) -> dict[str, Any]:
    schema = {**output, "$defs": {"minimal-repository": repository(url_type)}}
    return {"kind": "tool", "name": name, "outputSchema": schema}


def side(version: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": SURFACE_FORMAT, "server": "gh-mcp", "version": version, "items": items}


def item(kind: str, name: str, **fields: Any) -> dict[str, Any]:
    return {"kind": kind, "name": name, **fields}


def test_one_change_in_a_shared_definition_is_one_row_for_every_tool_and_path() -> None:
    old = side("1", [repo_tool(n, s, "string") for n, s in SHAPES.items()])
    new = side("2", [repo_tool(n, s, ["null", "string"]) for n, s in SHAPES.items()])
    result = diff_surfaces(old, new)
    assert render_markdown(result) == (
        "### MCP surface: `gh-mcp` 1 → 2\n"
        "\n"
        "**4 breaking**, 0 compatible (0 added, 0 removed, 0 renamed, 3 changed)\n"
        "\n"
        "#### Breaking changes\n"
        "\n"
        "| Change | Where |\n"
        "| --- | --- |\n"
        "| output field `license.url` in schema `minimal-repository`: type string → null\\|string"
        " | 3 tools: `get_repo`, `get_run`, `list_repos` |\n"
    )
    # scripts still get every change at its own path
    assert [(c["name"], c["message"]) for c in json.loads(render_json(result))["changes"]] == [
        ("get_repo", "output field `license.url`: type string → null|string"),
        ("get_run", "output field `repository.license.url`: type string → null|string"),
        ("get_run", "output field `head_repository.license.url`: type string → null|string"),
        ("list_repos", "output field `[].license.url`: type string → null|string"),
    ]


def test_a_change_at_the_same_path_in_every_tool_keeps_its_path() -> None:
    names = ("get_repo", "get_fork")
    old = side("1", [repo_tool(n, REF, "string") for n in names])
    new = side("2", [repo_tool(n, REF, ["null", "string"]) for n in names])
    table = render_markdown(diff_surfaces(old, new)).split("| --- | --- |\n")[1]
    assert table == (
        "| output field `license.url`: type string → null\\|string"
        " | 2 tools: `get_fork`, `get_repo` |\n"
    )


def test_the_same_change_in_many_items_names_the_first_five_of_each_kind() -> None:
    def described(text: str) -> list[dict[str, Any]]:
        return [
            *(item("tool", f"tool_{i}", description=text) for i in range(1, 8)),
            *(item("resource_template", f"template_{i}", description=text) for i in (1, 2)),
            item("prompt", "workflow", description=text),
            item("resource", "catalogue", description=text),
        ]

    result = diff_surfaces(side("1", described("old")), side("2", described("new")))
    assert render_markdown(result) == (
        "### MCP surface: `gh-mcp` 1 → 2\n"
        "\n"
        "**0 breaking**, 11 compatible (0 added, 0 removed, 0 renamed, 11 changed)\n"
        "\n"
        "#### Compatible changes\n"
        "\n"
        "| Change | Where |\n"
        "| --- | --- |\n"
        "| description changed | 7 tools: `tool_1`, `tool_2`, `tool_3`, `tool_4`, `tool_5` and"
        " 2 more; resource `catalogue`; 2 resource templates: `template_1`, `template_2`;"
        " prompt `workflow` |\n"
    )
    # the text report stays one line per change
    assert render_text(result).splitlines()[4:7] == [
        "  tool tool_1: description changed",
        "  tool tool_2: description changed",
        "  tool tool_3: description changed",
    ]
    assert len(render_text(result).splitlines()) == 4 + 11


def test_rows_come_breaking_first_then_widest_first_then_in_change_order() -> None:
    def items(version: str) -> list[dict[str, Any]]:
        found = [item("tool", "zeta", title=f"Zeta {version}")]  # one item
        found += [item("tool", n, description=version) for n in ("c", "a", "b")]  # three
        found += [item("prompt", n, description=version) for n in ("p", "q")]  # two
        found.append(item("tool", "alpha", title=f"Alpha {version}"))  # one, before zeta by name
        if version == "1":
            found.append(item("resource", "gone"))
        return found

    text = render_markdown(diff_surfaces(side("1", items("1")), side("2", items("2"))))
    assert text.split("**1 breaking**, 7 compatible")[1] == (
        " (0 added, 1 removed, 0 renamed, 7 changed)\n"
        "\n"
        "#### Breaking changes\n"
        "\n"
        "| Change | Where |\n"
        "| --- | --- |\n"
        "| removed | resource `gone` |\n"
        "\n"
        "#### Compatible changes\n"
        "\n"
        "| Change | Where |\n"
        "| --- | --- |\n"
        "| description changed | 3 tools: `a`, `b`, `c`; 2 prompts: `p`, `q` |\n"
        "| title `Alpha 1` → `Alpha 2` | tool `alpha` |\n"
        "| title `Zeta 1` → `Zeta 2` | tool `zeta` |\n"
    )


def titled(version: str, breaking: int, compatible: int) -> list[dict[str, Any]]:
    """Tools whose hint turns riskier (breaking) or title changes (compatible): a row each."""
    found = [
        item("tool", f"risky_{i:02}", annotations={"destructiveHint": version == "2"})
        for i in range(breaking)
    ]
    found += [item("tool", f"tool_{i:02}", title=f"Tool {i} v{version}") for i in range(compatible)]
    return found


SHORTENED = (
    "### MCP surface: `gh-mcp` 1 → 2\n"
    "\n"
    "**2 breaking**, 12 compatible (0 added, 0 removed, 0 renamed, 14 changed)\n"
    "\n"
    "> **Shortened to {limit} characters** to fit a pull-request body: not shown here are"
    " {left_out}. The full report is in the `mcp-surface-diff` artifact of run 7.\n"
)


def test_a_long_report_keeps_rows_in_order_and_says_what_it_left_out() -> None:
    result = diff_surfaces(side("1", titled("1", 2, 12)), side("2", titled("2", 2, 12)))
    full = render_markdown(result, limit=None)
    assert len(full) == 1004 and render_markdown(result) == full
    where = "in the `mcp-surface-diff`\n artifact  of run 7"  # one line, spaces collapsed

    text = render_markdown(result, limit=800, full_report=where)
    assert len(text) == 750
    assert text == SHORTENED.format(limit=800, left_out="9 compatible changes (9 rows)") + (
        "\n"
        "#### Breaking changes\n"
        "\n"
        "| Change | Where |\n"
        "| --- | --- |\n"
        "| destructiveHint false → true | 2 tools: `risky_00`, `risky_01` |\n"
        "\n"
        "#### Compatible changes\n"
        "\n"
        "<details><summary>12 compatible changes in 12 rows</summary>\n"
        "\n"
        "| Change | Where |\n"
        "| --- | --- |\n"
        "| title `Tool 0 v1` → `Tool 0 v2` | tool `tool_00` |\n"
        "| title `Tool 1 v1` → `Tool 1 v2` | tool `tool_01` |\n"
        "| title `Tool 2 v1` → `Tool 2 v2` | tool `tool_02` |\n"
        "\n"
        "_Not shown here: 9 compatible changes (9 rows)._\n"
        "\n"
        "</details>\n"
    )


def test_when_even_the_breaking_rows_do_not_fit_they_are_counted() -> None:
    result = diff_surfaces(side("1", titled("1", 2, 12)), side("2", titled("2", 2, 12)))
    where = "in the `mcp-surface-diff` artifact of run 7"
    left_out = "2 breaking changes (1 row) and 12 compatible changes (12 rows)"
    text = render_markdown(result, limit=480, full_report=where)
    assert len(text) == 464
    assert text == SHORTENED.format(limit=480, left_out=left_out) + (
        "\n"
        "#### Breaking changes\n"
        "\n"
        "_Not shown here: 2 breaking changes (1 row)._\n"
        "\n"
        "#### Compatible changes\n"
        "\n"
        "_Not shown here: 12 compatible changes (12 rows)._\n"
    )
    # below what the heading and the note need, the note is still there
    tiny = render_markdown(result, limit=100, full_report=where)
    assert tiny == text.replace("480 characters", "100 characters")


def test_groups_account_for_every_change() -> None:
    old = side("1", [repo_tool(n, s, "string") for n, s in SHAPES.items()] + titled("1", 3, 4))
    new = side(
        "2", [repo_tool(n, s, ["null", "string"]) for n, s in SHAPES.items()] + titled("2", 3, 4)
    )
    result = diff_surfaces(old, new)
    groups = group_changes(result.changes)
    assert [(g.severity, len(g.items), len(g.changes)) for g in groups] == [
        ("breaking", 3, 4),
        ("breaking", 3, 3),
        *[("compatible", 1, 1)] * 4,
    ]
    assert sorted(map(repr, (c for g in groups for c in g.changes))) == sorted(
        map(repr, result.changes)
    )


def write_surface(path: Path, document: dict[str, Any]) -> str:
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_command_line_length_and_where_the_full_report_is(tmp_path: Path) -> None:
    old = write_surface(tmp_path / "old.json", side("1", titled("1", 2, 12)))
    new = write_surface(tmp_path / "new.json", side("2", titled("2", 2, 12)))
    markdown = ["diff", old, new, "--format", "markdown", "--fail-on", "never"]
    where = ["--full-report", "in the `mcp-surface-diff` artifact of run 7"]
    result = CliRunner().invoke(main, [*markdown, "--max-length", "480", *where])
    assert result.exit_code == 0
    assert result.stdout.startswith(
        SHORTENED.format(
            limit=480, left_out="2 breaking changes (1 row) and 12 compatible changes (12 rows)"
        )
    )
    # by default the note says how to get everything
    result = CliRunner().invoke(main, [*markdown, "--max-length", "800"])
    assert (
        "> **Shortened to 800 characters** to fit a pull-request body: not shown here are 9"
        " compatible changes (9 rows). The full report is what `openapi2mcp diff` prints with"
        " `--max-length 0` (or with `--format json`).\n"
    ) in result.stdout
    unlimited = CliRunner().invoke(main, [*markdown, "--max-length", "0"]).stdout
    assert len(unlimited) == 1004 and "Shortened" not in unlimited
    # the limit is for Markdown: text and JSON stay complete
    text = CliRunner().invoke(main, ["diff", old, new, "--max-length", "500"]).stdout
    assert len(text.splitlines()) == 2 + 2 + 2 + 2 + 12
    negative = CliRunner().invoke(main, [*markdown, "--max-length", "-1"])
    assert negative.exit_code == 2 and "-1 is not in the range x>=0" in negative.stderr


def shared(old: Any, new: Any, direction: str) -> list[tuple[str, str]]:
    found = compare_schemas(old, new, direction)  # type: ignore[arg-type]
    return [(f.message, f.shared) for f in found]


def test_a_change_inside_a_definition_is_also_worded_relative_to_it() -> None:
    def output(user: dict[str, Any]) -> dict[str, Any]:
        owner = {"$ref": "#/$defs/simple-user"}
        inline = {"type": "object", "properties": {"id": user["properties"]["id"]}}
        props = {"owner": owner, "inline": inline}
        return {"type": "object", "properties": props, "$defs": {"simple-user": user}}

    user = {"type": "object", "properties": {"id": {"type": "integer"}}}
    nullable = {"type": ["null", "object"], "properties": {"id": {"type": "string"}}}
    assert shared(output(user), output(nullable), "output") == [
        ("output field `owner`: type object → null|object", "schema `simple-user` in the output"
         ": type object → null|object"),
        ("output field `owner.id`: type integer → string", "output field `id` in schema"
         " `simple-user`: type integer → string"),
        ("output field `inline.id`: type integer → string", ""),
    ]  # fmt: skip

    def body(issue: dict[str, Any]) -> dict[str, Any]:
        props = {"body": {"$ref": "#/$defs/issue"}}
        return {"type": "object", "properties": props, "$defs": {"issue": issue}}

    before = {"type": "object", "properties": {"title": {"type": "string"}}}
    after = {**before, "required": ["title"], "properties": {"title": {}, "due": {}}}
    assert shared(body(before), body(after), "input") == [
        ("argument `body.title` is now required", "argument `title` in schema `issue` is now required"),
        ("argument `body.title`: type string → any", "argument `title` in schema `issue`: type string → any"),
        ("new optional argument `body.due`", "new optional argument `due` in schema `issue`"),
    ]  # fmt: skip
