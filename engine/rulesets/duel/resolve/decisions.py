"""Opening a decision (duel.md §7.3): the next decision id goes to the seat that must answer."""

from __future__ import annotations

from engine.rulesets.duel.model.events import DecisionRequested, Event
from engine.rulesets.duel.model.state import DecisionKind, Details, State
from engine.tape import Tape


def request(tape: Tape[State, Event], seat: int, kind: DecisionKind, details: Details) -> None:
    """``DecisionRequested`` with the next decision id (§7.3)."""
    tape.emit(DecisionRequested(decision_id=tape.state.next_decision_id, seat=seat, kind=kind, details=details))
