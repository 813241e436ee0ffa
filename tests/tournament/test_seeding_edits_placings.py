"""Seeds and ratings (round 1, brackets), the organiser's pairing edits, and final placings after the cut."""

from __future__ import annotations

import random

import pytest

from engine import registry
from services.core.errors import InvalidArgument, Refused
from services.tournament import edits, placings, ranking, registration, rounds, series
from services.tournament.events import PairingsEdited
from services.tournament.state import Result, Tournament, fold
from tests.tournament.simulate import finish_round, run, tournament


def seeded(format: str, entries: list[tuple[str, int, int]], cut: int = 0) -> Tournament:
    """Players registered with (name, seed, rating), in that order."""
    rules = registry.get("card_monsters")
    state = fold(registration.create("t", "cup", rules, format, 0, cut, 1, "mtg", 0, bytes(32), {}))
    for name, seed, rating in entries:
        run(state, lambda t, n=name, s=seed, r=rating: registration.register(t, rules, n, {}, s, r))
    return state


def pairs(state: Tournament) -> list[tuple[str, str | None]]:
    return [(t.a, t.b) for t in state.rounds[-1].tables]


def test_seeds_then_ratings_pair_round_1_top_half_against_bottom_half() -> None:
    entries = [("h", 0, 1500), ("a", 2, 0), ("z", 1, 0), ("k", 0, 1800), ("q", 0, 0)]
    state = seeded("swiss", entries)
    run(state, rounds.start)
    # z(1) a(2) k(1800) h(1500) q: 1 v 3, 2 v 4, the last has the bye.
    assert pairs(state) == [("z", "k"), ("a", "h"), ("q", None)]


def test_seeds_order_a_single_elimination_bracket() -> None:
    state = seeded("single_elimination", [(f"s{n}", n, 0) for n in (5, 3, 8, 1, 7, 2, 6, 4)])
    run(state, rounds.start)
    assert pairs(state) == [("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")]


def test_without_seeds_round_1_is_drawn_as_before() -> None:
    plain = tournament([f"p{i}" for i in range(8)], seed=b"\x07" * 32)
    again = tournament([f"p{i}" for i in range(8)], seed=b"\x07" * 32)
    run(plain, rounds.start)
    run(again, rounds.start)
    assert pairs(plain) == pairs(again) and pairs(plain) != [(f"p{i}", f"p{i + 4}") for i in range(4)]


def test_a_seed_is_given_once_and_in_range() -> None:
    state = seeded("swiss", [("a", 1, 0)])
    rules = registry.get("card_monsters")
    with pytest.raises(Refused) as taken:
        registration.register(state, rules, "b", {}, 1, 0)
    assert taken.value.reason == "SEED_TAKEN"
    with pytest.raises(InvalidArgument) as bad:
        registration.register(state, rules, "b", {}, 0, -5)
    assert bad.value.reason == "SEED_OR_RATING_INVALID"


def test_swap_exchanges_two_players_and_keeps_the_other_tables_games() -> None:
    state = tournament(["a", "b", "c", "d", "e", "f"], best_of=3)
    run(state, rounds.start)
    before = [(t.a, t.b, t.generation) for t in state.rounds[0].tables]
    x, y = before[0][0], before[1][1]
    assert y is not None
    events = run(state, lambda t: edits.edit(t, 1, edits.SWAP, [x, y], "judge", "seating error"))
    assert isinstance(events[0], PairingsEdited) and events[0].by == "judge"
    after = state.rounds[0].tables
    assert (after[0].a, after[1].b) == (y, x)
    assert after[2].generation == before[2][2] and after[0].generation != before[0][2]
    assert all(t.games and t.games[0].first in (t.a, t.b) for t in after)


def test_a_bye_given_by_hand_sends_the_bye_holder_to_the_opponent() -> None:
    state = tournament(["a", "b", "c", "d", "e"])
    run(state, rounds.start)
    holder = next(t.a for t in state.rounds[0].tables if t.b is None)
    first = state.rounds[0].tables[0]
    lucky, opponent = first.a, first.b
    run(state, lambda t: edits.edit(t, 0, edits.BYE, [lucky], "judge", "medical"))
    seats = {(t.a, t.b, t.loss) for t in state.rounds[0].tables}
    assert (lucky, None, False) in seats
    assert any({t.a, t.b} == {holder, opponent} for t in state.rounds[0].tables)
    assert sum(t.b is None for t in state.rounds[0].tables) == 1


