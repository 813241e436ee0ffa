"""The system's forfeit (``Ruleset.forfeit``, docs/rulesets/duel.md §10): a disconnected seat concedes as by
``concede``, the match ending with reason ``disconnected``; only the system sends it."""

from __future__ import annotations

from engine.contract import ADMIN, DISCONNECTED, SYSTEM
from engine.rulesets.duel import RULESET
from engine.rulesets.duel.model.commands import Forfeit
from engine.rulesets.duel.model.events import MatchEnded, PlayerConceded
from engine.rulesets.duel.model.state import Reason
from tests.engine.duel.helpers import given, rejection, run


def test_the_system_forfeits_a_seat_disconnected() -> None:
    events, state = run(given(), SYSTEM, RULESET.forfeit(1, DISCONNECTED))
    assert events == [PlayerConceded(1), MatchEnded("win", 0, (Reason(1, "disconnected"),))]
    outcome = RULESET.outcome(state)
    assert outcome is not None and (outcome.winners, outcome.losers, outcome.reason) == ((0,), (1,), "disconnected")
    assert rejection(state, SYSTEM, Forfeit(0, "disconnected")) == "MATCH_OVER"


def test_only_the_system_forfeits_and_never_a_seat_legally() -> None:
    state = given()
    for actor in (0, 1, ADMIN):
        assert rejection(state, actor, Forfeit(1, "disconnected")) == "NOT_SYSTEM_COMMAND"
    assert rejection(state, SYSTEM, Forfeit(2, "disconnected")) == "BAD_FIELDS"
    assert not [c for seat in (0, 1) for c in RULESET.legal_commands(state, seat) if isinstance(c, Forfeit)]
