"""Suite-wide rules: with DUELHALL_REQUIRE_POSTGRES=1 (CI), a run in which no PostgreSQL test passed fails."""

from __future__ import annotations

import os

import pytest

REQUIRE_POSTGRES = os.environ.get("DUELHALL_REQUIRE_POSTGRES") == "1"
_passed_on_postgres: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.passed and "postgres" in report.keywords:
        _passed_on_postgres.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if REQUIRE_POSTGRES and session.testscollected and not _passed_on_postgres and exitstatus == 0:
        session.exitstatus = 1
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line("FAILED: DUELHALL_REQUIRE_POSTGRES=1 but no PostgreSQL test passed", red=True)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(f"PostgreSQL tests passed: {len(_passed_on_postgres)}")
