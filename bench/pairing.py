"""Pairing benchmark: one Swiss round for 256 and 1,024 players, half of them tied on points.

Each field has played three rounds before: up to three earlier opponents per player (so rematches must be
avoided) and a few byes. The time is the whole pairing
decision of services/tournament/pairing.py (graph, seeded tie-breaks, maximum-weight matching), best of
three runs. Targets: 256 players <= 0.5 s, 1,024 players <= 3 s. The last column is the organiser's whole
``pair`` decision in a tournament of that size after three played rounds (standings with exact tiebreakers,
entrants, pairing), as the server runs it.

    python bench/pairing.py [--sizes 256 1024]
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.table import Table

from engine import registry
from engine.rng import Rng
from services.tournament import registration, rounds, series
from services.tournament.events import Event
from services.tournament.pairing import Entrant, Pairing, swiss_round
from services.tournament.state import Result, Tournament, apply, fold

TARGETS = {256: 0.5, 1024: 3.0}


def field(size: int, seed: int = 7) -> list[Entrant]:
    """``size`` players: half on 6 points, the rest spread over 0, 3 and 9."""
    rng = random.Random(seed)
    count = size
    points = [6] * (count // 2) + [rng.choice((0, 3, 3, 9)) for _ in range(count - count // 2)]
    points.sort(reverse=True)
    names = [f"p{i:04d}" for i in range(count)]
    met: dict[str, set[str]] = {name: set() for name in names}
    for _ in range(3):
        order = list(range(count))
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=False):
            met[names[a]].add(names[b])
            met[names[b]].add(names[a])
    had_bye = set(rng.sample(names, 3))
    return [
        Entrant(player=name, points=points[i], rank=i, opponents=frozenset(met[name]), had_bye=name in had_bye)
        for i, name in enumerate(names)
    ]


def measure(size: int) -> tuple[float, Pairing]:
    entrants = field(size)
    best = float("inf")
    result = None
    for run in range(3):
        started = time.perf_counter()
        result = swiss_round(entrants, Rng(bytes(32), run))
        best = min(best, time.perf_counter() - started)
    assert result is not None
    return best, result


def _run(state: Tournament, events: list[Event]) -> None:
    for event in events:
        apply(state, event, state.version + 1)


def decision_seconds(size: int) -> float:
    """The ``pair`` decision after three rounds of random results."""
    ruleset = registry.get(registry.REFERENCE)
    state = fold(registration.create("bench", "bench", ruleset, "swiss", 6, 0, 1, "mtg", 0, bytes(32), {}))
    for i in range(size):
        _run(state, registration.register(state, ruleset, f"p{i:04d}", {}))
    _run(state, rounds.start(state))
    rng = random.Random(3)
    for _ in range(3):
        current = state.rounds[-1]
        for table in current.tables:
            if not table.finished:
                result = Result(1, 0, 0) if rng.random() < 0.5 else Result(0, 1, 0)
                _run(state, series.report(state, current.number, table.table, result, "bench", "bench"))
        started = time.perf_counter()
        events = rounds.pair(state)
        seconds = time.perf_counter() - started
        _run(state, events)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 1024])
    args = parser.parse_args()
    table = Table(
        "players",
        "seconds",
        "target",
        "tables",
        "byes",
        "rematches",
        "pair-downs",
        "pair decision s",
        title="one Swiss round, half the field tied on points",
    )
    for size in args.sizes:
        seconds, result = measure(size)
        target = TARGETS.get(size)
        verdict = "" if target is None else f"<= {target} s {'ok' if seconds <= target else 'MISSED'}"
        byes = sum(b is None for _, b in result.tables)
        table.add_row(
            f"{size:,}",
            f"{seconds:.3f}",
            verdict,
            str(len(result.tables) - byes),
            str(byes),
            str(result.rematches),
            str(result.pair_downs),
            f"{decision_seconds(size):.3f}",
        )
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
