"""The aq catalog against spec §3.2, §8.1 and §13 (D5, D7, D27)."""

from __future__ import annotations

import pytest

from engine.rulesets.aq.data import ATTACK, CATALOG, PETS, SKILLS, allowance, pairs, playable


def test_pet_counts_and_attack_range() -> None:
    sizes = [len(p.attributes) for p in CATALOG.pets]
    assert (sizes.count(1), sizes.count(2), sizes.count(0)) == (25, 13, 3)
    assert len(PETS) == 82 and all(0 <= a <= 13 for a in ATTACK.values())
    assert [p.name for p in CATALOG.pets if not p.attributes] == ["Athena", "Mimic Box", "Lucky Egg"]


def test_skills_match_section_13_3() -> None:
    assert [(s.id, s.name, s.effect.op) for s in CATALOG.skills] == [
        ("SK01", "Reverse", "reverse_direction"), ("SK02", "Skip", "skip_next_phase"),
        ("SK03", "Gift", "give_card"), ("SK04", "Stash", "cover_reserve"), ("SK05", "Banish", "remove_card"),
        ("SK06", "Wild", "all_playable_this_phase"), ("SK07", "Burden", "target_draws_from_field"),
        ("SK08", "Greed", "set_reserve_cap_this_phase"),
    ]
    assert SKILLS["SK07-2"].effect.count == 1 and SKILLS["SK08-1"].effect.value == 3
    assert [(s.needs.card, s.needs.target_seat) for s in CATALOG.skills] == [
        (False, False), (False, False), (True, True), (True, False), (True, False), (False, False), (False, True),
        (False, False),
    ]


@pytest.mark.parametrize(("attacker", "defender"), [
    ("Mon.01a", "Mon.02a"), ("Mon.02a", "Mon.03a"), ("Mon.03a", "Mon.04a"), ("Mon.04a", "Mon.05a"), ("Mon.05a", "Mon.06a"),
])
def test_the_wheel_counters_one_way(attacker: str, defender: str) -> None:
    # D5: water → fire → wood → earth → thunder → water; low attacks so only the counter can make them playable.
    assert pairs(attacker, defender) == 1 and pairs(defender, attacker) == 0


def test_attributeless_rules() -> None:
    # D6: an attributeless card always plays; an attributeless last card needs more attack or another one.
    assert playable("Mon.41a", "Mon.24a") and not playable("Mon.16a", "Mon.39a") and playable("Mon.21a", "Mon.39a") and playable("Mon.40b", "Mon.39a")
    assert allowance("Mon.39a", "Mon.41a", 2) == 1 and allowance("Mon.41a", "Mon.41b", 2) == 0


def test_multi_pair_cap() -> None:
    # §13.4 coverage: Mon.29 or Mon.38 on Mon.26 gives 2 pairs; with higher attack the cap decides.
    assert pairs("Mon.38a", "Mon.26a") == 2 and allowance("Mon.38a", "Mon.26a", 2) == 2
    assert allowance("Mon.38a", "Mon.26a", 3) == 3
