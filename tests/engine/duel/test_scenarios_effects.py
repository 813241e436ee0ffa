"""duel.md §14 scenarios 11-18: triggers, response windows, replays, special and fusion summons, equips."""

from __future__ import annotations

from typing import Any

from engine.contract import SYSTEM
from engine.rulesets.duel import RULESET
from engine.rulesets.duel.model.commands import (
    Activate,
    Advance,
    CancelAttack,
    ChangePosition,
    Choices,
    ChooseTarget,
    DeclareAttack,
    FlipSummon,
    NormalSummon,
    Pass,
    ReplayAttack,
    SetSpellTrap,
    Timeout,
)
from engine.rulesets.duel.model.events import (
    AttackCancelled,
    AttackDeclared,
    AttackEnded,
    CardActivated,
    CardDestroyed,
    CardReturned,
    CardSentToGraveyard,
    CountersChanged,
    DamageAmount,
    DamageCalculated,
    DamageDealt,
    DecisionClosed,
    DecisionRequested,
    EffectResolved,
    EffectTriggered,
    EquipAttached,
    EquipTarget,
    MatchEnded,
    MonsterFlipped,
    NormalSummoned,
    PhaseChanged,
    PositionChanged,
    ResponsePassed,
    SpecialSummoned,
    SpellTrapSet,
    TimeoutRecorded,
    TurnEnded,
)
from engine.rulesets.duel.model.state import Details, GraveyardRef, MonsterRef, Reason, SpellTrapRef
from tests.engine.duel.helpers import M, S, given, rejection, run

NONE = Choices()


# --- scenario 11: Maw Beetle flipped by an attack -----------------------------------------------------------


def _beetle_attacked() -> Any:
    state = given(phase="battle", monsters={0: {0: M("0-m16")}, 1: {0: M("1-m19", "fd_defense")}})
    events, state = run(state, 0, DeclareAttack(0, 0))
    assert events == [
        AttackDeclared(0, 0, "0-m16", 0, False),
        MonsterFlipped(1, 0, "1-m19", "maw_beetle", "fd_defense", "fu_defense", "attacked"),
        EffectTriggered(1, "1-m19", "maw_beetle", "flip"),
        DamageCalculated("0-m16", 2300, "1-m19", "fu_defense", 600, ("1-m19",), None),
        CardDestroyed(1, "monster", 0, "1-m19", "maw_beetle", 1, "battle"),
        DecisionRequested(
            decision_id=1,
            seat=1,
            kind="select_target",
            details=Details(
                source="1-m19",
                card_id="maw_beetle",
                trigger="flip",
                candidates=(MonsterRef(0, 0),),
            ),
        ),
    ]
    return state


_AFTER_TARGET = [
    CardDestroyed(0, "monster", 0, "0-m16", "grave_knight", 0, "effect"),
    EffectResolved(1, "1-m19", "maw_beetle", "flip", MonsterRef(0, 0), False),
    AttackEnded(0, "0-m16"),
]


def test_s11_flip_by_attack_resolves_after_damage() -> None:
    events, _ = run(_beetle_attacked(), 1, ChooseTarget(MonsterRef(0, 0)))
    assert events == [DecisionClosed(1, 1, "answer"), *_AFTER_TARGET]


def test_s11_target_timeout_picks_the_first_candidate() -> None:
    events, _ = run(_beetle_attacked(), SYSTEM, Timeout(1, "decision", 1))
    assert events == [TimeoutRecorded(1, "decision", 1, 1), DecisionClosed(1, 1, "timeout"), *_AFTER_TARGET]


# --- scenario 12: Second Dawn, ownership, Seraph Herald -------------------------------------------------------


