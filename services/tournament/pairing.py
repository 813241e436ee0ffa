"""Swiss pairing as one maximum-weight perfect matching (rustworkx), weights in strict priority.

Each possible table gets a weight whose parts can never outweigh a part above them, summed over any
matching: first, the bye to the lowest-ranked player who has not had one (as the MTR and every major
organiser give it: a player who has had a bye has no bye edge at all, so never gets a second, unless every
player has had one); then no rematch (while one is avoidable); then fewest pair-downs (a table across score
groups costs how many groups apart they are); then a random tie-break drawn from the tournament seed.
Perfect matching (``max_cardinality``) pairs every active player exactly once.

Up to ``DENSE_LIMIT`` players every table is a candidate. Above it each player is joined to its
``NEIGHBOURS`` nearest in standings order, which is where the best tables are; should that leave a rematch
or an unpaired player, the neighbourhood is doubled until neither remains or the graph is complete. The
decision is recorded in the round's event; folding never pairs again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import rustworkx as rx

from engine.rng import Rng

DENSE_LIMIT = 256
NEIGHBOURS = 24
_TIE_BREAK = 1 << 10


@dataclass(frozen=True)
class Entrant:
    player: str
    points: int
    rank: int
    """0 is the top of the standings."""
    opponents: frozenset[str]
    had_bye: bool


@dataclass(frozen=True)
class Pairing:
    tables: list[tuple[str, str | None]]
    """(a, b) with ``a`` the better ranked; b None: a bye. Top tables first, the bye last."""
    rematches: int
    pair_downs: int


def random_round(players: Sequence[str], rng: Rng) -> Pairing:
    """Round 1: a seeded shuffle of the players (in name order first), paired in order; odd: the last has the bye."""
    order = rng.shuffle(sorted(players))
    tables: list[tuple[str, str | None]] = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
    if len(order) % 2:
        tables.append((order[-1], None))
    return Pairing(tables=tables, rematches=0, pair_downs=0)


def swiss_round(entrants: Sequence[Entrant], rng: Rng) -> Pairing:
    """Pairs every entrant once (one bye when odd) by the priorities above."""
    ranked = sorted(entrants, key=lambda e: e.rank)
    if not ranked:
        return Pairing(tables=[], rematches=0, pair_downs=0)
    width = len(ranked) if len(ranked) <= DENSE_LIMIT else NEIGHBOURS
    while True:
        pairing = _match(ranked, rng, width)
        if pairing is not None and (pairing.rematches == 0 or width >= len(ranked)):
            return pairing
        width *= 2


def _match(ranked: list[Entrant], rng: Rng, width: int) -> Pairing | None:
    count = len(ranked)
    odd = count % 2 == 1
    nodes = count + (1 if odd else 0)
    bye = count if odd else -1
    groups = sorted({e.points for e in ranked}, reverse=True)
    group_of = {points: i for i, points in enumerate(groups)}
    spread = len(groups)
    edges_in_matching = nodes // 2
    unit_down = edges_in_matching * _TIE_BREAK + 1
    unit_rematch = (edges_in_matching * spread + 1) * unit_down
    unit_bye = edges_in_matching * (unit_rematch + spread * unit_down + _TIE_BREAK) + 1
    eligible = [i for i, e in enumerate(ranked) if not e.had_bye] or list(range(count))
    graph = rx.PyGraph()
    graph.add_nodes_from(range(nodes))
    edges: list[tuple[int, int, int]] = []
    for i in range(count):
        for j in range(i + 1, min(count, i + 1 + width)):
            left, right = ranked[i], ranked[j]
            distance = abs(group_of[left.points] - group_of[right.points])
            weight = (0 if right.player in left.opponents else unit_rematch) + (spread - distance) * unit_down
            edges.append((i, j, weight + rng.randbelow(_TIE_BREAK)))
    if odd:
        for i in eligible:
            edges.append((i, bye, (i + 1) * unit_bye))
    graph.add_edges_from(edges)
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda weight: weight)
    if len(matched) * 2 != nodes:
        return None
    tables: list[tuple[str, str | None]] = []
    byes: list[tuple[str, str | None]] = []
    rematches = pair_downs = 0
    for x, y in sorted((min(p), max(p)) for p in matched):
        if y == bye:
            byes.append((ranked[x].player, None))
            continue
        left, right = ranked[x], ranked[y]
        rematches += right.player in left.opponents
        pair_downs += abs(group_of[left.points] - group_of[right.points])
        tables.append((left.player, right.player))
    return Pairing(tables=tables + byes, rematches=rematches, pair_downs=pair_downs)
