"""Ranking a folded tournament (pure): its finished records, its standings as of a round, and the entrants of
the next Swiss round with their points, rank, past opponents and byes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from services.tournament import pairing, standings
from services.tournament.events import STAGE_ELIMINATION, STAGE_ROBIN, STAGE_SWISS
from services.tournament.state import Tournament


def records(
    state: Tournament, stages: Sequence[str] = (STAGE_SWISS, STAGE_ROBIN, STAGE_ELIMINATION), through: int | None = None
) -> list[standings.Record]:
    """Finished pairings of the given stages (the top cut does not count for standings), up to a round."""
    found = []
    for current in state.rounds:
        if current.stage not in stages or (through is not None and current.number > through):
            continue
        for t in current.tables:
            if t.b is None:
                found.append(standings.Record(current.number, t.a, None, loss=t.loss))
            elif t.result is not None:
                found.append(
                    standings.Record(current.number, t.a, t.b, t.result.wins_a, t.result.wins_b, t.result.draws)
                )
    return found


def standings_of(
    state: Tournament, through: int | None = None, extra: Sequence[standings.Record] = ()
) -> list[standings.Standing]:
    """Standings as of round ``through`` (None: now), with ``extra`` counted too (results being decided). As of
    a past round only the drops before it count: a later drop must not rewrite past standings."""
    players = state.players.values()
    dropped = [p.name for p in players if (p.dropped if through is None else p.dropped_as_of(through))]
    found = records(state, through=through) + list(extra)
    return standings.standings(state.created.tiebreak, sorted(state.players), found, dropped)


def entrants(state: Tournament) -> list[pairing.Entrant]:
    """Active players with their points, rank, past opponents and byes, for the next Swiss round."""
    table = standings_of(state)
    met: dict[str, set[str]] = {p: set() for p in state.players}
    byes: Counter[str] = Counter()
    for record in records(state, stages=(STAGE_SWISS,)):
        if record.b is None:
            byes[record.a] += not record.loss
        else:
            met[record.a].add(record.b)
            met[record.b].add(record.a)
    active = set(state.active())
    return [
        pairing.Entrant(
            player=s.player,
            points=s.points,
            rank=s.rank - 1,
            opponents=frozenset(met[s.player]),
            had_bye=byes[s.player] > 0,
        )
        for s in table
        if s.player in active
    ]