def test_s12_second_dawn_and_seraph_herald() -> None:
    state = given(
        hands={0: ["0-m34"]},
        graveyards={1: ["1-m24"]},
        monsters={0: {0: M("0-m14")}, 1: {0: M("1-m01")}},
    )
    position = Choices(position="attack")
    events, state = run(state, 0, Activate("0-m34", (GraveyardRef("1-m24"),), position))
    assert events == [
        CardActivated(0, 0, "0-m34", "second_dawn", "hand", (GraveyardRef("1-m24"),), position, None),
        SpecialSummoned(0, 1, "1-m24", "seraph_herald", "fu_attack", "graveyard"),
        CardSentToGraveyard(0, "spell_trap", 0, "0-m34", "second_dawn", 0, "resolved"),
    ]
    events, state = run(state, 0, Advance("battle"))
    assert events == [PhaseChanged(5, "battle")]
    events, state = run(state, 0, DeclareAttack(1, 0))
    assert events == [
        AttackDeclared(0, 1, "1-m24", 0, False),
        DamageCalculated("1-m24", 1400, "1-m01", "fu_attack", 1800, ("1-m24",), DamageAmount(0, 400)),
        DamageDealt(0, 400, 7600, "battle", "1-m24"),
        CardDestroyed(0, "monster", 1, "1-m24", "seraph_herald", 1, "battle"),
        EffectTriggered(0, "1-m24", "seraph_herald", "sent_to_gy_by_battle"),
        DamageDealt(1, 800, 7200, "effect", "1-m24"),
        EffectResolved(0, "1-m24", "seraph_herald", "sent_to_gy_by_battle", None, False),
        AttackEnded(0, "1-m24"),
    ]
    assert state.sides[1].graveyard == ("1-m24",)


def _seraph_attacks(lp: tuple[int, int]) -> list[Any]:
    state = given(phase="battle", lp=lp, monsters={0: {0: M("0-m14"), 1: M("1-m24", arrived=5)}, 1: {0: M("1-m01")}})
    return run(state, 0, DeclareAttack(1, 0))[0]


def test_s12_battle_damage_to_zero_ends_before_triggers() -> None:
    assert _seraph_attacks((400, 8000))[1:] == [
        DamageCalculated("1-m24", 1400, "1-m01", "fu_attack", 1800, ("1-m24",), DamageAmount(0, 400)),
        DamageDealt(0, 400, 0, "battle", "1-m24"),
        MatchEnded("win", 1, (Reason(0, "lp_zero"),)),
    ]


def test_s12_trigger_damage_to_zero_ends_without_resolution() -> None:
    assert _seraph_attacks((8000, 800))[-3:] == [
        EffectTriggered(0, "1-m24", "seraph_herald", "sent_to_gy_by_battle"),
        DamageDealt(1, 800, 0, "effect", "1-m24"),
        MatchEnded("win", 0, (Reason(1, "lp_zero"),)),
    ]


# --- scenario 13: attack window, Spiked Snare, timing --------------------------------------------------------


def _snare_window() -> Any:
    state = given(
        phase="battle",
        hands={1: ["1-m38", "1-m39"]},
        monsters={0: {0: M("0-m01")}, 1: {0: M("1-m05")}},
        spell_traps={1: {0: S("1-m37"), 1: S("1-m29")}},
    )
    events, state = run(state, 0, DeclareAttack(0, 0))
    assert events == [
        AttackDeclared(0, 0, "0-m01", 0, False),
        DecisionRequested(
            decision_id=1,
            seat=1,
            kind="response_window",
            details=Details(
                trigger="attack_declared",
                attacker="0-m01",
                attacker_slot=0,
                target_slot=0,
            ),
        ),
    ]
    return state


def test_s13_window_offers_only_fitting_traps() -> None:
    state = _snare_window()
    assert RULESET.legal_commands(state, 1) == [Activate("1-m37"), Pass(), RULESET.command_types["concede"]()]
    assert rejection(state, 1, Activate("1-m29")) == "TIMING_NOT_MET"
    assert rejection(state, 0, DeclareAttack(0, 0)) == "NOT_YOUR_DECISION"


