"""Formats, series and organiser actions through the pure decisions (no server)."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.errors import ConfigError
from services.core.errors import InvalidArgument, Refused
from services.tournament import brackets, registration, rounds, series
from services.tournament.events import DeckSided, PlayerRegistered, TournamentEnded
from services.tournament.state import Result, Tournament, apply
from tests.tournament.simulate import finish_round, run, tournament


def _reason(error: pytest.ExceptionInfo[Exception]) -> str:
    return str(getattr(error.value, "reason", ""))


def _game(state: Tournament, table: int, winner: str | None, match_id: str) -> list[object]:
    current = state.rounds[-1]
    found = current.table(table)
    assert found is not None
    game = found.current_game()
    assert game is not None
    return list(
        run(
            state,
            lambda t: series.record_game(t, current.number, table, game.number, found.generation, match_id, winner),
        )
    )


def test_cut_seeding_and_byes_for_top_seeds() -> None:
    assert brackets.seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert brackets.seed_order(4) == [1, 4, 2, 3]
    assert brackets.bracket(["s1", "s2", "s3", "s4", "s5", "s6"]) == [
        ("s1", None),
        ("s4", "s5"),
        ("s2", None),
        ("s3", "s6"),
    ]


def test_single_elimination_runs_to_one_winner_and_refuses_draws() -> None:
    state = tournament([f"p{i}" for i in range(8)], format="single_elimination")
    run(state, rounds.start)
    with pytest.raises(Refused) as draw:
        run(state, lambda t: series.report(t, 1, 1, Result(0, 0, 1), "judge", "time"))
    assert _reason(draw) == "DRAW_NOT_ALLOWED"
    for impossible in (Result(2, 0, 0), Result(1, 1, 0), Result(2**31 - 1, 0, 0)):  # best of 1: one win ends it
        with pytest.raises(InvalidArgument) as refused:
            run(state, lambda t, result=impossible: series.report(t, 1, 1, result, "judge", "slip"))
        assert _reason(refused) == "RESULT_INVALID"
    rng = random.Random(4)
    for expected in (4, 2, 1):
        assert len(state.rounds[-1].tables) == expected
        finish_round(state, rng)
        if not state.ended:
            run(state, rounds.pair)
    assert state.ended and state.winner == state.rounds[-1].tables[0].winner()


def test_round_robin_meets_everyone_once_and_ends() -> None:
    players = [f"p{i}" for i in range(5)]
    state = tournament(players, format="round_robin")
    run(state, rounds.start)
    rng = random.Random(1)
    while not state.ended:
        finish_round(state, rng)
        if not state.ended:
            run(state, rounds.pair)
    assert len(state.rounds) == 5
    pairs = [frozenset(t.players()) for r in state.rounds for t in r.tables if t.b is not None]
    assert len(pairs) == len(set(pairs)) == 10
    assert sorted(t.a for r in state.rounds for t in r.tables if t.b is None) == players


def test_best_of_three_the_loser_chooses_and_a_draw_keeps_the_chooser() -> None:
    state = tournament(["ann", "bob"], best_of=3, rounds=1)
    run(state, rounds.start)
    table = state.rounds[0].tables[0]
    winner = table.games[0].first
    loser = table.opponent(winner)
    assert loser is not None
    _game(state, 1, winner, "m1")
    with pytest.raises(Refused) as wrong:
        run(state, lambda t: series.choose_first(t, 1, 1, winner, winner))
    assert _reason(wrong) == "NOT_CHOOSER"
    run(state, lambda t: series.choose_first(t, 1, 1, loser, loser))
    assert table.current_game() is not None and table.seats(table.games[-1]) == (loser, winner)
    _game(state, 1, None, "m2")
    assert series.next_chooser(table) == loser
    run(state, lambda t: series.choose_first(t, 1, 1, loser, winner))
    events = _game(state, 1, loser, "m3")
    assert table.result is not None and (table.tally().draws, table.finished) == (1, True)
    assert isinstance(events[-1], TournamentEnded)
    # The same match reported again changes nothing.
    assert series.record_game(state, 1, 1, 3, table.generation, "m3", loser) == []


def test_elimination_series_continue_past_a_drawn_decider() -> None:
    assert series.series_result("cut", 3, Result(1, 1, 1)) is None
    assert series.series_result("swiss", 3, Result(1, 1, 1)) == Result(1, 1, 1)
    assert series.series_result("cut", 1, Result(0, 0, 1)) is None
    assert series.series_result("cut", 3, Result(2, 1, 1)) == Result(2, 1, 1)


def test_side_deck_swaps_are_one_for_one_and_validated_by_the_ruleset() -> None:
    duel = registry.get("duel")
    state = tournament([], best_of=3, rounds=1, ruleset="duel")
    for player in ("ann", "bob"):
        run(state, lambda t: registration.register(t, duel, player, {"deck": "starter_a"}))
    run(state, rounds.start)
    table = state.rounds[0].tables[0]
    with pytest.raises(Refused) as early:
        run(state, lambda t: series.side_deck(t, duel, 1, 1, "ann", ["cinder_wolf"], ["gale_sweep"]))
    assert _reason(early) == "NOT_BETWEEN_GAMES"
    _game(state, 1, "ann", "m1")
    with pytest.raises(InvalidArgument) as uneven:
        run(state, lambda t: series.side_deck(t, duel, 1, 1, "bob", ["cinder_wolf"], []))
    assert _reason(uneven) == "SIDE_SWAP_UNEVEN"
    with pytest.raises(InvalidArgument) as missing:
        run(state, lambda t: series.side_deck(t, duel, 1, 1, "bob", ["cinder_wolf"], ["spiked_snare"]))
    assert _reason(missing) == "SIDE_CARD_MISSING"
    with pytest.raises(ConfigError):
        # The side card takes the fusion's place in the extra deck, which the ruleset refuses.
        run(state, lambda t: series.side_deck(t, duel, 1, 1, "bob", ["scorchfang_chimera"], ["gale_sweep"]))
    events = run(state, lambda t: series.side_deck(t, duel, 1, 1, "bob", ["cinder_wolf"], ["gale_sweep"]))
    sided = events[0]
    assert isinstance(sided, DeckSided) and sided.game == 2
    deck = sided.deck["deck"]
    starter = duel.presets["starter_a"]
    assert deck["main"].count("gale_sweep") == starter["main"].count("gale_sweep") + 1
    assert deck["main"].count("cinder_wolf") == starter["main"].count("cinder_wolf") - 1
    assert deck["side"] == ["cinder_wolf", "gale_sweep", "shell_sentinel"]
    assert table.deck_for("bob", 2, {"deck": "starter_a"}) == sided.deck
    assert table.deck_for("ann", 2, {"deck": "starter_a"}) == {"deck": "starter_a"}


def test_check_in_drops_who_did_not_and_repairing_stops_at_the_first_result() -> None:
    state = tournament([f"p{i}" for i in range(6)])
    for player in ("p0", "p1", "p2", "p3", "p4"):
        run(state, lambda t: registration.check_in(t, player))
    run(state, rounds.start)
    assert state.players["p5"].dropped and all(p != "p5" for t in state.rounds[0].tables for p in t.players())
    run(state, lambda t: registration.drop(t, "p0", "p0", "leaving"))
    assert any("p0" in t.players() for t in state.rounds[0].tables)  # a drop after pairing still plays
    run(state, lambda t: rounds.repair(t, "judge", "p0 left before playing"))
    assert all("p0" not in t.players() for t in state.rounds[0].tables)
    table = next(t for t in state.rounds[0].tables if t.b is not None)
    run(state, lambda t: series.report(t, 1, table.table, Result(1, 0, 0), "judge", "slip"))
    with pytest.raises(Refused) as late:
        run(state, lambda t: rounds.repair(t, "judge", "again"))
    assert _reason(late) == "ROUND_HAS_RESULTS"
    with pytest.raises(InvalidArgument) as unaudited:
        run(state, lambda t: series.correct(t, 1, table.table, Result(0, 1, 0), "", ""))
    assert _reason(unaudited) == "AUDIT_MISSING"
    with pytest.raises(Refused) as unfinished:
        run(state, rounds.pair)
    assert _reason(unfinished) == "ROUND_NOT_FINISHED"


@pytest.mark.parametrize(
    ("format", "count", "asked", "played"),
    [("swiss", 4, 64, 3), ("swiss", 5, 64, 5), ("swiss", 4, 2, 2), ("round_robin", 4, 64, 3), ("round_robin", 5, 7, 5)],
)
def test_rounds_stop_at_a_whole_round_robin_of_the_players(format: str, count: int, asked: int, played: int) -> None:
    """64 Swiss rounds for 4 players would be rematches from round 4 on, and a round robin past its last round
    would start the cycle again: the rounds asked for are capped when the tournament starts."""
    state = tournament([f"p{i}" for i in range(count)], format=format, rounds=asked)
    run(state, rounds.start)
    assert state.planned == played
    rng = random.Random(2)
    while not state.ended:
        finish_round(state, rng)
        if not state.ended:
            run(state, rounds.pair)
    assert len(state.rounds) == played


def test_registration_stops_at_the_players_cap() -> None:
    """Every Tournament reply and standings call lists every player, and each pairing and standings decision
    grows with them: the tournament is full at MAX_PLAYERS, late registration included."""
    state = tournament([])
    for i in range(registration.MAX_PLAYERS - 1):
        apply(state, PlayerRegistered(player=f"p{i:04d}", deck={}, late=False), state.version + 1)
    card_monsters = registry.get("card_monsters")
    run(state, lambda t: registration.register(t, card_monsters, "last", {}))
    with pytest.raises(Refused) as full:
        registration.register(state, card_monsters, "one_more", {})
    assert _reason(full) == "TOURNAMENT_FULL"
    with pytest.raises(Refused) as exists:
        registration.register(state, card_monsters, "last", {})
    assert _reason(exists) == "PLAYER_EXISTS"
    run(state, rounds.start)
    with pytest.raises(Refused) as late:
        registration.register(state, card_monsters, "late", {})
    assert _reason(late) == "TOURNAMENT_FULL"


def test_a_side_swap_takes_at_most_the_side_deck() -> None:
    """Swapping a card out and back in again is a valid swap of any length, which the event would keep whole:
    a swap takes at most as many cards as the side deck holds."""
    duel = registry.get("duel")
    state = tournament([], best_of=3, rounds=1, ruleset="duel")
    for player in ("ann", "bob"):
        run(state, lambda t: registration.register(t, duel, player, {"deck": "starter_a"}))
    run(state, rounds.start)
    _game(state, 1, "ann", "m1")
    side = len(duel.presets["starter_a"]["side"])
    for repeat in (side // 2 + 1, 100_000):
        removed, added = ["cinder_wolf", "gale_sweep"] * repeat, ["gale_sweep", "cinder_wolf"] * repeat
        with pytest.raises(InvalidArgument) as large:
            run(state, lambda t: series.side_deck(t, duel, 1, 1, "bob", removed, added))
        assert _reason(large) == "SIDE_SWAP_TOO_LARGE"
    whole = ["cinder_wolf", "cinder_wolf", "dune_scorpion"]
    events = run(state, lambda t: series.side_deck(t, duel, 1, 1, "bob", whole, duel.presets["starter_a"]["side"]))
    assert isinstance(events[0], DeckSided) and len(events[0].added) == side
