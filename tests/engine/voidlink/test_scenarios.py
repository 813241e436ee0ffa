"""docs/rulesets/voidlink.md §14: every acceptance scenario, one test per scenario (sub-cases parametrised).

Events are compared exactly and positionally, in the field order of §7.3. ``E`` is the built state's
``entry_counter`` and ``SEQ`` its ``awaiting.seq``.
"""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from engine.contract import SYSTEM
from engine.rng import Rng
from engine.rulesets.voidlink import RULESET
from engine.rulesets.voidlink.board import atk, def_of
from engine.rulesets.voidlink.data import PRESETS, Destroy
from engine.rulesets.voidlink.model.commands import (
    ActivateCombination,
    ActivateCommander,
    ActivateMagic,
    ActivateMonsterEffect,
    ActivateTactics,
    ChangeForm,
    Concede,
    DeclareAttack,
    Discard,
    EndTurn,
    GoToBattle,
    MythSummon,
    NormalSummon,
    Pass,
    SetMagic,
    Timeout,
    TributeSummon,
)
from engine.rulesets.voidlink.model.events import (
    AttackDeclared,
    AttackEnded,
    AttackNegated,
    AwaitingDecision,
    BattleCalculated,
    CardDestroyed,
    CardsDrawn,
    ChainLinkAdded,
    ChainResolved,
    Conceded,
    CounterAdded,
    DeckShuffled,
    DelayedEffectRegistered,
    DelayedEffectResolved,
    DestructionPrevented,
    DrawFailed,
    DrawSkipped,
    EffectTriggered,
    FirstPlayerChosen,
    FormChanged,
    LinkNegated,
    LinkResolved,
    MagicSet,
    MatchEnded,
    MatchStarted,
    ModifiersExpired,
    MonsterSummoned,
    Moved,
    Passed,
    PhaseChanged,
    PhaseEndRequested,
    PoolChanged,
    SentToGraveyard,
    SpecialVictory,
    StatModified,
    TimedOut,
    TurnEnded,
    TurnStarted,
)
from engine.rulesets.voidlink.model.state import Subject
from engine.rulesets.voidlink.setup import configure, deck_violations, setup
from engine.rulesets.voidlink.view import redact, view

from .helpers import SEQ, E, Mon, fold, given, monster, open_, rejection, response, run, seat

A = PRESETS["starter_a"]
B = PRESETS["starter_b"]


def deck(main: Any = None, extra: Any = None, commander: Any = None) -> dict[str, Any]:
    """A deck object with starter_a's parts unless replaced."""
    return {
        "main": [list(e) for e in A.main] if main is None else main,
        "extra": [list(e) for e in A.extra] if extra is None else extra,
        "commander": list(A.commander) if commander is None else commander,
    }


def codes(seat_deck: Any) -> list[tuple[str, str | None]]:
    return [(v.code, v.card_id) for v in deck_violations(0, seat_deck)]


def grave(s: int, reason: Any, *cards: tuple[str, str, Any]) -> SentToGraveyard:
    return SentToGraveyard(s, tuple(Moved(c, i, f) for c, i, f in cards), reason)


# --- S1, S2: deck validation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("built", "expected"),
    [
        (deck(main=[list(e) for e in A.main if e[0] != "VL-G06"]), [("MAIN_DECK_TOO_SMALL", None)]),
        (deck(main=[[c, 5 if c == "VL-M02" else n] for c, n in A.main]), [("MAIN_DECK_TOO_MANY_COPIES", "VL-M02")]),
        (deck(main=[*[list(e) for e in A.main], ["VL-X01", 1]]), [("MAIN_DECK_CARD_TYPE", "VL-X01")]),
        (deck(extra=[["VL-Y01", 3], ["VL-X01", 2]]), [("EXTRA_DECK_TOO_MANY_COPIES", "VL-Y01")]),
        (deck(main=[["VL-M01", 81]]), [("MAIN_DECK_TOO_LARGE", None), ("MAIN_DECK_TOO_MANY_COPIES", "VL-M01")]),
        (deck(main=[["VL-M99", 4]]), [("UNKNOWN_CARD", "VL-M99")]),
        ("starter_a", []),
        ("starter_b", []),
    ],
    ids=["a-small", "b-copies", "c-type", "d-extra-copies", "e-large", "f-unknown", "g-starter-a", "g-starter-b"],
)
def test_s1_main_and_extra_deck_validation(built: Any, expected: list[tuple[str, str | None]]) -> None:
    assert codes(built) == expected


def test_s1a_detail_names_the_count() -> None:
    (only,) = deck_violations(0, deck(main=[list(e) for e in A.main if e[0] != "VL-G06"]))
    assert (only.seat, only.detail) == (0, "39 < 40")


NON_SPECTERS = ["VL-M01", "VL-M02", "VL-M03", "VL-M05", "VL-M06", "VL-M08", "VL-X01"]


@pytest.mark.parametrize(
    ("built", "expected"),
    [
        (deck(commander=["VL-C01", "VL-C02"]), [("TOO_MANY_COMMANDERS", None)]),
        (
            deck(commander=["VL-C01", "VL-T01", "VL-T02", "VL-T03", "VL-T04", "VL-T05"]),
            [("COMMANDER_DECK_TOO_LARGE", None)],
        ),
        (deck(commander=["VL-T01", "VL-T01"]), [("COMMANDER_DECK_DUPLICATE", "VL-T01")]),
        (deck(commander=["VL-T06"]), [("TACTICS_RESTRICTION_UNMET", "VL-T06")]),
        (deck(commander=["VL-T01", "VL-T02", "VL-T03", "VL-T04", "VL-T05"]), []),
        (
            deck(main=[list(e) for e in B.main], commander=["VL-C01"]),
            [("COMMANDER_FORBIDDEN_ARCHETYPE", "VL-M07")],
        ),
        (
            deck(commander=["VL-C02", "VL-T07"]),
            [("TACTICS_RESTRICTION_UNMET", "VL-T07"), *(("COMMANDER_RACE_RESTRICTION", c) for c in NON_SPECTERS)],
        ),
        (deck(commander=["VL-C01", "VL-T07"]), []),
    ],
    ids=["a", "b", "c", "d", "e", "f", "g", "h"],
)
def test_s2_commander_deck_validation(built: Any, expected: list[tuple[str, str | None]]) -> None:
    assert codes(built) == expected


