"""Final placings (pure): 1..n once a tournament has ended, the top cut (or the single elimination) first.

Players of the elimination rounds are placed by the round they went out in, latest first (the winner, then the
final's loser, then the semi-finals' losers, ...), players going out in the same round by their standing; then
everyone else by their standing (Swiss or round robin, with the preset's tiebreakers).
"""

from __future__ import annotations

from services.tournament import ranking
from services.tournament.events import ELIMINATION_STAGES
from services.tournament.state import Tournament


def placings(state: Tournament) -> list[str]:
    """Every player in final place order; empty until the tournament has ended."""
    if not state.ended:
        return []
    standing = {s.player: s.rank for s in ranking.standings_of(state)}
    out: dict[str, int] = {}
    """Elimination players -> the round they went out in (the winner: after the last)."""
    for current in state.rounds:
        if current.stage not in ELIMINATION_STAGES:
            continue
        for table in current.tables:
            for player in table.players():
                out[player] = current.number + 1
            winner = table.winner()
            loser = None if winner is None else table.opponent(winner)
            if loser is not None:
                out[loser] = current.number
    eliminated = sorted(out, key=lambda p: (-out[p], standing[p]))
    return eliminated + sorted((p for p in standing if p not in out), key=lambda p: standing[p])
