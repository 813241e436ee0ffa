"""Bots finish wulin matches; the greedy bot defends, blocks and uses joint attacks."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.bots import make_bot
from engine.rulesets.wulin import RULESET
from engine.rulesets.wulin.model.events import AttackDeclared, DefenceDeclared, WeaponBlocked
from engine.selfplay import play

CONFIG = {"seats": [{}, {}], "options": {}}


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_bots_finish(kind: str) -> None:
    for game in range(6):
        bots = [make_bot(kind, RULESET, game * 2 + seat) for seat in (0, 1)]
        played = play(RULESET, CONFIG, ["a", "b"], game.to_bytes(32, "big"), bots)
        assert played.outcome is not None


def test_greedy_bots_defend_block_and_attack_jointly() -> None:
    seen: Counter[str] = Counter()
    for game in range(12):
        bots = [make_bot("greedy", RULESET, game * 2 + seat) for seat in (0, 1)]
        played = play(RULESET, CONFIG, ["a", "b"], game.to_bytes(32, "big"), bots)
        for event in played.events:
            if isinstance(event, AttackDeclared):
                seen[f"attack:{event.mode}"] += 1
            elif isinstance(event, DefenceDeclared):
                seen["defend"] += 1
            elif isinstance(event, WeaponBlocked):
                seen["block"] += 1
    assert seen["defend"] and seen["block"] and seen["attack:joint"], seen


def test_options_change_the_game() -> None:
    config = {
        "seats": [{}, {}],
        "options": {"formation_flip": True, "secret_art_counters": True, "starting_hp": 100, "round_limit": 5},
    }
    for game in range(4):
        bots = [make_bot("random", RULESET, game * 2 + seat) for seat in (0, 1)]
        played = play(RULESET, config, ["a", "b"], game.to_bytes(32, "big"), bots)
        assert played.outcome is not None and played.match.state.phase_no <= 10
