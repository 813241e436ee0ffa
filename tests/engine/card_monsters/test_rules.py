"""card_monsters §7 precondition order and §8.1-§8.4 details beyond the §14 scenarios."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine.commands import decide_json
from engine.contract import ADMIN, SYSTEM
from engine.errors import Rejected
from engine.rng import ScriptedRng
from engine.rulesets.card_monsters import RULESET
from engine.rulesets.card_monsters.model import (
    CardDrawn,
    Concede,
    ConsumableUsed,
    CrystalsGained,
    EffectHit,
    Engage,
    Equip,
    EquipmentAttached,
    MatchEnded,
    MonsterDestroyed,
    MonsterHealed,
    MonsterMoved,
    PlayMonster,
    Sacrifice,
    Sacrificed,
    State,
    Timeout,
    UseConsumable,
)

from .helpers import NO_PILE, given, mon, rejection, run, side

HAND = side(
    field=[mon("0:0", "M01", 5, 7)],
    hand_monsters=[("0:1", "M01"), ("0:4", "M04")],
    hand_items=[("0:8", "E01"), ("0:9", "E03"), ("0:13", "C01"), ("0:15", "C03")],
    item_pile=[("0:10", "E02")],
    discard=[("0:6", "M08")],
    crystals=3,
)
ENEMY = side(field=[mon("1:0", "M05", 4, 4)], hand_monsters=[("1:1", "M05")], hand_items=[("1:9", "E03")])


def board(**changes: Any) -> State:
    return given(msgspec.structs.replace(HAND, **changes), ENEMY)


def code(state: State, actor: Any, raw: dict[str, Any]) -> str:
    """The rejection code of a raw JSON command through the engine entry (type, precheck, decode, decide)."""
    with pytest.raises(Rejected) as info:
        decide_json(RULESET, state, actor, msgspec.json.encode(raw), ScriptedRng())
    return str(info.value.code)


# --- common checks and their order (§7) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("actor", "raw", "expected"),
    [
        (1, {"type": "play_monster", "card": 5}, "NOT_YOUR_TURN"),
        (1, {"type": "sacrifice", "card": "1:1", "position": 1}, "NOT_YOUR_TURN"),
        (SYSTEM, {"type": "engage"}, "NOT_YOUR_TURN"),
        (ADMIN, {"type": "equip", "card": "0:8", "position": 1}, "NOT_YOUR_TURN"),
        (0, {"type": "play_monster", "card": 5}, "BAD_FIELDS"),
        (0, {"type": "equip", "card": "0:8"}, "BAD_FIELDS"),
        (0, {"type": "engage", "extra": 1}, "BAD_FIELDS"),
        (0, {"type": "attack"}, "UNKNOWN_COMMAND"),
        (0, {"type": "timeout", "turn": 5}, "NOT_SYSTEM"),
        (ADMIN, {"type": "timeout", "turn": 5}, "NOT_SYSTEM"),
        (SYSTEM, {"type": "timeout", "turn": "5"}, "BAD_FIELDS"),
        (SYSTEM, {"type": "timeout", "turn": 4}, "TIMEOUT_STALE"),
        (SYSTEM, {"type": "concede"}, "NOT_YOUR_TURN"),
        (ADMIN, {"type": "concede"}, "NOT_YOUR_TURN"),
    ],
)
def test_common_checks_come_before_fields(actor: Any, raw: dict[str, Any], expected: str) -> None:
    assert code(board(), actor, raw) == expected


def test_the_opponent_may_concede_out_of_turn() -> None:
    events, _ = run(board(), 1, Concede())
    assert events == [MatchEnded("win", 0, "concede", (0, 0))]


# --- command preconditions, in table order --------------------------------------------------------------


@pytest.mark.parametrize(
    ("cmd", "expected"),
    [
        (PlayMonster("1:1"), "CARD_NOT_IN_HAND"),
        (PlayMonster("0:6"), "CARD_NOT_IN_HAND"),
        (PlayMonster("0:10"), "CARD_NOT_IN_HAND"),
        (PlayMonster("nonsense"), "CARD_NOT_IN_HAND"),
        (PlayMonster("0:8"), "NOT_A_MONSTER"),
        (Equip("0:99", 9), "CARD_NOT_IN_HAND"),
        (Equip("0:1", 9), "NOT_EQUIPMENT"),
        (Equip("0:13", 1), "NOT_EQUIPMENT"),
        (Equip("0:8", 0), "BAD_FIELDS"),
        (Equip("0:8", 4), "BAD_FIELDS"),
        (Equip("0:8", 2), "POSITION_EMPTY"),
        (Equip("0:9", 1), "COLOUR_MISMATCH"),
        (UseConsumable("0:8", 1), "NOT_CONSUMABLE"),
        (UseConsumable("0:13", None), "INVALID_TARGET"),
        (UseConsumable("0:13", 0), "INVALID_TARGET"),
        (UseConsumable("0:13", 7), "INVALID_TARGET"),
        (UseConsumable("0:15", 2), "INVALID_TARGET"),
        (Sacrifice(), "BAD_FIELDS"),
        (Sacrifice(card="0:1", position=1), "BAD_FIELDS"),
        (Sacrifice(position=0), "BAD_FIELDS"),
        (Sacrifice(position=2), "POSITION_EMPTY"),
        (Sacrifice(card="1:1"), "CARD_NOT_IN_HAND"),
    ],
)
def test_preconditions(cmd: Any, expected: str) -> None:
    assert rejection(board(), 0, cmd) == expected


def test_bad_fields_of_sacrifice_precede_the_once_per_turn_check() -> None:
    state = board(sacrifice_used=True)
    assert rejection(state, 0, Sacrifice()) == "BAD_FIELDS"
    assert rejection(state, 0, Sacrifice(card="1:1")) == "SACRIFICE_ALREADY_USED"


def test_crystals_are_checked_last() -> None:
    state = board(crystals=0)
    assert rejection(state, 0, PlayMonster("0:1")) == "NOT_ENOUGH_CRYSTALS"
    assert rejection(state, 0, Equip("0:8", 1)) == "NOT_ENOUGH_CRYSTALS"
    assert rejection(state, 0, UseConsumable("0:13", 1)) == "NOT_ENOUGH_CRYSTALS"
    assert rejection(state, 0, UseConsumable("0:13", 2)) == "INVALID_TARGET"
    events, _ = run(state, 0, UseConsumable("0:15", None))  # Crystal Dust costs 0
    assert events[-1] == CrystalsGained(0, 1, "effect", 1)


def test_a_rejection_message_names_only_what_the_sender_sent() -> None:
    with pytest.raises(Rejected) as info:
        RULESET.decide(board(), 0, PlayMonster("1:1"), ScriptedRng())
    assert "M05" not in info.value.message and "Frost" not in info.value.message


# --- §8.2 equipment ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hp", "new", "expected_hp", "expected_max"),
    [
        pytest.param(9, ("0:10", "E02"), 7, 7, id="shield-off-clips-hp"),
        pytest.param(4, ("0:10", "E02"), 4, 7, id="damage-stays"),
        pytest.param(9, ("0:11", "E05"), 10, 10, id="shield-for-shield"),
    ],
)
def test_replacing_an_iron_shield(hp: int, new: tuple[str, str], expected_hp: int, expected_max: int) -> None:
    state = given(side(field=[mon("0:0", "M01", hp, 10, equipment=("0:12", "E05"))], hand_items=[new], crystals=1))
    events, state = run(state, 0, Equip(new[0], 1))
    assert events == [EquipmentAttached(0, new[0], new[1], 1, 1, 0, "0:12", expected_hp, expected_max)]
    monster = state.sides[0].field[0]
    assert monster is not None
    assert (monster.hp, monster.max_hp, monster.equipment) == (expected_hp, expected_max, new[0])
    assert state.sides[0].discard == ("0:12",)


def test_iron_shield_raises_hp_and_max_hp() -> None:
    state = given(side(field=[mon("0:0", "M01", 3, 7)], hand_items=[("0:12", "E05")], crystals=1))
    events, _ = run(state, 0, Equip("0:12", 1))
    assert events == [EquipmentAttached(0, "0:12", "E05", 1, 1, 0, None, 6, 10)]


# --- §8.1 refill, §8.3 consumables, §8.4 sacrifice -------------------------------------------------------


def test_refill_draws_until_the_sub_hand_is_full() -> None:
    state = given(side(hand_items=[("0:8", "E01")], item_pile=[("0:9", "E03"), ("0:10", "E02"), ("0:11", "E04")],
                       crystals=1))  # fmt: skip
    events, state = run(state, 0, Sacrifice(card="0:8"))
    assert events[2:] == [CardDrawn(0, "item", "0:9", "E03"), CardDrawn(0, "item", "0:10", "E02"),
                          CardDrawn(0, "item", "0:11", "E04")]  # fmt: skip
    assert state.sides[0].hand_items == ("0:9", "0:10", "0:11") and state.sides[0].item_pile == ()


def test_healing_a_full_monster_applies_zero() -> None:
    state = given(side(field=[mon("0:0", "M01")], hand_items=[("0:13", "C01")], crystals=1))
    events, _ = run(state, 0, UseConsumable("0:13", 1))
    assert events[1] == MonsterHealed(0, 1, "0:0", 0, 7)


def test_a_fire_bomb_on_the_last_monster_ends_the_match_after_the_refill() -> None:
    state = given(
        side(hand_items=[("0:14", "C02")], item_pile=[("0:8", "E01")], crystals=2),
        side(field=[mon("1:0", "M05", 3, 4)], monster_pile=NO_PILE),
    )
    events, state = run(state, 0, UseConsumable("0:14", 1))
    assert events == [
        ConsumableUsed(0, "0:14", "C02", 2, 0, 1, 1),
        EffectHit(0, "0:14", 1, 1, "1:0", 3, 0),
        MonsterDestroyed(1, 1, "1:0", "M05", None),
        CrystalsGained(1, 1, "monster_destroyed", 1),
        CardDrawn(0, "item", "0:8", "E01"),
        MatchEnded("win", 0, "eliminated", (0, 1)),
    ]
    assert RULESET.outcome(state) is not None and RULESET.to_act(state) == ()


@pytest.mark.parametrize(
    ("card", "amount"),
    [(("0:1", "M01"), 2), (("0:7", "M10"), 3), (("0:8", "E01"), 1), (("0:12", "E05"), 2), (("0:14", "C02"), 1),
     (("0:15", "C03"), 2)],
)  # fmt: skip
def test_sacrifice_yields(card: tuple[str, str], amount: int) -> None:
    kind = "hand_monsters" if card[1].startswith("M") else "hand_items"
    state = given(side(**{kind: [card]}))
    events, _ = run(state, 0, Sacrifice(card=card[0]))
    assert events[:2] == [
        Sacrificed(0, card[0], card[1], "hand", None, None),
        CrystalsGained(0, amount, "sacrifice", amount),
    ]


def test_crystal_gain_at_the_cap_is_still_emitted() -> None:
    state = given(side(hand_items=[("0:15", "C03")], crystals=10))
    events, state = run(state, 0, UseConsumable("0:15", None))
    assert events[-1] == CrystalsGained(0, 1, "effect", 10)
    assert state.sides[0].crystals == 10


def test_sacrifice_flag_resets_at_the_own_turn_start() -> None:
    state = given(side(sacrifice_used=True), side(sacrifice_used=True))
    _, state = run(state, 0, Engage())
    assert (state.sides[0].sacrifice_used, state.sides[1].sacrifice_used) == (True, False)


def test_compaction_after_a_double_kill_moves_three_to_two_then_two_to_one() -> None:
    state = given(
        side(field=[mon("0:0", "M01", 2, 7), mon("0:5", "M04", 2, 4), mon("0:3", "M03", 5, 5)]),
        side(field=[mon("1:2", "M06")]),
        active=1,
    )
    events, _ = run(state, 1, Engage(), ScriptedRng([0]))
    assert [e for e in events if isinstance(e, (MonsterDestroyed, MonsterMoved))] == [
        MonsterDestroyed(0, 1, "0:0", "M01", None),
        MonsterDestroyed(0, 2, "0:5", "M04", None),
        MonsterMoved(0, "0:3", 3, 2),
        MonsterMoved(0, "0:3", 2, 1),
    ]


def test_deadline_and_timeout() -> None:
    state = given(active=1, turn=7, turn_seconds=25)
    deadline = RULESET.deadline(state)
    assert deadline is not None and (deadline.seat, deadline.seconds, deadline.timeout) == (1, 25.0, Timeout(7))
    _, over = run(state, 0, Concede())
    assert RULESET.deadline(over) is None
