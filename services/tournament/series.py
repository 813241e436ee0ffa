"""A table's best-of series (pure commands): who goes first and side decks between games, games recorded from
their matches or refused, results entered and corrected by the organiser; when games decide a match, who
chooses next, and the tournament's end that a table's result brings."""

from __future__ import annotations

from collections.abc import Sequence

from engine.contract import Ruleset
from services.core.errors import InvalidArgument, Refused
from services.tournament import checks, ranking, standings
from services.tournament.events import (
    ELIMINATION_STAGES,
    DeckSided,
    Event,
    FirstChosen,
    GameRecorded,
    GameUnverified,
    MatchResulted,
    ResultCorrected,
    TournamentEnded,
)
from services.tournament.state import Result, TableState, Tournament


def choose_first(state: Tournament, round: int, table: int, chooser: str, first: str) -> list[Event]:
    """Before a further game of a series, its chooser picks who goes first."""
    found = checks.table(state, round, table)
    if found.finished:
        raise Refused("this match is over", reason="MATCH_DECIDED")
    last = found.games[-1]
    if not last.played:
        raise Refused(f"game {last.number} has not been played", reason="GAME_NOT_PLAYED")
    expected = next_chooser(found)
    if chooser != expected:
        raise Refused(f"{expected} chooses who goes first", reason="NOT_CHOOSER", chooser=expected)
    if first not in found.players():
        raise InvalidArgument(f"{first!r} does not play at this table", reason="PLAYER_NOT_AT_TABLE")
    return [FirstChosen(round=round, table=table, game=last.number + 1, chooser=chooser, first=first)]


def side_deck(
    state: Tournament,
    ruleset: Ruleset,
    round: int,
    table: int,
    player: str,
    removed: Sequence[str],
    added: Sequence[str],
) -> list[Event]:
    """A one-for-one swap with the side deck between games, checked by the ruleset like any deck."""
    found = checks.table(state, round, table)
    if player not in found.players():
        raise InvalidArgument(f"{player!r} does not play at this table", reason="PLAYER_NOT_AT_TABLE")
    if found.finished or not found.games[-1].played:
        raise Refused("side decks change only between games of a match", reason="NOT_BETWEEN_GAMES")
    if len(removed) != len(added) or not removed:
        raise InvalidArgument("a swap takes as many cards out as it puts in", reason="SIDE_SWAP_UNEVEN")
    game = found.games[-1].number + 1
    deck = checks.expanded(ruleset, found.deck_for(player, game, state.players[player].deck))
    if deck is None:
        raise InvalidArgument("this deck has no side deck", reason="SIDE_DECK_MISSING")
    sections = {key: list(deck.get(key, [])) for key in ("main", "extra", "side")}
    # Swapping a card out and back in again is valid at any length, and the event would keep the lists whole;
    # no swap needs more cards than the side deck holds.
    most = len(sections["side"])
    if len(removed) > most:
        raise InvalidArgument(
            f"a swap takes at most the side deck's {most} cards", reason="SIDE_SWAP_TOO_LARGE", limit=str(most)
        )
    for out, into in zip(removed, added, strict=True):
        # One for one: the side card takes the place (main or extra deck) of the card it replaces.
        if into not in sections["side"]:
            raise InvalidArgument(f"{into} is not in the side deck", reason="SIDE_CARD_MISSING", card=into)
        section = "main" if out in sections["main"] else "extra" if out in sections["extra"] else ""
        if not section:
            raise InvalidArgument(f"{out} is not in the deck", reason="DECK_CARD_MISSING", card=out)
        sections["side"].remove(into)
        sections[section].remove(out)
        sections[section].append(into)
        sections["side"].append(out)
    seat = {"deck": {key: sorted(cards) for key, cards in sections.items()}}
    checks.validate_deck(ruleset, seat, state.created.options)
    return [
        DeckSided(
            round=round, table=table, game=game, player=player, removed=sorted(removed), added=sorted(added), deck=seat
        )
    ]


