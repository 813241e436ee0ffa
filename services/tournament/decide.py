"""Tournament commands to events (pure): every check and every draw from the seed happens here, once.

Each function takes the folded tournament and returns the events to append, or raises ``InvalidArgument``
(a malformed request) or ``Refused`` (not allowed in the tournament's current state) with a reason code
listed in docs/tournaments.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.contract import Ruleset
from engine.rng import Rng
from services.core import limits
from services.core.errors import InvalidArgument, NotFound, Refused
from services.tournament import brackets, pairing, standings
from services.tournament.events import (
    ELIMINATION_STAGES,
    FORMATS,
    PRESETS,
    ROUND_ROBIN,
    SINGLE_ELIMINATION,
    STAGE_CUT,
    STAGE_ELIMINATION,
    STAGE_ROBIN,
    STAGE_SWISS,
    SWISS,
    CutStarted,
    DeckSided,
    Event,
    FirstChosen,
    GameRecorded,
    GameUnverified,
    MatchResulted,
    PlayerCheckedIn,
    PlayerDropped,
    PlayerRegistered,
    PlayerReinstated,
    ResultCorrected,
    RoundPaired,
    RoundRepaired,
    Table,
    TournamentCreated,
    TournamentEnded,
)
from services.tournament.state import Player, Result, Round, TableState, Tournament

BEST_OF = (1, 3, 5)
MAX_ROUNDS = 64
"""Swiss or round robin rounds a tournament may ask for: more than any Swiss needs (1,024 players: 10); 0 leaves
them to the player count, a whole round robin included. The start caps them at a whole round robin."""
MAX_CUT = 256
"""Players in a top cut: at most eight elimination rounds."""
MAX_PLAYERS = 1024
"""Players registered, dropped ones included: every Tournament reply and standings call lists them all, and a
pairing decision takes 0.35 s at 1,024 (bench/pairing.py) but some 7 s at 4,096, on the event loop."""
MAX_ROUND_MINUTES = 24 * 60
"""A round's clock for the organiser: a day is longer than any round, and the value is shown in every reply."""
SEED_BYTES = 32
"""The seed of the pairings' draws, which every draw hashes."""


def create(
    tournament_id: str,
    name: str,
    ruleset: Ruleset,
    format: str,
    rounds: int,
    cut: int,
    best_of: int,
    tiebreak: str,
    round_minutes: int,
    seed: bytes,
    options: dict[str, Any],
) -> list[Event]:
    if not name.strip():
        raise InvalidArgument("the tournament needs a name", reason="NAME_MISSING")
    limits.name(name, "the tournament's name", "NAME_INVALID")
    if format not in FORMATS:
        raise InvalidArgument(f"format is one of {', '.join(FORMATS)}, not {format!r}", reason="FORMAT_INVALID")
    if tiebreak not in PRESETS:
        raise InvalidArgument(f"tiebreak is one of {', '.join(PRESETS)}, not {tiebreak!r}", reason="TIEBREAK_INVALID")
    if best_of not in BEST_OF:
        raise InvalidArgument(f"best_of is 1, 3 or 5, not {best_of}", reason="BEST_OF_INVALID")
    if (
        not 0 <= rounds <= MAX_ROUNDS
        or not 0 <= round_minutes <= MAX_ROUND_MINUTES
        or (format == SINGLE_ELIMINATION and rounds)
    ):
        raise InvalidArgument(
            f"rounds are 0 (automatic) to {MAX_ROUNDS} and round_minutes 0 to {MAX_ROUND_MINUTES}; "
            "single elimination sets its own rounds",
            reason="ROUNDS_INVALID",
        )
    if cut and (format != SWISS or not 2 <= cut <= MAX_CUT or cut & (cut - 1)):
        raise InvalidArgument(
            f"a top cut follows Swiss and has 2, 4, 8, ... up to {MAX_CUT} players", reason="CUT_INVALID"
        )
    if len(seed) != SEED_BYTES:
        raise InvalidArgument(f"the seed is {SEED_BYTES} bytes, not {len(seed)}", reason="SEED_INVALID")
    if ruleset.min_seats > 2:
        raise InvalidArgument(f"{ruleset.id} is not played by two players", reason="RULESET_NOT_TWO_PLAYER")
    return [
        TournamentCreated(
            tournament_id=tournament_id,
            name=name,
            ruleset=ruleset.id,
            format=format,
            rounds=rounds,
            cut=cut,
            best_of=best_of,
            tiebreak=tiebreak,
            round_minutes=round_minutes,
            seed=seed.hex(),
            options=options,
        )
    ]


