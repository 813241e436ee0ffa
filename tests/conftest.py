"""Suite-wide rules: with DUELHALL_REQUIRE_POSTGRES=1 (CI), a run in which no PostgreSQL test passed fails;
with DUELHALL_REQUIRE_BROWSER=1, so does a run in which no browser test passed."""

from __future__ import annotations

import os

import pytest

_NAMES = {"postgres": ("PostgreSQL", "DUELHALL_REQUIRE_POSTGRES"), "browser": ("browser", "DUELHALL_REQUIRE_BROWSER")}
"""Markers whose tests a run can be required to pass: (what they need, the variable that requires them)."""
REQUIRED = {marker: os.environ.get(variable) == "1" for marker, (_, variable) in _NAMES.items()}
_passed: dict[str, list[str]] = {marker: [] for marker in _NAMES}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.passed:
        for marker, passed in _passed.items():
            if marker in report.keywords:
                passed.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    for marker, required in REQUIRED.items():
        if required and session.testscollected and not _passed[marker] and exitstatus == 0:
            session.exitstatus = 1
            reporter = session.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                name, variable = _NAMES[marker]
                reporter.write_line(f"FAILED: {variable}=1 but no {name} test passed", red=True)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for marker, (name, _) in _NAMES.items():
        terminalreporter.write_line(f"{name} tests passed: {len(_passed[marker])}")
