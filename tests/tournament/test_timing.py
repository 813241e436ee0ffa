"""The chooser's deadline and the round's clock (services/tournament/timing.py), on recorded times."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from engine import registry
from services.tournament import registration, rounds, series, timing
from services.tournament.events import (
    ChooserTimedOut,
    Event,
    MatchResulted,
    RoundTimeEnded,
    TournamentEnded,
)
from services.tournament.state import Result, Tournament, apply, fold

T0 = datetime(2026, 1, 1, 10, 0, tzinfo=UTC)


def at(state: Tournament, events: list[Event], when: datetime) -> list[Event]:
    for event in events:
        apply(state, event, state.version + 1, when)
    return events


def run(state: Tournament, decision: Callable[[Tournament], list[Event]], when: datetime = T0) -> list[Event]:
    return at(state, decision(state), when)


def started(
    players: int, best_of: int = 3, tiebreak: str = "mtg", minutes: int = 50, chooser: int = 60, rounds_: int = 2
) -> Tournament:
    rules = registry.get("card_monsters")
    state = fold(
        registration.create(
            "t",
            "cup",
            rules,
            "swiss",
            rounds_,
            0,
            best_of,
            tiebreak,
            minutes,
            bytes(32),
            {},
            timing=registration.Timing(chooser_seconds=chooser),
        ),
        [T0],
    )
    for i in range(players):
        run(state, lambda t, i=i: registration.register(t, rules, f"p{i}", {}))
    run(state, rounds.start)
    return state


def game(state: Tournament, table: int, number: int, winner: str | None, when: datetime) -> None:
    found = state.rounds[-1].table(table)
    assert found is not None
    at(
        state,
        series.record_game(state, 1, table, number, found.generation, f"m{table}-{number}", winner),
        when,
    )


def test_a_chooser_who_does_not_choose_is_chosen_for_at_the_deadline_and_only_once() -> None:
    state = started(2)
    table = state.rounds[0].tables[0]
    game(state, 1, 1, table.a, T0 + timedelta(minutes=5))
    (due,) = [d for d in timing.deadlines(state) if d.kind == timing.CHOOSER]
    assert due.at == T0 + timedelta(minutes=5, seconds=60) and due.game == 2
    assert timing.expire(state, due.key, due.at - timedelta(seconds=1)) == []
    events = run(state, lambda t: timing.expire(t, due.key, due.at), due.at)
    # The loser of game 1 chooses; at the deadline the chooser goes first.
    assert events == [ChooserTimedOut(round=1, table=1, game=2, chooser=table.b, first=table.b)]
    assert table.current_game() is not None and table.current_game().first == table.b  # type: ignore[union-attr]
    assert [d for d in timing.deadlines(state) if d.kind == timing.CHOOSER] == []
    assert timing.expire(state, due.key, due.at + timedelta(hours=1)) == []


def test_a_choice_in_time_stops_the_chooser_deadline() -> None:
    state = started(2)
    table = state.rounds[0].tables[0]
    game(state, 1, 1, table.a, T0)
    (due,) = [d for d in timing.deadlines(state) if d.kind == timing.CHOOSER]
    assert table.b is not None
    run(state, lambda t: series.choose_first(t, 1, 1, table.b or "", table.a))
    assert timing.expire(state, due.key, due.at + timedelta(minutes=1)) == []


def test_no_chooser_deadline_without_chooser_seconds() -> None:
    state = started(2, chooser=0)
    table = state.rounds[0].tables[0]
    game(state, 1, 1, table.a, T0)
    assert [d.kind for d in timing.deadlines(state)] == [timing.ROUND]


def test_mtg_time_draws_the_game_in_progress_and_ends_the_last_round() -> None:
    state = started(4, rounds_=1)
    one, two = state.rounds[0].tables
    game(state, 1, 1, one.a, T0 + timedelta(minutes=20))
    run(state, lambda t: series.choose_first(t, 1, 1, one.b or "", one.b or ""))
    (due,) = timing.deadlines(state)
    assert due.kind == timing.ROUND and due.at == T0 + timedelta(minutes=50)
    assert timing.expire(state, due.key, due.at - timedelta(microseconds=1)) == []
    events = run(state, lambda t: timing.expire(t, due.key, due.at), due.at)
    assert events[0] == RoundTimeEnded(round=1, minutes=50)
    results = [e for e in events if isinstance(e, MatchResulted)]
    assert [(r.table, r.wins_a, r.wins_b, r.draws, r.source) for r in results] == [
        (1, 1, 0, 1, "time"),
        (2, 0, 0, 1, "time"),
    ]
    assert isinstance(events[-1], TournamentEnded) and events[-1].winner == one.a
    assert state.ended and one.winner() == one.a and two.winner() is None
    assert timing.deadlines(state) == [] and timing.expire(state, due.key, due.at) == []


def test_pokemon_and_ygo_time_counts_finished_games_only() -> None:
    for preset in ("pokemon", "ygo"):
        state = started(4, tiebreak=preset)
        one = state.rounds[0].tables[0]
        game(state, 1, 1, one.b, T0)
        (due,) = [d for d in timing.deadlines(state) if d.kind == timing.ROUND]
        events = run(state, lambda t, key=due.key, when=due.at: timing.expire(t, key, when), due.at)
        results = [(e.table, e.wins_a, e.wins_b, e.draws) for e in events if isinstance(e, MatchResulted)]
        assert results == [(1, 0, 1, 0), (2, 0, 0, 0)], preset
        # Round 1 of 2: the tournament goes on, and the next round has its own clock.
        assert not any(isinstance(e, TournamentEnded) for e in events)
        run(state, rounds.pair, due.at + timedelta(minutes=2))
        (following,) = timing.deadlines(state)
        assert following.round == 2 and following.at == due.at + timedelta(minutes=52)


def test_a_repaired_round_runs_its_clock_from_the_new_pairing_and_elimination_has_none() -> None:
    state = started(4, minutes=30)
    run(state, lambda t: rounds.repair(t, "judge", "late player"), T0 + timedelta(minutes=10))
    (due,) = timing.deadlines(state)
    assert due.at == T0 + timedelta(minutes=40)
    rules = registry.get("card_monsters")
    knockout = fold(
        registration.create("k", "ko", rules, "single_elimination", 0, 0, 1, "mtg", 30, bytes(32), {}), [T0]
    )
    for i in range(4):
        run(knockout, lambda t, i=i: registration.register(t, rules, f"p{i}", {}))
    run(knockout, rounds.start)
    assert timing.deadlines(knockout) == []


def test_a_table_finished_before_time_keeps_its_result() -> None:
    state = started(4, best_of=1)
    one = state.rounds[0].tables[0]
    run(state, lambda t: series.report(t, 1, 1, Result(1, 0, 0), "judge", "paper"))
    (due,) = timing.deadlines(state)
    events = run(state, lambda t: timing.expire(t, due.key, due.at), due.at)
    assert [e.table for e in events if isinstance(e, MatchResulted)] == [2]
    assert one.result == Result(1, 0, 0) and one.manual is not None and one.manual.source == "organiser"
    assert isinstance(events[0], RoundTimeEnded)
