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


def test_progress_told_as_a_count_learns_its_total_as_it_goes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The match list's catch-up tells events projected, of a head that may move on meanwhile."""
    monkeypatch.setattr(progress, "EVERY", 0.0)
    with Bar("match list: events") as bar:
        bar.reached(500, 1200)
        bar.reached(1300, 1300)
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["match list: events: 500 of 1,200", "match list: events: 1,300 of 1,300"]
