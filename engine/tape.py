"""The events a command has decided so far and the state they lead to.

Resolution folds as it goes, so later steps read the state after earlier events and decide never repeats
evolve's arithmetic. Each ruleset binds its own fold: ``Tape(state, evolve)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")
E = TypeVar("E")


class Tape(Generic[S, E]):
    """Events decided so far, and the state they lead to."""

    def __init__(self, state: S, evolve: Callable[[S, E], S]) -> None:
        self.state = state
        self.events: list[E] = []
        self._evolve = evolve

    def emit(self, event: E) -> None:
        self.events.append(event)
        self.state = self._evolve(self.state, event)
