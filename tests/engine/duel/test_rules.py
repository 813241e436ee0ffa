"""General checks, legal-command order and exactness, clocks and outcomes (duel.md §7.1, §7.4, §9, §10)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given as for_all
from hypothesis import settings
from hypothesis import strategies as st

from engine.bots import RandomBot
from engine.commands import decide_json
from engine.contract import ADMIN, SYSTEM, Deadline, Outcome
from engine.errors import Rejected
from engine.match import apply, create, fold
from engine.rng import Rng, ScriptedRng
from engine.rulesets.duel import RULESET
from engine.rulesets.duel.model.commands import (
    Activate, Advance, ChangePosition, ChooseTarget, Choices, Concede, DeclareAttack, Discard, FlipSummon,
    NormalSummon, Pass, ReplayAttack, Timeout,
)
from engine.rulesets.duel.model.events import TimeoutRecorded
from engine.rulesets.duel.model.state import MonsterRef, Options
from engine.rulesets.duel.rules.legal import canonical_json
from engine.selfplay import next_move
from tests.engine.duel.helpers import M, S, given, rejection, run

TABLE = [
    "normal_summon", "set_monster", "flip_summon", "change_position", "set_spell_trap", "activate", "advance",
    "declare_attack", "pass", "choose_target", "replay_attack", "cancel_attack", "discard",
]


def test_general_checks_in_spec_order() -> None:
    state = given()
    assert rejection(state, 0, ChangePosition(7)) == "BAD_FIELDS"
    assert rejection(state, 0, FlipSummon(0, "sideways")) == "BAD_FIELDS"  # type: ignore[arg-type]
    assert rejection(state, ADMIN, Timeout(0, "turn", 5)) == "NOT_SYSTEM_COMMAND"
    assert rejection(state, ADMIN, Advance("end")) == "NOT_A_PLAYER"
    assert rejection(state, SYSTEM, Concede()) == "NOT_A_PLAYER"
    assert rejection(state, 0, Pass()) == "NO_PENDING_DECISION"
    assert rejection(state, 1, Advance("end")) == "NOT_YOUR_TURN"
    assert rejection(state, 1, Pass()) == "NO_PENDING_DECISION"
    _, over = run(state, 0, Concede())
    assert rejection(over, 0, ChangePosition(7)) == "MATCH_OVER"


def test_json_commands_check_types_after_the_match_is_over_check() -> None:
    state = given()
    for raw in (b'{"type":"activate","card":"0-m30","choices":{"colour":"red"}}', b'{"type":"declare_attack"}'):
        with pytest.raises(Rejected) as refused:
            decide_json(RULESET, state, 0, raw, ScriptedRng())
        assert refused.value.code == "BAD_FIELDS"


def test_concede_is_accepted_while_the_other_seat_decides() -> None:
    state = given(phase="battle", monsters={0: {0: M("0-m01")}, 1: {0: M("1-m05")}}, spell_traps={1: {0: S("1-m37")}})
    _, state = run(state, 0, DeclareAttack(0, 0))
    assert RULESET.legal_commands(state, 0) == [Concede()]
    assert RULESET.outcome(run(state, 0, Concede())[1]) == Outcome((1,), (0,), False, "concede")


def test_turn_timeout_is_stale_while_a_decision_is_pending() -> None:
    state = given(phase="battle", monsters={0: {0: M("0-m01")}, 1: {0: M("1-m05")}}, spell_traps={1: {0: S("1-m37")}})
    _, state = run(state, 0, DeclareAttack(0, 0))
    assert rejection(state, SYSTEM, Timeout(0, "turn", 5)) == "STALE_TIMEOUT"
    assert rejection(state, SYSTEM, Timeout(0, "decision", 1)) == "STALE_TIMEOUT"


def test_deadlines_follow_the_acting_seat() -> None:
    state = given()
    assert RULESET.deadline(state) == Deadline(0, 180.0, Timeout(0, "turn", 5), pauses=True)
    assert RULESET.to_act(state) == (0,)
    state = given(phase="battle", monsters={0: {0: M("0-m01")}, 1: {0: M("1-m05")}}, spell_traps={1: {0: S("1-m37")}})
    _, state = run(state, 0, DeclareAttack(0, 0))
    assert RULESET.deadline(state) == Deadline(1, 30.0, Timeout(1, "decision", 1))
    assert RULESET.to_act(state) == (1,)


def test_timeouts_never_forfeit_when_the_limit_is_zero() -> None:
    state = given(timeouts=(99, 0), options=Options(max_timeouts=0))
    events, state = run(state, SYSTEM, Timeout(0, "turn", 5))
    assert events[0] == TimeoutRecorded(0, "turn", 5, 100) and not state.ended


def test_legal_answers_to_a_target_decision() -> None:
    state = given(turn=7, monsters={0: {0: M("0-m18", "fd_defense", arrived=5)}, 1: {1: M("1-m01")}})
    _, state = run(state, 0, FlipSummon(0))
    assert RULESET.legal_commands(state, 0) == [
        ChooseTarget(MonsterRef(0, 0)), ChooseTarget(MonsterRef(1, 1)), Concede(),
    ]
    assert RULESET.legal_commands(state, 1) == [Concede()]


def test_legal_discards_are_sorted_and_replays_list_slots_then_cancel() -> None:
    state = given(phase="main2", hands={0: ["0-m17", "0-m01", "0-m09", "0-m04", "0-m10", "0-m12", "0-m14"]})
    _, state = run(state, 0, Advance("end"))
    assert [c.card for c in RULESET.legal_commands(state, 0)[:-1]] == sorted(state.sides[0].hand)


def test_fusion_candidates_use_only_matching_materials() -> None:
    state = given(hands={0: ["0-m27", "0-m01", "0-m02", "0-m07"]}, monsters={0: {0: M("0-m04")}})
    fusions = [c for c in RULESET.legal_commands(state, 0) if isinstance(c, Activate)]
    materials = {(c.choices.fusion, c.choices.materials, c.choices.position) for c in fusions}
    assert materials == {
        (fusion, mats, pos)
        for fusion in ("0-x01", "0-x02") for mats in (("0-m01", "0-m04"), ("0-m02", "0-m04"))
        for pos in ("attack", "defense")
    }


def test_ambush_call_lists_distinct_deck_card_ids() -> None:
    state = given(turn=6, spell_traps={1: {0: S("1-m40")}})
    choices = [c.choices for c in RULESET.legal_commands(state, 1) if isinstance(c, Activate)]
    deck_ids = [c.card for c in choices if c.source == "deck"]
    assert deck_ids == ["cinder_wolf", "dune_scorpion", "glade_sprite", "ironhide_boar", "shell_sentinel"]
    assert Choices(source="hand", card="1-m01") not in choices


def _tag(cmd: Any) -> str:
    return str(cmd.__struct_config__.tag)


@settings(max_examples=15, deadline=None)
@for_all(seed=st.integers(min_value=0, max_value=2**32))
def test_legal_commands_are_canonical_and_accepted(seed: int) -> None:
    """§7.4 order (table order, then canonical JSON, concede last) at every step of a random game."""
    config: dict[str, Any] = {"seats": [{}, {}], "options": {}}
    match = fold(RULESET, create(RULESET, config, ["a", "b"], seed.to_bytes(32, "big")))
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    for _ in range(250):
        if RULESET.outcome(match.state) is not None:
            break
        for seat in (0, 1):
            legal = RULESET.legal_commands(match.state, seat)
            assert legal[-1] == Concede()
            body = legal[:-1]
            assert body == sorted(body, key=lambda c: (TABLE.index(_tag(c)), canonical_json(c)))
            assert len({msgspec.json.encode(c) for c in body}) == len(body)
            for cmd in body:
                RULESET.decide(match.state, seat, cmd, ScriptedRng())
        actor, cmd = next_move(RULESET, match.state, bots)
        match = apply(RULESET, match, RULESET.decide(match.state, actor, cmd, Rng(b"", 0)))


@pytest.mark.parametrize(
    "cmd",
    [
        NormalSummon("0-m99"), NormalSummon("0-m01", (4, 4)), Activate("1-m01"), Activate("zz", (MonsterRef(1, 4),)),
        Discard("0-m01"), ReplayAttack(3), DeclareAttack(4, None), Activate("0-m30", choices=Choices(materials=())),
    ],
)
def test_odd_commands_are_refused_with_a_code(cmd: Any) -> None:
    assert rejection(given(hands={0: ["0-m01", "0-m30"]}), 0, cmd)
