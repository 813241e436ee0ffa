"""docs/rulesets/wulin.md §7-§9: the common checks, gates, the clock rule and the contract functions."""

from __future__ import annotations

import pytest

from engine.commands import decide_json
from engine.contract import ADMIN, SYSTEM
from engine.errors import Rejected
from engine.legal import legal
from engine.rng import ScriptedRng
from engine.rulesets.wulin import RULESET
from engine.rulesets.wulin.model.commands import (
    AcceptTruce,
    Attack,
    Block,
    Defend,
    EndPhase,
    FlipCard,
    NoBlock,
    NoDefence,
    ProposeTruce,
    RefereeRuling,
    Timeout,
    UseCard,
)
from engine.rulesets.wulin.model.events import ClockRestarted
from engine.rulesets.wulin.model.state import PendingBlock, PendingDefend, PendingLoss
from engine.rulesets.wulin.rules import FAMILIES, deadline, legal_commands, outcome, precheck, to_act
from engine.rulesets.wulin.rules.situations import admits, by_situation, situation
from tests.engine.contract_helpers import playout

from .helpers import fc, given, rejection, run, side


def test_actor_roles_come_first() -> None:
    state = given()
    assert rejection(state, SYSTEM, EndPhase()) == "NOT_A_PLAYER"
    assert rejection(state, ADMIN, ProposeTruce()) == "NOT_A_PLAYER"
    assert rejection(state, ADMIN, Timeout(1)) == "NOT_SYSTEM"
    assert rejection(state, SYSTEM, RefereeRuling(0)) == "NOT_REFEREE"
    _, over = run(given(referee_enabled=True), ADMIN, RefereeRuling(0))
    assert rejection(over, SYSTEM, EndPhase()) == "NOT_A_PLAYER"
    assert rejection(over, 0, EndPhase()) == "MATCH_OVER"
    assert rejection(over, SYSTEM, Timeout(1)) == "MATCH_OVER"


def test_gates() -> None:
    state = given(side(qi=10, battle=[fc("a1", "WL-B01")]))
    assert rejection(state, 1, EndPhase()) == "NOT_YOUR_PHASE"
    assert rejection(state, 0, NoDefence()) == "NO_PENDING_DECISION"
    _, state = run(state, 0, Attack(("a1",), "single"))
    assert rejection(state, 0, EndPhase()) == "DECISION_PENDING"
    assert rejection(state, 0, NoDefence()) == "NO_PENDING_DECISION"
    assert rejection(state, 1, NoBlock()) == "WRONG_DECISION"
    assert rejection(state, 1, Block("x")) == "WRONG_DECISION"


@pytest.mark.parametrize(
    ("cmd", "code"),
    [
        (Attack(("a1",), "triple"), "BAD_MODE"),
        (Attack(("a1", "a1"), "joint"), "DUPLICATE_CARD"),
        (Attack(("d1",), "single"), "CARD_NOT_ON_FIELD"),
        (Attack(("a2",), "single"), "NOT_BATTLE_CARD"),
        (Attack(("a1",), "single", "a1"), "PRIMARY_INVALID"),
        (Attack(("a1", "a3"), "combination", "a9"), "PRIMARY_INVALID"),
        (Attack(("a1", "a3", "a4", "a5", "a6", "a7"), "joint"), "CARD_NOT_ON_FIELD"),
        (Attack((), "single"), "BAD_GROUP_SIZE"),
    ],
)
def test_attack_preconditions(cmd: Attack, code: str) -> None:
    state = given(
        side(qi=50, battle=[fc("a1", "WL-B01"), fc("a2", "WL-F02"), fc("a3", "WL-B03")]),
        side(battle=[fc("d1", "WL-B01")]),
    )
    assert rejection(state, 0, cmd) == code


def test_focus_not_allowed_against_a_single_attacker() -> None:
    state = given(side(qi=10, battle=[fc("a1", "WL-B01")]), side(qi=10, battle=[fc("d1", "WL-B01")]))
    _, state = run(state, 0, Attack(("a1",), "single"))
    assert rejection(state, 1, Defend(("d1",), "single", focus="a1")) == "FOCUS_NOT_ALLOWED"


def test_defence_costs_qi() -> None:
    state = given(side(qi=10, battle=[fc("a1", "WL-B01")]), side(qi=5, battle=[fc("d1", "WL-B01")]))
    _, state = run(state, 0, Attack(("a1",), "single"))
    assert rejection(state, 1, Defend(("d1",), "single")) == "INSUFFICIENT_QI"
    assert Defend(("d1",), "single") not in legal_commands(state, 1)


def test_legal_defences_name_each_focus_and_each_primary() -> None:
    state = given(
        side(qi=60, battle=[fc("a1", "WL-B01"), fc("a2", "WL-B03")]),
        side(qi=60, battle=[fc("d1", "WL-B05"), fc("d2", "WL-B06")]),
    )
    _, state = run(state, 0, Attack(("a1", "a2"), "joint"))
    defences = [c for c in legal_commands(state, 1) if isinstance(c, Defend)]
    assert defences == [
        Defend(("d1",), "single", None, "a1"),
        Defend(("d1",), "single", None, "a2"),
        Defend(("d1", "d2"), "combination", "d1", "a1"),
        Defend(("d1", "d2"), "combination", "d1", "a2"),
        Defend(("d1", "d2"), "combination", "d2", "a1"),
        Defend(("d1", "d2"), "combination", "d2", "a2"),
        Defend(("d2",), "single", None, "a1"),
        Defend(("d2",), "single", None, "a2"),
    ]


