"""duel.md §14 scenarios 19-25: hand limit, deck-out, special wins, draws, zones, timers and concession."""

from __future__ import annotations

from typing import Any

from engine.contract import SYSTEM, Outcome
from engine.rulesets.duel import RULESET
from engine.rulesets.duel.model.commands import (
    Activate,
    Advance,
    Choices,
    Concede,
    Discard,
    NormalSummon,
    SetSpellTrap,
    Timeout,
)
from engine.rulesets.duel.model.events import (
    CardActivated,
    CardDestroyed,
    CardDrawn,
    CardReturned,
    CardSentToGraveyard,
    CountersChanged,
    DamageDealt,
    DecisionClosed,
    DecisionRequested,
    DrawFailed,
    MatchEnded,
    NormalSummoned,
    PhaseChanged,
    PlayerConceded,
    SpellTrapSet,
    TimeoutRecorded,
    TurnEnded,
    TurnStarted,
)
from engine.rulesets.duel.model.state import Details, MonsterRef, Reason
from tests.engine.duel.helpers import M, S, cid, given, rejection, run

NONE = Choices()


def _next_turn(turn: int, seat: int, top: str, deck_count: int) -> list[Any]:
    """The events of a plain turn start with one draw (§8.3)."""
    return [
        TurnStarted(turn, seat),
        PhaseChanged(turn, "draw"),
        CardDrawn(seat=seat, instance=top, card_id=cid(top), deck_count=deck_count),
        PhaseChanged(turn, "standby"),
        PhaseChanged(turn, "main1"),
    ]


# --- scenario 19: hand limit and decision timeout ------------------------------------------------------------


def test_s19_hand_limit_discards_and_timeout() -> None:
    hand = ["0-m01", "0-m04", "0-m07", "0-m10", "0-m12", "0-m14", "0-m16", "0-m17"]
    state = given(phase="main2", hands={0: hand, 1: [f"1-m{i:02d}" for i in range(1, 8)]})
    events, state = run(state, 0, Advance("end"))
    assert events == [
        PhaseChanged(5, "end"),
        DecisionRequested(decision_id=1, seat=0, kind="discard", details=Details(count=2)),
    ]
    assert rejection(state, 0, Discard("0-m40")) == "CARD_NOT_IN_HAND"
    events, state = run(state, 0, Discard("0-m10"))
    assert events == [
        DecisionClosed(1, 0, "answer"),
        CardSentToGraveyard(0, "hand", None, "0-m10", "shell_sentinel", 0, "hand_limit"),
        DecisionRequested(decision_id=2, seat=0, kind="discard", details=Details(count=1)),
    ]
    assert rejection(state, SYSTEM, Timeout(0, "decision", 1)) == "STALE_TIMEOUT"
    events, state = run(state, SYSTEM, Timeout(0, "decision", 2))
    assert events == [
        TimeoutRecorded(0, "decision", 2, 1),
        DecisionClosed(2, 0, "timeout"),
        CardSentToGraveyard(0, "hand", None, "0-m17", "thunder_leviathan", 0, "hand_limit"),
        TurnEnded(5, 0),
        *_next_turn(6, 1, "1-m08", 32),
    ]
    assert [len(side.hand) for side in state.sides] == [6, 8]


# --- scenario 20: deck-out ------------------------------------------------------------------------------------


def test_s20a_drawing_from_an_empty_deck_loses() -> None:
    state = given(turn=7, phase="main2", decks={1: []})
    events, state = run(state, 0, Advance("end"))
    assert events == [
        PhaseChanged(7, "end"),
        TurnEnded(7, 0),
        TurnStarted(8, 1),
        PhaseChanged(8, "draw"),
        DrawFailed(1),
        MatchEnded("win", 0, (Reason(1, "deck_out"),)),
    ]
    assert rejection(state, 1, Advance("end")) == "MATCH_OVER"
    assert rejection(state, 0, Concede()) == "MATCH_OVER"


def test_s20b_effect_draw_runs_out() -> None:
    state = given(hands={0: ["0-m35"]}, decks={0: ["0-m20"]})
    events, _ = run(state, 0, Activate("0-m35"))
    assert events == [
        CardActivated(0, 0, "0-m35", "twin_fortune", "hand", (), NONE, None),
        CardDrawn(seat=0, instance="0-m20", card_id="seraph_herald", deck_count=0),
        DrawFailed(0),
        MatchEnded("win", 1, (Reason(0, "deck_out"),)),
    ]


# --- scenario 21: assembly win ------------------------------------------------------------------------------------

PIECES = ["0-m22", "0-m23", "0-m24", "0-m25"]


