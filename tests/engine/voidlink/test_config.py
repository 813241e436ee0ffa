"""voidlink configuration (docs/rulesets/voidlink.md §4, §5.1): seats, options and every deck code."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine.errors import ConfigError
from engine.rulesets.voidlink import RULESET
from engine.rulesets.voidlink.data import PRESETS
from engine.rulesets.voidlink.model import Config, Options
from engine.rulesets.voidlink.model.state import Deck
from engine.rulesets.voidlink.setup import configure, deck_violations, public_config, violations

A = PRESETS["starter_a"]


def deck(**parts: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "main": [list(e) for e in A.main],
        "extra": [list(e) for e in A.extra],
        "commander": list(A.commander),
    }
    base.update(parts)
    return base


def refused(data: Any) -> tuple[str, int | None]:
    with pytest.raises(ConfigError) as info:
        configure(data)
    return info.value.code, info.value.seat


def test_defaults_are_the_two_starter_decks() -> None:
    config = configure({"seats": [{}, {}], "options": {}})
    assert config.seats[0].deck == Deck(A.main, A.extra, A.commander)
    assert config.seats[1].deck.commander == PRESETS["starter_b"].commander
    assert config.options == Options()
    assert configure({"seats": [{"deck": "starter_b"}, {"deck": "starter_a"}]}).seats[0].deck.commander[0] == "VL-T01"


def test_options_within_range_are_kept() -> None:
    options = {"opening_hand_size": 0, "hand_limit": 20, "first_player": 1, "open_timeouts_to_lose": 0}
    config = configure({"seats": [{}, {}], "options": options})
    assert (config.options.opening_hand_size, config.options.first_player, config.options.hand_limit) == (0, 1, 20)


@pytest.mark.parametrize(
    "options",
    [
        {"nope": 1},
        {"hand_limit": 0},
        {"hand_limit": 21},
        {"first_player": 2},
        {"first_player": "random_x"},
        {"open_timer_s": True},
        {"response_timer_s": 4},
        {"opening_hand_size": "5"},
    ],
)
def test_bad_options_are_option_invalid(options: dict[str, Any]) -> None:
    assert refused({"seats": [{}, {}], "options": options}) == ("OPTION_INVALID", None)


def test_config_checks_come_before_deck_checks() -> None:
    found = violations({"seats": [{"deck": "nope"}], "options": {"zzz": 1}})
    assert [(v.code, v.seat) for v in found] == [
        ("PLAYER_COUNT_INVALID", None),
        ("OPTION_INVALID", None),
        ("UNKNOWN_PRECONSTRUCTED_DECK", 0),
    ]


@pytest.mark.parametrize(
    ("built", "code"),
    [
        ("starter_c", "UNKNOWN_PRECONSTRUCTED_DECK"),
        (7, "DECK_MALFORMED"),
        ({"main": [], "extra": []}, "DECK_MALFORMED"),
        (deck(main=[["VL-M01", 0]]), "DECK_MALFORMED"),
        (deck(main=[["VL-M01", 2], ["VL-M01", 2]]), "DECK_MALFORMED"),
        (deck(main=[["VL-M01", True]]), "DECK_MALFORMED"),
        (deck(commander=[1]), "DECK_MALFORMED"),
        (deck(extra=[["VL-M01", 1]]), "EXTRA_DECK_CARD_TYPE"),
        (deck(extra=[["VL-Y01", 2], ["VL-X01", 2]] + [["VL-Y01", 1]] * 0), None),
        (deck(commander=["VL-M01"]), "COMMANDER_DECK_CARD_TYPE"),
    ],
)
def test_deck_codes(built: Any, code: str | None) -> None:
    found = deck_violations(0, built)
    assert (found[0].code if found else None) == code


def test_a_seat_with_bad_shape_stops_its_later_checks_only() -> None:
    found = violations({"seats": [{"deck": {"main": []}}, {"deck": deck(commander=["VL-T06"])}]})
    assert [(v.code, v.seat) for v in found] == [("DECK_MALFORMED", 0), ("TACTICS_RESTRICTION_UNMET", 1)]


def test_extra_deck_over_thirty_cards() -> None:
    # the catalog has only two extra-deck cards, so 30+ cards also break the copy limit
    found = deck_violations(0, deck(extra=[["VL-Y01", 16], ["VL-X01", 15]]))
    assert [v.code for v in found] == [
        "EXTRA_DECK_TOO_LARGE",
        "EXTRA_DECK_TOO_MANY_COPIES",
        "EXTRA_DECK_TOO_MANY_COPIES",
    ]


def test_configure_raises_the_first_violation_with_its_seat() -> None:
    assert refused({"seats": [{}, {"deck": deck(commander=["VL-T06"])}]}) == ("TACTICS_RESTRICTION_UNMET", 1)
    assert refused({"seats": [{}]}) == ("PLAYER_COUNT_INVALID", None)
    assert refused([1, 2]) == ("BAD_CONFIG", None)
    assert refused({"seats": [{"deck": "starter_a", "x": 1}, {}]}) == ("BAD_CONFIG", 0)


def test_public_config_hides_the_deck_lists_and_round_trips() -> None:
    config = configure({"seats": [{}, {}]})
    public = public_config(config)
    assert all(s.deck == Deck() for s in public.seats)
    assert public.options == config.options
    assert msgspec.convert(msgspec.to_builtins(public), Config) == public
    assert RULESET.initial(public).players[0].deck == ()
