"""Bots: players that see only their view and their legal commands, never the state."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from engine.contract import Ruleset


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


BOT_KINDS = ("random", "greedy")


def make_bot(kind: str, ruleset: Ruleset, seed: int) -> Bot:
    """A bot by kind name (``random`` or ``greedy``)."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot(ruleset, seed)
    raise ValueError(f"unknown bot kind {kind!r}; choose from {', '.join(BOT_KINDS)}")