def test_s21a_drawing_the_last_piece_wins() -> None:
    deck = ["0-m26", *(f"0-m{i:02d}" for i in range(1, 22))]
    state = given(turn=6, phase="main2", hands={0: PIECES}, decks={0: deck})
    events, _ = run(state, 1, Advance("end"))
    assert events == [
        PhaseChanged(6, "end"),
        TurnEnded(6, 1),
        TurnStarted(7, 0),
        PhaseChanged(7, "draw"),
        CardDrawn(seat=0, instance="0-m26", card_id="sealed_warden_right_leg", deck_count=21),
        MatchEnded("win", 0, (Reason(0, "assembly"),)),
    ]


def test_s21b_returning_the_last_piece_wins() -> None:
    state = given(
        turn=7,
        hands={0: PIECES},
        monsters={0: {0: M("0-m26")}},
        spell_traps={0: {0: S("0-m38", set_turn=5)}},
    )
    events, _ = run(state, 0, Activate("0-m38", (MonsterRef(0, 0),)))
    assert events == [
        CardActivated(0, 0, "0-m38", "recall_gate", "set", (MonsterRef(0, 0),), NONE, None),
        CardReturned(0, 0, "0-m26", "sealed_warden_right_leg", 0, "hand"),
        MatchEnded("win", 0, (Reason(0, "assembly"),)),
    ]


# --- scenario 22: Omen Dial -------------------------------------------------------------------------------------


def test_s22_omen_dial_counter_win() -> None:
    state = given(phase="main2", spell_traps={1: {0: S("1-m34")}})
    events, state = run(state, 0, Advance("end"))
    assert events == [
        DecisionRequested(
            decision_id=1,
            seat=1,
            kind="response_window",
            details=Details(
                trigger="main_end",
                advance_to="end",
            ),
        )
    ]
    events, state = run(state, 1, Activate("1-m34"))
    assert events == [
        DecisionClosed(1, 1, "answer"),
        CardActivated(1, 0, "1-m34", "omen_dial", "set", (), NONE, "main_end"),
    ]
    assert (state.phase, state.pending, state.turn_seat) == ("main2", None, 0)
    events, state = run(state, 0, Advance("end"))
    top = state.sides[1].hand[-1]
    assert events == [
        PhaseChanged(5, "end"),
        TurnEnded(5, 0),
        TurnStarted(6, 1),
        PhaseChanged(6, "draw"),
        CardDrawn(seat=1, instance=top, card_id=cid(top), deck_count=len(state.sides[1].deck)),
        PhaseChanged(6, "standby"),
        CountersChanged(1, 0, "1-m34", "omen", 1),
        PhaseChanged(6, "main1"),
    ]
    assert rejection(state, 1, Activate("1-m34")) == "ALREADY_FACE_UP"
    counters = {8: 2, 10: 3}
    for turn in range(6, 11):
        events, state = run(state, state.turn_seat, Advance("end"))
        if turn + 1 in counters:
            assert CountersChanged(1, 0, "1-m34", "omen", counters[turn + 1]) in events
    events, state = run(state, 0, Advance("end"))
    assert events[-3:] == [
        PhaseChanged(12, "standby"),
        CountersChanged(1, 0, "1-m34", "omen", 4),
        MatchEnded("win", 1, (Reason(1, "omen_counters"),)),
    ]


# --- scenario 23: simultaneous LP loss ------------------------------------------------------------------------


def _ring(lp_b: int) -> list[Any]:
    state = given(lp=(2000, lp_b), monsters={0: {0: M("0-m17")}}, spell_traps={1: {0: S("1-m35")}})
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
    events, _ = run(state, 1, Activate("1-m35", (MonsterRef(0, 0),)))
    assert events[:3] == [
        DecisionClosed(1, 1, "answer"),
        CardActivated(1, 0, "1-m35", "ring_of_ruin", "set", (MonsterRef(0, 0),), NONE, "main_end"),
        CardDestroyed(0, "monster", 0, "0-m17", "thunder_leviathan", 0, "effect"),
    ]
    return events[3:]


def test_s23_both_players_at_zero_is_a_draw() -> None:
    assert _ring(2500) == [
        DamageDealt(1, 2700, 0, "effect", "1-m35"),
        DamageDealt(0, 2700, 0, "effect", "1-m35"),
        MatchEnded("draw", None, (Reason(0, "lp_zero"), Reason(1, "lp_zero"))),
    ]


def test_s23_one_survivor_wins() -> None:
    assert _ring(3000) == [
        DamageDealt(1, 2700, 300, "effect", "1-m35"),
        DamageDealt(0, 2700, 0, "effect", "1-m35"),
        MatchEnded("win", 1, (Reason(0, "lp_zero"),)),
    ]