def test_s2e_no_commander_pools() -> None:
    config = configure({"seats": [{"deck": deck(commander=["VL-T01", "VL-T02", "VL-T03", "VL-T04", "VL-T05"])}, {}]})
    started = setup(config, Rng(bytes(32), 1))[0]
    assert isinstance(started, MatchStarted)
    assert (started.players[0].hp, started.players[0].lp, started.players[0].commander) == (7000, 7000, None)


# --- S3, S4: setup, first turn, concede -------------------------------------------------------------------------


def s3_events() -> list[Any]:
    return setup(configure({"seats": [{}, {}], "options": {"first_player": 0}}), Rng(bytes(32), 1))


def test_s3_setup() -> None:
    events = s3_events()
    started, shuffle0, shuffle1, first, draw0, draw1, *rest = events
    assert isinstance(started, MatchStarted)
    p0, p1 = started.players
    assert p0.commander is not None and (p0.commander.card, p0.commander.card_id) == ("p0.c01", "VL-C01")
    assert (p0.hp, p0.lp, p1.commander, p1.hp, p1.lp) == (8000, 6000, None, 7000, 7000)
    assert isinstance(shuffle0, DeckShuffled) and isinstance(shuffle1, DeckShuffled)
    assert (shuffle0.seat, shuffle1.seat) == (0, 1)
    assert first == FirstPlayerChosen(0, "option")
    assert shuffle0.order is not None and shuffle1.order is not None
    assert draw0 == CardsDrawn(0, shuffle0.order[:5], 5, "opening")
    assert draw1 == CardsDrawn(1, shuffle1.order[:5], 5, "opening")
    assert rest == [
        TurnStarted(1, 0),
        PhaseChanged(1, "draw"),
        DrawSkipped(0),
        PhaseChanged(1, "main"),
        AwaitingDecision(0, "open", None, None, 1, 120),
    ]
    state = fold(RULESET.initial(configure({"seats": [{}, {}]})), events)
    players = state.players
    assert [len(p.deck) for p in players] == [35, 35]
    assert [len(p.hand) for p in players] == [5, 5]
    assert [len(p.tactics) for p in players] == [4, 5]


class CountingRng(Rng):
    def __init__(self) -> None:
        super().__init__(bytes(32), 1)
        self.calls: list[int] = []

    def randbelow(self, n: int) -> int:
        self.calls.append(n)
        return super().randbelow(n)


def test_s3_random_first_player_draws_exactly_two_shuffles_and_one_coin() -> None:
    rng = CountingRng()
    events = setup(configure({"seats": [{}, {}]}), rng)
    shuffle = list(range(40, 1, -1))
    assert rng.calls == [*shuffle, *shuffle, 2]
    assert isinstance(events[3], FirstPlayerChosen) and events[3].method == "rng"


def s4_state() -> Any:
    state = fold(RULESET.initial(configure({"seats": [{}, {}]})), s3_events())
    return replace(state, players=(state.players[0], replace(state.players[1], tactics=())))


def test_s4_first_turn_seats_and_concede() -> None:
    state = s4_state()
    p1_card = state.players[1].hand[0]
    assert rejection(state, 1, NormalSummon(p1_card, "void_attack")) == "NOT_AWAITED_SEAT"
    assert rejection(state, 0, GoToBattle()) == "FIRST_TURN_NO_BATTLE"
    assert rejection(state, 0, DeclareAttack("p0.m01", None)) == "WRONG_PHASE"
    top = state.players[1].deck[0]
    events, state = run(state, 0, EndTurn())
    assert events == [
        PhaseEndRequested(0, "end"),
        PhaseChanged(1, "end"),
        TurnEnded(1, 0),
        TurnStarted(2, 1),
        PhaseChanged(2, "draw"),
        CardsDrawn(1, (top,), 1, "draw_phase"),
        PhaseChanged(2, "main"),
        open_(1, 2),
    ]
    assert len(state.players[1].hand) == 6
    assert rejection(state, 1, ActivateCommander()) == "NO_COMMANDER"
    events, state = run(state, 0, Concede())
    assert events == [Conceded(0), MatchEnded("win", 1, "concede")]
    assert rejection(state, 1, EndTurn()) == "MATCH_OVER"


# --- S5-S8: summons, forms, systems ------------------------------------------------------------------------------


def s5_state(**changes: Any) -> Any:
    hand = [
        ("p0.m01", "VL-M01"),
        ("p0.m05", "VL-M02"),
        ("p0.m22", "VL-M08"),
        ("p0.m20", "VL-M06"),
        ("p0.m32", "VL-G03"),
    ]
    return given(
        seat(hand=hand, graveyard=[("p0.m13", "VL-M04")], **changes), seat(tactics=[("p1.c04", "VL-T04")]), turn=3
    )


def test_s5_normal_summons_special_summons_and_windows() -> None:
    state = s5_state()
    assert rejection(state, 0, NormalSummon("p0.m20", "reality_attack")) == "LEVEL_TOO_HIGH"
    events, state = run(state, 0, NormalSummon("p0.m01", "void_attack"))
    assert events == [
        MonsterSummoned(0, "p0.m01", "VL-M01", "hand", 0, "void_attack", "normal", E + 1),
        response(1, "summon", SEQ + 1),
    ]
    events, state = run(state, 1, Pass())
    assert events == [Passed(1), open_(0, SEQ + 2)]
    events, state = run(state, 0, NormalSummon("p0.m05", "reality_defence"))
    assert events == [
        MonsterSummoned(0, "p0.m05", "VL-M02", "hand", 1, "reality_defence", "normal", E + 2),
        response(1, "summon", SEQ + 3),
    ]
    _, state = run(state, 1, Pass())
    assert rejection(state, 0, NormalSummon("p0.m22", "void_attack")) == "NORMAL_SUMMON_LIMIT"
    assert rejection(state, 0, ActivateMagic("p0.m32", ("p0.m13",), None)) == "FORM_REQUIRED"
    events, state = run(state, 0, ActivateMagic("p0.m32", ("p0.m13",), "void_attack"))
    assert events == [
        ChainLinkAdded(1, 0, "p0.m32", "VL-G03", "hand", 0, None, None, ("p0.m13",), "void_attack", "open"),
        response(1, "chain", SEQ + 5),
    ]
    events, state = run(state, 1, Pass())
    assert events == [
        Passed(1),
        MonsterSummoned(0, "p0.m13", "VL-M04", "graveyard", 2, "void_attack", "special", E + 3),
        grave(0, "resolved", ("p0.m32", "VL-G03", "magic_zone")),
        LinkResolved(1, False),
        ChainResolved(),
        open_(0, SEQ + 6),
    ]


