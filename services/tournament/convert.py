"""Tournament values to duelhall.v1 tournament messages."""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from services.api import tournament_pb2 as tpb
from services.edge import wire
from services.matches import Created
from services.tournament import placings, ranking, series, timing
from services.tournament.events import MTG, POKEMON
from services.tournament.listing import Listed
from services.tournament.state import Game, Round, TableState, Tournament

TIEBREAK_NAMES = {MTG: ["OMW", "GW", "OGW"], POKEMON: ["OWP", "OOWP"]}
YGO_NAMES = ["OMW", "OOMW"]


def tournament(state: Tournament) -> tpb.Tournament:
    created = state.created
    current = state.rounds[-1] if state.rounds else None
    status = "ended" if state.ended else "running" if state.rounds else "registration"
    players = [
        tpb.TournamentPlayer(
            name=p.name, checked_in=p.checked_in, dropped=p.dropped, late=p.late, seed=p.seed, rating=p.rating
        )
        for p in sorted(state.players.values(), key=lambda p: p.name)
    ]
    return tpb.Tournament(
        tournament_id=created.tournament_id,
        name=created.name,
        ruleset=created.ruleset,
        format=created.format,
        rounds=state.planned or created.rounds,
        cut=created.cut,
        best_of=created.best_of,
        tiebreak=created.tiebreak,
        round_minutes=created.round_minutes,
        status=status,
        current_round=current.number if current else 0,
        current_stage=current.stage if current else "",
        current_round_finished=bool(current and current.finished),
        players=players,
        winner=state.winner or "",
        version=state.version,
        seed_hex=created.seed,
        replays_published=not state.embargoed,
        ruleset_version=created.ruleset_version,
        spectators=wire.spectators_pb(created.spectators),
        caster_delay_seconds=created.caster_delay_seconds,
        decklists=created.decklists,
        chooser_seconds=created.chooser_seconds,
        labels=created.labels,
        round_ends_at=next((d.at.isoformat() for d in timing.deadlines(state) if d.kind == timing.ROUND), ""),
        deck_rule=created.deck_rule,
        fixed_deck_json=msgspec.json.encode(created.fixed_deck).decode() if created.fixed_deck else "",
    )


_DECKS = {"PlayerRegistered": ("deck",), "DeckSided": ("deck", "removed", "added")}
"""The fields of each event type that show a player's registered deck."""


def without_decks(type: str, data: bytes) -> bytes:
    """An event's JSON with what it shows of a registered deck left out (``deck`` becomes ``{}``, a side swap's
    cards ``[]``), for a reader who may not see the decks while the tournament's replays are embargoed."""
    hidden = _DECKS.get(type)
    if hidden is None:
        return data
    shown = msgspec.json.decode(data)
    for key in hidden:
        shown[key] = {} if key == "deck" else []
    return msgspec.json.encode(shown)


def pairings(state: Tournament, found: Round, games: Mapping[tuple[int, int], Created] = {}) -> tpb.Pairings:
    """A round's tables; ``games`` (for the admin token) adds each game's match id as soon as it is created, and
    its spectator and caster tokens."""
    due = timing.deadlines(state)
    choosers = {d.table: d.at.isoformat() for d in due if d.kind == timing.CHOOSER and d.round == found.number}
    return tpb.Pairings(
        round=found.number, stage=found.stage, tables=[_table(t, games, choosers) for t in found.tables]
    )


def _table(table: TableState, games: Mapping[tuple[int, int], Created], choosers: dict[int, str]) -> tpb.TableEntry:
    result = None
    if table.result is not None:
        source = (
            "corrected"
            if table.corrections
            else timing.TIME_SOURCE
            if table.manual is not None and table.manual.source == timing.TIME_SOURCE
            else "organiser"
            if table.manual
            else "games"
        )
        result = tpb.TableResult(
            wins_a=table.result.wins_a, wins_b=table.result.wins_b, draws=table.result.draws, source=source
        )
    entries = [_game(g, games.get((table.table, g.number))) for g in table.games]
    waiting = not table.finished and bool(table.games) and table.games[-1].played
    return tpb.TableEntry(
        table=table.table,
        a=table.a,
        b=table.b or "",
        finished=table.finished,
        result=result,
        games=entries,
        unverified_match_ids=[u.match_id for u in table.unverified],
        chooser=series.next_chooser(table) if waiting else "",
        loss=table.loss,
        chooser_deadline=choosers.get(table.table, ""),
    )


def _game(game: Game, created: Created | None) -> tpb.GameEntry:
    entry = tpb.GameEntry(
        game=game.number, first=game.first, match_id=game.match_id, winner=game.winner or "", played=game.played
    )
    if created is not None:
        entry.match_id = created.row.match_id
        entry.spectator_token, entry.caster_token = created.spectator_token, created.caster_token
    return entry


def standings(state: Tournament, through: int | None) -> tpb.Standings:
    rows = ranking.standings_of(state, through)
    entries = [
        tpb.StandingEntry(
            rank=s.rank,
            player=s.player,
            points=s.points,
            wins=s.wins,
            losses=s.losses,
            draws=s.draws,
            byes=s.byes,
            tiebreaks=[f"{f.numerator}/{f.denominator}" for f in s.tiebreaks],
            dropped=s.dropped,
        )
        for s in rows
    ]
    return tpb.Standings(
        tiebreak=state.created.tiebreak,
        tiebreak_names=TIEBREAK_NAMES.get(state.created.tiebreak, YGO_NAMES),
        standings=entries,
        cut_seeds=state.cut_seeds,
        placings=placings.placings(state) if through is None else [],
    )


def summary(row: Listed) -> tpb.TournamentSummary:
    return tpb.TournamentSummary(
        tournament_id=row.tournament_id,
        name=row.name,
        ruleset=row.ruleset,
        format=row.format,
        status=row.status,
        labels=row.labels,
    )