# --- scenario 24: zone capacity, set spell, spell burn ------------------------------------------------------------


def test_s24_zone_capacity_and_set_spell() -> None:
    state = given(
        hands={0: ["0-m32", "0-m33", "0-m40", "0-m14", "0-m03"]},
        monsters={0: {slot: M(i) for slot, i in enumerate(["0-m01", "0-m02", "0-m04", "0-m07", "0-m12"])}},
        spell_traps={0: {slot: S(i, set_turn=3) for slot, i in enumerate(["0-m36", "0-m37", "0-m38", "0-m39"])}},
    )
    events, state = run(state, 0, SetSpellTrap("0-m32"))
    assert events == [SpellTrapSet(seat=0, slot=4, instance="0-m32", card_id="ember_volley")]
    assert RULESET.redact(events[0], 1) == SpellTrapSet(seat=0, slot=4)
    assert rejection(state, 0, SetSpellTrap("0-m40")) == "SPELL_TRAP_ZONE_FULL"
    assert rejection(state, 0, Activate("0-m33")) == "SPELL_TRAP_ZONE_FULL"
    events, state = run(state, 0, Activate("0-m32"))
    assert events == [
        CardActivated(0, 4, "0-m32", "ember_volley", "set", (), NONE, None),
        DamageDealt(1, 600, 7400, "effect", "0-m32"),
        CardSentToGraveyard(0, "spell_trap", 4, "0-m32", "ember_volley", 0, "resolved"),
    ]
    assert rejection(state, 0, NormalSummon("0-m03")) == "MONSTER_ZONE_FULL"
    events, _ = run(state, 0, NormalSummon("0-m14", (2,)))
    assert events == [
        CardSentToGraveyard(0, "monster", 2, "0-m04", "dune_scorpion", 0, "tribute"),
        NormalSummoned(0, 2, "0-m14", "storm_drake"),
    ]


# --- scenario 25: timers, forfeit, concede ---------------------------------------------------------------------------


def test_s25_turn_timeout_ends_the_turn() -> None:
    state = given(hands={0: [f"0-m{i:02d}" for i in range(1, 6)]})
    timeout = Timeout(0, "turn", 5)
    assert rejection(state, 0, timeout) == "NOT_SYSTEM_COMMAND"
    events, state = run(state, SYSTEM, timeout)
    top = state.sides[1].hand[-1]
    assert events == [
        TimeoutRecorded(0, "turn", 5, 1),
        PhaseChanged(5, "end"),
        TurnEnded(5, 0),
        *_next_turn(6, 1, top, len(state.sides[1].deck)),
    ]
    assert rejection(state, SYSTEM, timeout) == "STALE_TIMEOUT"


def test_s25_turn_timeout_opens_the_window_and_advances_again() -> None:
    state = given(spell_traps={1: {0: S("1-m34")}})
    events, state = run(state, SYSTEM, Timeout(0, "turn", 5))
    assert events == [
        TimeoutRecorded(0, "turn", 5, 1),
        DecisionRequested(
            decision_id=1,
            seat=1,
            kind="response_window",
            details=Details(
                trigger="main_end",
                advance_to="end",
            ),
        ),
    ]
    events, state = run(state, 1, Activate("1-m34"))
    assert events[:3] == [
        DecisionClosed(1, 1, "answer"),
        CardActivated(1, 0, "1-m34", "omen_dial", "set", (), NONE, "main_end"),
        PhaseChanged(5, "end"),
    ]
    assert (state.turn, state.phase) == (6, "main1")


def test_s25_third_timeout_forfeits() -> None:
    state = given(turn=6, timeouts=(2, 0), spell_traps={0: {0: S("0-m36", set_turn=3)}})
    events, state = run(state, 1, Advance("end"))
    assert events == [
        DecisionRequested(
            decision_id=1,
            seat=0,
            kind="response_window",
            details=Details(
                trigger="main_end",
                advance_to="end",
            ),
        )
    ]
    events, state = run(state, SYSTEM, Timeout(0, "decision", 1))
    assert events == [TimeoutRecorded(0, "decision", 1, 3), MatchEnded("win", 1, (Reason(0, "timeouts"),))]
    assert RULESET.outcome(state) == Outcome(winners=(1,), losers=(0,), draw=False, reason="timeouts")


def test_s25_concede() -> None:
    events, state = run(given(), 1, Concede())
    assert events == [PlayerConceded(1), MatchEnded("win", 0, (Reason(1, "concede"),))]
    assert RULESET.outcome(state) == Outcome(winners=(0,), losers=(1,), draw=False, reason="concede")