def test_s5_variant_full_monster_zones() -> None:
    full = [Mon(f"p0.m{70 + i}", "VL-M08", "void_attack") for i in range(6)]
    assert rejection(s5_state(monsters=full), 0, NormalSummon("p0.m01", "void_attack")) == "MONSTER_ZONE_FULL"


def s6_state(*extra_hand: tuple[str, str]) -> Any:
    board = [
        Mon("p0.m01", "VL-M01", "void_attack"),
        Mon("p0.m05", "VL-M02", "void_attack"),
        Mon("p0.m22", "VL-M08", "void_attack"),
    ]
    return given(seat(hand=[("p0.m20", "VL-M06"), *extra_hand], monsters=board, normal_summons_used=2))


def test_s6_tribute_summon() -> None:
    state = s6_state()
    assert rejection(state, 0, TributeSummon("p0.m20", "reality_attack", ("p0.m05",))) == "TRIBUTE_LEVEL_INSUFFICIENT"
    assert rejection(state, 0, TributeSummon("p0.m20", "reality_attack", ("p0.m05", "p0.m01"))) == "NOT_CANONICAL"
    tributes = [c for c in RULESET.legal_commands(state, 0) if isinstance(c, TributeSummon)]
    assert len(tributes) == 12
    assert {c.tributes for c in tributes} == {
        ("p0.m01", "p0.m05"),
        ("p0.m05", "p0.m22"),
        ("p0.m01", "p0.m05", "p0.m22"),
    }
    events, state = run(state, 0, TributeSummon("p0.m20", "reality_attack", ("p0.m01", "p0.m05")))
    assert events == [
        grave(0, "tribute", ("p0.m01", "VL-M01", "monster_zone"), ("p0.m05", "VL-M02", "monster_zone")),
        MonsterSummoned(0, "p0.m20", "VL-M06", "hand", 0, "reality_attack", "tribute", E + 1),
        open_(0, SEQ + 1),
    ]
    assert state.players[0].graveyard[-2:] == ("p0.m01", "p0.m05")


def test_s6_variant_level_four_is_never_tribute_summoned() -> None:
    state = s6_state(("p0.m06", "VL-M02"))
    assert rejection(state, 0, TributeSummon("p0.m06", "void_attack", ("p0.m01", "p0.m05"))) == "LEVEL_TOO_LOW"


def test_s7_display_form_changes() -> None:
    board = [
        Mon("p0.m13", "VL-M04", "void_attack", modifiers=(500,)),
        Mon("p0.m02", "VL-M01", "void_attack", summoned_turn=5),
        Mon("p0.m06", "VL-M02", "void_defence"),
    ]
    state = given(seat(monsters=board, tactics=[("p0.c04", "VL-T04")]), turn=5)
    assert rejection(state, 0, ChangeForm("p0.m02", "reality_attack")) == "SUMMONED_THIS_TURN"
    assert rejection(state, 0, ChangeForm("p0.m13", "void_attack")) == "FORM_UNCHANGED"
    events, state = run(state, 0, ChangeForm("p0.m13", "reality_defence"))
    assert events == [FormChanged("p0.m13", "void_attack", "reality_defence", "command"), open_(0, SEQ + 1)]
    m13 = monster(state, "p0.m13")
    assert (atk(m13), def_of(m13)) == (1900, 1200)
    assert rejection(state, 0, ChangeForm("p0.m13", "reality_attack")) == "FORM_ALREADY_CHANGED"
    events, state = run(state, 0, ActivateTactics("p0.c04", ("p0.m06",)))
    assert events == [
        ChainLinkAdded(1, 0, "p0.c04", "VL-T04", "tactics", None, None, None, ("p0.m06",), None, "open"),
        FormChanged("p0.m06", "void_defence", "reality_defence", "effect"),
        grave(0, "resolved", ("p0.c04", "VL-T04", "chain")),
        LinkResolved(1, False),
        ChainResolved(),
        open_(0, SEQ + 2),
    ]
    events, state = run(state, 0, ChangeForm("p0.m06", "reality_attack"))
    assert events[0] == FormChanged("p0.m06", "reality_defence", "reality_attack", "command")


def test_s8_same_system_targets_and_the_system_lock() -> None:
    state = given(
        seat(monsters=[Mon("p0.m13", "VL-M04", "void_attack")]),
        seat(monsters=[Mon("p1.m01", "VL-M01", "reality_attack"), Mon("p1.m05", "VL-M02", "void_defence")]),
        turn=5,
    )
    assert rejection(state, 0, ActivateMonsterEffect("p0.m13", 0, ("p1.m01",))) == "TARGET_INVALID"
    events, state = run(state, 0, ActivateMonsterEffect("p0.m13", 0, ("p1.m05",)))
    assert events == [
        ChainLinkAdded(1, 0, "p0.m13", "VL-M04", "monster", None, 0, "void", ("p1.m05",), None, "open"),
        StatModified("p1.m05", -500, 500),
        LinkResolved(1, False),
        ChainResolved(),
        open_(0, SEQ + 1),
    ]
    assert rejection(state, 0, ActivateMonsterEffect("p0.m13", 0, ("p1.m05",))) == "EFFECT_USED_THIS_TURN"
    events, state = run(state, 0, ChangeForm("p0.m13", "reality_attack"))
    assert events[0] == FormChanged("p0.m13", "void_attack", "reality_attack", "command")
    assert rejection(state, 0, ActivateMonsterEffect("p0.m13", 0, ())) == "SYSTEM_LOCKED"
    events, state = run(state, 0, EndTurn())
    assert ModifiersExpired(("p1.m05",)) in events
    assert atk(monster(state, "p1.m05")) == 1000


