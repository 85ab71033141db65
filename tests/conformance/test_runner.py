"""The conformance runner's own logic: reading ``checks.json`` folders and judging a baseline.

These run without Node: they feed the runner result folders shaped like the suite's and check that
failures, warnings, stale entries and unscored scenarios are judged the way the suite judges them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conformance.runner import RevisionRun, judge, read_results


def _write(out: Path, scenario: str, checks: list[dict[str, Any]]) -> None:
    folder = out / f"server-{scenario}-2026-07-28T10-11-12-345Z"
    folder.mkdir(parents=True)
    (folder / "checks.json").write_text(json.dumps(checks), encoding="utf-8")


def _check(check_id: str, status: str, **details: Any) -> dict[str, Any]:
    return {"id": check_id, "status": status, "details": details}


def _run(out: Path, baseline: list[str], scored: set[str]) -> RevisionRun:
    run = RevisionRun("2026-07-28", 0, "", read_results(out, scored), baseline)
    judge(run)
    return run


def test_results_are_read_per_scenario_with_the_most_severe_status_per_check(
    tmp_path: Path,
) -> None:
    _write(
        tmp_path,
        "server-stateless",
        [
            _check("a", "SUCCESS"),
            _check("a", "FAILURE"),
            _check("b", "INFO"),
            _check("c", "SKIPPED"),
        ],
    )
    (tmp_path / "not-a-result").mkdir()

    results = read_results(tmp_path, {"server-stateless"})

    result = results["server-stateless"]
    assert list(results) == ["server-stateless"]
    assert result.scored
    assert result.counts == {"SUCCESS": 1, "FAILURE": 1, "INFO": 1, "SKIPPED": 1}
    assert result.failed_checks == ("a",)
    assert result.verdicts == {"a": "FAILURE", "c": "SKIPPED"}


def test_an_unlisted_failure_or_warning_is_unexpected(tmp_path: Path) -> None:
    _write(tmp_path, "tools-list", [_check("tools-list", "FAILURE")])
    _write(tmp_path, "sep-2164-resource-not-found", [_check("sep-2164-data-uri", "WARNING")])

    run = _run(tmp_path, [], {"tools-list", "sep-2164-resource-not-found"})

    assert sorted(run.unexpected) == [
        "sep-2164-resource-not-found:sep-2164-data-uri",
        "tools-list:tools-list",
    ]
    assert not run.ok


def test_a_listed_scenario_that_passes_is_stale(tmp_path: Path) -> None:
    _write(tmp_path, "tools-call-with-progress", [_check("tools-call-with-progress", "SUCCESS")])
    _write(tmp_path, "prompts-get-simple", [_check("prompts-get-simple", "FAILURE")])

    run = _run(
        tmp_path,
        ["tools-call-with-progress", "prompts-get-simple"],
        {"tools-call-with-progress", "prompts-get-simple"},
    )

    assert run.stale == ["tools-call-with-progress"]
    assert run.unexpected == []


def test_per_check_entries_excuse_only_that_check(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "server-stateless",
        [
            _check("listed-and-failing", "FAILURE"),
            _check("listed-but-passing", "SUCCESS"),
            _check("listed-and-skipped", "SKIPPED"),
            _check("unlisted-failing", "FAILURE"),
        ],
    )
    baseline = [
        "server-stateless:listed-and-failing",
        "server-stateless:listed-but-passing",
        "server-stateless:listed-and-skipped",
    ]

    run = _run(tmp_path, baseline, {"server-stateless"})

    assert run.unexpected == ["server-stateless:unlisted-failing"]
    assert run.stale == ["server-stateless:listed-but-passing"]


def test_a_listed_check_that_no_longer_runs_in_a_passing_scenario_is_stale(
    tmp_path: Path,
) -> None:
    # e.g. a WARNING about a missing session id disappears once the server mints one
    _write(tmp_path, "server-sse-multiple-streams", [_check("streams-accepted", "SUCCESS")])
    _write(tmp_path, "server-stateless", [_check("other-check", "FAILURE")])
    baseline = [
        "server-sse-multiple-streams:server-sse-multiple-streams-session",
        "server-stateless:gone-check",
        "server-stateless:other-check",
    ]

    run = _run(tmp_path, baseline, {"server-sse-multiple-streams", "server-stateless"})

    assert run.stale == ["server-sse-multiple-streams:server-sse-multiple-streams-session"]
    assert run.unexpected == []


def test_unscored_scenarios_never_fail_the_run(tmp_path: Path) -> None:
    _write(tmp_path, "tasks-lifecycle", [_check("tasks-sync-tool-call", "FAILURE")])

    run = _run(tmp_path, [], {"tools-list"})

    assert not run.scenarios["tasks-lifecycle"].scored
    assert run.ok
