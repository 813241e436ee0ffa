"""Seeding (pure): the organiser's seeds and ratings given at registration order round 1 and an elimination
bracket instead of the draw.

Seeded players come first, by seed (1 first); then rated players, by rating (highest first, ties by name); then
the rest in an order drawn from the tournament's seed. A Swiss round 1 pairs the top half against the bottom
half (1 v n/2+1, 2 v n/2+2, ...), the last player having the bye when the count is odd; single elimination seeds
its bracket in this order (1v8, 4v5, 2v7, 3v6), top seeds taking the byes. Without any seed or rating both are
drawn as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rng import Rng
from services.tournament.state import Tournament


def order(state: Tournament, players: Sequence[str], rng: Rng) -> list[str] | None:
    """``players`` best first by seed, then rating, then the draw; None when none of them has either."""
    found = [state.players[p] for p in players]
    if not any(p.seed or p.rating for p in found):
        return None
    seeded = sorted((p for p in found if p.seed), key=lambda p: p.seed)
    rated = sorted((p for p in found if not p.seed and p.rating), key=lambda p: (-p.rating, p.name))
    rest = rng.shuffle(sorted(p.name for p in found if not p.seed and not p.rating))
    return [p.name for p in seeded] + [p.name for p in rated] + rest


def halves(ordered: Sequence[str]) -> list[tuple[str, str | None]]:
    """Round 1 of a seeded Swiss: the top half against the bottom half; odd: the last has the bye."""
    half = len(ordered) // 2
    tables: list[tuple[str, str | None]] = [(ordered[i], ordered[i + half]) for i in range(half)]
    if len(ordered) % 2:
        tables.append((ordered[-1], None))
    return tables