def register(state: Tournament, ruleset: Ruleset, player: str, deck: dict[str, Any]) -> list[Event]:
    _open(state)
    if not player.strip():
        raise InvalidArgument("the player needs a name", reason="PLAYER_NAME_MISSING")
    limits.name(player, "a player's name", "PLAYER_NAME_INVALID")  # it becomes the name of a seat
    if player in state.players:
        raise Refused(f"{player!r} is already registered", reason="PLAYER_EXISTS", player=player)
    if state.started and (state.created.format != SWISS or state.cut_seeds or _swiss_over(state)):
        raise Refused("registration is closed", reason="REGISTRATION_CLOSED")
    if len(state.players) >= MAX_PLAYERS:
        raise Refused(
            f"the tournament is full: {MAX_PLAYERS} players", reason="TOURNAMENT_FULL", limit=str(MAX_PLAYERS)
        )
    validate_deck(ruleset, deck, state.created.options)
    return [PlayerRegistered(player=player, deck=deck, late=state.started)]


def validate_deck(ruleset: Ruleset, deck: dict[str, Any], options: dict[str, Any]) -> None:
    """The ruleset's own configuration check, with this deck at both seats (``ConfigError`` if refused)."""
    ruleset.configure({"seats": [deck, deck], "options": options})


def check_in(state: Tournament, player: str) -> list[Event]:
    _player(state, player)
    if state.started:
        raise Refused("the tournament has started", reason="TOURNAMENT_STARTED")
    return [] if state.players[player].checked_in else [PlayerCheckedIn(player=player)]


def drop(state: Tournament, player: str, by: str, why: str) -> list[Event]:
    _bounded(by, why)
    _open(state)
    if _player(state, player).dropped:
        raise Refused(f"{player!r} has already dropped", reason="PLAYER_DROPPED", player=player)
    return [PlayerDropped(player=player, after_round=len(state.rounds), by=by, why=why)]


def reinstate(state: Tournament, player: str, by: str, why: str) -> list[Event]:
    _bounded(by, why)
    _open(state)
    if not _player(state, player).dropped:
        raise Refused(f"{player!r} has not dropped", reason="PLAYER_NOT_DROPPED", player=player)
    if state.cut_seeds or (state.started and state.created.format != SWISS):
        raise Refused("players come back only during Swiss rounds", reason="REGISTRATION_CLOSED")
    return [PlayerReinstated(player=player, by=by, why=why)]


def start(state: Tournament) -> list[Event]:
    """Round 1; when anyone checked in, those who did not are dropped first."""
    _open(state)
    if state.started:
        raise Refused("the tournament has started", reason="TOURNAMENT_STARTED")
    events: list[Event] = []
    if any(p.checked_in for p in state.players.values()):
        events += [
            PlayerDropped(player=p.name, after_round=0, by="check-in", why="did not check in")
            for p in sorted(state.players.values(), key=lambda p: p.name)
            if not p.checked_in and not p.dropped
        ]
    dropped = {e.player for e in events if isinstance(e, PlayerDropped)}
    players = [p for p in state.active() if p not in dropped]
    if len(players) < 2:
        raise Refused("a tournament needs at least two players", reason="NOT_ENOUGH_PLAYERS")
    version = state.version + len(events) + 1
    rng = _rng(state, version)
    created = state.created
    if created.format == SWISS:
        planned = _planned(created.rounds or brackets.swiss_rounds(len(players)), len(players))
        tables = pairing.random_round(players, rng).tables
        events.append(_paired(state, rng, 1, STAGE_SWISS, tables, planned=planned))
    elif created.format == ROUND_ROBIN:
        order = rng.shuffle(players)
        planned = _planned(created.rounds or brackets.robin_rounds(len(order)), len(order))
        events.append(_paired(state, rng, 1, STAGE_ROBIN, brackets.round_robin(order, 1), planned=planned, order=order))
    else:
        events.append(_paired(state, rng, 1, STAGE_ELIMINATION, brackets.bracket(rng.shuffle(players))))
    return events


