"""Who the duel waits on, its clocks and its result (duel.md §3.6, §9, §10)."""

from __future__ import annotations

from engine.contract import Deadline, Outcome
from engine.rulesets.duel.model.commands import Timeout
from engine.rulesets.duel.model.state import State


def to_act(state: State) -> tuple[int, ...]:
    """The acting seat (§3.6): the deciding seat while a decision is pending, else the turn player."""
    if state.ended:
        return ()
    if state.pending is not None:
        return (state.pending.seat,)
    return (state.turn_seat,)


def deadline(state: State) -> Deadline | None:
    """§9: the decision clock while a decision is pending, else the turn player's turn clock.

    ``settle`` leaves the turn player in its open state only while ``turn_expired`` is false.
    """
    if state.ended:
        return None
    options = state.options
    pending = state.pending
    if pending is not None:
        timeout = Timeout(pending.seat, "decision", pending.decision_id)
        return Deadline(pending.seat, float(options.decision_time_s), timeout)
    # §9: one budget per turn, paused while a decision is pending.
    turn = Timeout(state.turn_seat, "turn", state.turn)
    return Deadline(state.turn_seat, float(options.turn_time_s), turn, pauses=True)


def outcome(state: State) -> Outcome | None:
    """The result once ``MatchEnded`` was folded (§8.12, §10); reason = the conditions, comma-joined."""
    result = state.result
    if result is None:
        return None
    reason = ",".join(dict.fromkeys(r.condition for r in result.reasons))
    return Outcome.two_seat(None if result.outcome == "draw" else result.winner, reason)