def test_s13a_spiked_snare_destroys_the_attacker() -> None:
    events, _ = run(_snare_window(), 1, Activate("1-m37"))
    assert events == [
        DecisionClosed(1, 1, "answer"),
        CardActivated(1, 0, "1-m37", "spiked_snare", "set", (), NONE, "attack_declared"),
        CardDestroyed(0, "monster", 0, "0-m01", "cinder_wolf", 0, "effect"),
        CardSentToGraveyard(1, "spell_trap", 0, "1-m37", "spiked_snare", 1, "resolved"),
        AttackCancelled(0, "0-m01", "attacker_left_field"),
    ]


def _snare_passed() -> Any:
    events, state = run(_snare_window(), 1, Pass())
    assert events == [
        DecisionClosed(1, 1, "answer"),
        ResponsePassed(1, "attack_declared"),
        DamageCalculated("0-m01", 1800, "1-m05", "fu_attack", 1600, ("1-m05",), DamageAmount(1, 200)),
        DamageDealt(1, 200, 7800, "battle", "0-m01"),
        CardDestroyed(1, "monster", 0, "1-m05", "ironhide_boar", 1, "battle"),
        AttackEnded(0, "0-m01"),
    ]
    return state


def test_s13b_pass_goes_to_damage() -> None:
    _snare_passed()


def test_s13c_trap_timing_on_the_owners_turn() -> None:
    _, state = run(_snare_passed(), 0, Advance("end"))
    assert (state.turn, state.phase) == (6, "main1")
    assert rejection(state, 1, Activate("1-m37")) == "TIMING_NOT_MET"
    events, state = run(state, 1, SetSpellTrap("1-m38"))
    assert events == [SpellTrapSet(seat=1, slot=2, instance="1-m38", card_id="recall_gate")]
    assert rejection(state, 1, Activate("1-m38", (MonsterRef(0, 0),))) == "TRAP_SET_THIS_TURN"
    assert rejection(state, 1, Activate("1-m39", (MonsterRef(0, 0),))) == "TRAP_FROM_HAND"


# --- scenario 14: replay and attack cancellation ---------------------------------------------------------------


def _window(decision_id: int, target_slot: int) -> DecisionRequested:
    details = Details(trigger="attack_declared", attacker="0-m01", attacker_slot=0, target_slot=target_slot)
    return DecisionRequested(decision_id=decision_id, seat=1, kind="response_window", details=details)


def _replay() -> Any:
    state = given(
        phase="battle",
        monsters={0: {0: M("0-m01")}, 1: {0: M("1-m11"), 1: M("1-m05")}},
        spell_traps={1: {0: S("1-m38"), 1: S("1-m39")}},
    )
    events, state = run(state, 0, DeclareAttack(0, 1))
    assert events == [AttackDeclared(0, 0, "0-m01", 1, False), _window(1, target_slot=1)]
    events, state = run(state, 1, Activate("1-m38", (MonsterRef(1, 1),)))
    assert events == [
        DecisionClosed(1, 1, "answer"),
        CardActivated(1, 0, "1-m38", "recall_gate", "set", (MonsterRef(1, 1),), NONE, "attack_declared"),
        CardReturned(1, 1, "1-m05", "ironhide_boar", 1, "hand"),
        CardSentToGraveyard(1, "spell_trap", 0, "1-m38", "recall_gate", 1, "resolved"),
        DecisionRequested(
            decision_id=2,
            seat=0,
            kind="replay",
            details=Details(
                attacker="0-m01",
                attacker_slot=0,
                candidates=(0,),
                direct=False,
            ),
        ),
    ]
    return state