# --- S9-S14: battle and responses ---------------------------------------------------------------------------------


def test_s9_battle_systems_direct_attack_and_equal_atk() -> None:
    state = given(
        seat(monsters=[Mon("p0.m01", "VL-M01", "reality_attack"), Mon("p0.m22", "VL-M08", "void_attack")]),
        seat(monsters=[Mon("p1.m05", "VL-M02", "void_attack")]),
        phase="battle",
    )
    assert rejection(state, 0, DeclareAttack("p0.m01", "p1.m05")) == "TARGET_SYSTEM_MISMATCH"
    assert rejection(state, 0, DeclareAttack("p0.m22", None)) == "DIRECT_ATTACK_BLOCKED"
    events, state = run(state, 0, DeclareAttack("p0.m01", None))
    assert events == [
        AttackDeclared("p0.m01", None, "reality", 1),
        BattleCalculated("p0.m01", None, 1500, None, None),
        PoolChanged(1, "hp", -1500, 5500, "battle"),
        AttackEnded("p0.m01", "resolved"),
        open_(0, SEQ + 1),
    ]
    assert rejection(state, 0, DeclareAttack("p0.m01", None)) == "ALREADY_ATTACKED"
    events, state = run(state, 0, DeclareAttack("p0.m22", "p1.m05"))
    assert events == [
        AttackDeclared("p0.m22", "p1.m05", "void", 1),
        BattleCalculated("p0.m22", "p1.m05", 1000, 1000, "attack"),
        CardDestroyed("p0.m22", "VL-M08", 0, "monster_zone", "battle"),
        CardDestroyed("p1.m05", "VL-M02", 1, "monster_zone", "battle"),
        AttackEnded("p0.m22", "resolved"),
        open_(0, SEQ + 2),
    ]


def test_s10_battle_against_defence_and_the_attacker_losing() -> None:
    board = [
        Mon("p0.m13", "VL-M04", "void_attack"),
        Mon("p0.m02", "VL-M01", "void_attack"),
        Mon("p0.m20", "VL-M06", "void_attack"),
        Mon("p0.m06", "VL-M02", "reality_defence"),
    ]
    state = given(
        seat(monsters=board, lp=6000),
        seat(monsters=[Mon("p1.m05", "VL-M02", "void_defence"), Mon("p1.m24", "VL-M08", "void_attack")]),
        phase="battle",
    )
    assert rejection(state, 0, DeclareAttack("p0.m06", None)) == "NOT_IN_ATTACK_POSITION"
    events, state = run(state, 0, DeclareAttack("p0.m13", "p1.m24"))
    assert events[1:] == [
        BattleCalculated("p0.m13", "p1.m24", 1800, 1000, "attack"),
        PoolChanged(1, "lp", -800, 6200, "battle"),
        CardDestroyed("p1.m24", "VL-M08", 1, "monster_zone", "battle"),
        AttackEnded("p0.m13", "resolved"),
        open_(0, SEQ + 1),
    ]
    events, state = run(state, 0, DeclareAttack("p0.m02", "p1.m05"))
    assert events[1:] == [
        BattleCalculated("p0.m02", "p1.m05", 1200, 1900, "defence"),
        PoolChanged(0, "lp", -700, 5300, "battle"),
        AttackEnded("p0.m02", "resolved"),
        open_(0, SEQ + 2),
    ]
    events, state = run(state, 0, DeclareAttack("p0.m20", "p1.m05"))
    assert events[1:] == [
        BattleCalculated("p0.m20", "p1.m05", 2400, 1900, "defence"),
        CardDestroyed("p1.m05", "VL-M02", 1, "monster_zone", "battle"),
        AttackEnded("p0.m20", "resolved"),
        open_(0, SEQ + 3),
    ]
    assert state.players[1].lp == 6200


def test_s11_attack_window_and_emergency_barrier() -> None:
    state = given(
        seat(monsters=[Mon("p0.m13", "VL-M04", "void_attack")]),
        seat(monsters=[Mon("p1.m01", "VL-M01", "reality_defence")], tactics=[("p1.c01", "VL-T01")]),
        turn=5,
        phase="battle",
    )
    events, state = run(state, 0, DeclareAttack("p0.m13", None))
    assert events == [AttackDeclared("p0.m13", None, "void", 1), response(1, "attack", SEQ + 1)]
    assert rejection(state, 1, NormalSummon("p1.m01", "void_attack")) == "WRONG_DECISION_KIND"
    assert rejection(state, 0, EndTurn()) == "NOT_AWAITED_SEAT"
    assert rejection(state, 1, ActivateTactics("p1.c01", (), "void_attack")) == "FORM_NOT_EXPECTED"
    events, state = run(state, 1, ActivateTactics("p1.c01", ()))
    assert events == [
        ChainLinkAdded(1, 1, "p1.c01", "VL-T01", "tactics", None, None, None, (), None, "attack"),
        AttackNegated("p0.m13"),
        grave(1, "resolved", ("p1.c01", "VL-T01", "chain")),
        LinkResolved(1, False),
        ChainResolved(),
        AttackEnded("p0.m13", "negated"),
        open_(0, SEQ + 2),
    ]
    assert state.players[1].lp == 7000
    assert rejection(state, 0, DeclareAttack("p0.m13", None)) == "ALREADY_ATTACKED"


