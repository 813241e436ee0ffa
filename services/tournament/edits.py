"""The organiser's edits of a Swiss round's pairings (pure), before any result of the round, audited.

- ``swap`` two players at different tables: each takes the other's seat (a bye or an assigned loss included).
- ``bye`` to a player: the player sits alone with a bye; the opponent left alone plays the player who had the
  bye, if someone had one, else has a bye too.
- ``loss`` to a player: the same, but the player sits alone with an assigned loss (a match lost 0-2 without
  an opponent; docs/tournaments.md).

Tables the edit leaves as they were keep their games; changed ones start afresh, who goes first in their
game 1 drawn from the tournament's seed. Refused once a game of the round was played or a result entered.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rng import Rng
from services.core.errors import InvalidArgument, Refused
from services.tournament import checks
from services.tournament.events import STAGE_SWISS, Event, PairingsEdited, Table
from services.tournament.state import TableState, Tournament

SWAP = "swap"
BYE = "bye"
LOSS = "loss"
EDITS = (SWAP, BYE, LOSS)

_Seat = tuple[str, str | None, bool]
"""A table as (a, b, assigned loss)."""


def edit(state: Tournament, round: int, kind: str, players: Sequence[str], by: str, why: str) -> list[Event]:
    """The round after one edit; ``round`` 0 is the current round, the only one edited."""
    checks.audited(by, why)
    current = checks.current_round(state)
    if round and round != current.number:
        raise Refused(
            f"only the current round ({current.number}) is edited", reason="ROUND_NOT_CURRENT", round=str(round)
        )
    if current.stage != STAGE_SWISS:
        raise Refused("only Swiss rounds are edited", reason="EDIT_NOT_ALLOWED")
    if current.has_results():
        raise Refused(
            f"round {current.number} already has results", reason="ROUND_HAS_RESULTS", round=str(current.number)
        )
    if kind not in EDITS:
        raise InvalidArgument(f"an edit is one of {', '.join(EDITS)}, not {kind!r}", reason="EDIT_INVALID")
    wanted = 2 if kind == SWAP else 1
    if len(players) != wanted or len(set(players)) != wanted:
        raise InvalidArgument(f"a {kind} names {wanted} different player(s)", reason="EDIT_INVALID")
    seats: dict[int, _Seat] = {t.table: (t.a, t.b, t.loss) for t in current.tables}
    where = {}
    for player in players:
        checks.player(state, player)
        found = next((n for n, (a, b, _) in seats.items() if player in (a, b)), None)
        if found is None:
            raise Refused(f"{player} is not paired in round {current.number}", reason="PLAYER_NOT_PAIRED")
        where[player] = found
    if kind == SWAP:
        first, second = players
        if where[first] == where[second]:
            raise InvalidArgument(f"{first} and {second} sit at the same table", reason="EDIT_INVALID")
        names = {first: second, second: first}
        for number in (where[first], where[second]):
            a, b, loss = seats[number]
            seats[number] = (names.get(a, a), None if b is None else names.get(b, b), loss)
    else:
        _alone(seats, players[0], where[players[0]], kind == LOSS)
    # Its own draws, as every decision has (services/tournament/rounds.py).
    rng = Rng(bytes.fromhex(state.created.seed), state.version + 1)
    tables = _tables(current.tables, seats, rng)
    return [PairingsEdited(round=current.number, edit=kind, players=list(players), tables=tables, by=by, why=why)]


def _alone(seats: dict[int, _Seat], player: str, number: int, loss: bool) -> None:
    """``player`` alone at table ``number`` with a bye (or a loss); the opponent it leaves meets whoever had the
    bye, or has one."""
    a, b, had_loss = seats[number]
    if b is None and had_loss == loss:
        raise Refused(f"{player} already has the {'loss' if loss else 'bye'}", reason="EDIT_NO_CHANGE")
    seats[number] = (player, None, loss)
    opponent = b if a == player else a
    if opponent is None:
        return
    bye = next((n for n, (x, y, lost) in seats.items() if y is None and not lost and n != number), None)
    if bye is None:
        seats[max(seats) + 1] = (opponent, None, False)
    else:
        seats[bye] = (seats[bye][0], opponent, False)


def _tables(before: list[TableState], seats: dict[int, _Seat], rng: Rng) -> list[Table]:
    kept = {t.table: t for t in before}
    tables = []
    for number in sorted(seats, key=lambda n: (seats[n][1] is None, n)):
        a, b, loss = seats[number]
        old = kept.get(number)
        if old is not None and (old.a, old.b, old.loss) == (a, b, loss):
            first = old.games[0].first if old.games else a
        else:
            first = a if b is None else (a, b)[rng.randbelow(2)]
        tables.append(Table(table=number, a=a, b=b, first=first, loss=loss))
    return tables
