"""Scenario helpers shared by every ruleset's tests: one command decided and folded, or its refusal.

Each ruleset's ``helpers.py`` binds them to its ``RULESET`` (``Scenario(RULESET)``) beside its own
``given`` state builder, so a scenario test reads the same whichever game it covers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.contract import Actor, Ruleset
from engine.errors import Rejected
from engine.rng import Rng, ScriptedRng


class Scenario:
    """``run``, ``rejection`` and ``fold`` for one ruleset; the RNG defaults to an empty script."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def fold(self, state: Any, events: Iterable[Any]) -> Any:
        """The state after ``events``."""
        for event in events:
            state = self.ruleset.evolve(state, event)
        return state

    def run(self, state: Any, actor: Actor, cmd: Any, rng: Rng | None = None) -> tuple[list[Any], Any]:
        """The events of one accepted command and the state they fold to."""
        events = list(self.ruleset.decide(state, actor, cmd, rng if rng is not None else ScriptedRng()))
        return events, self.fold(state, events)

    def rejection(self, state: Any, actor: Actor, cmd: Any) -> str:
        """The code ``decide`` refuses the command with (fails the test when it is accepted)."""
        try:
            self.ruleset.decide(state, actor, cmd, ScriptedRng())
        except Rejected as refused:
            return str(refused.code)
        raise AssertionError(f"{cmd!r} was accepted")
