"""The checks the tournament commands share (pure): lookups that raise ``NotFound`` or ``Refused``, the audit
fields, a result's shape, a deck against the ruleset, a seat's deck with its side deck, the Swiss rounds
being over."""

from __future__ import annotations

from typing import Any

from engine.contract import Ruleset
from services.core import limits
from services.core.errors import InvalidArgument, NotFound, Refused
from services.matches import split_grace
from services.tournament.events import ELIMINATION_STAGES
from services.tournament.state import Player, Result, Round, TableState, Tournament


def not_ended(state: Tournament) -> None:
    if state.ended:
        raise Refused("the tournament has ended", reason="TOURNAMENT_ENDED")


def player(state: Tournament, player: str) -> Player:
    found = state.players.get(player)
    if found is None:
        raise NotFound(f"no player {player!r} in this tournament", reason="PLAYER_NOT_FOUND", player=player)
    return found


def current_round(state: Tournament) -> Round:
    not_ended(state)
    if not state.rounds:
        raise Refused("the tournament has not started", reason="TOURNAMENT_NOT_STARTED")
    return state.rounds[-1]


def table(state: Tournament, round: int, table: int) -> TableState:
    current = state.round(round)
    found = current.table(table) if current is not None else None
    if found is None:
        raise NotFound(
            f"no table {table} in round {round}", reason="TABLE_NOT_FOUND", round=str(round), table=str(table)
        )
    return found


def counted(state: Tournament, round: int, table: int, game: int, generation: int, match_id: str) -> TableState | None:
    """The table a match's result belongs to, if it is still waiting for exactly that game."""
    current = state.round(round)
    found = current.table(table) if current is not None else None
    if found is None or match_id in state.match_ids or found.generation != generation:
        return None
    playing = found.current_game()
    return found if playing is not None and playing.number == game else None


def audited(by: str, why: str) -> None:
    bounded(by, why)
    if not by.strip() or not why.strip():
        raise InvalidArgument("an organiser's result says who entered it and why", reason="AUDIT_MISSING")


def bounded(by: str, why: str) -> None:
    limits.printable(by, limits.MAX_AUDIT, "by", "AUDIT_INVALID")
    limits.printable(why, limits.MAX_AUDIT, "why", "AUDIT_INVALID")


def check_result(table: TableState, result: Result) -> None:
    if table.bye:
        raise Refused("a bye has no result to enter", reason="BYE_TABLE")
    if min(result.wins_a, result.wins_b, result.draws) < 0 or result.wins_a + result.wins_b + result.draws == 0:
        raise InvalidArgument("a result counts games won and drawn, at least one", reason="RESULT_INVALID")
    needed = table.best_of // 2 + 1
    if max(result.wins_a, result.wins_b) > needed or min(result.wins_a, result.wins_b) == needed:
        raise InvalidArgument(
            f"a best-of-{table.best_of} match ends when one player has won {needed}", reason="RESULT_INVALID"
        )
    if table.stage in ELIMINATION_STAGES and result.wins_a == result.wins_b:
        raise Refused("an elimination match cannot end in a draw", reason="DRAW_NOT_ALLOWED")


def swiss_over(state: Tournament) -> bool:
    return bool(state.planned) and len(state.swiss_rounds()) >= state.planned and state.rounds[-1].finished


def validate_deck(ruleset: Ruleset, deck: dict[str, Any], options: dict[str, Any]) -> None:
    """The ruleset's own configuration check, with this deck at both seats (``ConfigError`` if refused); the
    match service's own option (the disconnect grace) is not the ruleset's."""
    ruleset.configure({"seats": [deck, deck], "options": split_grace(options)[0]})


def expanded(ruleset: Ruleset, seat: dict[str, Any]) -> dict[str, Any] | None:
    deck = seat.get("deck")
    if isinstance(deck, str):
        deck = ruleset.presets.get(deck)
    if not isinstance(deck, dict) or not deck.get("side"):
        return None
    return deck
