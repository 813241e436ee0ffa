"""Swiss pairing and standings properties over generated tournaments (hypothesis).

The rematch oracle is independent of the pairing code: networkx's maximum matching over the tables that
would not be rematches says whether a rematch-free round existed among the players without the bye (the bye
goes first, to the lowest-ranked player without one: the MTR's order).
"""

from __future__ import annotations

import random

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rng import Rng
from services.tournament import pairing, ranking, registration, rounds, standings
from services.tournament.state import Tournament
from tests.tournament.simulate import finish_round, run, tournament

_BYE = "(bye)"


def _met(state: Tournament, before: int) -> tuple[dict[str, set[str]], set[str]]:
    met: dict[str, set[str]] = {p: set() for p in state.players}
    byes: set[str] = set()
    for current in state.rounds[:before]:
        for table in current.tables:
            if table.b is None:
                byes.add(table.a)
            else:
                met[table.a].add(table.b)
                met[table.b].add(table.a)
    return met, byes


def _rematch_free_round_exists(players: list[str], met: dict[str, set[str]], byes: set[str]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for i, a in enumerate(players) for b in players[i + 1 :] if b not in met[a])
    if len(players) % 2:
        graph.add_node(_BYE)
        graph.add_edges_from((p, _BYE) for p in players if p not in byes)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matching) == graph.number_of_nodes()


def _check_round(state: Tournament) -> None:
    current = state.rounds[-1]
    active = state.active()
    seated = [p for t in current.tables for p in t.players()]
    assert sorted(seated) == active, "every active player is paired exactly once"
    assert sum(t.b is None for t in current.tables) == len(active) % 2
    met, byes = _met(state, current.number - 1)
    for table in current.tables:
        if table.b is None:
            assert table.a not in byes or all(p in byes for p in active), "never a second bye"
    rematches = sum(t.b is not None and t.b in met[t.a] for t in current.tables)
    # The bye comes first (the lowest-ranked player without one, checked apart); among the others, no rematch
    # while one is avoidable.
    seated_at_tables = [p for p in active if p not in {t.a for t in current.tables if t.b is None}]
    if _rematch_free_round_exists(seated_at_tables, met, byes):
        assert rematches == 0, "no rematch while one is avoidable"


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=22),
    asked=st.integers(min_value=1, max_value=6),
    seed=st.binary(min_size=32, max_size=32),
    results=st.integers(min_value=0, max_value=2**32),
    drops=st.lists(st.integers(min_value=0, max_value=21), max_size=4),
)
def test_swiss_rounds_pair_everyone_once_without_avoidable_rematches_or_second_byes(
    count: int,
    asked: int,
    seed: bytes,
    results: int,
    drops: list[int],
) -> None:
    players = [f"p{i:02d}" for i in range(count)]
    state = tournament(players, rounds=asked, seed=seed)
    rng = random.Random(results)
    run(state, rounds.start)
    _check_round(state)
    for number in range(2, state.planned + 1):  # at most a whole round robin of the players
        finish_round(state, rng)
        if drops and len(state.active()) > 2:
            dropping = players[drops.pop() % count]
            if not state.players[dropping].dropped:
                run(state, lambda t: registration.drop(t, dropping, "judge", "test"))
        run(state, rounds.pair)
        assert state.rounds[-1].number == number
        _check_round(state)


@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(min_value=3, max_value=16),
    seed=st.binary(min_size=32, max_size=32),
    results=st.integers(min_value=0, max_value=2**32),
    preset=st.sampled_from(["mtg", "pokemon", "ygo"]),
    order=st.randoms(use_true_random=False),
)
def test_standings_do_not_depend_on_registration_order(
    count: int, seed: bytes, results: int, preset: str, order: random.Random
) -> None:
    players = [f"p{i:02d}" for i in range(count)]
    shuffled = list(players)
    order.shuffle(shuffled)
    tables = []
    for registered in (players, shuffled):
        state = tournament(registered, rounds=3, seed=seed, tiebreak=preset, best_of=3)
        rng = random.Random(results)
        run(state, rounds.start)
        for _ in range(2):
            finish_round(state, rng)
            run(state, rounds.pair)
        finish_round(state, rng)
        tables.append(ranking.standings_of(state))
    assert tables[0] == tables[1]
    records = ranking.records(state)
    assert standings.standings(preset, list(reversed(shuffled)), list(reversed(records))) == standings.standings(
        preset, players, records
    )