def record_game(
    state: Tournament, round: int, table: int, game: int, generation: int, match_id: str, winner: str | None
) -> list[Event]:
    """A finished, verified match as the game it was; stale or repeated matches add nothing."""
    found = checks.counted(state, round, table, game, generation, match_id)
    if found is None:
        return []
    events: list[Event] = [GameRecorded(round=round, table=table, game=game, match_id=match_id, winner=winner)]
    played = found.tally()
    tally = Result(
        played.wins_a + (winner == found.a), played.wins_b + (winner == found.b), played.draws + (winner is None)
    )
    decided = series_result(found.stage, found.best_of, tally)
    if decided is not None:
        events.append(
            MatchResulted(
                round=round,
                table=table,
                wins_a=decided.wins_a,
                wins_b=decided.wins_b,
                draws=decided.draws,
                source="games",
            )
        )
        events += _ending(state, found, decided)
    return events


def refuse_game(
    state: Tournament, round: int, table: int, game: int, generation: int, match_id: str, check: str, message: str
) -> list[Event]:
    if checks.counted(state, round, table, game, generation, match_id) is None:
        return []
    return [GameUnverified(round=round, table=table, game=game, match_id=match_id, check=check, message=message)]


def report(state: Tournament, round: int, table: int, result: Result, by: str, why: str) -> list[Event]:
    """A result entered by the organiser (an offline table, a no-show), audited."""
    found = checks.table(state, round, table)
    checks.audited(by, why)
    if found.finished:
        raise Refused("this match has a result: correct it instead", reason="RESULT_EXISTS")
    checks.check_result(found, result)
    return [
        MatchResulted(
            round=round,
            table=table,
            wins_a=result.wins_a,
            wins_b=result.wins_b,
            draws=result.draws,
            source="organiser",
            by=by,
            why=why,
        ),
        *_ending(state, found, result),
    ]


def correct(state: Tournament, round: int, table: int, result: Result, by: str, why: str) -> list[Event]:
    """Replaces a table's result, audited; an elimination result only until the next round is paired."""
    found = checks.table(state, round, table)
    checks.audited(by, why)
    if found.bye or found.result is None:
        raise Refused("this match has no result to correct", reason="NO_RESULT")
    checks.check_result(found, result)
    if found.stage in ELIMINATION_STAGES and (round < len(state.rounds) or state.ended):
        raise Refused("a later elimination round depends on this result", reason="RESULT_LOCKED")
    return [
        ResultCorrected(
            round=round, table=table, wins_a=result.wins_a, wins_b=result.wins_b, draws=result.draws, by=by, why=why
        )
    ]


def series_result(stage: str, best_of: int, tally: Result) -> Result | None:
    """The match result once decided: a player reached the wins needed, or (outside elimination, which
    cannot end in a draw) ``best_of`` games were played."""
    needed = best_of // 2 + 1
    if max(tally.wins_a, tally.wins_b) >= needed:
        return tally
    if stage not in ELIMINATION_STAGES and tally.wins_a + tally.wins_b + tally.draws >= best_of:
        return tally
    return None


def next_chooser(table: TableState) -> str:
    """The loser of the last game chooses who goes first in the next; after a draw, the last chooser again."""
    last = table.games[-1]
    if last.winner is None:
        return last.chooser
    opponent = table.opponent(last.winner)
    assert opponent is not None
    return opponent


def _ending(state: Tournament, finished: TableState, result: Result) -> list[Event]:
    """``TournamentEnded`` when this result finishes the tournament's last round."""
    current = state.rounds[-1]
    others = all(t.finished for t in current.tables if t.table != finished.table)
    if finished.round != current.number or not others:
        return []
    if current.stage in ELIMINATION_STAGES:
        if len(current.tables) != 1:
            return []
        a_won = result.wins_a > result.wins_b
        return [TournamentEnded(winner=finished.a if a_won else finished.b)]
    if current.number < state.planned or state.created.cut:
        return []
    last = standings.Record(finished.round, finished.a, finished.b, result.wins_a, result.wins_b, result.draws)
    return [TournamentEnded(winner=ranking.standings_of(state, extra=[last])[0].player)]