def test_s12_commander_ability_negated_commander_survives() -> None:
    state = given(
        seat(monsters=[Mon("p0.m01", "VL-M01", "void_attack")], commander=("p0.c01", "VL-C01")),
        seat(tactics=[("p1.c02", "VL-T02")]),
    )
    events, state = run(state, 0, ActivateCommander(("p0.m01",)))
    assert events == [
        ChainLinkAdded(1, 0, "p0.c01", "VL-C01", "commander", None, None, None, ("p0.m01",), None, "open"),
        response(1, "chain", SEQ + 1),
    ]
    events, state = run(state, 1, ActivateTactics("p1.c02", ()))
    assert events == [
        ChainLinkAdded(2, 1, "p1.c02", "VL-T02", "tactics", None, None, None, (), None, None),
        LinkNegated(1, 2),
        DestructionPrevented("p0.c01", "commander"),
        grave(1, "resolved", ("p1.c02", "VL-T02", "chain")),
        LinkResolved(2, False),
        LinkResolved(1, True),
        ChainResolved(),
        open_(0, SEQ + 2),
    ]
    assert atk(monster(state, "p0.m01")) == 1200
    assert state.players[0].commander == "p0.c01"
    assert rejection(state, 0, ActivateCommander(("p0.m01",))) == "ABILITY_USED_THIS_TURN"


def test_s13_set_magic_timing_and_a_response_in_the_opponents_turn() -> None:
    state = given(seat(hand=[("p0.m37", "VL-G05"), ("p0.m28", "VL-G01")]))
    events, state = run(state, 0, SetMagic("p0.m37"))
    assert events == [MagicSet(0, "p0.m37", "VL-G05", 0), open_(0, SEQ + 1)]
    assert rejection(state, 0, ActivateMagic("p0.m37")) == "SET_THIS_TURN"
    _, state = run(state, 0, GoToBattle())
    assert rejection(state, 0, ActivateMagic("p0.m28")) == "HAND_MAGIC_MAIN_PHASE_ONLY"
    state = given(
        seat(monsters=[Mon("p0.m05", "VL-M02", "void_attack")], magic=[(0, ("p0.m37", "VL-G05"), 3)]),
        seat(monsters=[Mon("p1.m13", "VL-M04", "void_attack")]),
        turn=4,
        turn_seat=1,
        phase="battle",
    )
    events, state = run(state, 1, DeclareAttack("p1.m13", "p0.m05"))
    assert events == [AttackDeclared("p1.m13", "p0.m05", "void", 0), response(0, "attack", SEQ + 1)]
    events, state = run(state, 0, ActivateMagic("p0.m37"))
    assert events == [
        ChainLinkAdded(1, 0, "p0.m37", "VL-G05", "set", 0, None, None, (), None, "attack"),
        StatModified("p1.m13", -1000, 800),
        grave(0, "resolved", ("p0.m37", "VL-G05", "magic_zone")),
        LinkResolved(1, False),
        ChainResolved(),
        BattleCalculated("p1.m13", "p0.m05", 800, 1000, "attack"),
        PoolChanged(1, "lp", -200, 6800, "battle"),
        CardDestroyed("p1.m13", "VL-M04", 1, "monster_zone", "battle"),
        AttackEnded("p1.m13", "resolved"),
        open_(1, SEQ + 2),
    ]


def test_s14_phase_shift_fizzles_an_attack() -> None:
    state = given(
        seat(monsters=[Mon("p0.m01", "VL-M01", "reality_attack")]),
        seat(monsters=[Mon("p1.m05", "VL-M02", "reality_defence")], tactics=[("p1.c04", "VL-T04")]),
        turn=5,
        phase="battle",
    )
    events, state = run(state, 0, DeclareAttack("p0.m01", "p1.m05"))
    assert events == [AttackDeclared("p0.m01", "p1.m05", "reality", 1), response(1, "attack", SEQ + 1)]
    events, state = run(state, 1, ActivateTactics("p1.c04", ("p1.m05",)))
    assert events == [
        ChainLinkAdded(1, 1, "p1.c04", "VL-T04", "tactics", None, None, None, ("p1.m05",), None, "attack"),
        FormChanged("p1.m05", "reality_defence", "void_defence", "effect"),
        grave(1, "resolved", ("p1.c04", "VL-T04", "chain")),
        LinkResolved(1, False),
        ChainResolved(),
        AttackEnded("p0.m01", "fizzled"),
        open_(0, SEQ + 2),
    ]
    assert monster(state, "p0.m01").attacked
    assert state.players[1].hp == 7000


# --- S15-S17: extra deck and special victory ------------------------------------------------------------------------


def s15_state(**changes: Any) -> Any:
    extra = [("p0.x01", "VL-Y01"), ("p0.x02", "VL-Y01"), ("p0.x03", "VL-X01"), ("p0.x04", "VL-X01")]
    return given(
        seat(hand=[("p0.m02", "VL-M01")], monsters=[Mon("p0.m22", "VL-M08", "void_attack")], extra=extra, **changes),
        seat(monsters=[Mon("p1.m20", "VL-M06", "reality_attack")]),
    )


def test_s15_combination_magic() -> None:
    state = s15_state()
    bad = ActivateCombination("p0.x01", ("p0.m22", "p0.m02"), ("p1.m20",))
    assert rejection(state, 0, bad) == "MATERIALS_INVALID"
    assert rejection(state, 0, ActivateCombination("p0.x01", ("p0.m02", "p0.m22"), ("p0.m22",))) == "TARGET_INVALID"
    events, state = run(state, 0, ActivateCombination("p0.x01", ("p0.m02", "p0.m22"), ("p1.m20",)))
    assert events == [
        grave(0, "material", ("p0.m02", "VL-M01", "hand"), ("p0.m22", "VL-M08", "monster_zone")),
        ChainLinkAdded(1, 0, "p0.x01", "VL-Y01", "extra", 0, None, None, ("p1.m20",), None, "open"),
        CardDestroyed("p1.m20", "VL-M06", 1, "monster_zone", "effect"),
        grave(0, "resolved", ("p0.x01", "VL-Y01", "magic_zone")),
        LinkResolved(1, False),
        ChainResolved(),
        open_(0, SEQ + 1),
    ]
    assert rejection(state, 0, ActivateCombination("p0.x02", (), ())) == "COMBINATION_USED_THIS_TURN"


def test_s15_variant_full_magic_zones() -> None:
    full = [(z, (f"p0.m{60 + z}", "VL-G01"), 1) for z in range(6)]
    state = s15_state(magic=full)
    assert rejection(state, 0, ActivateCombination("p0.x01", ("p0.m02", "p0.m22"), ("p1.m20",))) == "MAGIC_ZONE_FULL"


