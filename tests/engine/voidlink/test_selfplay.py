"""Bots finish voidlink games, the greedy bot answers in response windows, and replays are deterministic."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine.bots import Bot, GreedyBot, RandomBot
from engine.match import encode, fold
from engine.rulesets.voidlink import RULESET
from engine.rulesets.voidlink.greedy import greedy_score
from engine.rulesets.voidlink.model import Event
from engine.rulesets.voidlink.model.commands import ActivateMagic, ActivateTactics, DeclareAttack, Pass
from engine.rulesets.voidlink.model.events import ChainLinkAdded
from engine.rulesets.voidlink.view import view
from engine.selfplay import Played, play

from .helpers import Mon, given, run, seat

CONFIG: dict[str, Any] = {"seats": [{}, {}], "options": {}}


def game(kind: str, seed: int) -> Played:
    bots: list[Bot] = (
        [RandomBot(seed), RandomBot(seed + 1)]
        if kind == "random"
        else [GreedyBot(RULESET, seed), GreedyBot(RULESET, seed + 1)]
    )
    return play(RULESET, CONFIG, ["a", "b"], seed.to_bytes(32, "big"), bots)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_bots_finish_with_an_outcome(kind: str, seed: int) -> None:
    played = game(kind, seed)
    assert played.outcome is not None
    assert played.outcome.reason in ("pool_zero", "deck_out", "special_victory", "simultaneous")
    assert RULESET.legal_commands(played.match.state, 0) == RULESET.legal_commands(played.match.state, 1) == []


def test_the_greedy_bot_responds_in_windows() -> None:
    responses = 0
    for seed in range(4):
        played = game("greedy", seed)
        responses += sum(
            1 for e in played.events if isinstance(e, ChainLinkAdded) and e.origin in ("summon", "attack", "phase_end")
        )
    assert responses > 0


def test_greedy_prefers_a_response_to_passing() -> None:
    state = given(
        seat(monsters=[Mon("p0.m13", "VL-M04", "void_attack")]),
        seat(tactics=[("p1.c01", "VL-T01")], magic=[(0, ("p1.m37", "VL-G05"), 1)]),
        phase="battle",
    )
    _, state = run(state, 0, DeclareAttack("p0.m13"))
    seen = view(state, 1)
    assert greedy_score(seen, ActivateTactics("p1.c01")) > greedy_score(seen, Pass())
    assert greedy_score(seen, ActivateMagic("p1.m37")) > greedy_score(seen, Pass())


def test_same_seed_same_bytes_and_fold_matches() -> None:
    first, second = game("random", 5), game("random", 5)
    assert [encode(e) for e in first.events] == [encode(e) for e in second.events]
    assert fold(RULESET, first.events).state == first.match.state
    decoded = msgspec.json.decode(b"[" + b",".join(encode(e) for e in first.events[1:]) + b"]", type=list[Event])
    assert decoded == first.events[1:]