def pair(state: Tournament) -> list[Event]:
    """The next round of the current stage, once the last one is finished."""
    current = _current_round(state)
    if not current.finished:
        raise Refused(f"round {current.number} is not finished", reason="ROUND_NOT_FINISHED", round=str(current.number))
    number = current.number + 1
    rng = _rng(state, state.version + 1)
    if current.stage in ELIMINATION_STAGES:
        winners = [w for t in current.tables if (w := t.winner()) is not None]
        if len(winners) < 2:
            raise Refused("the elimination is over", reason="TOURNAMENT_OVER")
        return [_paired(state, rng, number, current.stage, brackets.next_elimination(winners))]
    if number > state.planned:
        if state.created.cut:
            raise Refused("the Swiss rounds are over: start the cut", reason="CUT_PENDING")
        raise Refused("every round has been played", reason="TOURNAMENT_OVER")
    if current.stage == STAGE_ROBIN:
        tables = [_robin_table(state, t) for t in brackets.round_robin(state.order, number)]
        tables = [t for t in tables if t[0] and t[1] is not None] + [t for t in tables if t[0] and t[1] is None]
        return [_paired(state, rng, number, STAGE_ROBIN, tables)]
    result = pairing.swiss_round(entrants(state), rng)
    return [
        _paired(
            state, rng, number, STAGE_SWISS, result.tables, rematches=result.rematches, pair_downs=result.pair_downs
        )
    ]


def repair(state: Tournament, by: str, why: str) -> list[Event]:
    """The current Swiss round paired again (after a late drop or registration), only before any result."""
    _bounded(by, why)
    current = _current_round(state)
    if current.stage != STAGE_SWISS:
        raise Refused("only Swiss rounds are paired again", reason="REPAIR_NOT_ALLOWED")
    if current.has_results():
        raise Refused(
            f"round {current.number} already has results", reason="ROUND_HAS_RESULTS", round=str(current.number)
        )
    rng = _rng(state, state.version + 1)
    earlier = Tournament(created=state.created, players=state.players, rounds=state.rounds[:-1])
    if current.number == 1:
        result = pairing.random_round(state.active(), rng)
    else:
        result = pairing.swiss_round(entrants(earlier), rng)
    paired = _paired(
        state, rng, current.number, STAGE_SWISS, result.tables, rematches=result.rematches, pair_downs=result.pair_downs
    )
    return [
        RoundRepaired(
            round=paired.round,
            stage=paired.stage,
            tables=paired.tables,
            by=by,
            why=why,
            rematches=paired.rematches,
            pair_downs=paired.pair_downs,
        )
    ]


def cut(state: Tournament) -> list[Event]:
    """The top cut: the best ``cut`` players still in, seeded 1v8, 4v5, 2v7, 3v6."""
    current = _current_round(state)
    if state.created.format != SWISS or not state.created.cut:
        raise Refused("this tournament has no top cut", reason="NO_CUT")
    if state.cut_seeds:
        raise Refused("the cut has started", reason="CUT_STARTED")
    if current.number < state.planned or not current.finished:
        raise Refused("the Swiss rounds are not over", reason="ROUND_NOT_FINISHED", round=str(current.number))
    seeds = [s.player for s in standings_of(state) if not s.dropped][: state.created.cut]
    if len(seeds) < 2:
        raise Refused("a cut needs at least two players", reason="NOT_ENOUGH_PLAYERS")
    rng = _rng(state, state.version + 2)
    return [
        CutStarted(size=len(seeds), seeds=seeds),
        _paired(state, rng, current.number + 1, STAGE_CUT, brackets.bracket(seeds)),
    ]


