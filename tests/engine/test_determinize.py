"""Fairness of the search bot's sampling, for every ruleset at every seat count (engine/search/determinize.py).

A determinised state must look, to the seat, exactly like the real one (its view and its legal commands); over
many samples the cards the seat cannot see must move; and since the bot gets only the view and the legal commands,
exchanging the real state's hidden cards cannot change its decisions.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.contract import SYSTEM, Ruleset
from engine.rng import Rng
from engine.search.bot import SearchBot
from engine.search.determinize import determinize
from engine.selfplay import next_move
from tests.engine.contract_helpers import case_id, cases, playout

CASES = cases()
SEEDS = st.integers(min_value=0, max_value=2**32)
STEPS = st.integers(min_value=0, max_value=120)
PROPERTY = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def state_at(case: tuple[str, int, int], seed: int, step: int) -> tuple[Ruleset, int, Any]:
    """A live state of a random-bot match after ``step`` commands (or its last live one)."""
    from engine.registry import HOSTED

    ruleset = HOSTED[case[0], case[1]]
    live = None
    for k, (match, _) in enumerate(playout(ruleset, case[2], seed, step + 1)):
        if ruleset.outcome(match.state) is None:
            live = match.state
        if k == step:
            break
    assert live is not None
    return ruleset, case[2], live


@pytest.mark.parametrize("case", CASES, ids=case_id)
@PROPERTY
@given(seed=SEEDS, step=STEPS)
def test_a_sample_shows_the_seat_exactly_its_view_and_its_legal_commands(
    case: tuple[str, int, int], seed: int, step: int
) -> None:
    ruleset, players, state = state_at(case, seed, step)
    for seat in range(players):
        seen = ruleset.view(state, seat)
        sample = determinize(ruleset, seen, seat, random.Random(seed + seat))
        assert ruleset.view(sample, seat) == seen
        assert ruleset.legal_commands(sample, seat) == ruleset.legal_commands(state, seat)
        assert ruleset.to_act(sample) == ruleset.to_act(state)


@pytest.mark.parametrize("case", CASES, ids=case_id)
@PROPERTY
@given(seed=SEEDS, step=STEPS)
def test_the_unseen_cards_vary_over_samples(case: tuple[str, int, int], seed: int, step: int) -> None:
    ruleset, players, state = state_at(case, seed, step)
    seat = step % players
    hidden = ruleset.hidden_cards(state, seat)
    # Zones take cards of one kind (a monster pile, a face-down magic slot): with eight hidden cards two share a
    # zone in every game here, so at least their order may change.
    assume(len(hidden) >= 8)
    seen = ruleset.view(state, seat)
    rng = random.Random(seed)
    samples = {msgspec.json.encode(determinize(ruleset, seen, seat, rng)) for _ in range(12)}
    assert len(samples) > 1, f"{len(hidden)} hidden cards, yet every sample is the same"
    # And no hidden card is pinned: each one the real state hides lies somewhere else in some sample.
    where: dict[str, set[tuple[Any, ...]]] = {card: set() for card in hidden}
    for _ in range(24):
        places = _places(msgspec.to_builtins(determinize(ruleset, seen, seat, rng)))
        for card, paths in where.items():
            paths.add(tuple(places.get(card, ())))
    pinned = [card for card, paths in where.items() if len(paths) == 1]
    assert len(pinned) < len(hidden) / 2, f"{pinned} stay where they are in every sample"


def _places(x: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Where each string appears in a state's builtins (dict keys, an instance's identity, are not places)."""
    found: dict[str, list[tuple[Any, ...]]] = {}

    def walk(y: Any, at: tuple[Any, ...]) -> None:
        if isinstance(y, str):
            found.setdefault(y, []).append(at)
        elif isinstance(y, dict):
            for k, v in y.items():
                walk(v, (*at, k))
        elif isinstance(y, list | tuple):
            for i, v in enumerate(y):
                walk(v, (*at, i))

    walk(x, ())
    return found


def swapped(state: Any, a: str, b: str, ruleset: Ruleset) -> Any:
    """The state with the cards ``a`` and ``b`` exchanged wherever they lie (instance ids as zone entries)."""

    def swap(x: Any) -> Any:
        if isinstance(x, str):
            return b if x == a else a if x == b else x
        if isinstance(x, list | tuple):
            return [swap(y) for y in x]
        if isinstance(x, dict):
            return {k: swap(v) for k, v in x.items()}  # keys (an instance's identity) stay: the card moves
        return x

    return msgspec.convert(swap(msgspec.to_builtins(state)), ruleset.State)


@pytest.mark.parametrize("case", CASES, ids=case_id)
@PROPERTY
@given(seed=SEEDS, step=STEPS, data=st.data())
def test_exchanging_the_real_hidden_cards_leaves_the_decision_unchanged(
    case: tuple[str, int, int], seed: int, step: int, data: st.DataObject
) -> None:
    ruleset, players, state = state_at(case, seed, step)
    seats = ruleset.to_act(state)
    assume(seats)
    seat = seats[0]
    hidden = sorted(set(ruleset.hidden_cards(state, seat)))
    assume(len(hidden) >= 2)
    a, b = data.draw(st.lists(st.sampled_from(hidden), min_size=2, max_size=2, unique=True))
    other = swapped(state, a, b, ruleset)
    assume(other != state)
    assert ruleset.view(other, seat) == ruleset.view(state, seat)

    def decision(real: Any) -> Any:
        bot = SearchBot(ruleset, seed, 0.0, iterations=6)
        return next_move(ruleset, real, [bot] * players)

    assert decision(other) == decision(state)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_play_goes_on_from_every_sample_without_breaking_the_rules(case: tuple[str, int, int]) -> None:
    # A sample that deals a card twice, or loses one, is a state the rules never make: the search's playouts
    # then fail the rules' own checks (duel dealt a second copy of a monster the other seat had taken). States
    # deep into random matches, where cards have moved between seats, are sampled from the view of each seat
    # to act, where the search samples them, and played on by random commands, concessions and timeouts
    # included (each runs the rules' own play for a seat).
    from engine.registry import HOSTED

    ruleset = HOSTED[case[0], case[1]]
    tried = 0
    for seed in range(10):
        for step, (match, _) in enumerate(playout(ruleset, case[2], seed, 300)):
            if step % 20 != 19 or ruleset.outcome(match.state) is not None:
                continue
            for seat in ruleset.to_act(match.state):
                sample = determinize(ruleset, ruleset.view(match.state, seat), seat, random.Random(step + seat))
                # The search plays the real legal commands at the root of every sample.
                assert ruleset.legal_commands(sample, seat) == ruleset.legal_commands(match.state, seat)
                _play_on(ruleset, sample, random.Random(seed))
                tried += 1
    assert tried >= 10


def _play_on(ruleset: Ruleset, state: Any, rng: random.Random, steps: int = 200) -> None:
    dice = Rng(rng.getrandbits(256).to_bytes(32, "big"), 1)
    for _ in range(steps):
        if ruleset.outcome(state) is not None:
            return
        seats = ruleset.to_act(state)
        deadline = ruleset.deadline(state)
        if seats and (deadline is None or rng.random() < 0.9):
            actor: Any = seats[0]
            command = rng.choice(ruleset.legal_commands(state, actor))
        else:
            assert deadline is not None
            actor, command = SYSTEM, deadline.timeout
        state = ruleset.decide_folded(state, actor, command, dice)[1]
