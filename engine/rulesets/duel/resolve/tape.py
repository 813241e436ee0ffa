"""The events decided so far and the state they lead to (STYLE.md §4): resolution folds as it goes."""

from __future__ import annotations

import engine.tape
from engine.rulesets.duel.evolve import evolve
from engine.rulesets.duel.model.events import DecisionRequested, Event
from engine.rulesets.duel.model.state import DecisionKind, Details, State


class Tape(engine.tape.Tape[State, Event]):
    """The engine's tape bound to this ruleset's fold, with the duel's decision requests."""

    def __init__(self, state: State) -> None:
        super().__init__(state, evolve)

    @property
    def ended(self) -> bool:
        return self.state.ended

    def request(self, seat: int, kind: DecisionKind, details: Details) -> None:
        """Opens a decision with the next decision id (§7.3 DecisionRequested)."""
        decision_id = self.state.next_decision_id
        self.emit(DecisionRequested(decision_id=decision_id, seat=seat, kind=kind, details=details))
