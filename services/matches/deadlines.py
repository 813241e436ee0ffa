"""Where a match's deadlines stand, folded from the times its commands were recorded.

The ruleset says who is on the clock after each command (``Ruleset.deadline``); when that deadline began, and
what is left of a paused one, follows from the recorded times alone. Folding them, not timing them in memory,
gives every instance that loads a match, and a restarted one, the same expiry: a deadline kept over several
commands keeps its first expiry, and a paused turn clock keeps what was left of it.

A deadline is identified by its seat and timeout command. One that ``pauses`` keeps what was left while
another one runs and resumes with it; any other starts afresh each time it begins.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

import msgspec

from engine.contract import Deadline, Ruleset
from engine.match import Match, apply, encode


class Deadlines(msgspec.Struct, frozen=True):
    """The running deadline (none: ``expires_at`` None): its seat, timeout command (JSON), budget and expiry;
    and the seconds left of paused ones."""

    seat: int | None = None
    timeout: bytes = b""
    seconds: float = 0.0
    expires_at: datetime | None = None
    pauses: bool = False
    paused: tuple[tuple[bytes, float], ...] = ()
    """(key, seconds left), in the order they were paused: the same bytes on every instance."""

    @property
    def key(self) -> bytes:
        """What identifies a deadline: its seat and timeout command."""
        return _key(self.seat, self.timeout)


NONE = Deadlines()


def running(ruleset: Ruleset, state: Any) -> Deadline | None:
    """The deadline of a match in ``state``: none once it has ended, nor while it is seating (no state yet)."""
    if state is None:
        return None
    return ruleset.deadline(state) if ruleset.outcome(state) is None else None


def _key(seat: int | None, timeout: bytes) -> bytes:
    return f"{seat}|".encode() + timeout


def advanced(current: Deadlines, deadline: Deadline | None, at: datetime) -> Deadlines:
    """The deadlines once a command recorded at ``at`` left the match with ``deadline`` running."""
    if deadline is None:
        return NONE
    timeout = encode(deadline.timeout)
    key = _key(deadline.seat, timeout)
    if key == current.key:
        return current
    paused = dict(current.paused)
    if current.pauses and current.expires_at is not None:
        paused[current.key] = max(0.0, (current.expires_at - at).total_seconds())
    left = paused.pop(key, deadline.seconds)
    expires_at = at + timedelta(seconds=left)
    return Deadlines(deadline.seat, timeout, deadline.seconds, expires_at, deadline.pauses, tuple(paused.items()))


def folded(
    ruleset: Ruleset, match: Match, deadlines: Deadlines, commands: Iterable[tuple[Sequence[Any], datetime]]
) -> tuple[Match, Deadlines]:
    """``match`` and ``deadlines`` after each command's events (decoded) and the time it was recorded."""
    for events, at in commands:
        match = apply(ruleset, match, events)
        deadlines = advanced(deadlines, running(ruleset, match.state), at)
    return match, deadlines