def choose_first(state: Tournament, round: int, table: int, chooser: str, first: str) -> list[Event]:
    """Before a further game of a series, its chooser picks who goes first."""
    found = _table(state, round, table)
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
    found = _table(state, round, table)
    if player not in found.players():
        raise InvalidArgument(f"{player!r} does not play at this table", reason="PLAYER_NOT_AT_TABLE")
    if found.finished or not found.games[-1].played:
        raise Refused("side decks change only between games of a match", reason="NOT_BETWEEN_GAMES")
    if len(removed) != len(added) or not removed:
        raise InvalidArgument("a swap takes as many cards out as it puts in", reason="SIDE_SWAP_UNEVEN")
    game = found.games[-1].number + 1
    deck = _expanded(ruleset, found.deck_for(player, game, state.players[player].deck))
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
    validate_deck(ruleset, seat, state.created.options)
    return [
        DeckSided(
            round=round, table=table, game=game, player=player, removed=sorted(removed), added=sorted(added), deck=seat
        )
    ]


def record_game(
    state: Tournament, round: int, table: int, game: int, generation: int, match_id: str, winner: str | None
) -> list[Event]:
    """A finished, verified match as the game it was; stale or repeated matches add nothing."""
    found = _counted(state, round, table, game, generation, match_id)
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
    if _counted(state, round, table, game, generation, match_id) is None:
        return []
    return [GameUnverified(round=round, table=table, game=game, match_id=match_id, check=check, message=message)]


def report(state: Tournament, round: int, table: int, result: Result, by: str, why: str) -> list[Event]:
    """A result entered by the organiser (an offline table, a no-show), audited."""
    found = _table(state, round, table)
    _audited(by, why)
    if found.finished:
        raise Refused("this match has a result: correct it instead", reason="RESULT_EXISTS")
    _check_result(found, result)
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
    found = _table(state, round, table)
    _audited(by, why)
    if found.bye or found.result is None:
        raise Refused("this match has no result to correct", reason="NO_RESULT")
    _check_result(found, result)
    if found.stage in ELIMINATION_STAGES and (round < len(state.rounds) or state.ended):
        raise Refused("a later elimination round depends on this result", reason="RESULT_LOCKED")
    return [
        ResultCorrected(
            round=round, table=table, wins_a=result.wins_a, wins_b=result.wins_b, draws=result.draws, by=by, why=why
        )
    ]


# -- series ----------------------------------------------------------------------------------------


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


# -- standings and entrants ------------------------------------------------------------------------


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
                found.append(standings.Record(current.number, t.a, None))
            elif t.result is not None:
                found.append(
                    standings.Record(current.number, t.a, t.b, t.result.wins_a, t.result.wins_b, t.result.draws)
                )
    return found


def standings_of(
    state: Tournament, through: int | None = None, extra: standings.Record | None = None
) -> list[standings.Standing]:
    """Standings as of round ``through`` (None: now), with ``extra`` counted too (a result being decided)."""
    dropped = [p.name for p in state.players.values() if p.dropped]
    found = records(state, through=through) + ([extra] if extra is not None else [])
    return standings.standings(state.created.tiebreak, sorted(state.players), found, dropped)


def entrants(state: Tournament) -> list[pairing.Entrant]:
    """Active players with their points, rank, past opponents and byes, for the next Swiss round."""
    table = standings_of(state)
    met: dict[str, set[str]] = {p: set() for p in state.players}
    byes: Counter[str] = Counter()
    for record in records(state, stages=(STAGE_SWISS,)):
        if record.b is None:
            byes[record.a] += 1
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


