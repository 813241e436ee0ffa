"""docs/rulesets/wulin.md §14: every acceptance scenario as its own test, events compared exactly."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine.contract import ADMIN, SYSTEM
from engine.errors import ConfigError
from engine.rng import Rng
from engine.rulesets.wulin.data import PRESETS
from engine.rulesets.wulin.model import Options, State
from engine.rulesets.wulin.model.commands import (
    AcceptTruce,
    Attack,
    Block,
    ChooseLoss,
    Concede,
    Defend,
    DiscardCard,
    EndPhase,
    FlipCard,
    NoBlock,
    NoDefence,
    PlayCard,
    ProposeTruce,
    RefereeRuling,
    RejectTruce,
    Timeout,
    UseCard,
)
from engine.rulesets.wulin.model.events import (
    AttackDeclared,
    AttackEnded,
    CardDiscarded,
    CardFlipped,
    CardLeftField,
    CardPlayed,
    CardsDrawn,
    CardUsed,
    ClockRestarted,
    CombatResolved,
    Conceded,
    DefenceDeclared,
    DefenceDeclined,
    FirstPlayerDecided,
    Hero,
    HiddenWeaponThrown,
    HpChanged,
    LibraryShuffled,
    LossChoiceRequired,
    LossChosen,
    MatchEnded,
    OpeningReshuffled,
    PhaseEnded,
    PhaseStarted,
    QiChanged,
    RefereeRuled,
    SkillUpkeepFailed,
    TempModifierApplied,
    TimedOut,
    TruceAccepted,
    TruceExpired,
    TruceProposed,
    TruceRejected,
    WeaponBlocked,
    WeaponNotBlocked,
    WeaponResolved,
    WulinCreated,
)
from engine.rulesets.wulin.resolve import actual
from engine.rulesets.wulin.rules import legal_commands
from engine.rulesets.wulin.setup import check_config, configure, initial, setup

from .helpers import card, fc, fold, given, rejection, run, side, without_clock


def clock(seat: int, seq: int) -> ClockRestarted:
    return ClockRestarted(seat, seq, 60)


def replace_side(state: State, seat: int, **fields: Any) -> State:
    sides = list(state.sides)
    sides[seat] = msgspec.structs.replace(sides[seat], **fields)
    return msgspec.structs.replace(state, sides=tuple(sides))


def steps(state: State, *commands: tuple[Any, Any]) -> State:
    """Folds a sequence of accepted (actor, command) pairs."""
    for actor, cmd in commands:
        _, state = run(state, actor, cmd)
    return state


# --- 1. deck validation -----------------------------------------------------------------------------------


def _swap(deck: tuple[str, ...], old: str, new: list[str]) -> list[str]:
    """``deck`` with one copy of ``old`` removed per entry of ``new``, ``new`` appended."""
    cards = list(deck)
    for _ in new:
        cards.remove(old)
    return cards + new


def _problems(deck0: Any, hero: str = "fire", deck1: Any = "starter_b") -> list[tuple[str, str]]:
    data = {"seats": [{"deck": deck0, "hero_attribute": hero}, {"deck": deck1}], "options": {}}
    _, problems = check_config(data)
    return [(p.code, p.detail) for p in problems]


A = PRESETS["starter_a"]


@pytest.mark.parametrize(
    ("deck", "expected"),
    [
        pytest.param(list(A[1:]), [("DECK_TOO_SMALL", "31")], id="a"),
        pytest.param([*A, "WL-Q01"], [("DECK_TOO_LARGE", "33")], id="b"),
        pytest.param(_swap(A, "WL-Q01", ["WL-A03", "WL-T01"]), [("TOO_FEW_QI_CARDS", "9")], id="c"),
        pytest.param(
            _swap(_swap(A, "WL-B01", ["WL-Q01"] * 3), "WL-B03", ["WL-Q01"] * 2), [("TOO_FEW_BATTLE_CARDS", "7")], id="d"
        ),
        pytest.param(_swap(A, "WL-Q01", ["WL-B01"]), [("TOO_MANY_COPIES", "WL-B01,4,3")], id="e"),
        pytest.param(_swap(A, "WL-Q01", ["WL-B08"]), [("LIMITED_EXCEEDED", "WL-B08,2,1")], id="f"),
        pytest.param(_swap(A, "WL-Q01", ["WL-X99"]), [("UNKNOWN_CARD_ID", "WL-X99")], id="h"),
        pytest.param(
            _swap(A, "WL-Q01", ["WL-B01", "WL-B01"]),
            [("TOO_FEW_QI_CARDS", "9"), ("TOO_MANY_COPIES", "WL-B01,5,3")],
            id="i",
        ),
    ],
)
def test_1_deck_validation(deck: list[str], expected: list[tuple[str, str]]) -> None:
    assert _problems(deck) == expected
    with pytest.raises(ConfigError) as refused:
        configure({"seats": [{"deck": deck, "hero_attribute": "fire"}, {}], "options": {}})
    assert refused.value.code == expected[0][0] and refused.value.seat == 0


def test_1g_semi_limited() -> None:
    deck = _swap(PRESETS["starter_b"], "WL-Q01", ["WL-B09"])
    data = {"seats": [{}, {"deck": deck, "hero_attribute": "water"}], "options": {}}
    assert [(p.code, p.seat, p.detail) for p in check_config(data)[1]] == [("SEMI_LIMITED_EXCEEDED", 1, "WL-B09,3,2")]


def test_1j_twenty_qi_cards_accepted() -> None:
    deck = list(A)
    for old in ["WL-B07", "WL-B07", "WL-A01", "WL-A01", "WL-A03", "WL-S01", "WL-S01", "WL-T01", "WL-T01"]:
        deck.remove(old)
    deck += ["WL-Q01"] * 9
    assert deck.count("WL-Q01") == 20
    config = configure({"seats": [{"deck": deck, "hero_attribute": "fire"}, {}], "options": {}})
    assert config.seats[0].deck == tuple(deck)


def test_1k_hero_attribute() -> None:
    assert _problems(list(A), hero="wind") == [("HERO_ATTRIBUTE_INVALID", "wind")]


@pytest.mark.parametrize("options", [{"action_timer_s": 5}, {"round_limit": 0}])
def test_1l_options(options: dict[str, int]) -> None:
    with pytest.raises(ConfigError) as refused:
        configure({"seats": [{}, {}], "options": options})
    assert refused.value.code == "OPTION_INVALID"


# --- 2. setup -----------------------------------------------------------------------------------------------


class SetupRng(Rng):
    """``randbelow`` from a script; each ``shuffle`` puts the next scripted top five first (rest in order)."""

    def __init__(self, throws: list[int], tops: list[list[str]]) -> None:
        super().__init__(b"", 0)
        self.throws, self.tops = list(throws), list(tops)

    def randbelow(self, n: int) -> int:
        return self.throws.pop(0)

    def shuffle(self, xs: Any) -> list[Any]:
        rest = list(xs)
        top = self.tops.pop(0) if self.tops else []
        for card_id in top:
            rest.remove(card_id)
        return [*top, *rest]


def test_2_setup_with_a_scripted_rng() -> None:
    config = configure({"seats": [{}, {}], "options": {}})
    rng = SetupRng(
        [0, 0, 2, 0],
        [
            ["WL-B01", "WL-B03", "WL-B04", "WL-B01", "WL-B03"],
            ["WL-Q01", "WL-B01", "WL-A01", "WL-Q01", "WL-S01"],
            ["WL-B02", "WL-Q01", "WL-T02", "WL-Q01", "WL-B05"],
        ],
    )
    events = setup(config, rng)
    library0 = events[3]
    library1 = events[4]
    assert isinstance(library0, LibraryShuffled) and isinstance(library1, LibraryShuffled)
    assert library0.card_ids is not None and library1.card_ids is not None
    assert library0.card_ids[:5] == ("WL-Q01", "WL-B01", "WL-A01", "WL-Q01", "WL-S01")
    assert library1.card_ids[:5] == ("WL-B02", "WL-Q01", "WL-T02", "WL-Q01", "WL-B05")
    hand0 = tuple(f"p0-0{i}" for i in range(5))
    hand1 = tuple(f"p1-0{i}" for i in range(5))
    assert events == [
        WulinCreated(Options(), (Hero(0, "fire", 300, 0), Hero(1, "water", 300, 0)), (32, 32)),
        FirstPlayerDecided((("rock", "rock"), ("scissors", "rock")), 1),
        OpeningReshuffled(0, 1),
        LibraryShuffled(0, 2, library0.card_ids, 32),
        LibraryShuffled(1, 1, library1.card_ids, 32),
        CardsDrawn(0, hand0, library0.card_ids[:5], 5),
        CardsDrawn(1, hand1, library1.card_ids[:5], 5),
        PhaseStarted(1, 1, 1),
        clock(1, 1),
    ]
    state = fold(initial(config), events)
    assert [(s.hp, s.qi, len(s.library), len(s.hand)) for s in state.sides] == [(300, 0, 27, 5)] * 2


# --- 3. phase start -----------------------------------------------------------------------------------------


def _phase_8(qi: int) -> State:
    s0 = side(
        hand=[("h1", "WL-Q01"), ("h2", "WL-Q01"), ("h3", "WL-Q01")],
        library=[("l1", "WL-Q01")],
        skill=[fc("s", "WL-S01")],
        qi=qi,
    )
    return given(s0, side(actions=1), phase=8, active=1)


def test_3_short_refill_and_failed_upkeep() -> None:
    events, state = run(_phase_8(5), 1, EndPhase())
    assert events == [
        PhaseEnded(8, 1, "end_phase"),
        PhaseStarted(9, 5, 0),
        CardsDrawn(0, ("l1",), ("WL-Q01",), 1),
        SkillUpkeepFailed(0, "s", "WL-S01", 10, 5),
        CardLeftField(0, "s", "WL-S01", "skill_zone", "upkeep"),
        clock(0, 2),
    ]
    assert (len(state.sides[0].hand), len(state.sides[0].library), state.sides[0].qi) == (4, 0, 5)


def test_3_variant_upkeep_paid() -> None:
    events, state = run(_phase_8(12), 1, EndPhase())
    assert events[3] == QiChanged(0, -10, -10, 2, "skill_upkeep", "s")
    assert card(state, 0, "s") is not None


# --- 4. per-phase limits ------------------------------------------------------------------------------------


def test_4_per_phase_limits_and_zones() -> None:
    hand = [("a1", "WL-Q01"), ("a2", "WL-A01"), ("a3", "WL-B01"), ("a4", "WL-B03"), ("a5", "WL-S02")]
    battle = [fc(f"b{i}", "WL-B01") for i in range(4)]
    state = given(side(hand=hand, battle=battle, skill=[fc("a6", "WL-S01", face_up=False)]))
    events, state = run(state, 0, UseCard("a1"))
    assert without_clock(events) == [CardUsed(0, "a1", "WL-Q01"), QiChanged(0, 30, 30, 30, "qi_card", "a1")]
    assert rejection(state, 0, UseCard("a2")) == "CONSUMABLE_ALREADY_USED"
    assert rejection(state, 0, UseCard("a4")) == "NOT_CONSUMABLE"
    assert rejection(state, 0, PlayCard("a2")) == "NOT_PLAYABLE"
    assert rejection(state, 0, PlayCard("a5")) == "SKILL_ZONE_FULL"
    events, state = run(state, 0, PlayCard("a3"))
    assert without_clock(events) == [CardPlayed(0, "a3", "WL-B01", "battle_zone")]
    assert len(state.sides[0].battle_zone) == 5
    assert rejection(state, 0, PlayCard("a4")) == "PLAY_ALREADY_USED"
    events, state = run(state, 0, DiscardCard("a2"))
    assert without_clock(events) == [CardDiscarded(0, "a2", "WL-A01", "hand", False, False)]
    assert rejection(state, 0, DiscardCard("a4")) == "DISCARD_ALREADY_USED"
    state = steps(state, (0, EndPhase()), (1, UseCard("p1-h0")), (1, EndPhase()))
    assert state.phase_no == 9 and "a4" in state.sides[0].hand
    assert rejection(state, 0, PlayCard("a4")) == "ZONE_FULL"


# --- 5. flips -----------------------------------------------------------------------------------------------


def test_5_flip_rules() -> None:
    s0 = side(
        battle=[
            fc("a1", "WL-B01", False, played=7),
            fc("a2", "WL-B03", False),
            fc("a3", "WL-B09", False),
            fc("a5", "WL-F02", False),
        ],
        skill=[fc("a4", "WL-S02", False)],
    )
    s1 = side(battle=[fc("d1", "WL-B02", False), fc("d2", "WL-B05", False)])
    state = given(s0, s1)
    assert rejection(state, 0, FlipCard("a1")) == "CARD_JUST_PLAYED"
    events, state = run(state, 0, FlipCard("a2"))
    assert events == [CardFlipped(0, "a2", "WL-B03", "battle_zone"), clock(0, 2)]
    assert rejection(state, 0, FlipCard("a3")) == "BATTLE_FLIP_USED"
    events, state = run(state, 0, FlipCard("a4"))
    assert events == [CardFlipped(0, "a4", "WL-S02", "skill_zone"), clock(0, 3)]
    assert rejection(state, 0, FlipCard("a5")) == "FORMATION_FLIP_DISABLED"
    events, state = run(state, 1, FlipCard("d1"))
    assert events == [CardFlipped(1, "d1", "WL-B02", "battle_zone")]
    assert rejection(state, 1, FlipCard("d2")) == "BATTLE_FLIP_USED"
    assert rejection(state, 1, FlipCard("a2")) == "CARD_NOT_ON_FIELD"
    _, state = run(state, 0, EndPhase())
    assert state.phase_no == 8
    events, state = run(state, 1, FlipCard("d2"))
    assert events[0] == CardFlipped(1, "d2", "WL-B05", "battle_zone")
    events, state = run(state, 0, FlipCard("a1"))
    assert events == [CardFlipped(0, "a1", "WL-B01", "battle_zone")]


# --- 6-8. single combat -------------------------------------------------------------------------------------


def test_6_single_combat_defender_wins() -> None:
    state = given(side(qi=40, battle=[fc("a1", "WL-B01")]), side(qi=30, battle=[fc("d1", "WL-B02")]))
    events, state = run(state, 0, Attack(("a1",), "single"))
    assert events == [
        AttackDeclared(1, 0, ("a1",), "single", "a1", 10),
        QiChanged(0, -10, -10, 30, "attack_cost", 1),
        clock(1, 2),
    ]
    events, state = run(state, 1, Defend(("d1",), "single"))
    assert events == [
        DefenceDeclared(1, 1, ("d1",), "single", "d1", None, 10),
        QiChanged(1, -10, -10, 20, "defence_cost", 1),
        CombatResolved(1, ("a1",), ("d1",), 30, 20, 20, 45, ("a1",), (), False),
        CardLeftField(0, "a1", "WL-B01", "battle_zone", "combat"),
        AttackEnded(1),
        clock(0, 3),
    ]


def _single_fight(a: str, d: str) -> list[Any]:
    state = given(side(qi=20, battle=[fc("a1", a)]), side(qi=20, battle=[fc("d1", d)]))
    _, state = run(state, 0, Attack(("a1",), "single"))
    events, _ = run(state, 1, Defend(("d1",), "single"))
    return events


def test_7_mutual_destruction() -> None:
    events = _single_fight("WL-B01", "WL-B01")
    assert events[2:5] == [
        CombatResolved(1, ("a1",), ("d1",), 30, 20, 30, 20, ("a1",), ("d1",), False),
        CardLeftField(0, "a1", "WL-B01", "battle_zone", "combat"),
        CardLeftField(1, "d1", "WL-B01", "battle_zone", "combat"),
    ]


def test_8_first_strike() -> None:
    events = _single_fight("WL-B03", "WL-B01")
    assert events[2] == CombatResolved(1, ("a1",), ("d1",), 25, 15, 30, 20, (), ("d1",), False)


def test_8_variant_first_strike_void_in_a_group() -> None:
    state = given(
        side(qi=40, battle=[fc("a1", "WL-B03"), fc("a2", "WL-B01")]), side(qi=20, battle=[fc("d1", "WL-B09")])
    )
    events, state = run(state, 0, Attack(("a1", "a2"), "joint"))
    assert events[0] == AttackDeclared(1, 0, ("a1", "a2"), "joint", None, 40)
    events, _ = run(state, 1, Defend(("d1",), "single", focus="a1"))
    assert events[0] == DefenceDeclared(1, 1, ("d1",), "single", "d1", "a1", 20)
    assert events[2] == CombatResolved(1, ("a1", "a2"), ("d1",), 55, 35, 40, 40, ("a1",), ("d1",), False)


# --- 9-12. groups -------------------------------------------------------------------------------------------


def _board_9(qi: int) -> State:
    return given(
        side(qi=qi, battle=[fc("a1", "WL-B01"), fc("a2", "WL-B04"), fc("a3", "WL-B09")]),
        side(qi=30, battle=[fc("d1", "WL-B09")]),
    )


def test_9_joint_attack_surcharge_focus_and_strict_comparison() -> None:
    state = _board_9(60)
    assert rejection(state, 0, Attack(("a1",), "joint")) == "BAD_GROUP_SIZE"
    assert rejection(state, 0, Attack(("a1", "a3"), "joint")) == "ATTRIBUTE_MISMATCH"
    events, state = run(state, 0, Attack(("a1", "a2"), "joint"))
    assert without_clock(events) == [
        AttackDeclared(1, 0, ("a1", "a2"), "joint", None, 40),
        QiChanged(0, -40, -40, 20, "attack_cost", 1),
    ]
    assert rejection(state, 1, Defend(("d1",), "single")) == "FOCUS_REQUIRED"
    assert rejection(state, 1, Defend(("d1",), "single", focus="d1")) == "FOCUS_INVALID"
    events, _ = run(state, 1, Defend(("d1",), "single", focus="a1"))
    assert events[:3] == [
        DefenceDeclared(1, 1, ("d1",), "single", "d1", "a1", 20),
        QiChanged(1, -20, -20, 10, "defence_cost", 1),
        CombatResolved(1, ("a1", "a2"), ("d1",), 50, 40, 40, 40, (), ("d1",), False),
    ]


def test_9_variant_insufficient_qi() -> None:
    assert rejection(_board_9(35), 0, Attack(("a1", "a2"), "joint")) == "INSUFFICIENT_QI"


def test_10_skill_synergy_and_undefended_joint_attack() -> None:
    state = given(
        side(qi=60, skill=[fc("s", "WL-S01")], battle=[fc("a1", "WL-B01"), fc("a2", "WL-B03"), fc("a3", "WL-B04")])
    )
    events, state = run(state, 0, Attack(("a1", "a2", "a3"), "joint"))
    assert without_clock(events) == [
        AttackDeclared(1, 0, ("a1", "a2", "a3"), "joint", None, 60),
        QiChanged(0, -60, -60, 0, "attack_cost", 1),
    ]
    events, _ = run(state, 1, NoDefence())
    assert without_clock(events) == [
        DefenceDeclined(1, 1, False),
        HpChanged(1, -120, -120, 180, "combat", 1),
        AttackEnded(1),
    ]


def _board_11() -> State:
    state = given(
        side(qi=40, battle=[fc("a1", "WL-B08", temp_atk=20)]),
        side(qi=30, battle=[fc("d1", "WL-B02"), fc("d2", "WL-B09"), fc("d3", "WL-B05")]),
    )
    _, state = run(state, 0, Attack(("a1",), "single"))
    assert state.sides[0].qi == 10
    return state


def test_11_joint_defence_and_the_attackers_choice() -> None:
    state = _board_11()
    assert rejection(state, 1, Defend(("d1", "d3"), "joint")) == "ATTRIBUTE_MISMATCH"
    events, state = run(state, 1, Defend(("d1", "d2"), "joint"))
    assert events == [
        DefenceDeclared(1, 1, ("d1", "d2"), "joint", None, None, 30),
        QiChanged(1, -30, -30, 0, "defence_cost", 1),
        CombatResolved(1, ("a1",), ("d1", "d2"), 80, 50, 60, 75, ("a1",), (), True),
        CardLeftField(0, "a1", "WL-B08", "battle_zone", "combat"),
        LossChoiceRequired(1, 0, ("d1", "d2")),
        clock(0, 3),
    ]
    assert rejection(state, 0, ChooseLoss("d3")) == "INVALID_CHOICE"
    events, _ = run(state, 0, ChooseLoss("d2"))
    assert without_clock(events) == [
        LossChosen(1, 0, "d2", False),
        CardLeftField(1, "d2", "WL-B09", "battle_zone", "combat"),
        AttackEnded(1),
    ]


def test_11_variant_loss_choice_timeout() -> None:
    state = _board_11()
    _, state = run(state, 1, Defend(("d1", "d2"), "joint"))
    assert state.clock is not None
    seq = state.clock.seq
    events, _ = run(state, SYSTEM, Timeout(seq))
    assert events == [
        TimedOut(0, seq, "pending"),
        LossChosen(1, 0, "d1", True),
        CardLeftField(1, "d1", "WL-B02", "battle_zone", "combat"),
        AttackEnded(1),
        clock(0, seq + 1),
    ]


def test_12_combination_technique() -> None:
    state = given(
        side(qi=50, battle=[fc("a1", "WL-B05"), fc("a2", "WL-B06"), fc("a3", "WL-B01")]),
        side(qi=10, battle=[fc("d1", "WL-B01")]),
    )
    assert rejection(state, 0, Attack(("a1", "a2"), "joint")) == "ATTRIBUTE_MISMATCH"
    assert rejection(state, 0, Attack(("a1", "a3"), "combination", "a1")) == "NOT_COMBINATION_PAIR"
    assert rejection(state, 0, Attack(("a1", "a2"), "combination")) == "PRIMARY_INVALID"
    events, state = run(state, 0, Attack(("a1", "a2"), "combination", "a1"))
    assert events[0] == AttackDeclared(1, 0, ("a1", "a2"), "combination", "a1", 30)
    assert state.sides[0].qi == 20
    events, state = run(state, 1, NoDefence())
    assert events[1] == HpChanged(1, -45, -45, 255, "combat", 1)
    _, state = run(state, 0, Attack(("a2",), "single"))
    assert state.sides[0].qi == 5
    events, state = run(state, 1, NoDefence())
    assert events[1] == HpChanged(1, -20, -20, 235, "combat", 2)
    assert rejection(state, 0, Attack(("a1",), "single")) == "CARD_ALREADY_ACTED"
    state = steps(state, (0, EndPhase()), (1, Attack(("d1",), "single")))
    assert rejection(state, 0, Defend(("a2",), "single")) == "CARD_ATTACKED_LAST_PHASE"


def test_12_combination_defence() -> None:
    state = given(
        side(qi=30, battle=[fc("a4", "WL-B05"), fc("a5", "WL-B06")]),
        side(qi=10, battle=[fc("d1", "WL-B01")]),
        phase=8,
        active=1,
    )
    _, state = run(state, 1, Attack(("d1",), "single"))
    events, state = run(state, 0, Defend(("a4", "a5"), "combination", "a5"))
    assert events[:3] == [
        DefenceDeclared(1, 0, ("a4", "a5"), "combination", "a5", None, 30),
        QiChanged(0, -30, -30, 0, "defence_cost", 1),
        CombatResolved(1, ("d1",), ("a4", "a5"), 30, 20, 45, 55, ("d1",), (), False),
    ]
    a4, a5 = card(state, 0, "a4"), card(state, 0, "a5")
    assert a4 is not None and a5 is not None
    assert (a4.acted_phase, a5.acted_phase) == (None, 8)
    _, state = run(state, 1, EndPhase())
    state = replace_side(state, 0, qi=15)
    events, _ = run(state, 0, Attack(("a5",), "single"))
    assert events[0] == AttackDeclared(2, 0, ("a5",), "single", "a5", 15)


# --- 13. face-down cards and legal commands -----------------------------------------------------------------


def test_13_face_down_cards_pending_flip_and_legal_commands() -> None:
    state = given(
        side(qi=20, battle=[fc("a1", "WL-B01"), fc("a2", "WL-B03", False)]),
        side(qi=20, battle=[fc("d1", "WL-B01", False), fc("d2", "WL-B02", attacked=6)]),
    )
    assert rejection(state, 0, Attack(("a2",), "single")) == "NOT_FACE_UP"
    _, state = run(state, 0, Attack(("a1",), "single"))
    assert sorted(map(repr, legal_commands(state, 1))) == sorted(
        map(repr, [NoDefence(), FlipCard("d1"), ProposeTruce()])
    )
    assert legal_commands(state, 0) == [ProposeTruce()]
    assert rejection(state, 0, FlipCard("a2")) == "DECISION_PENDING"
    assert rejection(state, 1, Defend(("d1",), "single")) == "NOT_FACE_UP"
    assert rejection(state, 1, Defend(("d2",), "single")) == "CARD_ATTACKED_LAST_PHASE"
    events, state = run(state, 1, FlipCard("d1"))
    assert events == [CardFlipped(1, "d1", "WL-B01", "battle_zone"), clock(1, 3)]
    events, _ = run(state, 1, Defend(("d1",), "single"))
    assert events[2] == CombatResolved(1, ("a1",), ("d1",), 30, 20, 30, 20, ("a1",), ("d1",), False)


# --- 14-15. direct hits and timeouts ------------------------------------------------------------------------


def test_14_direct_hit_to_zero_hp() -> None:
    state = given(side(qi=10, battle=[fc("a1", "WL-B01")]), side(hp=25))
    _, state = run(state, 0, Attack(("a1",), "single"))
    events, state = run(state, 1, NoDefence())
    assert events == [DefenceDeclined(1, 1, False), HpChanged(1, -30, -25, 0, "combat", 1), MatchEnded(0, "hp_zero")]
    assert rejection(state, 0, EndPhase()) == "MATCH_OVER"
    assert rejection(state, 1, ProposeTruce()) == "MATCH_OVER"
    assert legal_commands(state, 0) == [] and legal_commands(state, 1) == []


def test_15_defence_timeout_and_stale_timeout() -> None:
    state = given(side(qi=40, battle=[fc("a1", "WL-B01")]), side(qi=30, battle=[fc("d1", "WL-B02")]), clock_seq=11)
    _, state = run(state, 0, Attack(("a1",), "single"))
    assert state.clock is not None and (state.clock.seat, state.clock.seq) == (1, 12)
    assert rejection(state, SYSTEM, Timeout(11)) == "STALE_TIMEOUT"
    assert rejection(state, 0, Timeout(12)) == "NOT_SYSTEM"
    events, state = run(state, SYSTEM, Timeout(12))
    assert events == [
        TimedOut(1, 12, "pending"),
        DefenceDeclined(1, 1, True),
        HpChanged(1, -30, -30, 270, "combat", 1),
        AttackEnded(1),
        clock(0, 13),
    ]
    assert (state.sides[1].idle_streak, state.sides[1].timeouts) == (0, 1)


# --- 16. hidden weapons -------------------------------------------------------------------------------------


def test_16a_hidden_weapon_blocked_by_the_same_attribute() -> None:
    state = given(side(hand=[("a1", "WL-T01")]), side(qi=20, battle=[fc("d1", "WL-B06"), fc("d2", "WL-B02")]))
    events, state = run(state, 0, UseCard("a1"))
    assert events == [
        CardUsed(0, "a1", "WL-T01"),
        HiddenWeaponThrown(1, 0, "a1", "WL-T01", "wood", 30, "hp"),
        clock(1, 2),
    ]
    assert rejection(state, 1, Block("d2")) == "BLOCKER_INELIGIBLE"
    events, state = run(state, 1, Block("d1"))
    assert without_clock(events) == [
        WeaponBlocked(1, 1, "d1", "same", 15, True),
        QiChanged(1, -15, -15, 5, "block_cost", 1),
        CardLeftField(1, "d1", "WL-B06", "battle_zone", "weapon"),
        WeaponResolved(1),
    ]
    assert state.sides[1].hp == 300


def _dart(qi: int) -> State:
    state = given(side(qi=qi, battle=[fc("a1", "WL-B01")]), side(hand=[("d5", "WL-T02")]), phase=8, active=1)
    _, state = run(state, 1, UseCard("d5"))
    return state


def test_16b_hidden_weapon_blocked_by_a_counter() -> None:
    events, state = run(_dart(25), 0, Block("a1"))
    assert without_clock(events) == [
        WeaponBlocked(1, 0, "a1", "counter", 10, False),
        QiChanged(0, -10, -10, 15, "block_cost", 1),
        WeaponResolved(1),
    ]
    assert card(state, 0, "a1") is not None


@pytest.mark.parametrize(("qi", "delta"), [(25, -20), (15, -15)])
def test_16c_hidden_weapon_not_blocked(qi: int, delta: int) -> None:
    events, _ = run(_dart(qi), 0, NoBlock())
    assert without_clock(events) == [
        WeaponNotBlocked(1, 0, False),
        QiChanged(0, -20, delta, qi + delta, "hidden_weapon", 1),
        WeaponResolved(1),
    ]


# --- 17. secret arts ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("counters", "damage"), [(False, 60), (True, 30)])
def test_17ab_attack_secret_art(counters: bool, damage: int) -> None:
    state = given(side(qi=20, hand=[("a1", "WL-A01")]), secret_art_counters=counters)
    events, _ = run(state, 0, UseCard("a1"))
    assert without_clock(events) == [
        CardUsed(0, "a1", "WL-A01"),
        QiChanged(0, -20, -20, 0, "secret_art_cost", "a1"),
        HpChanged(1, -damage, -damage, 300 - damage, "secret_art", "a1"),
    ]


def test_17c_drain_with_counters() -> None:
    state = given(side(qi=50), side(qi=10, hand=[("d1", "WL-A02")]), phase=8, active=1, secret_art_counters=True)
    events, _ = run(state, 1, UseCard("d1"))
    assert events[2] == QiChanged(0, -45, -45, 5, "secret_art", "d1")


def test_17d_targeted_secret_art() -> None:
    state = given(
        side(qi=10, hand=[("a4", "WL-A03")], battle=[fc("a1", "WL-B01"), fc("a2", "WL-B03", False)]),
        side(battle=[fc("d1", "WL-B01")]),
    )
    assert rejection(state, 0, UseCard("a4")) == "TARGET_REQUIRED"
    assert rejection(state, 0, UseCard("a4", "d1")) == "TARGET_INVALID"
    assert rejection(state, 0, UseCard("a4", "a2")) == "TARGET_INVALID"
    events, state = run(state, 0, UseCard("a4", "a1"))
    assert without_clock(events) == [
        CardUsed(0, "a4", "WL-A03", "a1"),
        QiChanged(0, -10, -10, 0, "secret_art_cost", "a4"),
        TempModifierApplied("a4", ("a1",), 20, 0),
    ]
    a1 = card(state, 0, "a1")
    assert a1 is not None and actual(state, 0, a1, "atk", "none", False) == 50
    _, state = run(state, 0, EndPhase())
    a1 = card(state, 0, "a1")
    assert a1 is not None and actual(state, 0, a1, "atk", "none", False) == 30
    fresh = given(side(hand=[("q", "WL-Q01")], battle=[fc("a1", "WL-B01")]))
    assert rejection(fresh, 0, UseCard("q", "a1")) == "TARGET_NOT_ALLOWED"


# --- 18. discards -------------------------------------------------------------------------------------------


def test_18a_discard_ability_fires_face_up() -> None:
    events, _ = run(given(side(battle=[fc("a1", "WL-B07")])), 0, DiscardCard("a1"))
    assert without_clock(events) == [
        CardDiscarded(0, "a1", "WL-B07", "battle_zone", True, True),
        QiChanged(0, 20, 20, 20, "discard_effect", "a1"),
    ]


def test_18b_face_down_discard_has_no_effect() -> None:
    events, _ = run(given(side(battle=[fc("a1", "WL-B07", False)])), 0, DiscardCard("a1"))
    assert without_clock(events) == [CardDiscarded(0, "a1", "WL-B07", "battle_zone", False, False)]


def test_18c_hand_discard_has_no_effect() -> None:
    events, _ = run(given(side(hand=[("a1", "WL-B07")])), 0, DiscardCard("a1"))
    assert without_clock(events) == [CardDiscarded(0, "a1", "WL-B07", "hand", False, False)]


def test_18d_a_card_that_attacked_cannot_be_discarded() -> None:
    assert rejection(given(side(battle=[fc("a2", "WL-B01", attacked=7)])), 0, DiscardCard("a2")) == "CARD_JUST_ATTACKED"


def test_18e_skill_discard_heals() -> None:
    events, _ = run(given(side(hp=290, skill=[fc("s", "WL-S02")])), 0, DiscardCard("s"))
    assert without_clock(events) == [
        CardDiscarded(0, "s", "WL-S02", "skill_zone", True, True),
        HpChanged(0, 30, 10, 300, "discard_effect", "s"),
    ]


def test_18f_discard_only_in_own_phase() -> None:
    assert rejection(given(s1=side(battle=[fc("d1", "WL-B01")])), 1, DiscardCard("d1")) == "NOT_YOUR_PHASE"


# --- 19. phase timeouts -------------------------------------------------------------------------------------


def test_19a_idle_timeout() -> None:
    events, state = run(given(clock_seq=20), SYSTEM, Timeout(20))
    assert events == [
        TimedOut(0, 20, "phase_idle"),
        HpChanged(0, -30, -30, 270, "timeout_penalty", None),
        PhaseEnded(7, 0, "idle_timeout"),
        PhaseStarted(8, 4, 1),
        clock(1, 21),
    ]
    assert (state.sides[0].idle_streak, state.sides[0].timeouts) == (1, 1)


def test_19b_third_idle_timeout_loses() -> None:
    events, _ = run(given(side(idle_streak=2, hp=100), clock_seq=20), SYSTEM, Timeout(20))
    assert events == [
        TimedOut(0, 20, "phase_idle"),
        HpChanged(0, -30, -30, 70, "timeout_penalty", None),
        MatchEnded(1, "idle_timeouts"),
    ]


def test_19c_penalty_to_zero() -> None:
    events, _ = run(given(side(hp=20), clock_seq=20), SYSTEM, Timeout(20))
    assert events == [
        TimedOut(0, 20, "phase_idle"),
        HpChanged(0, -30, -20, 0, "timeout_penalty", None),
        MatchEnded(1, "hp_zero"),
    ]


def test_19d_timeout_after_an_action() -> None:
    events, state = run(given(side(actions=1, idle_streak=2), clock_seq=20), SYSTEM, Timeout(20))
    assert events[:2] == [TimedOut(0, 20, "phase_auto_end"), PhaseEnded(7, 0, "timeout")]
    assert not any(isinstance(e, HpChanged) for e in events)
    assert state.sides[0].idle_streak == 0


# --- 20. end phase ------------------------------------------------------------------------------------------


def test_20_end_phase_needs_an_action_and_skills_flip_at_once() -> None:
    hand = [("a1", "WL-S01"), *((f"a{i}", "WL-Q01") for i in range(2, 6))]
    state = given(side(hand=hand))
    assert rejection(state, 0, EndPhase()) == "NO_ACTION_TAKEN"
    events, state = run(state, 0, PlayCard("a1"))
    assert events[0] == CardPlayed(0, "a1", "WL-S01", "skill_zone")
    events, state = run(state, 0, FlipCard("a1"))
    assert events[0] == CardFlipped(0, "a1", "WL-S01", "skill_zone")
    events, _ = run(state, 0, EndPhase())
    assert events == [PhaseEnded(7, 0, "end_phase"), PhaseStarted(8, 4, 1), clock(1, 4)]


def test_20_end_phase_without_any_possible_action() -> None:
    events, _ = run(given(side(hand=[], library=[])), 0, EndPhase())
    assert events[0] == PhaseEnded(7, 0, "end_phase")


# --- 21. truce ----------------------------------------------------------------------------------------------


def test_21_truce() -> None:
    state = given()
    events, state = run(state, 0, ProposeTruce())
    assert events == [TruceProposed(0, 1)]
    assert rejection(state, 0, ProposeTruce()) == "TRUCE_ALREADY_OPEN"
    assert rejection(state, 0, AcceptTruce()) == "CANNOT_ANSWER_OWN_TRUCE"
    events, state = run(state, 1, RejectTruce())
    assert events == [TruceRejected(1)]
    assert rejection(state, 1, AcceptTruce()) == "NO_TRUCE_OFFER"
    state = steps(state, (0, ProposeTruce()), (0, UseCard("p0-h0")))
    events, state = run(state, 0, EndPhase())
    assert events[:2] == [TruceExpired(0), PhaseEnded(7, 0, "end_phase")]
    state = steps(state, (1, UseCard("p1-h0")), (1, EndPhase()), (0, ProposeTruce()), (1, RejectTruce()))
    assert state.phase_no == 9 and state.sides[0].truce_proposals_used == 3
    assert rejection(state, 0, ProposeTruce()) == "TRUCE_LIMIT_REACHED"


def test_21_truce_accepted_during_a_pending_decision() -> None:
    state = given(side(qi=10, battle=[fc("a1", "WL-B01")]))
    state = steps(state, (0, Attack(("a1",), "single")), (1, ProposeTruce()))
    events, _ = run(state, 0, AcceptTruce())
    assert events == [TruceAccepted(0), MatchEnded(None, "truce")]


# --- 22. concede and referee --------------------------------------------------------------------------------


def test_22_concede_and_referee_disabled_by_default() -> None:
    state = given()
    assert rejection(state, 0, Concede()) == "CONCEDE_DISABLED"
    assert rejection(state, ADMIN, RefereeRuling(1)) == "REFEREE_DISABLED"


def test_22_concede() -> None:
    state = given(allow_concede=True)
    assert rejection(state, 1, Concede()) == "NOT_YOUR_PHASE"
    events, _ = run(state, 0, Concede())
    assert events == [Conceded(0), MatchEnded(1, "concede")]


def test_22_referee() -> None:
    state = given(side(qi=10, battle=[fc("a1", "WL-B01")]), referee_enabled=True)
    assert rejection(state, 1, RefereeRuling(1)) == "NOT_REFEREE"
    assert rejection(state, ADMIN, RefereeRuling(2)) == "BAD_WINNER"
    _, state = run(state, 0, Attack(("a1",), "single"))
    events, _ = run(state, ADMIN, RefereeRuling(None, "network failure"))
    assert events == [RefereeRuled(None, "network failure"), MatchEnded(None, "referee")]


# --- 23. formations -----------------------------------------------------------------------------------------


def _board_23(qi0: int) -> State:
    state = given(
        side(qi=qi0, battle=[fc("a1", "WL-B07"), fc("a5", "WL-F02", False), fc("a3", "WL-B01")]),
        side(qi=30, battle=[fc("d1", "WL-F01", False), fc("d2", "WL-B06")]),
        formation_flip=True,
    )
    _, state = run(state, 0, Attack(("a1",), "single"))
    return state


def test_23_formations_and_the_zero_floor() -> None:
    state = _board_23(20)
    assert state.sides[0].qi == 15
    events, state = run(state, 1, FlipCard("d1"))
    assert events == [
        CardFlipped(1, "d1", "WL-F01", "battle_zone"),
        QiChanged(1, -10, -10, 20, "formation_cost", "d1"),
        TempModifierApplied("d1", ("a1", "a3"), -15, 0),
        CardLeftField(1, "d1", "WL-F01", "battle_zone", "instant_formation"),
        clock(1, 3),
    ]
    events, state = run(state, 1, Defend(("d2",), "single"))
    assert events[1:3] == [
        QiChanged(1, -15, -15, 5, "defence_cost", 1),
        CombatResolved(1, ("a1",), ("d2",), 0, 20, 20, 30, ("a1",), (), False),
    ]
    events, state = run(state, 0, FlipCard("a5"))
    assert without_clock(events) == [
        CardFlipped(0, "a5", "WL-F02", "battle_zone"),
        QiChanged(0, -15, -15, 0, "formation_cost", "a5"),
    ]
    a3 = card(state, 0, "a3")
    assert a3 is not None
    assert (actual(state, 0, a3, "atk", "none", False), actual(state, 0, a3, "def", "none", False)) == (15, 35)
    _, state = run(state, 0, EndPhase())
    a3 = card(state, 0, "a3")
    assert a3 is not None
    assert (actual(state, 0, a3, "atk", "none", False), actual(state, 0, a3, "def", "none", False)) == (30, 35)


def test_23_formation_flip_needs_qi() -> None:
    state = _board_23(20)
    state = steps(state, (1, NoDefence()))
    state = replace_side(state, 0, qi=10)
    assert rejection(state, 0, FlipCard("a5")) == "INSUFFICIENT_QI"


# --- 24. round limit ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hp", "timeouts", "winner"), [((120, 90), (0, 0), 0), ((100, 100), (2, 1), 1), ((100, 100), (1, 1), None)]
)
def test_24_round_limit(hp: tuple[int, int], timeouts: tuple[int, int], winner: int | None) -> None:
    state = given(
        side(hp=hp[0], timeouts=timeouts[0]), side(hp=hp[1], timeouts=timeouts[1], actions=1), phase=100, active=1
    )
    events, _ = run(state, 1, EndPhase())
    assert events == [PhaseEnded(100, 1, "end_phase"), MatchEnded(winner, "round_limit")]


def test_24_no_adjudication_before_the_limit() -> None:
    state = given(s1=side(actions=1), phase=100, active=1, round_limit=51)
    events, _ = run(state, 1, EndPhase())
    assert events[1] == PhaseStarted(101, 51, 0)


# --- 25. several attacks, phase-bound flags -----------------------------------------------------------------


def test_25_flip_then_attack_several_attacks_and_phase_bound_flags() -> None:
    state = given(
        side(qi=30, battle=[fc("a1", "WL-B01", False), fc("a2", "WL-B03"), fc("a3", "WL-B09", temp_atk=20)]),
        side(qi=10, battle=[fc("d1", "WL-B01")]),
    )
    state = steps(state, (0, FlipCard("a1")), (0, Attack(("a1",), "single")))
    events, state = run(state, 1, NoDefence())
    assert events[1] == HpChanged(1, -30, -30, 270, "combat", 1)
    _, state = run(state, 0, Attack(("a2",), "single"))
    assert state.sides[0].qi == 10
    _, state = run(state, 1, NoDefence())
    assert rejection(state, 0, DiscardCard("a1")) == "CARD_JUST_ATTACKED"
    _, state = run(state, 0, EndPhase())
    a3 = card(state, 0, "a3")
    assert a3 is not None and a3.temp_atk == 0
    _, state = run(state, 1, Attack(("d1",), "single"))
    assert rejection(state, 0, Defend(("a1",), "single")) == "CARD_ATTACKED_LAST_PHASE"
    assert rejection(state, 0, Defend(("a2",), "single")) == "CARD_ATTACKED_LAST_PHASE"
    state = steps(state, (0, NoDefence()), (1, EndPhase()))
    assert state.phase_no == 9
    events, _ = run(state, 0, DiscardCard("a1"))
    assert events[0] == CardDiscarded(0, "a1", "WL-B01", "battle_zone", True, True)
