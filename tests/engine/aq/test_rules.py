"""aq rule details beyond §14: check order, actors, autopilot paths, skill edge cases (spec §6-§10)."""

from __future__ import annotations

import pytest

from engine.commands import decide_json
from engine.contract import ADMIN, SYSTEM, Deadline
from engine.errors import Rejected
from engine.rng import ScriptedRng
from engine.rulesets.aq import RULESET
from engine.rulesets.aq.model import (
    CardGiven,
    CardPlayed,
    Concede,
    CoverReserve,
    Draw,
    EndPhase,
    FieldCardDrawn,
    LearnSkill,
    MatchEnded,
    NextPhaseSkipped,
    PhaseAutoResolved,
    PhaseEnded,
    PhaseStarted,
    PlayCard,
    PlayerConceded,
    RoundEnded,
    SkillUsed,
    State,
    Timeout,
    UseSkill,
)
from tests.engine.aq.helpers import given, rejection, run, types


def json_code(state: State, actor: object, raw: bytes) -> str:
    with pytest.raises(Rejected) as caught:
        decide_json(RULESET, state, actor, raw, ScriptedRng())  # type: ignore[arg-type]
    return caught.value.code


def test_common_checks_precede_field_checks() -> None:
    state = given(current=1, conceded=[2])
    assert json_code(state, 0, b'{"type": "play_card"}') == "NOT_YOUR_PHASE"
    assert json_code(state, 2, b'{"type": "play_card"}') == "SEAT_CONCEDED"
    assert json_code(state, 1, b'{"type": "cover_reserve"}') == "WRONG_STEP"
    assert json_code(state, 1, b'{"type": "play_card"}') == "BAD_FIELDS"
    assert json_code(state, 1, b'{"type": "learn_skill", "cards": ["Mon.01a"]}') == "BAD_FIELDS"
    assert json_code(state, 1, b'{"type": "shuffle"}') == "UNKNOWN_COMMAND"
    assert json_code(state, 1, b'{"type": "timeout", "phase_no": "x"}') == "NOT_SYSTEM"
    assert json_code(state, SYSTEM, b'{"type": "timeout", "phase_no": "x"}') == "BAD_FIELDS"


def test_system_and_admin_hold_no_seat() -> None:
    state = given()
    for actor in (SYSTEM, ADMIN):
        assert rejection(state, actor, PlayCard("Mon.02a")) == "NOT_YOUR_PHASE"
        assert rejection(state, actor, Concede()) == "NOT_YOUR_PHASE"
    assert rejection(state, ADMIN, Timeout(1)) == "NOT_SYSTEM"


def test_after_the_end_everything_is_match_over() -> None:
    _, state = run(given(2), 1, Concede())
    assert rejection(state, 0, PlayCard("Mon.02a")) == "MATCH_OVER"
    assert rejection(state, SYSTEM, Timeout(1)) == "MATCH_OVER"
    assert rejection(state, 0, Timeout(1)) == "NOT_SYSTEM"
    assert [RULESET.legal_commands(state, s) for s in (0, 1)] == [[], []]
    assert RULESET.to_act(state) == () and RULESET.deadline(state) is None


def test_deadline_names_the_current_phase() -> None:
    state = given(current=2, phase_no=9, options={"phase_seconds": 30})
    assert RULESET.deadline(state) == Deadline(seat=2, seconds=30, timeout=Timeout(9))
    assert RULESET.to_act(state) == (2,)


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (LearnSkill(("Mon.07a", "Mon.07a")), "BAD_FIELDS"),
        (LearnSkill(("Mon.07a", "Mon.12a")), "CARD_NOT_IN_HAND"),
        (UseSkill("SK03-2", "Mon.07a", 1), "SKILL_NOT_HELD"),
        (UseSkill("SK07-1"), "BAD_FIELDS"),
        (UseSkill("SK07-1", "Mon.07a", 1), "BAD_FIELDS"),
        (UseSkill("SK07-1", None, 0), "BAD_TARGET"),
        (UseSkill("SK07-1", None, 4), "BAD_TARGET"),
        (UseSkill("SK01-1", "Mon.07a"), "BAD_FIELDS"),
        (UseSkill("SK03-1", "Mon.99a", 1), "CARD_NOT_IN_HAND"),
        (PlayCard("Mon.99z"), "CARD_NOT_IN_HAND"),
    ],
)
def test_command_checks(command: object, code: str) -> None:
    state = given(hands={0: ["Mon.07a", "Mon.26a", "Mon.41a"]}, skills={0: ["SK01-1", "SK03-1", "SK07-1"]})
    assert rejection(state, 0, command) == code  # type: ignore[arg-type]


def test_learning_needs_a_skill_deck() -> None:
    state = given(hands={0: ["Mon.07a", "Mon.26a"]}, skill_deck=[])
    assert rejection(state, 0, LearnSkill(("Mon.07a", "Mon.26a"))) == "SKILL_DECK_EMPTY"
    assert not [c for c in RULESET.legal_commands(state, 0) if isinstance(c, LearnSkill)]


