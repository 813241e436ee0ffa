"""The CLI's progress off a terminal: a line now and then in place of the bar."""

from __future__ import annotations

import pytest

from services.cli import progress
from services.cli.progress import Bar


def test_off_a_terminal_progress_is_written_as_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "EVERY", 0.0)
    with Bar("exporting ended matches") as bar:
        bar.total(2)
        bar.advance()
        bar.advance()
    lines = capsys.readouterr().err.splitlines()
    assert "exporting ended matches: 1 of 2" in lines and "exporting ended matches: 2 of 2" in lines