def test_s14_replay_then_cancelled_by_position_change() -> None:
    state = _replay()
    assert rejection(state, 0, ReplayAttack(None)) == "DIRECT_ATTACK_NOT_ALLOWED"
    events, state = run(state, 0, ReplayAttack(0))
    assert events == [DecisionClosed(2, 0, "answer"), AttackDeclared(0, 0, "0-m01", 0, True), _window(3, target_slot=0)]
    events, state = run(state, 1, Activate("1-m39", (MonsterRef(0, 0),)))
    assert events == [
        DecisionClosed(3, 1, "answer"),
        CardActivated(1, 1, "1-m39", "kneeling_decree", "set", (MonsterRef(0, 0),), NONE, "attack_declared"),
        PositionChanged(0, 0, "0-m01", "cinder_wolf", "fu_attack", "fu_defense", "effect"),
        CardSentToGraveyard(1, "spell_trap", 1, "1-m39", "kneeling_decree", 1, "resolved"),
        AttackCancelled(0, "0-m01", "attacker_not_in_attack_position"),
    ]
    events, state = run(state, 0, Advance("main2"))
    assert events == [PhaseChanged(5, "main2")]
    assert rejection(state, 0, ChangePosition(0)) == "ATTACKED_THIS_TURN"


def test_s14_replay_declined_still_counts_as_an_attack() -> None:
    events, state = run(_replay(), 0, CancelAttack())
    assert events == [DecisionClosed(2, 0, "answer"), AttackCancelled(0, "0-m01", "replay_declined")]
    assert rejection(state, 0, DeclareAttack(0, 0)) == "ALREADY_ATTACKED"


def test_s14_replay_timeout_cancels() -> None:
    events, _ = run(_replay(), SYSTEM, Timeout(0, "decision", 2))
    assert events == [
        TimeoutRecorded(0, "decision", 2, 1),
        DecisionClosed(2, 0, "timeout"),
        AttackCancelled(0, "0-m01", "replay_declined"),
    ]


# --- scenario 15: main-end window, Ambush Call, battle summon ban ------------------------------------------------


def test_s15a_ambush_call_in_the_main_end_window() -> None:
    rest = [f"1-m{i:02d}" for i in range(1, 41) if i not in (8, 9, 10, 12, 40)]
    deck = [*rest[:7], "1-m09", *rest[7:11], "1-m08", *rest[11:]]
    state = given(
        hands={1: ["1-m12"]},
        graveyards={1: ["1-m10"]},
        decks={1: deck},
        monsters={0: {0: M("0-m01")}},
        spell_traps={1: {0: S("1-m40")}},
    )
    events, state = run(state, 0, Advance("battle"))
    assert events == [
        DecisionRequested(
            decision_id=1,
            seat=1,
            kind="response_window",
            details=Details(
                trigger="main_end",
                advance_to="battle",
            ),
        )
    ]
    assert rejection(state, 1, Activate("1-m40", (), Choices(source="deck", card="storm_drake"))) == "CHOICE_INVALID"
    choices = Choices(source="deck", card="shell_sentinel")
    events, state = run(state, 1, Activate("1-m40", (), choices))
    assert events == [
        DecisionClosed(1, 1, "answer"),
        CardActivated(1, 0, "1-m40", "ambush_call", "set", (), choices, "main_end"),
        SpecialSummoned(1, 0, "1-m09", "shell_sentinel", "fu_defense", "deck"),
        CardSentToGraveyard(1, "spell_trap", 0, "1-m40", "ambush_call", 1, "resolved"),
    ]
    assert (state.phase, state.pending) == ("main1", None)
    assert {Advance("battle"), Advance("end")} <= set(RULESET.legal_commands(state, 0))
    events, _ = run(state, 0, Advance("battle"))
    assert events == [PhaseChanged(5, "battle")]


def test_s15b_no_summoning_trap_in_the_battle_phase() -> None:
    state = given(
        phase="battle",
        hands={1: ["1-m12"]},
        monsters={0: {0: M("0-m01")}, 1: {0: M("1-m05")}},
        spell_traps={1: {0: S("1-m40")}},
    )
    _, state = run(state, 0, DeclareAttack(0, 0))
    summon = Activate("1-m40", (), Choices(source="hand", card="1-m12"))
    assert rejection(state, 1, summon) == "NO_SUMMON_IN_BATTLE_PHASE"
    assert RULESET.legal_commands(state, 1) == [Pass(), RULESET.command_types["concede"]()]


