"""aq configuration and card data (§3.2, §3.7, §4, §8.1, §13; D5, D7, D27): check order, option ranges,
box expansion, round trip, and the catalog."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine.errors import ConfigError
from engine.rulesets.aq import RULESET
from engine.rulesets.aq.data import ATTACK, CARD_DATA_HASH, CATALOG, HAND_SIZE, PETS, SKILLS, allowance, pairs, playable
from tests.engine.aq.helpers import config


def refused(data: Any) -> tuple[str, int | None]:
    with pytest.raises(ConfigError) as caught:
        RULESET.configure(data)
    return caught.value.code, caught.value.seat


def test_checks_run_in_the_spec_order() -> None:
    # Every check fails at once: the player count is reported first, then each in turn as the others pass.
    bad = {"seats": [{"deck": "starter_a"}] * 7, "options": {"speed": 1, "box": "x", "max_rounds": 0}}
    assert refused(bad) == ("PLAYER_COUNT_OUT_OF_RANGE", None)
    bad["seats"] = [{}, {"deck": ["Mon.01a"]}]
    assert refused(bad) == ("DECK_NOT_APPLICABLE", 1)
    bad["seats"] = [{}, {}]
    assert refused(bad) == ("UNKNOWN_OPTION", None)
    del bad["options"]["speed"]  # type: ignore[attr-defined]
    assert refused(bad) == ("UNKNOWN_BOX", None)
    bad["options"]["box"] = "starter_b"  # type: ignore[index]
    assert refused(bad) == ("OPTION_OUT_OF_RANGE", None)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("max_rounds", 0),
        ("max_rounds", 6),
        ("phase_seconds", 9),
        ("phase_seconds", 601),
        ("max_phases_per_round", 19),
        ("max_phases_per_round", 1001),
        ("max_rounds", "3"),
        ("max_rounds", True),
    ],
)
def test_integer_options_out_of_range(name: str, value: object) -> None:
    assert refused(config(3, **{name: value})) == ("OPTION_OUT_OF_RANGE", None)


def test_a_seat_entry_without_a_deck_is_accepted() -> None:
    configured = RULESET.configure({"seats": [{"name": "ann"}, {"deck": None}], "options": {}})
    assert configured.players == 2


@pytest.mark.parametrize("data", [None, [], {"seats": 3}, {"seats": [{}, 5]}, {"seats": [{}, {}], "options": [1]}])
def test_malformed_configurations(data: Any) -> None:
    assert refused(data)[0] == "BAD_CONFIG"


@pytest.mark.parametrize("players", range(2, 7))
def test_box_expansion_per_player_count(players: int) -> None:
    configured = RULESET.configure(config(players))
    assert len(configured.pets) == (41 if players <= 4 else 82)
    assert len(configured.pets) - players * HAND_SIZE[players] == {2: 17, 3: 11, 4: 9, 5: 17, 6: 16}[players]
    assert len(configured.skills) == 16 and configured.options.box == "starter_a"
    assert msgspec.convert(msgspec.to_builtins(configured), type(configured)) == configured


def test_beginner_box_has_no_targeted_skills() -> None:
    configured = RULESET.configure(config(4, box="starter_b", max_rounds=3, phase_seconds=10))
    assert [s[:4] for s in configured.skills[::2]] == ["SK01", "SK02", "SK04", "SK05", "SK06"]
    assert (configured.options.max_rounds, configured.options.phase_seconds) == (3, 10)


def test_presets_options_and_card_data_hash() -> None:
    assert sorted(RULESET.presets) == ["starter_a", "starter_b"]
    assert len(RULESET.presets["starter_a"]["pets"]) == 82
    assert RULESET.options == {"max_rounds": 5, "phase_seconds": 60, "max_phases_per_round": 200, "box": "starter_a"}
    assert RULESET.card_data_hash == CARD_DATA_HASH and len(CARD_DATA_HASH) == 64


def test_pet_counts_and_attack_range() -> None:
    sizes = [len(p.attributes) for p in CATALOG.pets]
    assert (sizes.count(1), sizes.count(2), sizes.count(0)) == (25, 13, 3)
    assert len(PETS) == 82 and all(0 <= a <= 13 for a in ATTACK.values())
    assert [p.name for p in CATALOG.pets if not p.attributes] == ["Athena", "Mimic Box", "Lucky Egg"]


def test_skills_match_section_13_3() -> None:
    assert [(s.id, s.name, s.effect.op) for s in CATALOG.skills] == [
        ("SK01", "Reverse", "reverse_direction"),
        ("SK02", "Skip", "skip_next_phase"),
        ("SK03", "Gift", "give_card"),
        ("SK04", "Stash", "cover_reserve"),
        ("SK05", "Banish", "remove_card"),
        ("SK06", "Wild", "all_playable_this_phase"),
        ("SK07", "Burden", "target_draws_from_field"),
        ("SK08", "Greed", "set_reserve_cap_this_phase"),
    ]
    assert SKILLS["SK07-2"].effect.count == 1 and SKILLS["SK08-1"].effect.value == 3
    assert [(s.needs.card, s.needs.target_seat) for s in CATALOG.skills] == [
        (False, False),
        (False, False),
        (True, True),
        (True, False),
        (True, False),
        (False, False),
        (False, True),
        (False, False),
    ]


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        ("Mon.01a", "Mon.02a"),
        ("Mon.02a", "Mon.03a"),
        ("Mon.03a", "Mon.04a"),
        ("Mon.04a", "Mon.05a"),
        ("Mon.05a", "Mon.06a"),
    ],
)
def test_the_wheel_counters_one_way(attacker: str, defender: str) -> None:
    # D5: water → fire → wood → earth → thunder → water; low attacks so only the counter can make them playable.
    assert pairs(attacker, defender) == 1 and pairs(defender, attacker) == 0


def test_attributeless_rules() -> None:
    # D6: an attributeless card always plays; an attributeless last card needs more attack or another one.
    assert (
        playable("Mon.41a", "Mon.24a")
        and not playable("Mon.16a", "Mon.39a")
        and playable("Mon.21a", "Mon.39a")
        and playable("Mon.40b", "Mon.39a")
    )
    assert allowance("Mon.39a", "Mon.41a", 2) == 1 and allowance("Mon.41a", "Mon.41b", 2) == 0


def test_multi_pair_cap() -> None:
    # §13.4 coverage: Mon.29 or Mon.38 on Mon.26 gives 2 pairs; with higher attack the cap decides.
    assert pairs("Mon.38a", "Mon.26a") == 2 and allowance("Mon.38a", "Mon.26a", 2) == 2
    assert allowance("Mon.38a", "Mon.26a", 3) == 3
