"""Configuration and setup of card_monsters: §4 check order and details, presets, §5 setup."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine.errors import ConfigError
from engine.match import create, fold
from engine.rng import ALL_ZERO_SEED, Rng, ScriptedRng
from engine.rulesets.card_monsters import RULESET
from engine.rulesets.card_monsters.data import CARD_DATA_HASH, CATALOG, PRESETS
from engine.rulesets.card_monsters.model import CardDrawn, Config, Options, PileShuffled
from engine.rulesets.card_monsters.setup import configure, setup


def error(data: Any) -> tuple[str, int | None, str]:
    with pytest.raises(ConfigError) as info:
        configure(data)
    return info.value.code, info.value.seat, info.value.detail


def decks(deck0: Any, deck1: Any = "starter_b", **options: Any) -> dict[str, Any]:
    return {"seats": [{"deck": deck0}, {"deck": deck1}], "options": options}


def test_omitted_decks_are_the_starters_and_options_default() -> None:
    config = configure({"seats": [{}, {}]})
    assert [s.deck for s in config.seats] == [PRESETS["starter_a"], PRESETS["starter_b"]]
    assert config.options == Options(turn_seconds=40, crystal_cap=10, hand_monsters=3, hand_items=3, max_turns=40)


def test_presets_expand_to_the_same_config_as_their_lists() -> None:
    as_lists = decks(list(PRESETS["starter_b"]), list(PRESETS["starter_a"]))
    assert configure(decks("starter_b", "starter_a")) == configure(as_lists)


def test_config_round_trips_through_builtins() -> None:
    config = configure(decks(["M01", "E05"], max_turns=12, hand_items=0))
    assert msgspec.convert(msgspec.to_builtins(config), Config) == config


def test_starter_decks_are_legal_full_decks() -> None:
    for name in ("starter_a", "starter_b"):
        assert len(PRESETS[name]) == 16
    assert RULESET.presets == {name: list(deck) for name, deck in PRESETS.items()}
    assert RULESET.card_data_hash == CARD_DATA_HASH and len(CARD_DATA_HASH) == 64
    assert sorted(CATALOG) == [*(f"C0{i}" for i in (1, 2, 3)), *(f"E0{i}" for i in range(1, 6)),
                               *(f"M{i:02}" for i in range(1, 11))]  # fmt: skip


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param({"seats": [{}]}, ("PLAYER_COUNT_INVALID", None), id="one-seat"),
        pytest.param({"seats": [{}, {}], "options": {"zeta": 1, "crystal_cap": 0}}, ("UNKNOWN_OPTION", None, "zeta"),
                     id="unknown-before-range"),
        pytest.param({"seats": [{}, {}], "options": {"turn_seconds": 5, "crystal_cap": 2}},
                     ("OPTION_OUT_OF_RANGE", None, "crystal_cap"), id="sorted-names"),
        pytest.param({"seats": [{}, {}], "options": {"max_turns": True}}, ("OPTION_OUT_OF_RANGE", None, "max_turns"),
                     id="bool-is-no-integer"),
        pytest.param({"seats": [{}, {}], "options": {"hand_items": 2.0}}, ("OPTION_OUT_OF_RANGE", None, "hand_items"),
                     id="float"),
        pytest.param(decks("starter_c", ["M99"], max_turns=0), ("OPTION_OUT_OF_RANGE", None, "max_turns"),
                     id="options-before-decks"),
        pytest.param(decks(["M01"] * 3, ["M99"]), ("DECK_TOO_MANY_COPIES", 0, "M01"), id="seat-0-first"),
        pytest.param(decks(["M99", *["M01"] * 9]), ("DECK_UNKNOWN_CARD", 0, "M99"), id="unknown-before-counts"),
        pytest.param(decks(["E01"] * 9), ("DECK_TOO_MANY_ITEMS", 0), id="too-many-items"),
        pytest.param(decks(["E01"] * 9 + ["M01"] * 9), ("DECK_TOO_MANY_MONSTERS", 0), id="monsters-before-items"),
        pytest.param(decks([]), ("DECK_NO_MONSTERS", 0), id="empty"),
        pytest.param(decks(["M02", "M01", "M01", "M02", "M02", "M01"]), ("DECK_TOO_MANY_COPIES", 0, "M02"),
                     id="copies-first-in-deck-order"),
        pytest.param(decks("starter_a", "starter_x"), ("DECK_UNKNOWN_PRESET", 1, "starter_x"), id="seat-1-preset"),
    ],
)  # fmt: skip
def test_checks_run_in_spec_order(data: dict[str, Any], expected: tuple[Any, ...]) -> None:
    assert error(data)[: len(expected)] == expected


@pytest.mark.parametrize(
    "data",
    [
        pytest.param([], id="not-an-object"),
        pytest.param({"seats": {}}, id="seats-not-a-list"),
        pytest.param({"seats": [{}, {}], "rules": {}}, id="unknown-key"),
        pytest.param({"seats": [{}, "x"]}, id="seat-not-an-object"),
        pytest.param({"seats": [{}, {"deck": "starter_b", "name": "b"}]}, id="unknown-seat-key"),
        pytest.param(decks(7), id="deck-not-a-list"),
        pytest.param(decks(["M01", 3]), id="deck-with-a-number"),
        pytest.param({"seats": [{}, {}], "options": []}, id="options-not-an-object"),
    ],
)
def test_malformed_configuration_is_bad_config(data: Any) -> None:
    assert error(data)[0] == "BAD_CONFIG"


@pytest.mark.parametrize(("name", "low", "high"), [("turn_seconds", 10, 600), ("crystal_cap", 3, 99),
                                                   ("hand_monsters", 1, 8), ("hand_items", 0, 8),
                                                   ("max_turns", 2, 400)])  # fmt: skip
def test_option_ranges_are_inclusive(name: str, low: int, high: int) -> None:
    for value in (low, high):
        assert getattr(configure({"seats": [{}, {}], "options": {name: value}}).options, name) == value
    for value in (low - 1, high + 1):
        assert error({"seats": [{}, {}], "options": {name: value}}) == ("OPTION_OUT_OF_RANGE", None, name)


def test_setup_draws_the_rng_as_the_spec_says() -> None:
    rng = Rng(ALL_ZERO_SEED, 1)
    setup(configure({"seats": [{}, {}]}), rng)
    assert rng.draws == 4 * 7 + 1  # four 8-card shuffles (7 draws each), then the first player


def test_setup_respects_hand_options_and_small_piles() -> None:
    config = configure({"seats": [{"deck": ["M01", "E01", "E02"]}, {}], "options": {"hand_items": 0}})
    events = setup(config, ScriptedRng())
    shuffled = [e for e in events if isinstance(e, PileShuffled) and e.seat == 0]
    assert shuffled == [PileShuffled(0, "monster", ("0:0",), 1), PileShuffled(0, "item", ("0:2", "0:1"), 2)]
    assert [e for e in events if isinstance(e, CardDrawn) and e.seat == 0] == [CardDrawn(0, "monster", "0:0", "M01")]
    assert [e.pile for e in events if isinstance(e, CardDrawn) and e.seat == 1] == ["monster"] * 3


def test_match_created_rebuilds_the_same_state() -> None:
    events = create(RULESET, {"seats": [{}, {"deck": ["M09", "M09", "C03"]}], "options": {"max_turns": 8}}, ["a", "b"],
                    ALL_ZERO_SEED)  # fmt: skip
    match = fold(RULESET, events)
    assert match.config.seats[1].deck == ("M09", "M09", "C03")
    assert match.state.options.max_turns == 8
    assert match.state.status == "main" and match.state.turn == 1
