"""The search bot (engine/search): it plays every ruleset at every seat count with legal commands only, the same
seed makes the same decisions, and a time budget is kept on the injected clock. Its strength is measured by
bench/bots.py, never asserted here."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine.bots import LEVELS, make_bot
from engine.contract import Ruleset, SearchTuning
from engine.match import encode
from engine.registry import HOSTED
from engine.search.bot import SearchBot
from engine.selfplay import next_move, play
from tests.engine.contract_helpers import case_id, cases, config, names, playout, seed_bytes


def ruleset_of(case: tuple[str, int, int]) -> tuple[Ruleset, int]:
    return HOSTED[case[0], case[1]], case[2]


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_the_search_bot_plays_only_legal_commands_and_repeats_itself(case: tuple[str, int, int]) -> None:
    ruleset, players = ruleset_of(case)

    def run() -> list[bytes]:
        # Every seat searches, so every seat's view is searched from; ``play`` raises on a refused command.
        bots = [SearchBot(ruleset, 7 + seat, 0.0, iterations=2, rollout="random") for seat in range(players)]
        played = play(ruleset, config(players), names(players), seed_bytes(3), bots, max_commands=40)
        assert played.commands > 0
        return [encode(e) for e in played.events]

    assert run() == run()


def test_the_search_level_is_a_bot_level() -> None:
    ruleset = HOSTED["card_monsters", 1]
    assert "search" in LEVELS
    assert isinstance(make_bot("search", ruleset, 1, 0.01), SearchBot)


class Ticks:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_time_budget_stops_the_search_on_the_injected_clock() -> None:
    ruleset = HOSTED["aq", 1]
    state = next(match.state for match, _ in playout(ruleset, 2, 5, 0))
    seat = ruleset.to_act(state)[0]
    clock = Ticks(0.0625)  # a power of two: the sums stay exact
    bot = SearchBot(ruleset, 1, 1.0, clock=clock)
    command = bot.choose(ruleset.view(state, seat), ruleset.legal_commands(state, seat))
    assert command in ruleset.legal_commands(state, seat)
    # The clock is read at the start (0.0625, so the search must end by 1.0625), after each iteration and during
    # playouts: the search stops at the first read past its deadline, or before.
    assert 1 <= bot.last_iterations <= 16
    assert clock.now <= 1.0625 + 0.0625
    # A budget no playout fits in: the playout is abandoned and the greedy bot's favourite played.
    small = SearchBot(ruleset, 1, 0.001, clock=Ticks(0.0625))
    view, legal = ruleset.view(state, seat), ruleset.legal_commands(state, seat)
    favourite = max(legal, key=lambda c: ruleset.greedy_score(view, c))
    assert small.choose(view, legal) == favourite
    assert small.last_iterations == 0


def test_an_iteration_budget_makes_the_same_decision_twice() -> None:
    ruleset = HOSTED["wulin", 1]
    for match, _ in playout(ruleset, 2, 11, 30):
        state = match.state
    decisions = [next_move(ruleset, state, [SearchBot(ruleset, 4, 0.0, iterations=12)] * 2) for _ in range(2)]
    assert decisions[0] == decisions[1]


def test_a_playout_stops_at_the_horizon_where_the_ruleset_scores_the_position() -> None:
    scored: list[int] = []

    def evaluate(view: Any, seat: int) -> float:
        assert view.viewer is None  # a spectator's view: the seats are scored alike
        scored.append(seat)
        return 0.5

    ruleset = dataclasses.replace(HOSTED["card_monsters", 1], evaluate=evaluate, search=SearchTuning(horizon=2))
    state = next(match.state for match, _ in playout(ruleset, 2, 5, 0))
    seat = ruleset.to_act(state)[0]
    legal = ruleset.legal_commands(state, seat)
    SearchBot(ruleset, 1, 0.0, iterations=10).choose(ruleset.view(state, seat), legal)
    # No match ends within a few commands of its start: every playout was cut at the horizon and scored.
    assert scored == [0, 1] * 10


@pytest.mark.parametrize("case", [c for c in cases() if ruleset_of(c)[0].evaluate is not None], ids=case_id)
def test_a_rulesets_evaluation_is_a_chance_to_win(case: tuple[str, int, int]) -> None:
    ruleset, players = ruleset_of(case)
    evaluate = ruleset.evaluate
    assert evaluate is not None and ruleset.search.horizon is not None
    for match, _ in playout(ruleset, players, 2, 200):
        view = ruleset.view(match.state, None)
        scores = [evaluate(view, seat) for seat in range(players)]
        assert all(0.0 <= score <= 1.0 for score in scores)
        if players == 2:  # one seat's chance is the other's loss
            assert abs(sum(scores) - 1) < 1e-9
