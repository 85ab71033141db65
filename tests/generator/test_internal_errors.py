"""An unexpected exception in the generator is one line and exit 3, never a traceback.

Regression (issue 15): real specs made ``generate`` print Python tracebacks. Now an exception while
one operation is parsed, classified or rendered skips that operation with an ``op-skipped`` warning
(the rest is generated), and any other becomes ``internal error at <JSON pointer>: …; please report``
with exit code 3. The bugs are simulated by patching a stage to raise.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest
from click.testing import CliRunner

from openapi2mcp.cli import main
from openapi2mcp.generate import GenerateOptions, generate
from openapi2mcp.ir import parse
from openapi2mcp.ir.operation_parts import response as real_response
from openapi2mcp.plan import classify
from openapi2mcp.render import package as render
from tests.catalogs import catalog_from_files

SPEC = """\
openapi: 3.0.3
info: {title: Fragile, version: "1.0"}
servers: [{url: "https://api.example.com"}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Key}
paths:
  /bad: {post: {operationId: bad, responses: {"204": {description: ok}}}}
  /good: {post: {operationId: good, responses: {"204": {description: ok}}}}
"""


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "openapi.yaml"
    path.write_text(dedent(SPEC))
    return path


def _tool_names(files: dict[str, str]) -> list[str]:
    return [
        tool["name"] for tool in catalog_from_files(files, "src/fragile_mcp/catalog.json")["tools"]
    ]


def _skips(report: Any) -> list[tuple[str, str, str, str]]:
    return [
        (d.level, d.code, d.pointer, d.message)
        for d in report.diagnostics
        if d.code == "op-skipped"
    ]


def test_a_bug_while_parsing_one_operation_skips_only_it(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(ctx: Any, responses: Any, at: Any) -> Any:
        if "~1bad" in at.pointer:
            raise RuntimeError("boom")
        return real_response(ctx, responses, at)

    monkeypatch.setattr(parse, "response", broken)
    result = generate(str(spec), GenerateOptions())
    assert _tool_names(result.files) == ["good"]
    assert _skips(result.report) == [
        (
            "warning",
            "op-skipped",
            "#/paths/~1bad/post",
            "operation skipped: internal error (RuntimeError: boom); please report",
        )
    ]


def test_a_bug_while_classifying_one_operation_skips_only_it(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = classify._tool

    def broken(api: Any, op: Any, *args: Any) -> Any:
        if op.key == "bad":
            raise KeyError("missing")
        return real(api, op, *args)

    monkeypatch.setattr(classify, "_tool", broken)
    result = generate(str(spec), GenerateOptions())
    assert _tool_names(result.files) == ["good"]
    assert _skips(result.report) == [
        (
            "warning",
            "op-skipped",
            "#/paths/~1bad/post",
            "operation skipped: internal error (KeyError: 'missing'); please report",
        )
    ]
    # the failed attempt leaves no diagnostics behind: each one is reported once
    pointers = [(d.code, d.pointer) for d in result.report.diagnostics]
    assert len(pointers) == len(set(pointers))


def test_a_bug_while_rendering_one_operation_skips_only_it(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = render._function

    def broken(tool: Any, *args: Any) -> Any:
        if tool.name == "bad":
            raise ValueError("cannot render")
        return real(tool, *args)

    monkeypatch.setattr(render, "_function", broken)
    result = generate(str(spec), GenerateOptions())
    assert _tool_names(result.files) == ["good"]
    assert "async def bad(" not in result.files["src/fragile_mcp/operations.py"]
    assert _skips(result.report) == [
        (
            "warning",
            "op-skipped",
            "#/paths/~1bad/post",
            "operation skipped: internal error (ValueError: cannot render); please report",
        )
    ]


def test_a_bug_outside_any_operation_is_one_line_and_exit_3(
    spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(files: Any) -> Any:
        raise RuntimeError("formatter\nexploded")

    monkeypatch.setattr("openapi2mcp.generate.format_tree", broken)
    result = CliRunner().invoke(main, ["generate", str(spec), "-o", str(tmp_path / "out")])
    assert result.exit_code == 3
    assert result.output == "internal error at #: RuntimeError: formatter exploded; please report\n"
    assert not (tmp_path / "out").exists()


def test_an_internal_error_names_the_place_it_happened(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(resolver: Any, name: str, value: Any, at: Any) -> Any:
        raise TypeError("unexpected")

    monkeypatch.setattr(parse, "_security_scheme", broken)
    for command in ("generate", "inspect"):
        result = CliRunner().invoke(main, [command, str(spec)])
        assert (result.exit_code, result.output) == (
            3,
            "internal error at #/components/securitySchemes/key: TypeError: unexpected;"
            " please report\n",
        )


def test_a_bug_in_every_operation_gives_up_with_one_line(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any) -> Any:
        raise RuntimeError("always")

    monkeypatch.setattr(classify, "_tool", broken)
    result = CliRunner().invoke(main, ["generate", str(spec)])
    # both operations are skipped, one after the other, then no tool is left
    assert result.exit_code == 2
    assert result.output.splitlines()[-3:] == [
        "warning[op-skipped] at #/paths/~1bad/post: operation skipped: internal error"
        " (RuntimeError: always); please report",
        "warning[op-skipped] at #/paths/~1good/post: operation skipped: internal error"
        " (RuntimeError: always); please report",
        "error: no tool can be generated: 2 operations skipped (see the warnings above)",
    ]
