"""Turn timers on a hand-moved clock, with deadlines folded as a hot match folds them: a kept deadline keeps
its expiry, a new one runs from the command that began it, a pausing one resumes with what was left, and an
expiry submits the timeout as the system."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from engine.contract import SYSTEM, Deadline, Outcome
from eventstore import DatabaseError
from services.matches.deadlines import NONE, advanced, running
from services.matches.timers import RETRY, Timers
from tests.services.clock import ManualClock


class Clocked:
    """Just enough of a hot match for the timers: a ruleset whose deadline and outcome the test sets."""

    def __init__(self, clock: ManualClock) -> None:
        self.match_id, self.version = "m1", 1
        self.state = object()  # the ruleset stand-in reads no state; None would be a match still seating
        self.deadline: Deadline | None = None
        self.outcome: Outcome | None = None
        self.deadlines = NONE
        self.ruleset = SimpleNamespace(deadline=lambda state: self.deadline, outcome=lambda state: self.outcome)

    def moved(self, deadline: Deadline | None, at: datetime, outcome: Outcome | None = None) -> None:
        """A command recorded at ``at`` left this deadline (and outcome) running, as ``HotMatch.advance`` folds it."""
        self.deadline, self.outcome = deadline, outcome
        self.deadlines = advanced(self.deadlines, running(self.ruleset, self.state), at)  # type: ignore[arg-type]


class Submissions:
    def __init__(self) -> None:
        self.made: list[tuple[str, Any, bytes, str]] = []

    async def submit(self, match_id: str, actor: Any, raw: bytes, command_id: str = "") -> object:
        self.made.append((match_id, actor, raw, command_id))
        return None


def make() -> tuple[Timers, Any, ManualClock, Submissions]:
    clock = ManualClock()
    submissions = Submissions()
    return Timers(submissions, clock), Clocked(clock), clock, submissions


async def test_a_new_deadline_runs_from_the_last_event_and_a_kept_one_stays() -> None:
    timers, hot, clock, _ = make()
    turn = Deadline(seat=0, seconds=30, timeout={"type": "timeout", "turn": 1})
    hot.moved(turn, clock.now() - timedelta(seconds=10))
    timers.arm(hot)
    assert timers.due("m1") == 20
    clock.advance(5)
    hot.moved(turn, clock.now())
    timers.arm(hot)
    assert timers.due("m1") == 15, "the same deadline keeps its expiry"
    hot.moved(turn, clock.now(), Outcome(winners=(0,), losers=(1,), draw=False, reason="test"))
    timers.arm(hot)
    assert timers.due("m1") is None
    timers.close()


async def test_a_pausing_deadline_resumes_with_what_was_left() -> None:
    timers, hot, clock, _ = make()
    turn = Deadline(seat=0, seconds=180, timeout={"type": "timeout", "scope": "turn"}, pauses=True)
    decision = Deadline(seat=1, seconds=30, timeout={"type": "timeout", "scope": "decision"})
    hot.moved(turn, clock.now() - timedelta(seconds=100))
    timers.arm(hot)
    assert timers.due("m1") == 80
    clock.advance(10)
    hot.moved(decision, clock.now())
    timers.arm(hot)
    assert timers.due("m1") == 30
    clock.advance(20)
    hot.moved(turn, clock.now())
    timers.arm(hot)
    assert timers.due("m1") == 70, "the turn clock resumes, it does not restart at 180"
    timers.close()


async def test_a_deadline_that_does_not_pause_starts_afresh() -> None:
    timers, hot, clock, _ = make()
    turn = Deadline(seat=0, seconds=180, timeout={"type": "timeout", "scope": "turn"})
    decision = Deadline(seat=1, seconds=30, timeout={"type": "timeout", "scope": "decision"})
    hot.moved(turn, clock.now() - timedelta(seconds=100))
    timers.arm(hot)
    hot.moved(decision, clock.now())
    timers.arm(hot)
    hot.moved(turn, clock.now())
    timers.arm(hot)
    assert timers.due("m1") == 180
    timers.close()


async def test_an_expired_deadline_submits_its_timeout_as_the_system_once() -> None:
    timers, hot, clock, submissions = make()
    hot.moved(Deadline(seat=0, seconds=30, timeout={"type": "timeout", "turn": 1}), clock.now())
    timers.arm(hot)
    clock.advance(29.9)
    assert submissions.made == []
    clock.advance(0.2)
    assert timers.due("m1") is None
    await asyncio.sleep(0)  # one turn of the loop: the expiry's task runs
    assert submissions.made == [("m1", SYSTEM, b'{"type":"timeout","turn":1}', "timeout-1")]
    clock.advance(100)
    await asyncio.sleep(0)
    assert len(submissions.made) == 1
    timers.close()


class Flaky(Submissions):
    """The first submission meets a database fault."""

    async def submit(self, match_id: str, actor: Any, raw: bytes, command_id: str = "") -> object:
        self.made.append((match_id, actor, raw, command_id))
        if len(self.made) == 1:
            raise DatabaseError("database is locked")
        return None


async def test_a_timeout_the_store_cannot_take_is_submitted_again() -> None:
    clock, submissions = ManualClock(), Flaky()
    timers, hot = Timers(submissions, clock), Clocked(clock)
    hot.moved(Deadline(seat=0, seconds=30, timeout={"type": "timeout", "turn": 1}), clock.now())
    timers.arm(hot)
    clock.advance(30.1)
    await asyncio.sleep(0)  # one turn of the loop: the expiry's task runs and fails
    assert len(submissions.made) == 1
    clock.advance(RETRY + 0.1)
    await asyncio.sleep(0)
    assert [made[3] for made in submissions.made] == ["timeout-1", "timeout-1"]
    timers.close()
