"""The events decided so far and the state they lead to (STYLE.md §4): resolution folds as it goes."""

from __future__ import annotations

from engine.rulesets.duel.evolve import evolve
from engine.rulesets.duel.model.events import DecisionRequested, Event
from engine.rulesets.duel.model.state import DecisionKind, Details, State


class Tape:
    """Events decided so far, and the state they lead to."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    @property
    def ended(self) -> bool:
        return self.state.ended

    def request(self, seat: int, kind: DecisionKind, details: Details) -> None:
        """Opens a decision with the next decision id (§7.3 DecisionRequested)."""
        decision_id = self.state.next_decision_id
        self.emit(DecisionRequested(decision_id=decision_id, seat=seat, kind=kind, details=details))
