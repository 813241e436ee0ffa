"""Suite-wide rules: with DUELHALL_REQUIRE_POSTGRES=1 (CI), a run in which no PostgreSQL test passed fails;
with DUELHALL_REQUIRE_BROWSER=1, so does a run in which no browser test passed. The Quickstart server's ports
are held for the whole run, so that a test or benchmark that listens on a default port fails every time, not
only beside a running ``duelhall serve``."""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator

import pytest

QUICKSTART_PORTS = (50051, 8080)
"""``duelhall serve``'s default gRPC and HTTP ports."""

_NAMES = {"postgres": ("PostgreSQL", "DUELHALL_REQUIRE_POSTGRES"), "browser": ("browser", "DUELHALL_REQUIRE_BROWSER")}
"""Markers whose tests a run can be required to pass: (what they need, the variable that requires them)."""
REQUIRED = {marker: os.environ.get(variable) == "1" for marker, (_, variable) in _NAMES.items()}
_passed: dict[str, list[str]] = {marker: [] for marker in _NAMES}


@pytest.fixture(scope="session", autouse=True)
def quickstart_ports() -> Iterator[None]:
    """Holds the default ports as a running Quickstart server would (a port already held, by that server
    perhaps, stays so)."""
    with contextlib.ExitStack() as held:
        for port in QUICKSTART_PORTS:
            with contextlib.suppress(OSError):
                held.enter_context(socket.create_server(("127.0.0.1", port)))
        yield


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