def test_s15c_no_summons_or_sets_in_the_battle_phase() -> None:
    state = given(phase="battle", hands={0: ["0-m01", "0-m36"]}, monsters={0: {0: M("0-m18", "fd_defense")}})
    assert rejection(state, 0, NormalSummon("0-m01")) == "NO_SUMMON_IN_BATTLE_PHASE"
    assert rejection(state, 0, FlipSummon(0)) == "NO_SUMMON_IN_BATTLE_PHASE"
    assert rejection(state, 0, SetSpellTrap("0-m36")) == "WRONG_PHASE"


# --- scenario 16: Radiant Blade Ward -----------------------------------------------------------------------------


def _ward(hand_b: tuple[str, ...] = ()) -> Any:
    state = given(
        hands={0: ["0-m29"], 1: list(hand_b)},
        monsters={0: {0: M("0-m01")}, 1: {0: M("1-m19", "fd_defense"), 1: M("1-m01")}},
    )
    events, state = run(state, 0, Activate("0-m29"))
    assert events == [
        CardActivated(0, 0, "0-m29", "radiant_blade_ward", "hand", (), NONE, None),
        MonsterFlipped(1, 0, "1-m19", "maw_beetle", "fd_defense", "fu_defense", "effect"),
        EffectTriggered(1, "1-m19", "maw_beetle", "flip"),
        CountersChanged(0, 0, "0-m29", "turns_left", 3),
        DecisionRequested(
            decision_id=1,
            seat=1,
            kind="select_target",
            details=Details(
                source="1-m19",
                card_id="maw_beetle",
                trigger="flip",
                candidates=(MonsterRef(0, 0), MonsterRef(1, 0), MonsterRef(1, 1)),
            ),
        ),
    ]
    events, state = run(state, 1, ChooseTarget(MonsterRef(0, 0)))
    assert events == [
        DecisionClosed(1, 1, "answer"),
        CardDestroyed(0, "monster", 0, "0-m01", "cinder_wolf", 0, "effect"),
        EffectResolved(1, "1-m19", "maw_beetle", "flip", MonsterRef(0, 0), False),
    ]
    assert state.sides[0].spell_traps[0] == S("0-m29", face_up=True, set_turn=None, counters=(("turns_left", 3),))
    return run(state, 0, Advance("end"))[1]


def _end_phase(turn: int) -> list[Any]:
    """B's end phases count the ward down (6 → 2, 8 → 1, 10 → 0 and gone); A's change nothing."""
    if turn % 2:
        return [PhaseChanged(turn, "end"), TurnEnded(turn, 0)]
    left = {6: 2, 8: 1, 10: 0}[turn]
    expired = [CardSentToGraveyard(0, "spell_trap", 0, "0-m29", "radiant_blade_ward", 0, "expired")] if not left else []
    return [PhaseChanged(turn, "end"), CountersChanged(0, 0, "0-m29", "turns_left", left), *expired, TurnEnded(turn, 1)]


def test_s16_radiant_blade_ward_locks_attacks_for_three_turns() -> None:
    state = _ward()
    for turn in range(6, 12):
        assert (state.turn, state.phase) == (turn, "main1")
        if state.turn_seat == 1:
            _, state = run(state, 1, Advance("battle"))
            assert rejection(state, 1, DeclareAttack(1, None)) == "ATTACKS_FORBIDDEN"
        expected = _end_phase(turn)
        events, state = run(state, state.turn_seat, Advance("end"))
        assert events[: len(expected)] == expected
    _, state = run(state, 1, Advance("battle"))
    events, _ = run(state, 1, DeclareAttack(1, None))
    assert events[0] == AttackDeclared(1, 1, "1-m01", None, False)