def test_s16_myth_monster_rules() -> None:
    board = [
        Mon("p0.m01", "VL-M01", "void_attack"),
        Mon("p0.m05", "VL-M02", "reality_defence"),
        Mon("p0.m02", "VL-M01", "void_defence"),
        Mon("p0.m06", "VL-M02", "reality_attack"),
    ]
    state = given(
        seat(
            monsters=board,
            extra=[("p0.x03", "VL-X01"), ("p0.x04", "VL-X01")],
            hand=[("p0.m20", "VL-M06")],
            tactics=[("p0.c04", "VL-T04")],
        ),
        turn=5,
    )
    assert rejection(state, 0, MythSummon("p0.x03", "reality_attack", ("p0.m01", "p0.m05"))) == "MYTH_SYSTEM_FIXED"
    assert rejection(state, 0, MythSummon("p0.x03", "void_attack", ("p0.m05", "p0.m01"))) == "MATERIALS_INVALID"
    events, state = run(state, 0, MythSummon("p0.x03", "void_attack", ("p0.m01", "p0.m05")))
    assert events == [
        grave(0, "material", ("p0.m01", "VL-M01", "monster_zone"), ("p0.m05", "VL-M02", "monster_zone")),
        MonsterSummoned(0, "p0.x03", "VL-X01", "extra", 0, "void_attack", "myth", E + 1),
        open_(0, SEQ + 1),
    ]
    assert rejection(state, 0, MythSummon("p0.x04", "void_attack", ("p0.m02", "p0.m06"))) == "MYTH_NAME_ON_FIELD"
    assert rejection(state, 0, TributeSummon("p0.m20", "void_attack", ("p0.x03", "p0.m02"))) == "TRIBUTE_NO_LEVEL"
    assert rejection(state, 0, ChangeForm("p0.x03", "void_defence")) == "SUMMONED_THIS_TURN"
    assert rejection(state, 0, ActivateTactics("p0.c04", ("p0.x03",))) == "TARGET_INVALID"
    state = replace(state, turn=7)
    assert rejection(state, 0, ChangeForm("p0.x03", "reality_defence")) == "MYTH_SYSTEM_FIXED"
    events, _ = run(state, 0, ChangeForm("p0.x03", "void_defence"))
    assert events[0] == FormChanged("p0.x03", "void_attack", "void_defence", "command")


@pytest.mark.parametrize("link", [2, 1])
def test_s17_special_victory(link: int) -> None:
    state = given(
        seat(monsters=[Mon("p0.x03", "VL-X01", "void_attack", counters={"link": link})]), turn=9, phase="battle"
    )
    events, _ = run(state, 0, EndTurn())
    head = [
        PhaseEndRequested(0, "end"),
        PhaseChanged(9, "end"),
        EffectTriggered(0, "p0.x03", "VL-X01", "void", 0),
        CounterAdded("p0.x03", "link", link + 1),
    ]
    if link == 2:
        assert events == [*head, SpecialVictory(0, "p0.x03", "VL-X01"), MatchEnded("win", 0, "special_victory")]
    else:
        assert events[:4] == head and events[4] == TurnEnded(9, 0)


# --- S18-S23: end phase, triggers, deck-out, pools, timeouts ----------------------------------------------------------


def test_s18_end_phase_order_delayed_magic_and_hand_limit() -> None:
    hand = [("p0.m35", "VL-G04")] + [(f"p0.m0{i}", "VL-M01" if i <= 4 else "VL-M02") for i in range(1, 8)]
    state = given(
        seat(
            hp=5000,
            lp=4000,
            hand=hand,
            monsters=[Mon("p0.m16", "VL-M05", "reality_attack"), Mon("p0.m17", "VL-M05", "void_defence")],
        ),
        turn=6,
    )
    events, state = run(state, 0, ActivateMagic("p0.m35", ("p0.m16",)))
    assert events == [
        ChainLinkAdded(1, 0, "p0.m35", "VL-G04", "hand", 0, None, None, ("p0.m16",), None, "open"),
        StatModified("p0.m16", 800, 1800),
        DelayedEffectRegistered(1, 0, 6, "VL-G04", (Subject("p0.m16", 1),), (Destroy("target0"),)),
        grave(0, "resolved", ("p0.m35", "VL-G04", "magic_zone")),
        LinkResolved(1, False),
        ChainResolved(),
        open_(0, SEQ + 1),
    ]
    events, state = run(state, 0, EndTurn())
    assert events == [
        PhaseEndRequested(0, "end"),
        PhaseChanged(6, "end"),
        EffectTriggered(0, "p0.m16", "VL-M05", "reality", 0),
        PoolChanged(0, "hp", 300, 5300, "effect"),
        EffectTriggered(0, "p0.m17", "VL-M05", "void", 0),
        PoolChanged(0, "lp", 300, 4300, "effect"),
        DelayedEffectResolved(1),
        CardDestroyed("p0.m16", "VL-M05", 0, "monster_zone", "effect"),
        AwaitingDecision(0, "discard", None, 1, SEQ + 2, 30),
    ]
    assert rejection(state, 0, Discard(("p0.m01", "p0.m02"))) == "DISCARD_COUNT"
    top = state.players[1].deck[0]
    events, state = run(state, 0, Discard(("p0.m07",)))
    assert events == [
        grave(0, "hand_limit", ("p0.m07", "VL-M02", "hand")),
        TurnEnded(6, 0),
        TurnStarted(7, 1),
        PhaseChanged(7, "draw"),
        CardsDrawn(1, (top,), 1, "draw_phase"),
        PhaseChanged(7, "main"),
        open_(1, SEQ + 3),
    ]


