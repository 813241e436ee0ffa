"""Bots finish card_monsters games; replays are deterministic; legal_commands is exact in both directions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import Bot, GreedyBot, RandomBot
from engine.contract import ADMIN, SYSTEM
from engine.errors import Rejected
from engine.match import apply, create, encode, fold
from engine.rng import Rng
from engine.rulesets.card_monsters import RULESET
from engine.rulesets.card_monsters.model import (
    Command,
    Concede,
    Engage,
    Equip,
    Event,
    PlayMonster,
    Sacrifice,
    State,
    Timeout,
    UseConsumable,
)
from engine.selfplay import Played, next_move, play

CONFIG: dict[str, Any] = {"seats": [{}, {}], "options": {}}


def random_game(seed: int, config: dict[str, Any] = CONFIG) -> Played:
    return play(RULESET, config, ["a", "b"], seed.to_bytes(32, "big"), [RandomBot(seed), RandomBot(seed + 1)])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_bots_finish_with_an_outcome(kind: str, seed: int) -> None:
    if kind == "random":
        bots: list[Bot] = [RandomBot(seed), RandomBot(seed + 1)]
    else:
        bots = [GreedyBot(RULESET, seed), GreedyBot(RULESET, seed + 1)]
    played = play(RULESET, CONFIG, ["a", "b"], seed.to_bytes(32, "big"), bots)
    assert played.outcome is not None
    assert played.outcome.reason in ("eliminated", "turn_limit")
    assert RULESET.legal_commands(played.match.state, 0) == RULESET.legal_commands(played.match.state, 1) == []


def test_a_short_match_ends_by_the_turn_limit() -> None:
    config = {"seats": [{}, {}], "options": {"max_turns": 2}}
    played = play(RULESET, config, ["a", "b"], bytes(32), [GreedyBot(RULESET, 1), GreedyBot(RULESET, 2)])
    assert played.outcome is not None and played.outcome.reason == "turn_limit"
    assert played.match.state.turn == 2


def test_same_seed_same_bytes_and_fold_matches() -> None:
    first, second = random_game(5), random_game(5)
    assert [encode(e) for e in first.events] == [encode(e) for e in second.events]
    assert fold(RULESET, first.events).state == first.match.state
    decoded = msgspec.json.decode(b"[" + b",".join(encode(e) for e in first.events[1:]) + b"]", type=list[Event])
    assert decoded == first.events[1:]


def universe(state: State) -> Iterator[Command]:
    """Every command worth trying here: each card id (and a stranger), positions and targets in and out of range."""
    cards = [*sorted(state.card_ids), "9:9", ""]
    positions = range(-1, 5)
    for card in cards:
        yield PlayMonster(card)
        yield Sacrifice(card=card)
        yield Sacrifice(card=card, position=1)
        for p in positions:
            yield Equip(card, p)
            yield UseConsumable(card, p)
        yield UseConsumable(card, None)
    for p in positions:
        yield Sacrifice(position=p)
    yield Sacrifice()
    yield Engage()
    yield Concede()
    for turn in (state.turn - 1, state.turn, state.turn + 1):
        yield Timeout(turn)


def accepted(state: State, actor: Any, cmd: Command) -> bool:
    try:
        RULESET.decide(state, actor, cmd, Rng(bytes(32), 9))
    except Rejected:
        return False
    return True


def boundary_states(seed: int) -> list[State]:
    """The state before every command of a random-bot match."""
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    match = fold(RULESET, create(RULESET, CONFIG, ["a", "b"], seed.to_bytes(32, "big")))
    states = []
    while RULESET.outcome(match.state) is None:
        states.append(match.state)
        actor, cmd = next_move(RULESET, match.state, bots)
        match = apply(RULESET, match, RULESET.decide(match.state, actor, cmd, Rng(bytes(32), match.version + 1)))
    return states


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_legal_commands_are_exactly_the_accepted_ones(seed: int) -> None:
    states = boundary_states(seed)
    assert len(states) > 10
    for state in states[::4]:
        for seat in (0, 1):
            legal = RULESET.legal_commands(state, seat)
            assert all(accepted(state, seat, cmd) for cmd in legal)
            listed = set(map(encode, legal))
            for cmd in universe(state):
                if encode(cmd) not in listed and not isinstance(cmd, Timeout):
                    assert not accepted(state, seat, cmd), cmd
        for cmd in universe(state):
            assert accepted(state, SYSTEM, cmd) == (cmd == Timeout(state.turn))
            assert not accepted(state, ADMIN, cmd)
