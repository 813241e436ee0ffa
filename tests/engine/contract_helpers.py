"""Helpers for the contract suite: ruleset/seat-count cases, playouts, command mutations."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from engine.bots import RandomBot
from engine.contract import Ruleset
from engine.match import Match, apply, create, fold
from engine.registry import HOSTED
from engine.rng import Rng
from engine.selfplay import next_move


def cases() -> list[tuple[str, int, int]]:
    """(ruleset id, version, seat count) for every hosted version of every ruleset at every seat count it allows:
    an older version stays playable as long as it is hosted (docs/adding-a-ruleset.md, Changing a ruleset)."""
    return [
        (key, version, n)
        for (key, version), ruleset in sorted(HOSTED.items())
        for n in range(ruleset.min_seats, ruleset.max_seats + 1)
    ]


def case_id(case: tuple[str, int, int]) -> str:
    return f"{case[0]}-v{case[1]}-{case[2]}p"


def config(players: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"seats": [{} for _ in range(players)], "options": dict(options or {})}


def seed_bytes(seed: int) -> bytes:
    return seed.to_bytes(32, "big")


def names(players: int) -> list[str]:
    return [f"p{i}" for i in range(players)]


def playout(
    ruleset: Ruleset, players: int, seed: int, max_commands: int = 400, options: dict[str, Any] | None = None
) -> Iterator[tuple[Match, list[Any]]]:
    """Yields (match, events so far) after creation and after every command of a random-bot match."""
    events = create(ruleset, config(players, options), names(players), seed_bytes(seed))
    match = fold(ruleset, events)
    bots = [RandomBot(seed * 31 + i) for i in range(players)]
    yield match, list(events)
    for _ in range(max_commands):
        if ruleset.outcome(match.state) is not None:
            return
        actor, command = next_move(ruleset, match.state, bots)
        new = ruleset.decide(match.state, actor, command, Rng(seed_bytes(seed), match.version + 1))
        match = apply(ruleset, match, new)
        events.extend(new)
        yield match, list(events)


def mutations(command: Any) -> Iterator[Any]:
    """Commands like ``command`` with one field changed: unknown ids, off-by-one and out-of-range numbers."""
    for field in command.__struct_fields__:
        value = getattr(command, field)
        for other in _altered(value):
            try:
                yield msgspec.structs.replace(command, **{field: other})
            except (TypeError, ValueError):
                continue


def _altered(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1, -1, 99]
    if isinstance(value, str):
        return ["", value + "x", "9:99", "0:0", "1:0"]
    if value is None:
        return [0, 1, 2, "0:0"]
    if isinstance(value, (list, tuple)):
        return [type(value)(), type(value)(list(value)[:-1])] if value else []
    return []