def test_an_assigned_loss_counts_as_a_loss_without_an_opponent() -> None:
    state = tournament(["a", "b", "c", "d"])
    run(state, rounds.start)
    first = state.rounds[0].tables[0]
    late, opponent = first.a, first.b
    run(state, lambda t: edits.edit(t, 1, edits.LOSS, [late], "judge", "tardiness"))
    tables = state.rounds[0].tables
    assert [(t.a, t.b, t.loss) for t in tables if t.b is None] == [(late, None, True), (opponent, None, False)]
    finish_round(state, random.Random(1))
    rows = {s.player: s for s in ranking.standings_of(state)}
    assert (rows[late].points, rows[late].losses, rows[late].byes) == (0, 1, 0)
    assert (rows[opponent].points, rows[opponent].byes) == (3, 1)
    # The loss was no bye: the next round may give the player one.
    assert not next(e for e in ranking.entrants(state) if e.player == late).had_bye


def test_edits_are_refused_once_the_round_has_a_result_and_outside_swiss() -> None:
    state = tournament(["a", "b", "c", "d"])
    run(state, rounds.start)
    first = state.rounds[0].tables[0]
    for kind, players, reason in (
        ("move", [first.a], "EDIT_INVALID"),
        (edits.SWAP, [first.a], "EDIT_INVALID"),
        (edits.SWAP, [first.a, first.b], "EDIT_INVALID"),
    ):
        with pytest.raises(InvalidArgument) as bad:
            edits.edit(state, 1, kind, players, "judge", "x")
        assert bad.value.reason == reason
    with pytest.raises(InvalidArgument) as unaudited:
        edits.edit(state, 1, edits.BYE, [first.a], "", "")
    assert unaudited.value.reason == "AUDIT_MISSING"
    run(state, lambda t: series.report(t, 1, 1, Result(1, 0, 0), "judge", "paper"))
    with pytest.raises(Refused) as late:
        edits.edit(state, 1, edits.BYE, [state.rounds[0].tables[1].a], "judge", "x")
    assert late.value.reason == "ROUND_HAS_RESULTS"
    with pytest.raises(Refused) as past:
        edits.edit(state, 2, edits.BYE, [first.a], "judge", "x")
    assert past.value.reason == "ROUND_NOT_CURRENT"


def test_placings_put_the_cut_first_by_the_round_each_went_out_then_the_swiss_standings() -> None:
    state = tournament([f"p{i}" for i in range(10)], rounds=3, cut=4)
    rng = random.Random(3)
    run(state, rounds.start)
    for _ in range(2):
        finish_round(state, rng)
        run(state, rounds.pair)
    finish_round(state, rng)
    assert placings.placings(state) == []
    run(state, rounds.cut)
    swiss = [s.player for s in ranking.standings_of(state)]
    semis = state.rounds[-1]
    finish_round(state, rng)
    run(state, rounds.pair)
    final = state.rounds[-1].tables[0]
    finish_round(state, rng)
    assert state.ended
    placed = placings.placings(state)
    winner = final.winner()
    assert winner is not None
    semi_losers = sorted((t.opponent(t.winner() or "") or "" for t in semis.tables), key=swiss.index)
    assert placed[:2] == [winner, final.opponent(winner)]
    assert placed[2:4] == semi_losers
    assert placed[4:] == [p for p in swiss if p not in placed[:4]]


def test_games_may_have_a_disconnect_grace_and_a_bad_one_is_refused_at_creation() -> None:
    rules = registry.get("card_monsters")
    options = {"turn_seconds": 60, "disconnect_grace_seconds": 90}
    state = fold(registration.create("t", "cup", rules, "swiss", 0, 0, 1, "mtg", 0, bytes(32), options))
    assert registration.register(state, rules, "ann", {}, 0, 0)
    with pytest.raises(InvalidArgument) as refused:
        registration.create("t", "cup", rules, "swiss", 0, 0, 1, "mtg", 0, bytes(32), {"disconnect_grace_seconds": -1})
    assert refused.value.reason == "DISCONNECT_GRACE_INVALID"
