"""card_monsters.md §14: every acceptance scenario, one test (or one parametrised case) per sub-case.

Events are compared exactly and positionally, in the field order of §5-§8.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.contract import SYSTEM
from engine.errors import ConfigError
from engine.rng import ScriptedRng
from engine.rulesets.card_monsters import RULESET
from engine.rulesets.card_monsters.data import PRESETS
from engine.rulesets.card_monsters.model import (
    CardDrawn,
    Concede,
    ConsumableUsed,
    CrystalsGained,
    EffectHit,
    Engage,
    Equip,
    EquipmentAttached,
    FirstPlayerChosen,
    MatchEnded,
    MonsterDestroyed,
    MonsterHealed,
    MonsterMoved,
    MonsterPlayed,
    Pile,
    PileShuffled,
    PlayMonster,
    Sacrifice,
    Sacrificed,
    State,
    Timeout,
    TurnEnded,
    TurnStarted,
    UseConsumable,
)
from engine.rulesets.card_monsters.setup import configure, setup
from engine.rulesets.card_monsters.view import view

from .helpers import NO_PILE, fold, given, hit, mon, rejection, run, side

ALL_ZERO = ScriptedRng


def next_turn(turn: int, seat: int, total: int) -> list[Any]:
    return [TurnStarted(turn, seat, 40), CrystalsGained(seat, 3, "turn_start", total)]


def combat_of(events: list[Any]) -> list[Any]:
    """The events between TurnEnded and the next TurnStarted (or the end)."""
    assert isinstance(events[0], TurnEnded)
    end = next((i for i, e in enumerate(events) if isinstance(e, TurnStarted)), len(events))
    return events[1:end]


# --- 1. deck checks -------------------------------------------------------------------------------------


def with_decks(deck0: Any = "starter_a", deck1: Any = "starter_b") -> dict[str, Any]:
    return {"seats": [{"deck": deck0}, {"deck": deck1}], "options": {}}


@pytest.mark.parametrize(
    ("data", "code", "seat", "detail"),
    [
        pytest.param(with_decks([*PRESETS["starter_a"], "M09"]), "DECK_TOO_MANY_MONSTERS", 0, None, id="a"),
        pytest.param(
            with_decks(deck1=["M05" if c == "M10" else c for c in PRESETS["starter_b"]]),
            "DECK_TOO_MANY_COPIES",
            1,
            "M05",
            id="b",
        ),
        pytest.param(with_decks(["E01", "E02"]), "DECK_NO_MONSTERS", 0, None, id="c"),
        pytest.param(with_decks(["M99"]), "DECK_UNKNOWN_CARD", 0, "M99", id="d"),
        pytest.param({"seats": [{}, {}, {}], "options": {}}, "PLAYER_COUNT_INVALID", None, None, id="e"),
        pytest.param(with_decks("starter_c"), "DECK_UNKNOWN_PRESET", 0, "starter_c", id="f"),
        pytest.param(
            {"seats": [{}, {}], "options": {"max_turns": 1}}, "OPTION_OUT_OF_RANGE", None, "max_turns", id="g"
        ),
    ],
)
def test_s01_deck_checks(data: dict[str, Any], code: str, seat: int | None, detail: str | None) -> None:
    with pytest.raises(ConfigError) as info:
        configure(data)
    assert (info.value.code, info.value.seat) == (code, seat)
    if detail is not None:
        assert info.value.detail == detail


# --- 2-3. setup, play, refill, first combat -------------------------------------------------------------


def after_setup() -> tuple[list[Any], State]:
    config = configure({"seats": [{}, {}], "options": {}})
    events = setup(config, ALL_ZERO())
    return events, fold(RULESET.initial(config), events)


def test_s02_setup_with_all_zero_rng() -> None:
    events, state = after_setup()
    rotated = [*range(1, 8), 0]
    draws: list[tuple[int, Pile, int, str]] = [
        (0, "monster", 1, "M01"), (0, "monster", 2, "M02"), (0, "monster", 3, "M03"),
        (0, "item", 9, "E02"), (0, "item", 10, "E02"), (0, "item", 11, "E04"),
        (1, "monster", 1, "M05"), (1, "monster", 2, "M06"), (1, "monster", 3, "M07"),
        (1, "item", 9, "E03"), (1, "item", 10, "E03"), (1, "item", 11, "E04"),
    ]  # fmt: skip
    assert events == [
        PileShuffled(0, "monster", tuple(f"0:{i}" for i in rotated), 8),
        PileShuffled(0, "item", tuple(f"0:{i + 8}" for i in rotated), 8),
        PileShuffled(1, "monster", tuple(f"1:{i}" for i in rotated), 8),
        PileShuffled(1, "item", tuple(f"1:{i + 8}" for i in rotated), 8),
        FirstPlayerChosen(0),
        *(CardDrawn(s, pile, f"{s}:{i}", card_id) for s, pile, i, card_id in draws),
        TurnStarted(1, 0, 40),
        CrystalsGained(0, 3, "turn_start", 3),
    ]
    assert state.sides[0].monster_pile == ("0:4", "0:5", "0:6", "0:7", "0:0")


def test_s03_play_refill_then_combat_without_target() -> None:
    _, state = after_setup()
    events, state = run(state, 0, PlayMonster("0:2"))
    assert events == [MonsterPlayed(0, "0:2", "M02", 1, 3, 0), CardDrawn(0, "monster", "0:4", "M03")]
    assert rejection(state, 0, PlayMonster("0:1")) == "NOT_ENOUGH_CRYSTALS"
    assert rejection(state, 0, PlayMonster("0:9")) == "NOT_A_MONSTER"
    assert rejection(state, 1, PlayMonster("1:1")) == "NOT_YOUR_TURN"
    events, state = run(state, 0, Engage())
    assert events == [TurnEnded(0, 1, "engage"), *next_turn(2, 1, 3)]
    assert RULESET.outcome(state) is None  # seat 1's field is empty, but it holds monsters in hand


# --- 4-7. placement, sacrifice, equipment ---------------------------------------------------------------


def test_s04_lowest_empty_position_field_full_and_replay_into_sacrificed_slot() -> None:
    state = given(
        side(field=[mon("0:0", "M01"), mon("0:5", "M04")], hand_monsters=[("0:7", "M10"), ("0:3", "M03")],
             monster_pile=[("0:4", "M03")], crystals=5),
        side(field=[mon("1:0", "M05", 4, 4)], crystals=0),
    )  # fmt: skip
    events, state = run(state, 0, PlayMonster("0:7"))
    assert events == [MonsterPlayed(0, "0:7", "M10", 3, 1, 4), CardDrawn(0, "monster", "0:4", "M03")]
    assert rejection(state, 0, PlayMonster("0:3")) == "FIELD_FULL"
    events, state = run(state, 0, Sacrifice(position=3))
    assert events == [Sacrificed(0, "0:7", "M10", "field", 3, None), CrystalsGained(0, 2, "sacrifice", 6)]
    events, state = run(state, 0, PlayMonster("0:3"))
    assert events == [MonsterPlayed(0, "0:3", "M03", 3, 2, 4)]
    events, state = run(state, 0, Engage())
    assert combat_of(events) == [
        hit(0, 3, "melee", "primary", 1, "1:0", 2, 2),
        hit(0, 2, "ranged", "primary", 1, "1:0", 2, 0),
        MonsterDestroyed(1, 1, "1:0", "M05", None),
        CrystalsGained(1, 1, "monster_destroyed", 1),
    ]
    assert isinstance(events[-2], TurnStarted)


def test_s05a_sacrifice_a_monster_from_hand() -> None:
    state = given(side(hand_monsters=[("0:7", "M10"), ("0:3", "M03")], monster_pile=[("0:4", "M03")], crystals=1))
    events, state = run(state, 0, Sacrifice(card="0:7"))
    assert events == [
        Sacrificed(0, "0:7", "M10", "hand", None, None),
        CrystalsGained(0, 3, "sacrifice", 4),
        CardDrawn(0, "monster", "0:4", "M03"),
    ]
    assert rejection(state, 0, Sacrifice(card="0:3")) == "SACRIFICE_ALREADY_USED"
    assert rejection(state, 0, Sacrifice(card="0:3", position=1)) == "BAD_FIELDS"


def test_s05b_sacrifice_an_item_from_hand() -> None:
    state = given(side(hand_items=[("0:12", "E05")], item_pile=[("0:13", "C01")], crystals=3), turn=9)
    events, _ = run(state, 0, Sacrifice(card="0:12"))
    assert events == [
        Sacrificed(0, "0:12", "E05", "hand", None, None),
        CrystalsGained(0, 2, "sacrifice", 5),
        CardDrawn(0, "item", "0:13", "C01"),
    ]


def test_s06_sacrifice_an_equipped_field_monster() -> None:
    state = given(
        side(field=[mon("0:0", "M01", 9, 10, equipment=("0:12", "E05")), mon("0:5", "M04"), mon("0:3", "M03")],
             losses=2),
    )  # fmt: skip
    events, state = run(state, 0, Sacrifice(position=1))
    assert events == [
        Sacrificed(0, "0:0", "M01", "field", 1, "0:12"),
        CrystalsGained(0, 1, "sacrifice", 1),
        MonsterMoved(0, "0:5", 2, 1),
        MonsterMoved(0, "0:3", 3, 2),
    ]
    assert state.sides[0].discard[-2:] == ("0:0", "0:12")
    assert state.sides[0].losses == 2


def test_s07_equipment_colour_and_replacement() -> None:
    state = given(
        side(),
        side(field=[mon("1:0", "M05", 4, 4), mon("1:3", "M07", 5, 5)],
             hand_items=[("1:9", "E03"), ("1:12", "E05"), ("1:8", "E01")],
             item_pile=[("1:13", "C01"), ("1:14", "C02"), ("1:15", "C02")], crystals=3),
        active=1,
    )  # fmt: skip
    assert rejection(state, 1, Equip("1:9", 2)) == "COLOUR_MISMATCH"
    assert rejection(state, 1, Equip("1:9", 3)) == "POSITION_EMPTY"
    events, state = run(state, 1, Equip("1:9", 1))
    assert events == [EquipmentAttached(1, "1:9", "E03", 1, 1, 2, None, 4, 4), CardDrawn(1, "item", "1:13", "C01")]
    assert view(state, None).sides[1].field[0].magic == 4
    events, state = run(state, 1, Equip("1:12", 1))
    assert events == [EquipmentAttached(1, "1:12", "E05", 1, 1, 1, "1:9", 7, 7), CardDrawn(1, "item", "1:14", "C02")]
    assert "1:9" in state.sides[1].discard
    assert view(state, None).sides[1].field[0].magic == 2


# --- 8-12. targeting ------------------------------------------------------------------------------------

BRUTE_AND_ARCHER = side(field=[mon("0:0", "M01", 7, 7), mon("0:5", "M04", 4, 4)])


def test_s08a_ranged_from_the_left_hits_the_diagonal() -> None:
    state = given(
        BRUTE_AND_ARCHER,
        side(field=[mon("1:0", "M05", 4, 4), mon("1:3", "M07", 5, 5), mon("1:5", "M09", 3, 3)], crystals=2),
        turn=6,
    )
    events, _ = run(state, 0, Engage())
    assert events == [
        TurnEnded(0, 6, "engage"),
        hit(0, 2, "ranged", "primary", 3, "1:5", 2, 1),
        hit(0, 1, "melee", "primary", 1, "1:0", 3, 1),
        *next_turn(7, 1, 5),
    ]


def test_s08b_ranged_from_the_left_falls_back_to_opposite() -> None:
    state = given(BRUTE_AND_ARCHER, side(field=[mon("1:0", "M05", 4, 4), mon("1:3", "M07", 5, 5)], crystals=2), turn=6)
    events, _ = run(state, 0, Engage())
    assert combat_of(events) == [
        hit(0, 2, "ranged", "primary", 2, "1:3", 2, 3),
        hit(0, 1, "melee", "primary", 1, "1:0", 3, 1),
    ]


def test_s08c_ranged_from_the_left_falls_back_to_centre() -> None:
    state = given(BRUTE_AND_ARCHER, side(field=[mon("1:0", "M05", 4, 4)], crystals=2), turn=6)
    events, _ = run(state, 0, Engage())
    assert events == [
        TurnEnded(0, 6, "engage"),
        hit(0, 2, "ranged", "primary", 1, "1:0", 2, 2),
        hit(0, 1, "melee", "primary", 1, "1:0", 3, 0),
        MonsterDestroyed(1, 1, "1:0", "M05", None),
        CrystalsGained(1, 1, "monster_destroyed", 3),
        *next_turn(7, 1, 6),
    ]


def test_s09_ranged_from_the_right_long_reach_and_order() -> None:
    state = given(
        side(field=[mon("0:7", "M10", 2, 2), mon("0:3", "M03", 5, 5), mon("0:5", "M04", 4, 4)]),
        side(field=[mon("1:0", "M05", 4, 4), mon("1:3", "M07", 5, 5), mon("1:5", "M09", 3, 3)], crystals=2),
    )
    events, _ = run(state, 0, Engage())
    assert combat_of(events) == [
        hit(0, 3, "ranged", "primary", 2, "1:3", 2, 3),
        hit(0, 2, "melee", "primary", 1, "1:0", 2, 2),
        hit(0, 1, "melee", "primary", 1, "1:0", 1, 1),
    ]
    assert isinstance(events[-2], TurnStarted)


def position_restriction_board(crystals: int = 0) -> State:
    return given(
        side(field=[mon("0:5", "M04"), mon("0:0", "M01", 7, 7)], hand_items=[("0:8", "E01")], crystals=crystals),
        side(field=[mon("1:0", "M05", 4, 4)]),
    )


def test_s10a_no_ranged_from_centre_no_melee_from_back_row() -> None:
    events, _ = run(position_restriction_board(), 0, Engage())
    assert combat_of(events) == []
    assert isinstance(events[1], TurnStarted)


def test_s10b_long_spear_lets_melee_reach_from_the_back_row() -> None:
    events, state = run(position_restriction_board(crystals=1), 0, Equip("0:8", 2))
    assert events[0] == EquipmentAttached(0, "0:8", "E01", 2, 1, 0, None, 7, 7)
    events, _ = run(state, 0, Engage())
    assert combat_of(events) == [hit(0, 2, "melee", "primary", 1, "1:0", 3, 1)]


ADEPT_AND_RANGER = side(field=[mon("1:0", "M05"), mon("1:3", "M07")])


def test_s11a_magic_is_face_to_face_and_before_ranged() -> None:
    state = given(
        side(field=[mon("0:0", "M01", 7, 7), mon("0:5", "M04", 4, 4), mon("0:3", "M03", 5, 5)]),
        ADEPT_AND_RANGER, active=1, turn=8,
    )  # fmt: skip
    events, _ = run(state, 1, Engage())
    assert events[:4] == [
        TurnEnded(1, 8, "engage"),
        hit(1, 2, "magic", "primary", 2, "0:5", 1, 3),
        hit(1, 2, "ranged", "primary", 3, "0:3", 2, 3),
        hit(1, 1, "magic", "primary", 1, "0:0", 2, 5),
    ]
    assert events[4:] == next_turn(9, 0, 3)


def test_s11b_everything_falls_back_to_the_centre() -> None:
    state = given(side(field=[mon("0:0", "M01", 7, 7)]), ADEPT_AND_RANGER, active=1, turn=8)
    events, _ = run(state, 1, Engage())
    assert combat_of(events) == [
        hit(1, 2, "magic", "primary", 1, "0:0", 1, 6),
        hit(1, 2, "ranged", "primary", 1, "0:0", 2, 4),
        hit(1, 1, "magic", "primary", 1, "0:0", 2, 2),
    ]


def test_s12_kill_shift_continue() -> None:
    state = given(
        side(field=[mon("0:6", "M08", 6, 6)]),
        side(field=[mon("1:7", "M10", 1, 2), mon("1:3", "M07", 5, 5)], crystals=2),
        turn=10,
    )
    events, _ = run(state, 0, Engage())
    assert events == [
        TurnEnded(0, 10, "engage"),
        hit(0, 1, "magic", "primary", 1, "1:7", 1, 0),
        MonsterDestroyed(1, 1, "1:7", "M10", None),
        CrystalsGained(1, 1, "monster_destroyed", 3),
        MonsterMoved(1, "1:3", 2, 1),
        hit(0, 1, "melee", "primary", 1, "1:3", 2, 3),
        *next_turn(11, 1, 6),
    ]


# --- 13-15. double strike, AOE, random ------------------------------------------------------------------

RAIDER = side(field=[mon("0:2", "M02")])


def test_s13a_double_strike_hits_a_random_back_row_enemy() -> None:
    state = given(RAIDER, side(field=[mon("1:0", "M05", 4, 4), mon("1:3", "M07", 5, 5), mon("1:5", "M09", 3, 3)]))
    rng = ScriptedRng([1])
    events, _ = run(state, 0, Engage(), rng)
    assert combat_of(events) == [
        hit(0, 1, "melee", "primary", 1, "1:0", 2, 2),
        hit(0, 1, "melee", "double_strike", 3, "1:5", 2, 1),
    ]
    assert rng.draws == 1


def test_s13b_double_strike_chooses_after_compaction() -> None:
    state = given(RAIDER, side(field=[mon("1:0", "M05", 2, 4), mon("1:3", "M07", 5, 5), mon("1:5", "M09", 3, 3)]))
    rng = ScriptedRng()
    events, _ = run(state, 0, Engage(), rng)
    assert combat_of(events) == [
        hit(0, 1, "melee", "primary", 1, "1:0", 2, 0),
        MonsterDestroyed(1, 1, "1:0", "M05", None),
        CrystalsGained(1, 1, "monster_destroyed", 1),
        MonsterMoved(1, "1:3", 2, 1),
        MonsterMoved(1, "1:5", 3, 2),
        hit(0, 1, "melee", "double_strike", 2, "1:5", 2, 1),
    ]
    assert rng.draws == 0


def test_s13c_no_second_hit_without_a_back_row() -> None:
    rng = ScriptedRng()
    events, _ = run(given(RAIDER, side(field=[mon("1:0", "M05", 4, 4)])), 0, Engage(), rng)
    assert combat_of(events) == [hit(0, 1, "melee", "primary", 1, "1:0", 2, 2)]
    assert rng.draws == 0


def test_s14a_aoe_from_the_centre_splashes_a_random_back_row_enemy() -> None:
    state = given(
        side(field=[mon("0:0", "M01", 7, 7), mon("0:5", "M04", 4, 4), mon("0:3", "M03", 2, 5)], crystals=4),
        side(field=[mon("1:2", "M06")]),
        active=1, turn=12,
    )  # fmt: skip
    events, _ = run(state, 1, Engage(), ScriptedRng([1]))
    assert events == [
        TurnEnded(1, 12, "engage"),
        hit(1, 1, "magic", "primary", 1, "0:0", 2, 5),
        hit(1, 1, "magic", "splash", 3, "0:3", 2, 0),
        MonsterDestroyed(0, 3, "0:3", "M03", None),
        CrystalsGained(0, 1, "monster_destroyed", 5),
        *next_turn(13, 0, 8),
    ]


def test_s14b_aoe_from_the_left_splashes_the_centre_and_crystals_cap() -> None:
    state = given(
        side(field=[mon("0:5", "M04"), mon("0:20", "M06")]),
        side(field=[mon("1:0", "M05", 2, 4), mon("1:3", "M07", 5, 5)], crystals=9),
    )
    rng = ScriptedRng()
    events, _ = run(state, 0, Engage(), rng)
    assert events[1:] == [
        hit(0, 2, "magic", "primary", 2, "1:3", 2, 3),
        hit(0, 2, "magic", "splash", 1, "1:0", 2, 0),
        MonsterDestroyed(1, 1, "1:0", "M05", None),
        CrystalsGained(1, 1, "monster_destroyed", 10),
        MonsterMoved(1, "1:3", 2, 1),
        *next_turn(6, 1, 10),
    ]
    assert rng.draws == 0


IMP = side(field=[mon("1:5", "M09")])


def test_s15a_random_attack_picks_any_occupied_enemy() -> None:
    state = given(side(field=[mon("0:0", "M01", 7, 7), mon("0:5", "M04", 4, 4)]), IMP, active=1)
    events, _ = run(state, 1, Engage(), ScriptedRng([1]))
    assert combat_of(events) == [hit(1, 1, "random", "primary", 2, "0:5", 2, 2)]


def test_s15b_random_attack_with_one_target_draws_nothing() -> None:
    rng = ScriptedRng()
    events, _ = run(given(side(field=[mon("0:0", "M01", 7, 7)]), IMP, active=1), 1, Engage(), rng)
    assert combat_of(events) == [hit(1, 1, "random", "primary", 1, "0:0", 2, 5)]
    assert rng.draws == 0


# --- 16. consumables (one sequence; each step builds on the previous ones) -------------------------------


def consumables_board() -> State:
    return given(
        side(field=[mon("0:0", "M01", 5, 7)], hand_items=[("0:14", "C02"), ("0:13", "C01"), ("0:15", "C03")],
             item_pile=[("0:8", "E01")], crystals=3),
        side(field=[mon("1:0", "M05", 3, 4), mon("1:5", "M09", 3, 3)], crystals=0),
    )  # fmt: skip


STEP_A = UseConsumable("0:14", 1)
STEP_C = UseConsumable("0:15", None)


def test_s16a_fire_bomb_destroys_and_compacts() -> None:
    events, _ = run(consumables_board(), 0, STEP_A)
    assert events == [
        ConsumableUsed(0, "0:14", "C02", 2, 1, 1, 1),
        EffectHit(0, "0:14", 1, 1, "1:0", 3, 0),
        MonsterDestroyed(1, 1, "1:0", "M05", None),
        CrystalsGained(1, 1, "monster_destroyed", 1),
        MonsterMoved(1, "1:5", 2, 1),
        CardDrawn(0, "item", "0:8", "E01"),
    ]


def test_s16b_invalid_targets() -> None:
    _, state = run(consumables_board(), 0, STEP_A)
    assert rejection(state, 0, UseConsumable("0:13", 2)) == "INVALID_TARGET"
    assert rejection(state, 0, UseConsumable("0:15", 1)) == "INVALID_TARGET"


def test_s16c_crystal_dust_without_a_draw() -> None:
    _, state = run(consumables_board(), 0, STEP_A)
    events, _ = run(state, 0, STEP_C)
    assert events == [ConsumableUsed(0, "0:15", "C03", 0, 1, None, None), CrystalsGained(0, 1, "effect", 2)]


def test_s16d_healing_herb_heals_up_to_max_hp() -> None:
    _, state = run(consumables_board(), 0, STEP_A)
    _, state = run(state, 0, STEP_C)
    events, _ = run(state, 0, UseConsumable("0:13", 1))
    assert events == [ConsumableUsed(0, "0:13", "C01", 1, 1, 0, 1), MonsterHealed(0, 1, "0:0", 2, 7)]


# --- 17-21. end of match --------------------------------------------------------------------------------


def last_slime(**seat1: Any) -> State:
    return given(
        side(field=[mon("0:0", "M01")], losses=5),
        side(field=[mon("1:7", "M10", 1, 2)], monster_pile=NO_PILE, crystals=0, losses=6, **seat1),
        turn=20,
    )


def test_s17a_elimination_by_combat() -> None:
    events, state = run(last_slime(), 0, Engage())
    assert events == [
        TurnEnded(0, 20, "engage"),
        hit(0, 1, "melee", "primary", 1, "1:7", 3, 0),
        MonsterDestroyed(1, 1, "1:7", "M10", None),
        CrystalsGained(1, 1, "monster_destroyed", 1),
        MatchEnded("win", 0, "eliminated", (5, 7)),
    ]
    for actor, cmd in [(1, Engage()), (0, Engage()), (1, Concede()), (SYSTEM, Timeout(20)), (0, PlayMonster("0:1"))]:
        assert rejection(state, actor, cmd) == "MATCH_OVER"


def test_s17b_a_monster_in_hand_keeps_the_seat_alive() -> None:
    events, _ = run(last_slime(hand_monsters=[("1:5", "M09")]), 0, Engage())
    assert not any(isinstance(e, MatchEnded) for e in events)
    assert events[-2:] == next_turn(21, 1, 4)


def test_s18_self_elimination_by_sacrifice() -> None:
    state = given(side(field=[mon("0:0", "M01")], monster_pile=NO_PILE, crystals=2, losses=6), side(losses=3))
    events, _ = run(state, 0, Sacrifice(position=1))
    assert events == [
        Sacrificed(0, "0:0", "M01", "field", 1, None),
        CrystalsGained(0, 1, "sacrifice", 3),
        MatchEnded("win", 1, "eliminated", (6, 3)),
    ]


def test_s19_timeout() -> None:
    state = given(side(crystals=4), side(), active=1, turn=9)
    assert rejection(state, SYSTEM, Timeout(8)) == "TIMEOUT_STALE"
    assert rejection(state, 0, Timeout(9)) == "NOT_SYSTEM"
    events, _ = run(state, SYSTEM, Timeout(9))
    assert events == [TurnEnded(1, 9, "timeout"), *next_turn(10, 0, 7)]


@pytest.mark.parametrize(
    ("losses", "ended"),
    [
        pytest.param((5, 6), MatchEnded("win", 0, "turn_limit", (5, 6)), id="a"),
        pytest.param((6, 6), MatchEnded("draw", None, "turn_limit", (6, 6)), id="b"),
    ],
)
def test_s20ab_turn_limit(losses: tuple[int, int], ended: MatchEnded) -> None:
    state = given(side(losses=losses[0]), side(losses=losses[1]), active=1, turn=40)
    events, _ = run(state, 1, Engage())
    assert events == [TurnEnded(1, 40, "engage"), ended]


def test_s20c_turn_39_starts_turn_40() -> None:
    events, _ = run(given(side(), side(), active=1, turn=39), 1, Engage())
    assert events == [TurnEnded(1, 39, "engage"), *next_turn(40, 0, 3)]


def test_s21_concede() -> None:
    events, state = run(given(), 1, Concede())
    assert events == [MatchEnded("win", 0, "concede", (0, 0))]
    assert rejection(state, 1, Concede()) == "MATCH_OVER"


# --- 22. legal_commands exactness -----------------------------------------------------------------------


def test_s22_legal_commands_exactness() -> None:
    state = given(
        side(field=[mon("0:0", "M01")], hand_monsters=[("0:3", "M03"), ("0:7", "M10")],
             hand_items=[("0:9", "E02"), ("0:11", "E04"), ("0:14", "C02")], crystals=1, sacrifice_used=True),
        side(field=[mon("1:0", "M05")]),
    )  # fmt: skip
    assert RULESET.legal_commands(state, 0) == [PlayMonster("0:7"), Equip("0:9", 1), Engage(), Concede()]
    assert RULESET.legal_commands(state, 1) == [Concede()]
    assert rejection(state, 0, Equip("0:11", 1)) == "COLOUR_MISMATCH"
    assert rejection(state, 0, UseConsumable("0:14", 1)) == "NOT_ENOUGH_CRYSTALS"