def test_large_fields_pair_on_a_neighbourhood_without_rematches_or_second_byes() -> None:
    """Above the dense limit each player is joined only to its nearest in the standings; still every player
    is paired once, with no rematch and no second bye, and the bye goes low in the standings."""
    count = pairing.DENSE_LIMIT + 45
    rng = random.Random(11)
    names = [f"p{i:03d}" for i in range(count)]
    met: dict[str, set[str]] = {n: set() for n in names}
    for _ in range(4):
        order = rng.sample(names, count)
        for a, b in zip(order[::2], order[1::2], strict=False):
            met[a].add(b)
            met[b].add(a)
    points = sorted((rng.choice((0, 3, 6, 6, 9, 12)) for _ in names), reverse=True)
    had_bye = set(names[-3:])
    entrants = [
        pairing.Entrant(player=n, points=points[i], rank=i, opponents=frozenset(met[n]), had_bye=n in had_bye)
        for i, n in enumerate(names)
    ]
    result = pairing.swiss_round(entrants, Rng(bytes(32), 1))
    seated = [p for table in result.tables for p in table if p is not None]
    assert sorted(seated) == names
    assert result.rematches == 0 and all(b is None or b not in met[a] for a, b in result.tables)
    byes = [a for a, b in result.tables if b is None]
    assert len(byes) == 1 and byes[0] not in had_bye and names.index(byes[0]) >= count - 10


def _expected_bye(entrants: list[pairing.Entrant]) -> str:
    """The MTR's bye: the lowest-ranked player who has not had one (anyone, once everyone has had one)."""
    eligible = [e for e in entrants if not e.had_bye] or entrants
    return max(eligible, key=lambda e: e.rank).player


def test_the_bye_goes_to_the_lowest_ranked_player_even_across_score_groups() -> None:
    """The shortest case of the defect: the bye went to the leader to spare a pair-down."""
    entrants = [
        pairing.Entrant(player="ann", points=3, rank=0, opponents=frozenset({"bob"}), had_bye=False),
        pairing.Entrant(player="bob", points=0, rank=1, opponents=frozenset({"ann"}), had_bye=False),
        pairing.Entrant(player="cat", points=0, rank=2, opponents=frozenset(), had_bye=True),
    ]
    result = pairing.swiss_round(entrants, Rng(bytes(32), 1))
    assert result.tables == [("ann", "cat"), ("bob", None)]


@settings(max_examples=1000, deadline=None)
@given(
    count=st.integers(min_value=1, max_value=20).map(lambda n: 2 * n + 1),
    data=st.data(),
    seed=st.binary(min_size=32, max_size=32),
)
def test_the_bye_goes_to_the_lowest_ranked_player_without_one_in_any_field(
    count: int, data: st.DataObject, seed: bytes
) -> None:
    points = sorted(data.draw(st.lists(st.sampled_from((0, 1, 3, 4, 6, 9)), min_size=count, max_size=count)))[::-1]
    names = [f"p{i:02d}" for i in range(count)]
    pairs = data.draw(st.sets(st.tuples(st.sampled_from(names), st.sampled_from(names)), max_size=3 * count))
    met: dict[str, set[str]] = {n: set() for n in names}
    for a, b in pairs:
        if a != b:
            met[a].add(b)
            met[b].add(a)
    byes = data.draw(st.sets(st.sampled_from(names), max_size=count))
    entrants = [
        pairing.Entrant(player=n, points=points[i], rank=i, opponents=frozenset(met[n]), had_bye=n in byes)
        for i, n in enumerate(names)
    ]
    result = pairing.swiss_round(entrants, Rng(seed, 1))
    assert [a for a, b in result.tables if b is None] == [_expected_bye(entrants)]


@settings(max_examples=30, deadline=None)
@given(
    count=st.integers(min_value=4, max_value=14),
    seed=st.binary(min_size=32, max_size=32),
    results=st.integers(min_value=0, max_value=2**32),
    preset=st.sampled_from(["mtg", "pokemon", "ygo"]),
    moves=st.lists(st.tuples(st.integers(min_value=0, max_value=13), st.booleans()), max_size=8),
)
def test_standings_through_a_round_never_change_after_it(
    count: int, seed: bytes, results: int, preset: str, moves: list[tuple[int, bool]]
) -> None:
    """Drops and reinstatements (mid-round and between rounds) after round r leave the standings through r as
    they were when r finished, the dropped flag included; and every Swiss bye goes where the MTR says."""
    players = [f"p{i:02d}" for i in range(count)]
    state = tournament(players, rounds=4, seed=seed, tiebreak=preset)
    rng = random.Random(results)
    run(state, rounds.start)
    frozen: dict[int, list[standings.Standing]] = {}

    def move() -> None:
        if not moves:
            return
        index, reinstating = moves.pop()
        player = state.players[players[index % count]]
        if reinstating and player.dropped:
            run(state, lambda t: registration.reinstate(t, player.name, "judge", "test"))
        elif not player.dropped and len(state.active()) > 2:
            run(state, lambda t: registration.drop(t, player.name, "judge", "test"))

    for number in range(1, state.planned + 1):
        move()  # during the round
        finish_round(state, rng)
        frozen[number] = ranking.standings_of(state, number)
        if number < state.planned:  # the last result ends the tournament
            move()  # between rounds
            expected = _expected_bye(ranking.entrants(state)) if len(state.active()) % 2 else None
            run(state, rounds.pair)
            byes = [t.a for t in state.rounds[-1].tables if t.b is None]
            assert byes == ([expected] if expected else [])
    for number, standing in frozen.items():
        assert ranking.standings_of(state, number) == standing, f"standings through round {number} changed"
