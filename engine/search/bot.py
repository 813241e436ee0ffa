"""The search bot: IS-MCTS from the seat's view, within a budget of iterations or of seconds on a given clock."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.contract import Ruleset
from engine.search.ismcts import POLICIES, Search


class SearchBot:
    """Searches each decision from its view and legal commands alone; it never sees the state.

    With a ``clock`` the bot stops once ``seconds`` have passed on it (checked between iterations); without
    one it runs ``iterations`` (by default the seconds times the ruleset's ``search.rate``), so the same seed makes
    the same decisions. ``rollout`` names the playout policy (``greedy`` or ``random``).
    """

    def __init__(
        self,
        ruleset: Ruleset,
        seed: int,
        seconds: float,
        clock: Callable[[], float] | None = None,
        iterations: int | None = None,
        rollout: str = "greedy",
    ) -> None:
        if ruleset.determinize is None:
            raise ValueError(f"the search bot cannot play {ruleset.id}: it has no determiniser")
        self._ruleset = ruleset
        self._random = random.Random(seed)
        self._seconds = seconds
        self._clock = clock
        self._iterations = iterations if iterations is not None else max(1, round(seconds * ruleset.search.rate))
        self._policy = POLICIES[rollout]
        self.last_iterations = 0
        """Iterations the last decision made (the bench reports them)."""

    def choose(self, view: Any, commands: Sequence[Any]) -> Any:
        if len(commands) == 1:
            self.last_iterations = 0
            return commands[0]
        seat = view.viewer
        # The budget counts from the start of the decision: setting up the search (scoring the root's commands)
        # is part of it.
        started = self._clock() if self._clock is not None else 0.0
        search = Search(self._ruleset, view, seat, commands, self._random, self._policy)
        if self._clock is None:
            for _ in range(self._iterations):
                search.iterate()
        else:
            clock = self._clock
            deadline = started + self._seconds

            def expired() -> bool:
                return clock() > deadline

            # Stop before an iteration that would likely overrun (the mean so far predicts the next one), or
            # within one when its playout finds the time up; even the first one, since a playout can take most of
            # the budget on a busy machine (a search that finished none plays the greedy favourite).
            while search.iterate(expired):
                now = clock()
                done = search.iterations
                if now + (now - started) / done > deadline:
                    break
        self.last_iterations = search.iterations
        return search.best()
