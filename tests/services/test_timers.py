"""Turn timers: a kept deadline keeps its expiry, a new one runs from the last event, a pausing one resumes."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest

from engine.contract import Deadline, Outcome
from eventstore import DatabaseError
from services import timers as timers_module
from services.timers import Timers


class Clocked:
    """Just enough of a hot match for the timers: a ruleset whose deadline the test sets."""

    def __init__(self) -> None:
        self.match_id, self.version, self.state = "m1", 1, None
        self.deadline: Deadline | None = None
        self.outcome: Outcome | None = None
        self.last_event_at = datetime.now(UTC)
        self.ruleset = SimpleNamespace(deadline=lambda state: self.deadline)


def make() -> tuple[Timers, Any]:
    return Timers(SimpleNamespace(on_change=[])), Clocked()


async def test_a_new_deadline_runs_from_the_last_event_and_a_kept_one_stays() -> None:
    timers, hot = make()
    hot.deadline = Deadline(seat=0, seconds=30, timeout={"type": "timeout", "turn": 1})
    hot.last_event_at = datetime.now(UTC) - timedelta(seconds=10)
    timers.arm(hot)
    first = timers.due("m1")
    assert first is not None and 19 < first <= 20
    hot.last_event_at = datetime.now(UTC)
    timers.arm(hot)
    again = timers.due("m1")
    assert again is not None and again <= first
    hot.outcome = Outcome(winners=(0,), losers=(1,), draw=False, reason="test")
    timers.arm(hot)
    assert timers.due("m1") is None
    timers.close()


async def test_a_pausing_deadline_resumes_with_what_was_left() -> None:
    timers, hot = make()
    turn = Deadline(seat=0, seconds=180, timeout={"type": "timeout", "scope": "turn"}, pauses=True)
    decision = Deadline(seat=1, seconds=30, timeout={"type": "timeout", "scope": "decision"})
    hot.deadline = turn
    hot.last_event_at = datetime.now(UTC) - timedelta(seconds=100)
    timers.arm(hot)
    left = timers.due("m1")
    assert left is not None and 79 < left <= 80
    hot.deadline, hot.last_event_at = decision, datetime.now(UTC)
    timers.arm(hot)
    assert 29 < (timers.due("m1") or 0) <= 30
    hot.deadline, hot.last_event_at = turn, datetime.now(UTC)
    timers.arm(hot)
    resumed = timers.due("m1")
    assert resumed is not None and 79 < resumed <= left, "the turn clock resumes, it does not restart at 180"
    timers.close()


async def test_a_deadline_that_does_not_pause_starts_afresh() -> None:
    timers, hot = make()
    turn = Deadline(seat=0, seconds=180, timeout={"type": "timeout", "scope": "turn"})
    decision = Deadline(seat=1, seconds=30, timeout={"type": "timeout", "scope": "decision"})
    hot.deadline, hot.last_event_at = turn, datetime.now(UTC) - timedelta(seconds=100)
    timers.arm(hot)
    hot.deadline, hot.last_event_at = decision, datetime.now(UTC)
    timers.arm(hot)
    hot.deadline = turn
    timers.arm(hot)
    assert 179 < (timers.due("m1") or 0) <= 180
    timers.close()


async def test_a_timeout_the_store_cannot_take_is_submitted_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timers_module, "RETRY", 0.01)
    calls: list[str] = []
    stored = asyncio.Event()

    async def submit(match_id: str, actor: Any, raw: bytes, command_id: str) -> None:
        calls.append(command_id)
        if len(calls) == 1:
            raise DatabaseError("database is locked")
        stored.set()

    timers = Timers(SimpleNamespace(on_change=[], submit=submit))
    hot = Clocked()
    hot.deadline = Deadline(seat=0, seconds=1, timeout={"type": "timeout"})
    hot.last_event_at = datetime.now(UTC) - timedelta(seconds=5)
    timers.arm(hot)
    await asyncio.wait_for(stored.wait(), 5)
    assert calls == ["timeout-1", "timeout-1"]
    timers.close()