def test_cover_needs_a_hand_card() -> None:
    state = given(step="reserve", reserve_remaining=2, hands={0: ["Mon.07a", "Mon.26a"]})
    assert rejection(state, 0, CoverReserve("Mon.40a")) == "CARD_NOT_IN_HAND"
    _, state = run(state, 0, CoverReserve("Mon.07a"))
    assert (state.step, state.reserve_remaining, state.seats[0].reserve) == ("reserve", 1, ("Mon.07a",))


def test_conceding_in_ones_own_reserve_step() -> None:
    state = given(current=1, step="reserve", reserve_remaining=2, hands={1: ["Mon.07a"]}, phase_no=3)
    events, _ = run(state, 1, Concede())
    assert events == [PlayerConceded(1), PhaseAutoResolved(1, 3, "conceded"), PhaseEnded(1), PhaseStarted(1, 2, 4, 60)]


def test_timeout_in_drawn_choice_plays_the_first_option() -> None:
    state = given(field=["Mon.05a", "Mon.29a", "Mon.16a"], hands={0: ["Mon.02a"]})
    _, state = run(state, 0, Draw())
    events, _ = run(state, SYSTEM, Timeout(1))
    assert events[:3] == [
        PhaseAutoResolved(0, 1, "timeout"),
        CardPlayed(0, "Mon.05a", "Mon.16a", 1, False, 0, "drawn"),
        PhaseEnded(0),
    ]


def test_timeout_without_a_playable_card_draws_and_chooses() -> None:
    state = given(field=["Mon.05a", "Mon.29a", "Mon.16a"], hands={0: ["Mon.02a"]})
    events, _ = run(state, SYSTEM, Timeout(1))
    assert types(events)[:6] == [
        "PhaseAutoResolved",
        "HandRevealed",
        "FieldCardDrawn",
        "FieldCardDrawn",
        "CardPlayed",
        "PhaseEnded",
    ]
    assert events[4] == CardPlayed(0, "Mon.05a", "Mon.16a", 1, False, 0, "drawn")


def test_penalty_draw_from_a_single_field_card() -> None:
    # D13: only that card is drawn, the round ends at once.
    events, _ = run(given(field=["Mon.24a"], hands={0: ["Mon.02a"]}), 0, Draw())
    assert types(events)[:4] == ["HandRevealed", "FieldCardDrawn", "RoundEnded", "RoundScored"]
    assert events[2] == RoundEnded(1, "field_exhausted", 0)


def test_gifting_the_last_card_ends_the_phase() -> None:
    state = given(hands={0: ["Mon.21a"]}, skills={0: ["SK03-1"]})
    events, _ = run(state, 0, UseSkill("SK03-1", "Mon.21a", 3))
    assert events == [
        SkillUsed(0, "SK03-1", "SK03", "Mon.21a", 3),
        CardGiven(0, 3, "Mon.21a"),
        PhaseEnded(0),
        PhaseStarted(1, 1, 2, 60),
    ]


def test_burden_refills_an_empty_hand() -> None:
    # §8.5: seat 1 emptied its hand earlier; Burden gives it a card before its phase starts.
    state = given(field=["Mon.30a", "Mon.40a"], hands={0: ["Mon.02a", "Mon.41a"], 1: []}, skills={0: ["SK07-1"]})
    events, state = run(state, 0, UseSkill("SK07-1", None, 1))
    assert events == [SkillUsed(0, "SK07-1", "SK07", None, 1), FieldCardDrawn(1, "Mon.30a")]
    events, state = run(state, 0, PlayCard("Mon.41a"))
    assert events[-1] == PhaseStarted(1, 1, 2, 60) and (state.current, state.seats[1].hand) == (1, ("Mon.30a",))


def test_skip_follows_the_direction() -> None:
    state = given(current=1, direction=-1, hands={1: ["Mon.02a", "Mon.41a"]}, skills={1: ["SK02-1"]})
    events, _ = run(state, 1, UseSkill("SK02-1"))
    assert events[1] == NextPhaseSkipped(0)


def test_conceded_seat_opening_a_round_is_resolved_at_once() -> None:
    # Seat 3 ends the round at the phase limit; seat 0, conceded, opens round 2 on autopilot.
    state = given(
        current=3,
        step="reserve",
        reserve_remaining=1,
        phases_in_round=20,
        conceded=[0],
        options={"max_phases_per_round": 20},
    )
    events, state = run(state, 3, EndPhase())
    opened = types(events).index("RoundStarted")
    assert types(events)[opened:].count("PhaseAutoResolved") == 1
    assert state.current == 1 and state.round == 2 and state.step == "main"


def test_only_unconceded_zero_ends_the_match_early() -> None:
    # §10: seat 1 sits at 0 but has conceded; seat 2's round score brings nobody live to 0 or past 100.
    state = given(
        3,
        current=2,
        round=2,
        step="reserve",
        reserve_remaining=1,
        hands={0: [], 1: [], 2: ["Mon.02a"]},
        totals=[5, 0, 7],
        conceded=[1],
    )
    events, _ = run(state, 2, EndPhase())
    assert not [e for e in events if isinstance(e, MatchEnded)] and "RoundStarted" in types(events)
