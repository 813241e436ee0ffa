"""Standings with the official tiebreakers of each game family, in exact fractions (docs/tournaments.md).

``mtg``: match points; opponents' match-win percentage (each
opponent's at least 0.33, rounds with a bye ignored); game-win percentage (at least 0.33); opponents'
game-win percentage. A bye is a match won 2-0; it counts in the player's own percentages.

``pokemon``: match points; opponents' win percentage (a win counts 1, a tie
1/2, over the rounds played; each opponent's clamped to 25..100 %, 25..75 % for a player who dropped; byes
counted neither in the numerator nor the denominator); opponents' opponents' win percentage; head-to-head,
only between exactly two players still tied.

``ygo``: points; opponents' match-win percentage (match wins over matches played,
byes left out); opponents' opponents' match-win percentage.

Players still tied are ordered by name, so standings never depend on registration order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from services.tournament.events import MTG, POKEMON, YGO

MTG_FLOOR = Fraction(33, 100)
POKEMON_FLOOR = Fraction(1, 4)
POKEMON_DROPPED_CEILING = Fraction(3, 4)
BYE_GAMES = (2, 0)
"""A bye is a match won 2-0 (game points)."""


@dataclass(frozen=True)
class Record:
    """One finished pairing: ``b`` None is a bye for ``a`` (``loss``: an assigned loss instead)."""

    round: int
    a: str
    b: str | None
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    loss: bool = False


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    points: int
    wins: int
    losses: int
    draws: int
    byes: int
    tiebreaks: tuple[Fraction, ...]
    """In the preset's order after points (mtg: OMW, GW, OGW; pokemon: OWP, OOWP; ygo: OMW, OOMW)."""
    dropped: bool


@dataclass
class _Line:
    """One player's results from their own side."""

    player: str
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    game_points: int = 0
    games: int = 0
    opponents: tuple[str, ...] = ()
    beat: tuple[str, ...] = ()

    @property
    def points(self) -> int:
        return 3 * (self.wins + self.byes) + self.draws

    @property
    def played(self) -> int:
        """Rounds with an opponent (byes left out)."""
        return self.wins + self.losses + self.draws


def lines(players: Iterable[str], records: Iterable[Record]) -> dict[str, _Line]:
    table = {p: _Line(p) for p in players}
    for record in records:
        if record.b is None and record.loss:
            # A match lost 0-2 without an opponent: in the player's own percentages, no one's opponent.
            line = table[record.a]
            line.losses += 1
            line.games += sum(BYE_GAMES)
            continue
        if record.b is None:
            line = table[record.a]
            line.byes += 1
            line.game_points += 3 * BYE_GAMES[0]
            line.games += sum(BYE_GAMES)
            continue
        for me, them, mine, theirs in (
            (record.a, record.b, record.wins_a, record.wins_b),
            (record.b, record.a, record.wins_b, record.wins_a),
        ):
            line = table[me]
            line.opponents += (them,)
            line.game_points += 3 * mine + record.draws
            line.games += mine + theirs + record.draws
            if mine > theirs:
                line.wins += 1
                line.beat += (them,)
            elif mine < theirs:
                line.losses += 1
            else:
                line.draws += 1
    return table


def _mean(values: Sequence[Fraction], empty: Fraction) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else empty


def mtg_match_win(line: _Line) -> Fraction:
    rounds = line.played + line.byes
    return max(MTG_FLOOR, Fraction(line.points, 3 * rounds)) if rounds else MTG_FLOOR


def mtg_game_win(line: _Line) -> Fraction:
    return max(MTG_FLOOR, Fraction(line.game_points, 3 * line.games)) if line.games else MTG_FLOOR


def pokemon_win(line: _Line, dropped: bool) -> Fraction:
    """The player's win percentage as an opponent contributes it: byes out, clamped."""
    raw = Fraction(2 * line.wins + line.draws, 2 * line.played) if line.played else Fraction(0)
    ceiling = POKEMON_DROPPED_CEILING if dropped else Fraction(1)
    return min(ceiling, max(POKEMON_FLOOR, raw))


def ygo_match_win(line: _Line) -> Fraction:
    return Fraction(line.wins, line.played) if line.played else Fraction(0)


def tiebreaks(preset: str, table: dict[str, _Line], dropped: set[str]) -> dict[str, tuple[Fraction, ...]]:
    """Each player's tiebreakers after points, in the preset's order."""
    if preset == MTG:
        mw = {p: mtg_match_win(line) for p, line in table.items()}
        gw = {p: mtg_game_win(line) for p, line in table.items()}
        return {
            p: (
                _mean([mw[o] for o in line.opponents], MTG_FLOOR),
                gw[p],
                _mean([gw[o] for o in line.opponents], MTG_FLOOR),
            )
            for p, line in table.items()
        }
    if preset == POKEMON:
        win = {p: pokemon_win(line, p in dropped) for p, line in table.items()}
        owp = {p: _mean([win[o] for o in line.opponents], Fraction(0)) for p, line in table.items()}
        return {p: (owp[p], _mean([owp[o] for o in line.opponents], Fraction(0))) for p, line in table.items()}
    if preset == YGO:
        mw = {p: ygo_match_win(line) for p, line in table.items()}
        omw = {p: _mean([mw[o] for o in line.opponents], Fraction(0)) for p, line in table.items()}
        return {p: (omw[p], _mean([omw[o] for o in line.opponents], Fraction(0))) for p, line in table.items()}
    raise ValueError(f"unknown tiebreak preset {preset!r}")


def standings(
    preset: str, players: Iterable[str], records: Iterable[Record], dropped: Iterable[str] = ()
) -> list[Standing]:
    """Every player ranked: points, then the preset's tiebreakers, then (pokemon) head-to-head, then name."""
    left = set(dropped)
    table = lines(players, records)
    breaks = tiebreaks(preset, table, left)

    def key(player: str) -> tuple[object, ...]:
        return (-table[player].points, *(-value for value in breaks[player]))

    order = sorted(table, key=lambda p: (key(p), p))
    if preset == POKEMON:
        order = _head_to_head(order, key, table)
    return [
        Standing(
            rank=i,
            player=p,
            points=table[p].points,
            wins=table[p].wins,
            losses=table[p].losses,
            draws=table[p].draws,
            byes=table[p].byes,
            tiebreaks=breaks[p],
            dropped=p in left,
        )
        for i, p in enumerate(order, start=1)
    ]


def _head_to_head(order: list[str], key: object, table: dict[str, _Line]) -> list[str]:
    """Exactly two players tied on points and both percentages: the one who beat the other more often first."""
    assert callable(key)
    result = list(order)
    i = 0
    while i < len(result):
        j = i
        while j + 1 < len(result) and key(result[j + 1]) == key(result[i]):
            j += 1
        if j == i + 1:
            first, second = result[i], result[j]
            if table[second].beat.count(first) > table[first].beat.count(second):
                result[i], result[j] = second, first
        i = j + 1
    return result


def ygo_number(standing: Standing) -> str:
    """Konami's tiebreaker number XXYYYZZZ: points, then OMW and OOMW in thousandths (truncated)."""
    omw, oomw = standing.tiebreaks
    return f"{standing.points:02d}{int(omw * 1000):03d}{int(oomw * 1000):03d}"
