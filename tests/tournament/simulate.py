"""Tournaments driven through the pure decisions, without a server: events in, fold, decide again."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine import registry
from services.tournament import registration, series
from services.tournament.events import Event
from services.tournament.state import Result, Tournament, apply, fold


def run(state: Tournament, decision: Callable[[Tournament], list[Event]]) -> list[Event]:
    events = decision(state)
    for event in events:
        apply(state, event, state.version + 1)
    return events


def tournament(
    players: Sequence[str],
    format: str = "swiss",
    rounds: int = 0,
    cut: int = 0,
    best_of: int = 1,
    tiebreak: str = "mtg",
    seed: bytes = bytes(32),
    ruleset: str = "card_monsters",
) -> Tournament:
    """Players registered with the ruleset's default deck (``ruleset``'s own validation)."""
    rules = registry.get(ruleset)
    state = fold(registration.create("t", "test", rules, format, rounds, cut, best_of, tiebreak, 0, seed, {}))
    for player in players:
        run(state, lambda t: registration.register(t, rules, player, {}))
    return state


def random_result(rng: random.Random, best_of: int, elimination: bool) -> Result:
    needed = best_of // 2 + 1
    roll = rng.random()
    if not elimination and roll < 0.1:
        return Result(needed - 1, needed - 1, 1) if best_of > 1 else Result(0, 0, 1)
    loser = rng.randrange(needed)
    return Result(needed, loser, 0) if roll < 0.55 else Result(loser, needed, 0)


def finish_round(state: Tournament, rng: random.Random) -> None:
    """Enters a random result for every open table of the current round, as the organiser."""
    current = state.rounds[-1]
    elimination = current.stage in ("cut", "elimination")
    for table in current.tables:
        if not table.finished:
            result = random_result(rng, state.created.best_of, elimination)
            run(state, lambda t: series.report(t, current.number, table.table, result, "judge", "test"))
