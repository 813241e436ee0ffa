"""Who is awaited, the decision timer (docs/rulesets/voidlink.md §9) and the outcome (§10)."""

from __future__ import annotations

from engine.contract import Deadline, Outcome
from engine.rulesets.voidlink.model import State
from engine.rulesets.voidlink.model.commands import Timeout


def to_act(state: State) -> tuple[int, ...]:
    """The awaited seat; nobody once the match is over."""
    awaiting = state.awaiting
    return (awaiting.seat,) if awaiting is not None and state.result is None else ()


def deadline(state: State) -> Deadline | None:
    """§9: every decision runs for its ``timer_s``; expiry submits ``timeout{seat, seq}``."""
    awaiting = state.awaiting
    if awaiting is None or state.result is not None:
        return None
    return Deadline(seat=awaiting.seat, seconds=float(awaiting.timer_s), timeout=Timeout(awaiting.seat, awaiting.seq))


def outcome(state: State) -> Outcome | None:
    """§10: None while the match runs."""
    result = state.result
    return None if result is None else Outcome.two_seat(result.winner, result.reason)
