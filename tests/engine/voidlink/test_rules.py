"""voidlink command rules beyond §14 (docs/rulesets/voidlink.md §7, §8): generic checks, chains, negation,
delayed effects and legal_commands in both directions."""

from __future__ import annotations

from msgspec.structs import replace

from engine.contract import ADMIN, SYSTEM
from engine.rng import ScriptedRng
from engine.rulesets.voidlink import RULESET
from engine.rulesets.voidlink.model.commands import (
    ActivateMagic,
    ActivateMonsterEffect,
    ActivateTactics,
    Concede,
    DeclareAttack,
    Discard,
    EndTurn,
    GoToBattle,
    NormalSummon,
    Pass,
    Timeout,
)
from engine.rulesets.voidlink.model.events import (
    CardDestroyed,
    ChainLinkAdded,
    LinkNegated,
    LinkResolved,
    SentToGraveyard,
)
from engine.rulesets.voidlink.rules import deadline, to_act

from .helpers import SEQ, Mon, given, rejection, run, seat


def test_generic_check_order() -> None:
    state = given(seat(hand=[("p0.m01", "VL-M01")]))
    assert rejection(state, 1, NormalSummon("p0.m01", "void_attack")) == "NOT_AWAITED_SEAT"
    assert rejection(state, SYSTEM, EndTurn()) == "NOT_AWAITED_SEAT"
    assert rejection(state, ADMIN, Timeout(0, SEQ)) == "SYSTEM_ONLY"
    assert rejection(state, 0, Pass()) == "WRONG_DECISION_KIND"
    assert rejection(state, 0, Discard(())) == "WRONG_DECISION_KIND"
    assert rejection(state, 0, DeclareAttack("p0.m01")) == "WRONG_PHASE"
    battle = replace(state, phase="battle")
    assert rejection(battle, 0, NormalSummon("p0.m01", "void_attack")) == "WRONG_PHASE"
    assert rejection(battle, 0, GoToBattle()) == "WRONG_PHASE"
    assert rejection(state, SYSTEM, Concede()) == "NOT_AWAITED_SEAT"


def test_a_typed_command_with_a_non_form_is_bad_fields() -> None:
    state = given(seat(hand=[("p0.m01", "VL-M01")]))
    assert rejection(state, 0, NormalSummon("p0.m01", "sideways")) == "BAD_FIELDS"  # type: ignore[arg-type]
    assert rejection(state, 0, ActivateTactics("p0.c01", (), 0)) == "BAD_FIELDS"  # type: ignore[arg-type]


def test_null_verdict_destroys_set_magic_on_the_chain() -> None:
    state = given(
        seat(magic=[(0, ("p0.m37", "VL-G01"), 1)], tactics=[("p0.c05", "VL-T02")]),
        seat(tactics=[("p1.c02", "VL-T02")]),
    )
    events, state = run(state, 0, ActivateMagic("p0.m37"))
    assert events[-1].window == "chain"  # type: ignore[union-attr]
    events, state = run(state, 1, ActivateTactics("p1.c02"))
    assert events[0] == ChainLinkAdded(2, 1, "p1.c02", "VL-T02", "tactics", None, None, None, (), None, None)
    assert events[-1].seat == 0  # P0 may answer with its own Null Verdict  # type: ignore[union-attr]
    events, state = run(state, 0, Pass())
    assert events[1:4] == [
        LinkNegated(1, 2),
        CardDestroyed("p0.m37", "VL-G01", 0, "magic_zone", "effect"),
        SentToGraveyard(1, events[3].cards, "resolved"),  # type: ignore[union-attr]
    ]
    assert LinkResolved(1, True) in events
    assert not any(isinstance(e, SentToGraveyard) and e.seat == 0 for e in events), "destroyed, not resolved"
    assert state.players[0].graveyard == ("p0.m37",)
    assert len(state.players[0].hand) == 0, "a negated Insight draws nothing"


def test_monster_effect_of_the_reality_face_boosts_itself() -> None:
    state = given(seat(monsters=[Mon("p0.m13", "VL-M04", "reality_attack")]), turn=5)
    events, _ = run(state, 0, ActivateMonsterEffect("p0.m13", 0))
    assert events[1].atk_now == 1800  # type: ignore[union-attr]


def test_legal_commands_are_exactly_what_decide_accepts() -> None:
    state = given(
        seat(
            hand=[("p0.m01", "VL-M01"), ("p0.m32", "VL-G03"), ("p0.m35", "VL-G04")],
            graveyard=[("p0.m13", "VL-M04")],
            monsters=[Mon("p0.m22", "VL-M08", "void_attack")],
            tactics=[("p0.c04", "VL-T04")],
            commander=("p0.c01", "VL-C01"),
            extra=[("p0.x01", "VL-Y01"), ("p0.x03", "VL-X01")],
        ),
        seat(monsters=[Mon("p1.m05", "VL-M02", "reality_attack")]),
    )
    legal = RULESET.legal_commands(state, 0)
    kinds = {type(c).__name__ for c in legal}
    assert {
        "NormalSummon",
        "ActivateMagic",
        "ActivateTactics",
        "ActivateCommander",
        "ChangeForm",
        "EndTurn",
        "GoToBattle",
        "Concede",
        "SetMagic",
        "ActivateCombination",
    } <= kinds
    assert ActivateMagic("p0.m32", ("p0.m13",), "reality_defence") in legal
    assert ActivateMagic("p0.m32", ("p0.m13",), None) not in legal
    for command in legal:
        assert RULESET.decide(state, 0, command, ScriptedRng())
    assert RULESET.legal_commands(state, 1) == [Concede()]


def test_deadline_names_the_awaited_seat_and_its_timer() -> None:
    state = given(seat(), seat(tactics=[("p1.c01", "VL-T01")]), phase="battle")
    assert to_act(state) == (0,)
    clock = deadline(state)
    assert clock is not None and (clock.seat, clock.seconds, clock.timeout) == (0, 120.0, Timeout(0, SEQ))
    state = given(
        seat(monsters=[Mon("p0.m13", "VL-M04", "void_attack")]), seat(tactics=[("p1.c01", "VL-T01")]), phase="battle"
    )
    _, state = run(state, 0, DeclareAttack("p0.m13"))
    clock = deadline(state)
    assert clock is not None and (clock.seat, clock.seconds) == (1, 20.0)
