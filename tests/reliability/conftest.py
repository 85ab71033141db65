"""Reliability tests: prints the figures they measured in a closing summary section."""

from __future__ import annotations

import pytest

from tests.reliability.kit import FIGURES


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not FIGURES:
        return
    terminalreporter.section("reliability figures")
    for section in sorted(FIGURES):
        terminalreporter.write_line(f"[{section}]")
        for line in FIGURES[section]:
            terminalreporter.write_line(f"  {line}")
