"""Elimination brackets and round robin schedules (pure)."""

from __future__ import annotations

from collections.abc import Sequence


def seed_order(size: int) -> list[int]:
    """Seeds in bracket order for a power-of-two ``size``: 8 -> 1 8 4 5 2 7 3 6 (1v8, 4v5, 2v7, 3v6), so
    that the top seeds meet as late as possible."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power-of-two size, not {size}")
    order = [1]
    while len(order) < size:
        span = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, span - top)]
    return order


def bracket(seeds: Sequence[str]) -> list[tuple[str, str | None]]:
    """First elimination round for players in seed order; top seeds get byes up to the next power of two."""
    size = 1
    while size < len(seeds):
        size *= 2
    order = seed_order(size)
    tables: list[tuple[str, str | None]] = []
    for i in range(0, size, 2):
        high, low = order[i], order[i + 1]
        tables.append((seeds[high - 1], seeds[low - 1] if low <= len(seeds) else None))
    return tables


def next_elimination(winners: Sequence[str]) -> list[tuple[str, str | None]]:
    """The next round: winners of tables 1 and 2 meet at table 1, of 3 and 4 at table 2, ..."""
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)]


def round_robin(players: Sequence[str], number: int) -> list[tuple[str, str | None]]:
    """Round ``number`` (1-based) of the circle method: everyone meets everyone once; odd counts sit out once."""
    field: list[str | None] = list(players) + ([None] if len(players) % 2 else [])
    count = len(field)
    rest = field[1:]
    shift = (number - 1) % (count - 1)
    rotated = [field[0], *rest[-shift:], *rest[:-shift]] if shift else field
    tables: list[tuple[str, str | None]] = []
    for i in range(count // 2):
        left, right = rotated[i], rotated[count - 1 - i]
        if left is None:
            left, right = right, None
        if left is not None:
            tables.append((left, right))
    return [t for t in tables if t[1] is not None] + [t for t in tables if t[1] is None]


def robin_rounds(players: int) -> int:
    return players - 1 if players % 2 == 0 else players


def swiss_rounds(players: int) -> int:
    """Automatic Swiss rounds: enough to leave one undefeated player, ceil(log2 n) (64 players: 6)."""
    rounds = 1
    while (1 << rounds) < players:
        rounds += 1
    return rounds
