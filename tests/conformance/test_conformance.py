"""The official MCP conformance suite against the server generated from ``samples/conformance``.

One module-scoped run covers both revisions (2026-07-28 and 2025-11-25) against one generated server
over Streamable HTTP. A revision fails on any scored scenario that fails without being listed in its
``expected-failures-<revision>.yaml`` and on any listed entry that now passes (the suite's own
rule). The fixture tools must really reach the fake API: ``tools-call-simple-text`` and
``tools-call-error`` would also pass on a server that merely answers unknown tools with ``isError``.
Needs ``scripts/install_node.sh`` to have installed Node 22 and the suite into ``.tools/node``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.conformance.runner import (
    REVISIONS,
    SUITE_DIR,
    TOOLS_BIN,
    ConformanceRun,
    RevisionRun,
    expected_failures_file,
    run_conformance,
    summary,
)

pytestmark = pytest.mark.node
ANSWERED = "Tool test_tool_with_logging: POST /tools/logging answered 200 OK"


@pytest.fixture(scope="module")
def conformance(tmp_path_factory: pytest.TempPathFactory) -> ConformanceRun:
    assert (TOOLS_BIN / "conformance").exists(), (
        "the MCP conformance suite is missing: run scripts/install_node.sh"
    )
    return run_conformance(REVISIONS, tmp_path_factory.mktemp("conformance"))


def _revision(run: ConformanceRun, revision: str) -> RevisionRun:
    return next(r for r in run.revisions if r.revision == revision)


@pytest.mark.parametrize("revision", REVISIONS)
def test_only_baselined_scenarios_fail(conformance: ConformanceRun, revision: str) -> None:
    run = _revision(conformance, revision)
    assert not run.unexpected and not run.stale, summary(run)
    assert run.exit_code == 0, run.output[-4000:]


@pytest.mark.parametrize("revision", REVISIONS)
def test_every_required_scenario_ran(conformance: ConformanceRun, revision: str) -> None:
    required = yaml.safe_load((SUITE_DIR / "requirements" / f"{revision}.yaml").read_text("utf-8"))
    ran = {result.scenario for result in _revision(conformance, revision).scored()}
    assert ran == set(required["server"])


@pytest.mark.parametrize("revision", REVISIONS)
def test_baseline_names_only_required_scenarios(revision: str) -> None:
    required = yaml.safe_load((SUITE_DIR / "requirements" / f"{revision}.yaml").read_text("utf-8"))
    entries = yaml.safe_load(Path(expected_failures_file(revision)).read_text("utf-8"))["server"]
    assert {str(entry).split(":", 1)[0] for entry in entries} <= set(required["server"])


@pytest.mark.parametrize("revision", REVISIONS)
def test_simple_text_fixture_answers_for_real(conformance: ConformanceRun, revision: str) -> None:
    result = _revision(conformance, revision).scenarios["tools-call-simple-text"]
    assert result.passed
    reply = result.details("tools-call-simple-text")["result"]
    assert reply.get("isError") is not True
    assert reply["content"] == [
        {"type": "text", "text": "This is a simple text response for testing."}
    ]


@pytest.mark.parametrize("revision", REVISIONS)
def test_error_fixture_is_an_upstream_failure(conformance: ConformanceRun, revision: str) -> None:
    result = _revision(conformance, revision).scenarios["tools-call-error"]
    assert result.passed
    reply = result.details("tools-call-error")["result"]
    assert reply["isError"] is True
    assert reply["content"] == [
        {
            "type": "text",
            "text": "Upstream returned 500 Internal Server Error: "
            "This tool intentionally returns an error for testing",
        }
    ]


def test_fixture_operations_reached_the_fake_api(conformance: ConformanceRun) -> None:
    calls = set(conformance.upstream_calls)
    expected = {
        ("POST", "/tools/simple-text", 200),
        ("POST", "/tools/image", 200),
        ("POST", "/tools/audio", 200),
        ("POST", "/tools/embedded-resource", 200),
        ("POST", "/tools/error", 500),
        ("POST", "/tools/logging", 200),
        ("POST", "/tools/logging-tool", 200),
        ("GET", "/static-text", 200),
        ("GET", "/static-binary", 200),
        ("GET", "/template/123/data", 200),
    }
    assert expected <= calls, sorted(expected - calls)


def test_logging_fixture_logs_its_real_upstream_call(conformance: ConformanceRun) -> None:
    result = _revision(conformance, "2025-11-25").scenarios["tools-call-with-logging"]
    assert result.passed
    logs = result.details("tools-call-with-logging")["logs"]
    assert {"level": "info", "logger": "test-mcp", "data": ANSWERED} in logs
    assert [entry["level"] for entry in logs] == ["info", "debug", "info", "debug", "info"]


@pytest.mark.parametrize("revision", REVISIONS)
def test_prompt_fixtures_come_from_the_sample_config(
    conformance: ConformanceRun, revision: str
) -> None:
    scenarios = _revision(conformance, revision).scenarios
    with_args = scenarios["prompts-get-with-args"].details("prompts-get-with-args")["messages"]
    assert with_args == [
        {
            "role": "user",
            "content": {
                "type": "text",
                "text": "Prompt with arguments: arg1='testValue1', arg2='testValue2'",
            },
        }
    ]
    embedded = scenarios["prompts-get-embedded-resource"].details("prompts-get-embedded-resource")
    assert embedded["messages"][0]["content"]["resource"] == {
        "uri": "test://example-resource",
        "mimeType": "text/plain",
        "text": "Embedded resource content for testing.",
    }
