"""docs/rulesets/wulin.md §3.8, §4, §13: options, deck checks, presets and the public configuration."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine.errors import ConfigError
from engine.rulesets.wulin import RULESET
from engine.rulesets.wulin.data import BATTLE, CARD_DATA_HASH, CATALOG, PRESETS, BattleCard, QiCard
from engine.rulesets.wulin.model import Options
from engine.rulesets.wulin.setup import check_config, configure, public_config


def refusal(data: Any) -> tuple[str, int | None]:
    with pytest.raises(ConfigError) as refused:
        configure(data)
    return str(refused.value.code), refused.value.seat


def test_default_config_expands_both_starter_decks() -> None:
    config = configure({"seats": [{}, {}], "options": {}})
    assert [s.hero_attribute for s in config.seats] == ["fire", "water"]
    assert [len(s.deck) for s in config.seats] == [32, 32]
    assert config.seats[0].deck[:11] == ("WL-Q01",) * 11 and config.seats[0].deck[11] == "WL-B01"
    assert config.options == Options()


@pytest.mark.parametrize(("name", "qi", "battle"), [("starter_a", 11, 12), ("starter_b", 11, 11)])
def test_starter_deck_totals(name: str, qi: int, battle: int) -> None:
    deck = PRESETS[name]
    assert len(deck) == 32
    assert sum(isinstance(CATALOG[c], QiCard) for c in deck) == qi
    assert sum(isinstance(CATALOG[c], BattleCard) for c in deck) == battle


def test_combination_partners_are_symmetric() -> None:
    for card in BATTLE.values():
        for partner in card.combo_partners:
            assert card.id in BATTLE[partner].combo_partners


def test_card_data_hash_is_the_files_sha256() -> None:
    assert len(CARD_DATA_HASH) == 64 and RULESET.card_data_hash == CARD_DATA_HASH


def test_public_config_hides_decks() -> None:
    config = configure({"seats": [{}, {"deck": "starter_a", "hero_attribute": "earth"}], "options": {}})
    public = public_config(config)
    assert [s.deck for s in public.seats] == [(), ()]
    assert [s.hero_attribute for s in public.seats] == ["fire", "earth"]
    assert "WL-" not in msgspec.json.encode(public).decode()


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"nonsense": 1}, "OPTION_UNKNOWN"),
        ({"starting_hp": 0}, "OPTION_INVALID"),
        ({"starting_hp": True}, "OPTION_INVALID"),
        ({"allow_concede": 1}, "OPTION_INVALID"),
        ({"action_timer_s": 601}, "OPTION_INVALID"),
        ({"round_limit": 1000}, "OPTION_INVALID"),
        ({"a_unknown": 1, "starting_hp": -1}, "OPTION_UNKNOWN"),
        ({"zz_unknown": 1, "action_timer_s": 1}, "OPTION_UNKNOWN"),
    ],
)
def test_options(options: dict[str, Any], code: str) -> None:
    assert refusal({"seats": [{}, {}], "options": options}) == (code, None)


def test_every_option_in_range_is_accepted() -> None:
    options = {
        "starting_hp": 1,
        "starting_qi": 9999,
        "action_timer_s": 10,
        "round_limit": 999,
        "allow_concede": True,
        "secret_art_counters": True,
        "formation_flip": True,
        "referee_enabled": True,
    }
    assert msgspec.to_builtins(configure({"seats": [{}, {}], "options": options}).options) == options


@pytest.mark.parametrize(
    ("data", "code", "seat"),
    [
        ([], "BAD_CONFIG", None),
        ({"seats": [{}]}, "PLAYER_COUNT_INVALID", None),
        ({"seats": [{}, {"deck": 3}]}, "BAD_CONFIG", 1),
        ({"seats": [{"colour": "red"}, {}]}, "BAD_CONFIG", 0),
        ({"seats": [{}, {"deck": "starter_c"}]}, "DECK_UNKNOWN_PRESET", 1),
        ({"seats": [{"deck": list(PRESETS["starter_a"])}, {}]}, "HERO_ATTRIBUTE_INVALID", 0),
    ],
)
def test_config_shapes(data: Any, code: str, seat: int | None) -> None:
    assert refusal(data) == (code, seat)


def test_every_problem_is_reported_seat_by_seat() -> None:
    data = {
        "seats": [
            {"deck": ["WL-B08"] * 2 + ["WL-Q01"] * 30, "hero_attribute": "metal"},
            {"deck": "starter_x", "hero_attribute": "air"},
        ],
        "options": {},
    }
    _, problems = check_config(data)
    assert [(p.seat, p.code, p.detail) for p in problems] == [
        (0, "TOO_FEW_BATTLE_CARDS", "2"),
        (0, "LIMITED_EXCEEDED", "WL-B08,2,1"),
        (1, "DECK_UNKNOWN_PRESET", "starter_x"),
        (1, "HERO_ATTRIBUTE_INVALID", "air"),
    ]
    with pytest.raises(ConfigError) as refused:
        configure(data)
    assert refused.value.code == "TOO_FEW_BATTLE_CARDS" and "HERO_ATTRIBUTE_INVALID(air)" in refused.value.detail


def test_unknown_ids_skip_the_count_checks() -> None:
    _, problems = check_config({"seats": [{"deck": ["WL-Z01", "WL-A00"], "hero_attribute": "fire"}, {}]})
    assert [(p.code, p.detail) for p in problems] == [("UNKNOWN_CARD_ID", "WL-A00,WL-Z01")]


def test_served_presets_and_options() -> None:
    assert RULESET.presets["starter_b"]["hero_attribute"] == "water"
    assert RULESET.options["round_limit"] == 50 and RULESET.concede_options == {"allow_concede": True}