def test_s16_gale_sweep_ends_the_lock() -> None:
    state = _ward(hand_b=("1-m29",))
    events, state = run(state, 1, Activate("1-m29", (SpellTrapRef(0, 0),)))
    assert events == [
        CardActivated(1, 0, "1-m29", "gale_sweep", "hand", (SpellTrapRef(0, 0),), NONE, None),
        CardDestroyed(0, "spell_trap", 0, "0-m29", "radiant_blade_ward", 0, "effect"),
        CardSentToGraveyard(1, "spell_trap", 0, "1-m29", "gale_sweep", 1, "resolved"),
    ]
    _, state = run(state, 1, Advance("battle"))
    assert run(state, 1, DeclareAttack(1, None))[0][0] == AttackDeclared(1, 1, "1-m01", None, False)


# --- scenario 17: equip bonus in battle -----------------------------------------------------------------------------


def test_s17_equip_bonus_and_tie() -> None:
    state = given(hands={0: ["0-m30"]}, monsters={0: {0: M("0-m07")}, 1: {0: M("1-m14")}})
    events, state = run(state, 0, Activate("0-m30", (MonsterRef(0, 0),)))
    assert events == [
        CardActivated(0, 0, "0-m30", "iron_gauntlet", "hand", (MonsterRef(0, 0),), NONE, None),
        EquipAttached(0, 0, "0-m30", EquipTarget(0, 0, "0-m07")),
    ]
    assert RULESET.view(state, 0).sides[0].monsters[0].atk == 2100
    _, state = run(state, 0, Advance("battle"))
    events, _ = run(state, 0, DeclareAttack(0, 0))
    assert events == [
        AttackDeclared(0, 0, "0-m07", 0, False),
        DamageCalculated("0-m07", 2100, "1-m14", "fu_attack", 2100, ("0-m07", "1-m14"), None),
        CardDestroyed(0, "monster", 0, "0-m07", "ironhide_boar", 0, "battle"),
        CardSentToGraveyard(0, "spell_trap", 0, "0-m30", "iron_gauntlet", 0, "equip_lost"),
        CardDestroyed(1, "monster", 0, "1-m14", "storm_drake", 1, "battle"),
        AttackEnded(0, "0-m07"),
    ]


# --- scenario 18: fusion ----------------------------------------------------------------------------------------------


def test_s18_fusion_rite() -> None:
    state = given(
        hands={0: ["0-m27", "0-m01", "0-m07"]},
        monsters={0: {0: M("0-m04")}},
        spell_traps={1: {0: S("1-m38")}},
    )

    def fusion(*materials: str) -> Choices:
        return Choices(fusion="0-x01", materials=materials, position="attack")

    assert rejection(state, 0, Activate("0-m27", (), fusion("0-m01"))) == "MATERIALS_INVALID"
    assert rejection(state, 0, Activate("0-m27", (), fusion("0-m04", "0-m07"))) == "MATERIALS_INVALID"
    events, state = run(state, 0, Activate("0-m27", (), fusion("0-m01", "0-m04")))
    assert events == [
        CardActivated(0, 0, "0-m27", "fusion_rite", "hand", (), fusion("0-m01", "0-m04"), None),
        CardSentToGraveyard(0, "hand", None, "0-m01", "cinder_wolf", 0, "fusion_material"),
        CardSentToGraveyard(0, "monster", 0, "0-m04", "dune_scorpion", 0, "fusion_material"),
        SpecialSummoned(0, 0, "0-x01", "scorchfang_chimera", "fu_attack", "extra"),
        CardSentToGraveyard(0, "spell_trap", 0, "0-m27", "fusion_rite", 0, "resolved"),
    ]
    events, state = run(state, 0, NormalSummon("0-m07"))
    assert events == [NormalSummoned(0, 1, "0-m07", "ironhide_boar")]
    _, state = run(state, 0, Advance("end"))
    events, state = run(state, 1, Activate("1-m38", (MonsterRef(0, 0),)))
    assert CardReturned(0, 0, "0-x01", "scorchfang_chimera", 0, "extra") in events
    assert state.sides[0].extra == ("0-x02", "0-x01")
