"""The system's forfeit (``Ruleset.forfeit``, docs/rulesets/aq.md §7): a disconnected seat concedes as by
``concede`` (D24), the match ending with reason ``disconnected`` when it leaves one seat standing."""

from __future__ import annotations

from engine.contract import ADMIN, DISCONNECTED, SYSTEM
from engine.rulesets.aq import RULESET
from engine.rulesets.aq.model import (
    Forfeit,
    MatchEnded,
    PhaseAutoResolved,
    PhaseEnded,
    PhaseStarted,
    PlayerConceded,
)
from tests.engine.aq.helpers import given, rejection, run


def test_forfeiting_the_last_opponent_ends_the_match_disconnected() -> None:
    events, state = run(given(2), SYSTEM, RULESET.forfeit(1, DISCONNECTED))
    assert events == [PlayerConceded(1), MatchEnded((0,), "disconnected", (0, 0))]
    outcome = RULESET.outcome(state)
    assert outcome is not None and (outcome.winners, outcome.losers, outcome.reason) == ((0,), (1,), "disconnected")


def test_a_forfeited_seat_in_its_phase_goes_on_autopilot_and_the_rest_play_on() -> None:
    state = given(3, current=1, step="reserve", reserve_remaining=2, hands={1: ["Mon.07a"]}, phase_no=3)
    events, state = run(state, SYSTEM, Forfeit(1, "disconnected"))
    assert events == [PlayerConceded(1), PhaseAutoResolved(1, 3, "conceded"), PhaseEnded(1), PhaseStarted(1, 2, 4, 60)]
    assert RULESET.outcome(state) is None and RULESET.to_act(state) == (2,)
    assert rejection(state, SYSTEM, Forfeit(1, "disconnected")) == "SEAT_CONCEDED"


def test_only_the_system_forfeits_and_never_a_seat_legally() -> None:
    state = given(2)
    assert rejection(state, 0, Forfeit(1, "disconnected")) == "NOT_SYSTEM"
    assert rejection(state, ADMIN, Forfeit(1, "disconnected")) == "NOT_SYSTEM"
    assert rejection(state, SYSTEM, Forfeit(2, "disconnected")) == "BAD_FIELDS"
    assert not [c for seat in (0, 1) for c in RULESET.legal_commands(state, seat) if isinstance(c, Forfeit)]
    _, over = run(state, SYSTEM, Forfeit(0, "disconnected"))
    assert rejection(over, SYSTEM, Forfeit(1, "disconnected")) == "MATCH_OVER"
