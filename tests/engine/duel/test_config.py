"""Configuration checks beyond scenario 1 (duel.md §4, §5, D28): shapes, options, check order, presets."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine.errors import ConfigError, ConfigProblem
from engine.rulesets.duel import RULESET
from engine.rulesets.duel.model.state import Options
from engine.rulesets.duel.setup import DuelConfigError


def _errors(data: Any) -> list[ConfigProblem]:
    with pytest.raises(DuelConfigError) as refused:
        RULESET.configure(data)
    return list(refused.value.errors)


def _config(seat0: Any = "starter_a", seat1: Any = "starter_b", **options: Any) -> dict[str, Any]:
    return {"seats": [{"deck": seat0}, {"deck": seat1}], "options": options}


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"seats": [{"deck": "starter_a"}]},
        {"seats": [{"deck": "starter_a"}] * 3},
        {"seats": "starter_a"},
        {"seats": [{"deck": 7}, {"deck": "starter_b"}]},
        {"seats": [{"deck": "starter_a", "colour": "red"}, {"deck": "starter_b"}]},
        {"seats": [{"deck": "starter_a"}, {"deck": "starter_b"}], "options": []},
    ],
)
def test_config_invalid(data: Any) -> None:
    assert _errors(data) == [ConfigProblem("CONFIG_INVALID")]


def test_config_errors_come_in_order_and_stop_deck_checks() -> None:
    data = _config("starter_x", {"main": ["blue_dragon"]}, turn_time_s=5, colour="red", first_player=2)
    assert _errors(data) == [
        ConfigProblem("UNKNOWN_PRESET", 0),
        ConfigProblem("OPTION_INVALID", key="colour"),
        ConfigProblem("OPTION_INVALID", key="first_player"),
        ConfigProblem("OPTION_INVALID", key="turn_time_s"),
    ]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("starting_lp", 0),
        ("starting_lp", 1_000_001),
        ("starting_lp", True),
        ("starting_lp", "8000"),
        ("first_player", True),
        ("first_player", "heads"),
        ("first_player_draws", 1),
        ("first_turn_battle", "yes"),
        ("turn_time_s", 3601),
        ("decision_time_s", 4),
        ("max_timeouts", 101),
    ],
)
def test_option_out_of_range_or_type(key: str, value: Any) -> None:
    assert _errors(_config(**{key: value})) == [ConfigProblem("OPTION_INVALID", key=key)]


def test_options_fill_defaults_and_round_trip() -> None:
    config = RULESET.configure(_config(first_player=0, max_timeouts=0, starting_lp=1))
    assert config.options == Options(first_player=0, max_timeouts=0, starting_lp=1)
    assert msgspec.convert(msgspec.to_builtins(config), RULESET.Config) == config
    assert RULESET.options == msgspec.to_builtins(Options())


def test_a_seat_without_a_deck_gets_the_scenario_preset() -> None:
    config = RULESET.configure({"seats": [{}, {}], "options": {}})
    assert list(config.seats[0].deck.main) == RULESET.presets["starter_a"]["main"]
    assert list(config.seats[1].deck.side) == RULESET.presets["starter_b"]["side"]


def test_custom_deck_carries_its_side_deck() -> None:
    deck = {key: list(cards) for key, cards in RULESET.presets["starter_b"].items()}
    config = RULESET.configure(_config(deck, "starter_a", first_player=1))
    assert config.seats[0].deck.side == ("spiked_snare", "twin_fortune", "ember_volley")
    assert config.options.first_player == 1


def test_malformed_sections_are_fatal_for_that_seat_only() -> None:
    bad = {"main": ["cinder_wolf"] * 50, "extra": "scorchfang_chimera", "sideboard": []}
    assert _errors(_config(bad, {"main": ["ironhide_boar"]})) == [
        ConfigProblem("DECK_MALFORMED", 0, section="extra"),
        ConfigProblem("DECK_MALFORMED", 0, section="sideboard"),
        ConfigProblem("MAIN_DECK_TOO_SMALL", 1, count=1),
    ]


def test_unknown_cards_are_reported_once_in_first_appearance_order() -> None:
    deck = {"main": ["zz", "ironhide_boar", "aa", "zz"], "side": ["aa", "bb"]}
    assert _errors(_config(deck)) == [
        ConfigProblem("UNKNOWN_CARD", 0, card_id="zz"),
        ConfigProblem("UNKNOWN_CARD", 0, card_id="aa"),
        ConfigProblem("UNKNOWN_CARD", 0, card_id="bb"),
    ]


def test_every_content_problem_is_reported_in_check_order() -> None:
    main = ["twinrank_golem"] + ["scorchfang_chimera"] * 2 + ["ironhide_boar"] * 3 + ["glade_sprite"] * 60
    deck = {"main": main, "extra": ["cinder_wolf"] * 16, "side": ["chorus_wyrm"]}
    assert [(p.code, p.card_id) for p in _errors(_config(deck))] == [
        ("EXTRA_DECK_TYPE_UNSUPPORTED", "twinrank_golem"),
        ("EXTRA_DECK_TYPE_UNSUPPORTED", "chorus_wyrm"),
        ("MAIN_DECK_TOO_LARGE", None),
        ("EXTRA_DECK_TOO_LARGE", None),
        ("EXTRA_CARD_IN_MAIN_DECK", "scorchfang_chimera"),
        ("MAIN_CARD_IN_EXTRA_DECK", "cinder_wolf"),
        ("TOO_MANY_COPIES", "glade_sprite"),
        ("TOO_MANY_COPIES", "cinder_wolf"),
    ]


def test_the_primary_code_is_the_first_error_and_seat() -> None:
    with pytest.raises(ConfigError) as refused:
        RULESET.configure(_config("starter_a", {"main": ["ironhide_boar"] * 4}))
    assert (refused.value.code, refused.value.seat) == ("MAIN_DECK_TOO_SMALL", 1)