# -- helpers ---------------------------------------------------------------------------------------


def _rng(state: Tournament, version: int) -> Rng:
    """The draws of the decision that appends the event at ``version``: each decision its own stream."""
    return Rng(bytes.fromhex(state.created.seed), version)


def _paired(
    state: Tournament,
    rng: Rng,
    number: int,
    stage: str,
    tables: Sequence[tuple[str, str | None]],
    planned: int = 0,
    rematches: int = 0,
    pair_downs: int = 0,
    order: Sequence[str] = (),
) -> RoundPaired:
    specs = []
    for index, (a, b) in enumerate(tables, start=1):
        first = a if b is None else (a, b)[rng.randbelow(2)]
        specs.append(Table(table=index, a=a, b=b, first=first))
    return RoundPaired(
        round=number,
        stage=stage,
        tables=specs,
        planned=planned,
        rematches=rematches,
        pair_downs=pair_downs,
        order=list(order),
    )


def _robin_table(state: Tournament, table: tuple[str, str | None]) -> tuple[str, str | None]:
    """A round robin table with a dropped player: the other sits out with a bye; both dropped: no table."""
    a, b = table
    if b is not None and state.players[b].dropped:
        b = None
    if state.players[a].dropped:
        a, b = (b, None) if b is not None else ("", None)
    return a, b


def _planned(rounds: int, players: int) -> int:
    """The rounds to play, at most a whole round robin of the players: past it a Swiss pairs only rematches and a
    round robin starts its cycle again. Capped rather than refused, since rounds cannot change after creation."""
    return min(rounds, brackets.robin_rounds(players))


def _swiss_over(state: Tournament) -> bool:
    return bool(state.planned) and len(state.swiss_rounds()) >= state.planned and state.rounds[-1].finished


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
    return [TournamentEnded(winner=standings_of(state, extra=last)[0].player)]


def _open(state: Tournament) -> None:
    if state.ended:
        raise Refused("the tournament has ended", reason="TOURNAMENT_ENDED")


def _player(state: Tournament, player: str) -> Player:
    found = state.players.get(player)
    if found is None:
        raise NotFound(f"no player {player!r} in this tournament", reason="PLAYER_NOT_FOUND", player=player)
    return found


def _current_round(state: Tournament) -> Round:
    _open(state)
    if not state.rounds:
        raise Refused("the tournament has not started", reason="TOURNAMENT_NOT_STARTED")
    return state.rounds[-1]


def _table(state: Tournament, round: int, table: int) -> TableState:
    current = state.round(round)
    found = current.table(table) if current is not None else None
    if found is None:
        raise NotFound(
            f"no table {table} in round {round}", reason="TABLE_NOT_FOUND", round=str(round), table=str(table)
        )
    return found


def _counted(state: Tournament, round: int, table: int, game: int, generation: int, match_id: str) -> TableState | None:
    """The table a match's result belongs to, if it is still waiting for exactly that game."""
    current = state.round(round)
    found = current.table(table) if current is not None else None
    if found is None or match_id in state.match_ids or found.generation != generation:
        return None
    playing = found.current_game()
    return found if playing is not None and playing.number == game else None


def _audited(by: str, why: str) -> None:
    _bounded(by, why)
    if not by.strip() or not why.strip():
        raise InvalidArgument("an organiser's result says who entered it and why", reason="AUDIT_MISSING")


def _bounded(by: str, why: str) -> None:
    limits.printable(by, limits.MAX_AUDIT, "by", "AUDIT_INVALID")
    limits.printable(why, limits.MAX_AUDIT, "why", "AUDIT_INVALID")


def _check_result(table: TableState, result: Result) -> None:
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


def _expanded(ruleset: Ruleset, seat: dict[str, Any]) -> dict[str, Any] | None:
    deck = seat.get("deck")
    if isinstance(deck, str):
        deck = ruleset.presets.get(deck)
    if not isinstance(deck, dict) or not deck.get("side"):
        return None
    return deck