def test_blocking_a_weapon_costs_the_blockers_action() -> None:
    state = given(side(hand=[("a1", "WL-T01")]), side(qi=40, battle=[fc("d1", "WL-B06", acted=7)]))
    _, state = run(state, 0, UseCard("a1"))
    assert isinstance(state.pending, PendingBlock)
    assert rejection(state, 1, Block("d1")) == "CARD_ALREADY_ACTED"
    assert legal_commands(state, 1) == [NoBlock(), ProposeTruce()]


def test_the_clock_restarts_only_for_its_holder() -> None:
    state = given(s1=side(battle=[fc("d1", "WL-B01", False)]))
    events, state = run(state, 0, ProposeTruce())
    assert not any(isinstance(e, ClockRestarted) for e in events)
    events, state = run(state, 1, AcceptTruce())
    result = outcome(state)
    assert result is not None and result.draw


def test_to_act_and_deadline_follow_the_pending_seat() -> None:
    state = given(side(qi=10, battle=[fc("a1", "WL-B01")]), clock_seq=4, action_timer_s=30)
    assert to_act(state) == (0,)
    deadline_ = deadline(state)
    assert deadline_ is not None and (deadline_.seat, deadline_.seconds, deadline_.timeout) == (0, 30.0, Timeout(4))
    _, state = run(state, 0, Attack(("a1",), "single"))
    assert to_act(state) == (1,)
    deadline_ = deadline(state)
    assert deadline_ is not None and (deadline_.seat, deadline_.timeout) == (1, Timeout(5))


def test_flip_by_the_other_seat_during_a_phase_is_no_action() -> None:
    state = given(s1=side(battle=[fc("d1", "WL-B01", False)]))
    _, state = run(state, 1, FlipCard("d1"))
    assert (state.sides[0].actions, state.sides[1].actions) == (0, 0)


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b'{"type": "attack", "cards": "a1", "mode": "single"}', "BAD_FIELDS"),
        (b'{"type": "use_card"}', "BAD_FIELDS"),
        (b'{"type": "end_phase", "extra": 1}', "BAD_FIELDS"),
        (b'{"type": "referee_ruling", "winner": true}', "NOT_REFEREE"),
        (b'{"type": "shuffle"}', "UNKNOWN_COMMAND"),
    ],
)
def test_malformed_commands(raw: bytes, code: str) -> None:
    with pytest.raises(Rejected) as refused:
        decide_json(RULESET, given(), 0, raw, ScriptedRng())
    assert refused.value.code == code


def test_end_phase_without_an_action_is_listed_exactly_when_no_action_is() -> None:
    actions = {"use_card", "play_card", "discard_card", "flip_card", "attack"}
    checked = 0
    for seed in range(6):
        for match, _ in playout(RULESET, 2, seed, 150):
            state = match.state
            seat = state.active_seat
            if state.status != "in_progress" or state.pending is not None or state.sides[seat].actions:
                continue
            tags = {type(c).__struct_config__.tag for c in legal_commands(state, seat)}
            assert ("end_phase" in tags) == (not tags & actions)
            checked += 1
    empty = given(side(hand=[], library=[]))
    assert EndPhase() in legal_commands(empty, 0)
    assert checked > 20


@pytest.mark.parametrize("options", [{}, {"formation_flip": True, "secret_art_counters": True, "starting_qi": 100}])
def test_invariants_hold_through_random_matches(options: dict[str, object]) -> None:
    for seed in range(8):
        for match, _ in playout(RULESET, 2, seed, 400, options=options):
            state = match.state
            for side_ in state.sides:
                assert 0 <= side_.hp <= side_.max_hp and side_.qi >= 0
                assert len(side_.hand) <= 5 and len(side_.battle_zone) <= 5 and len(side_.skill_zone) <= 1
                assert side_.truce_proposals_used <= 3 and side_.idle_streak < 3
                cards = [
                    *side_.library,
                    *side_.hand,
                    *(c.iid for c in side_.graveyard),
                    *(c.iid for c in (*side_.battle_zone, *side_.skill_zone)),
                ]
                assert len(cards) == len(set(cards)) == 32
            if state.status == "in_progress":
                assert state.clock is not None and state.clock.seat == to_act(state)[0]
                assert (state.open_attack is not None) == isinstance(state.pending, PendingDefend | PendingLoss)


@pytest.mark.parametrize("options", [{}, {"allow_concede": True, "formation_flip": True}])
def test_pruned_families_list_what_all_families_list(options: dict[str, object]) -> None:
    for seed in range(10):
        for match, _ in playout(RULESET, 2, seed, 300, options=options):
            for seat in (0, 1):
                assert legal_commands(match.state, seat) == legal(FAMILIES, precheck, match.state, seat)


def test_the_situation_table_derived_from_the_gates_covers_every_situation() -> None:
    table = by_situation(FAMILIES)
    assert len(table) == 5 * 2**6  # no decision, the other seat's, or one of three kinds; six flags
    assert all(f.tag == "propose_truce" or f.gate is not None for f in FAMILIES)  # the table prunes by gates


@pytest.mark.parametrize("options", [{}, {"allow_concede": True, "formation_flip": True}])
def test_a_situation_admits_exactly_the_families_whose_gates_pass_in_the_real_state(options: dict[str, object]) -> None:
    # The probe built for a situation stands for every running state in it: the gates read nothing else (once
    # the match is over precheck refuses every family, whatever the situation).
    table = by_situation(FAMILIES)
    for seed in range(10):
        for match, _ in playout(RULESET, 2, seed, 300, options=options):
            if match.state.status != "in_progress":
                continue
            for seat in (0, 1):
                admitted = tuple([f for f in FAMILIES if admits(f, match.state, seat)])
                assert table[situation(match.state, seat)] == admitted
