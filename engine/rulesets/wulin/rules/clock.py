"""The clock (wulin.md §9) and what the service reads between commands: who acts, the deadline, the outcome
(§10)."""

from __future__ import annotations

from engine.contract import Actor, Deadline, Outcome
from engine.rulesets.wulin.model import Event, State
from engine.rulesets.wulin.model.commands import Timeout
from engine.rulesets.wulin.model.events import ClockRestarted, PhaseStarted
from engine.rulesets.wulin.model.state import IN_PROGRESS
from engine.tape import Tape

CLOCKED = frozenset(
    {
        "use_card",
        "play_card",
        "discard_card",
        "flip_card",
        "attack",
        "defend",
        "no_defence",
        "block",
        "no_block",
        "choose_loss",
    }
)
"""§9.2: commands that restart the clock when their issuer holds it."""


def clock_seat(state: State) -> int:
    """§9.1: the pending decision's seat, else the active seat."""
    return state.pending.seat if state.pending is not None else state.active_seat


def restart_clock(tape: Tape[State, Event], before: State, actor: Actor, kind: str) -> None:
    """§9.2: one ``ClockRestarted`` after a command that moved the clock, unless the match ended."""
    after = tape.state
    if after.status != IN_PROGRESS:
        return
    seat = clock_seat(after)
    if (
        seat != clock_seat(before)
        or kind == "timeout"
        or (actor == seat and kind in CLOCKED)
        or any(type(e) is PhaseStarted for e in tape.events)
    ):
        seq = after.clock.seq + 1 if after.clock is not None else 1
        tape.emit(ClockRestarted(seat, seq, after.options.action_timer_s))


def to_act(state: State) -> tuple[int, ...]:
    """The seat that holds the clock while the match runs (§9.1)."""
    return (clock_seat(state),) if state.status == IN_PROGRESS else ()


def deadline(state: State) -> Deadline | None:
    """§9.1: the clock seat's countdown; expiry submits the system's ``timeout{clock_seq}``."""
    clock = state.clock
    if state.status != IN_PROGRESS or clock is None:
        return None
    return Deadline(seat=clock.seat, seconds=float(clock.duration_s), timeout=Timeout(clock.seq))


def outcome(state: State) -> Outcome | None:
    """§10: None while the match runs."""
    result = state.result
    return None if result is None else Outcome.two_seat(result.winner, result.reason)