def test_s19_summon_triggers_route_by_system() -> None:
    state = given(
        seat(
            hand=[("p0.m09", "VL-M03"), ("p0.m10", "VL-M03"), ("p0.m26", "VL-M09")],
            monsters=[Mon("p0.m01", "VL-M01", "void_attack"), Mon("p0.m22", "VL-M08", "reality_attack")],
        ),
        seat(monsters=[Mon("p1.m01", "VL-M01", "void_attack"), Mon("p1.m05", "VL-M02", "reality_attack")]),
    )
    events, state = run(state, 0, NormalSummon("p0.m09", "reality_attack"))
    assert events == [
        MonsterSummoned(0, "p0.m09", "VL-M03", "hand", 2, "reality_attack", "normal", E + 1),
        EffectTriggered(0, "p0.m09", "VL-M03", "reality", 0),
        PoolChanged(1, "hp", -300, 6700, "effect"),
        open_(0, SEQ + 1),
    ]
    events, state = run(state, 0, NormalSummon("p0.m10", "void_defence"))
    assert events == [
        MonsterSummoned(0, "p0.m10", "VL-M03", "hand", 3, "void_defence", "normal", E + 2),
        EffectTriggered(0, "p0.m10", "VL-M03", "void", 0),
        PoolChanged(1, "lp", -300, 6700, "effect"),
        open_(0, SEQ + 2),
    ]
    events, state = run(state, 0, TributeSummon("p0.m26", "void_attack", ("p0.m01", "p0.m22")))
    assert events == [
        grave(0, "tribute", ("p0.m01", "VL-M01", "monster_zone"), ("p0.m22", "VL-M08", "monster_zone")),
        MonsterSummoned(0, "p0.m26", "VL-M09", "hand", 0, "void_attack", "tribute", E + 3),
        EffectTriggered(0, "p0.m26", "VL-M09", "void", 0),
        StatModified("p1.m01", -300, 900),
        open_(0, SEQ + 3),
    ]
    assert atk(monster(state, "p1.m05")) == 1600


def test_s20_deck_out_at_the_draw() -> None:
    state = given(seat(deck=[]), seat(deck=[]), turn=10)
    events, _ = run(state, 0, EndTurn())
    assert events == [
        PhaseEndRequested(0, "end"),
        PhaseChanged(10, "end"),
        TurnEnded(10, 0),
        TurnStarted(11, 1),
        PhaseChanged(11, "draw"),
        DrawFailed(1, 1, 0),
        MatchEnded("win", 0, "deck_out"),
    ]


@pytest.mark.parametrize(
    ("card", "decks", "middle", "ended"),
    [
        (("p0.m28", "VL-G01"), (1, 5), [DrawFailed(0, 2, 1)], MatchEnded("win", 1, "deck_out")),
        (
            ("p0.m31", "VL-G02"),
            (1, 1),
            [DrawFailed(0, 2, 1), DrawFailed(1, 2, 1)],
            MatchEnded("draw", None, "simultaneous"),
        ),
        (("p0.m31", "VL-G02"), (5, 1), ["drawn", DrawFailed(1, 2, 1)], MatchEnded("win", 0, "deck_out")),
    ],
    ids=["a", "b", "c"],
)
def test_s21_deck_out_by_effects(card: tuple[str, str], decks: tuple[int, int], middle: list[Any], ended: Any) -> None:
    state = given(seat(hand=[card], deck=filler(0, decks[0])), seat(deck=filler(1, decks[1])), turn=5)
    top = state.players[0].deck[:2]
    events, after = run(state, 0, ActivateMagic(card[0]))
    middle = [CardsDrawn(0, top, 2, "effect") if m == "drawn" else m for m in middle]
    assert events == [
        ChainLinkAdded(1, 0, card[0], card[1], "hand", 0, None, None, (), None, "open"),
        *middle,
        grave(0, "resolved", (card[0], card[1], "magic_zone")),
        LinkResolved(1, False),
        ended,
    ]
    if ended.winner == 1:
        assert len(after.players[0].deck) == 1


def filler(s: int, n: int) -> list[tuple[str, str]]:
    return [(f"p{s}.m{80 - i}", "VL-M08") for i in range(n)]


@pytest.mark.parametrize(
    ("pools", "changes", "ended"),
    [
        ((1000, 1000), [(0, -1000, 0), (1, -1000, 0)], MatchEnded("draw", None, "simultaneous")),
        ((800, 2500), [(0, -800, 0), (1, -1000, 1500)], MatchEnded("win", 1, "pool_zero")),
    ],
    ids=["a", "b"],
)
def test_s22_both_pools_hit_zero(pools: tuple[int, int], changes: list[tuple[int, int, int]], ended: Any) -> None:
    state = given(seat(hand=[("p0.m40", "VL-G06")], hp=pools[0]), seat(hp=pools[1]), turn=5)
    events, _ = run(state, 0, ActivateMagic("p0.m40"))
    assert events == [
        ChainLinkAdded(1, 0, "p0.m40", "VL-G06", "hand", 0, None, None, (), None, "open"),
        *(PoolChanged(s, "hp", d, v, "effect") for s, d, v in changes),
        grave(0, "resolved", ("p0.m40", "VL-G06", "magic_zone")),
        LinkResolved(1, False),
        ended,
    ]


def test_s22c_set_severing_strike_needs_an_attack() -> None:
    state = given(seat(hand=[("p0.m40", "VL-G06")], magic=[(0, ("p0.m37", "VL-G05"), 3)]), turn=5)
    assert rejection(state, 0, ActivateMagic("p0.m37")) == "CONDITION_NOT_MET"


def test_s23a_open_timeout_ends_the_turn() -> None:
    state = given(turn=4)
    assert rejection(state, SYSTEM, Timeout(0, SEQ - 1)) == "STALE_TIMEOUT"
    assert rejection(state, 0, Timeout(0, SEQ)) == "SYSTEM_ONLY"
    top = state.players[1].deck[0]
    events, state = run(state, SYSTEM, Timeout(0, SEQ))
    assert events == [
        TimedOut(0, SEQ, "open"),
        PhaseEndRequested(0, "end"),
        PhaseChanged(4, "end"),
        TurnEnded(4, 0),
        TurnStarted(5, 1),
        PhaseChanged(5, "draw"),
        CardsDrawn(1, (top,), 1, "draw_phase"),
        PhaseChanged(5, "main"),
        open_(1, SEQ + 1),
    ]
    assert state.players[0].open_timeouts == 1


