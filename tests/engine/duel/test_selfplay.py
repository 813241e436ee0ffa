"""Bots play whole duels through ``engine.selfplay.play`` (random and greedy, several seeds)."""

from __future__ import annotations

import pytest

from engine.bots import make_bot
from engine.match import encode
from engine.rulesets.duel import RULESET
from engine.selfplay import play

CONFIG = {"seats": [{"deck": "starter_a"}, {"deck": "starter_b"}], "options": {}}


@pytest.mark.parametrize("kinds", [("random", "random"), ("greedy", "greedy"), ("greedy", "random")])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bots_finish_duels(kinds: tuple[str, str], seed: int) -> None:
    bots = [make_bot(kind, RULESET, seed * 10 + seat) for seat, kind in enumerate(kinds)]
    played = play(RULESET, CONFIG, ["a", "b"], seed.to_bytes(32, "big"), bots)
    assert played.outcome is not None
    assert played.match.state.ended and RULESET.to_act(played.match.state) == ()
    assert played.outcome.reason in {"lp_zero", "deck_out", "assembly", "omen_counters", "lp_zero,deck_out"}


def test_greedy_beats_random_more_often_than_not() -> None:
    wins = 0
    for seed in range(6):
        bots = [make_bot("greedy", RULESET, seed), make_bot("random", RULESET, seed + 50)]
        outcome = play(RULESET, CONFIG, ["g", "r"], seed.to_bytes(32, "big"), bots).outcome
        assert outcome is not None
        wins += outcome.winners == (0,)
    assert wins >= 4


def test_self_play_is_deterministic() -> None:
    def events() -> list[bytes]:
        bots = [make_bot("random", RULESET, 5), make_bot("random", RULESET, 6)]
        return [encode(e) for e in play(RULESET, CONFIG, ["a", "b"], bytes(32), bots).events]

    assert events() == events()
