"""Bots: players that see only their view and their legal commands, never the state."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.contract import Ruleset
from engine.search.bot import SearchBot


class Bot(Protocol):
    def choose(self, view: Any, commands: Sequence[Any]) -> Any: ...


class RandomBot:
    """Uniform over the legal commands, from its own seeded generator."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def choose(self, view: Any, commands: Sequence[Any]) -> Any:
        return commands[self._random.randrange(len(commands))]


class GreedyBot:
    """The command with the best one-ply score from the ruleset's heuristic; ties broken at random."""

    def __init__(self, ruleset: Ruleset, seed: int) -> None:
        self._score = ruleset.greedy_score
        self._random = random.Random(seed)

    def choose(self, view: Any, commands: Sequence[Any]) -> Any:
        scores = [self._score(view, command) for command in commands]
        best = max(scores)
        ties = [c for c, s in zip(commands, scores, strict=False) if s == best]
        return ties[self._random.randrange(len(ties))]


Clock = Callable[[], float]
"""Seconds on a monotonic clock, injected by the caller: the engine reads none."""

BotLevel = Callable[[Ruleset, int, float, Clock | None], Bot]
"""Makes a bot of one level for a ruleset, from a seed, the seconds it may think per decision and the clock it
measures them on (a level that searches spends them; without a clock it makes a fixed number of iterations per
second of budget instead, reproducibly)."""

LEVELS: dict[str, BotLevel] = {
    "random": lambda ruleset, seed, seconds, clock: RandomBot(seed),
    "greedy": lambda ruleset, seed, seconds, clock: GreedyBot(ruleset, seed),
    "search": lambda ruleset, seed, seconds, clock: SearchBot(ruleset, seed, seconds, clock),
}
"""Every bot level by name: ``duelhall selfplay --bot``, bot seats and the tournaments' test bots all read it."""

BOT_KINDS = tuple(LEVELS)

DEFAULT_SECONDS = 0.5
"""What a decision may take when the caller names no budget (the ``search`` level spends it all)."""


def make_bot(
    kind: str, ruleset: Ruleset, seed: int, seconds: float = DEFAULT_SECONDS, clock: Clock | None = None
) -> Bot:
    """A bot by level name (``LEVELS``); ``ValueError`` for a name that is none."""
    level = LEVELS.get(kind)
    if level is None:
        raise ValueError(f"unknown bot kind {kind!r}; choose from {', '.join(BOT_KINDS)}")
    return level(ruleset, seed, seconds, clock)