def test_s23b_response_timeout_passes() -> None:
    state = given(
        seat(monsters=[Mon("p0.m13", "VL-M04", "void_attack")]),
        seat(tactics=[("p1.c01", "VL-T01")]),
        turn=5,
        phase="battle",
    )
    _, state = run(state, 0, DeclareAttack("p0.m13", None))
    assert state.awaiting is not None
    seq = state.awaiting.seq
    events, _ = run(state, SYSTEM, Timeout(1, seq))
    assert events == [
        TimedOut(1, seq, "response"),
        Passed(1),
        BattleCalculated("p0.m13", None, 1800, None, None),
        PoolChanged(1, "lp", -1800, 5200, "battle"),
        AttackEnded("p0.m13", "resolved"),
        open_(0, seq + 1),
    ]


def test_s23c_repeated_open_timeouts_lose() -> None:
    state = given(seat(open_timeouts=2))
    events, _ = run(state, SYSTEM, Timeout(0, SEQ))
    assert events == [TimedOut(0, SEQ, "open"), MatchEnded("win", 1, "timeout")]


def test_s23d_discard_timeout_drops_the_last_cards() -> None:
    hand = [(f"p0.m0{i}", "VL-M01") for i in range(1, 9)]
    state = given(seat(hand=hand), turn=4)
    state = replace(state, phase="end", awaiting=replace(state.awaiting, kind="discard", count=2, timer_s=30))
    events, _ = run(state, SYSTEM, Timeout(0, SEQ))
    assert events[:3] == [
        TimedOut(0, SEQ, "discard"),
        grave(0, "hand_limit", ("p0.m07", "VL-M01", "hand"), ("p0.m08", "VL-M01", "hand")),
        TurnEnded(4, 0),
    ]


# --- S24, S25: views, response summons, the phase-end window --------------------------------------------------------


def test_s24_views_and_redaction() -> None:
    extra = [("p0.x01", "VL-Y01"), ("p0.x02", "VL-Y01"), ("p0.x03", "VL-X01"), ("p0.x04", "VL-X01")]
    tactics = [("p0.c02", "VL-T06"), ("p0.c03", "VL-T07"), ("p0.c04", "VL-T01"), ("p0.c05", "VL-T02")]
    state = given(
        seat(
            hand=[("p0.m37", "VL-G05"), ("p0.m11", "VL-M03")],
            extra=extra,
            tactics=tactics,
            commander=("p0.c01", "VL-C01"),
            hp=8000,
            lp=6000,
        )
    )
    events, state = run(state, 0, SetMagic("p0.m37"))
    theirs = view(state, 1).players[0]
    assert [(m.zone, m.face_down, m.card, m.card_id, m.set_turn) for m in theirs.magic] == [(0, True, None, None, None)]
    assert (theirs.hand, theirs.hand_count, theirs.deck_count) == (None, 1, 5)
    assert (theirs.extra, theirs.extra_count, theirs.tactics, theirs.tactics_count) == (None, 4, None, 4)
    assert theirs.commander is not None and theirs.commander.card_id == "VL-C01"
    assert (theirs.hp, theirs.lp) == (8000, 6000)
    assert redact(events[0], 1) == MagicSet(0, None, None, 0)
    assert redact(CardsDrawn(0, ("p0.m11",), 1, "draw_phase"), 1) == CardsDrawn(0, None, 1, "draw_phase")
    assert redact(DeckShuffled(0, ("p0.m11",), 40), 0) == DeckShuffled(0, None, 40)
    own = view(state, 0).players[0]
    assert [(m.card, m.card_id, m.face_down, m.set_turn) for m in own.magic] == [("p0.m37", "VL-G05", True, 3)]
    assert own.hand is not None and [r.card for r in own.hand] == ["p0.m11"]
    assert own.deck_count == 5
    spectator = view(state, None)
    assert spectator.players[0] == theirs
    assert spectator.players[1] == view(state, 0).players[1]
    assert redact(events[0], None) == MagicSet(0, None, None, 0)
    assert RULESET.legal_commands(state, 1) == [Concede()]


def test_s25_response_summons_fizzled_direct_attack_and_the_phase_end_window() -> None:
    state = given(
        seat(monsters=[Mon("p0.m01", "VL-M01", "reality_attack")]),
        seat(hand=[("p1.m05", "VL-M02")], tactics=[("p1.c03", "VL-T03"), ("p1.c05", "VL-T05")], lp=2500),
        turn=5,
        phase="battle",
    )
    events, state = run(state, 0, DeclareAttack("p0.m01", None))
    assert events == [AttackDeclared("p0.m01", None, "reality", 1), response(1, "attack", SEQ + 1)]
    events, state = run(state, 1, ActivateTactics("p1.c05", ("p1.m05",), "reality_defence"))
    assert events == [
        ChainLinkAdded(1, 1, "p1.c05", "VL-T05", "tactics", None, None, None, ("p1.m05",), "reality_defence", "attack"),
        MonsterSummoned(1, "p1.m05", "VL-M02", "hand", 0, "reality_defence", "special", E + 1),
        grave(1, "resolved", ("p1.c05", "VL-T05", "chain")),
        LinkResolved(1, False),
        ChainResolved(),
        AttackEnded("p0.m01", "fizzled"),
        open_(0, SEQ + 2),
    ]
    assert state.players[1].hp == 7000
    events, state = run(state, 0, EndTurn())
    assert events == [PhaseEndRequested(0, "end"), response(1, "phase_end", SEQ + 3)]
    events, state = run(state, 1, ActivateTactics("p1.c03", ()))
    assert events == [
        ChainLinkAdded(1, 1, "p1.c03", "VL-T03", "tactics", None, None, None, (), None, "phase_end"),
        PoolChanged(1, "hp", 1000, 8000, "effect"),
        PoolChanged(1, "lp", 1000, 3500, "effect"),
        grave(1, "resolved", ("p1.c03", "VL-T03", "chain")),
        LinkResolved(1, False),
        ChainResolved(),
        open_(0, SEQ + 4),
    ]
    assert state.phase == "battle"
    events, state = run(state, 0, EndTurn())
    assert events[:2] == [PhaseEndRequested(0, "end"), PhaseChanged(5, "end")]
