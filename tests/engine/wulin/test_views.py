"""docs/rulesets/wulin.md §11 (D32): what each viewer sees, event by event and in the view."""

from __future__ import annotations

from engine.match import encode
from engine.rulesets.wulin import RULESET
from engine.rulesets.wulin.model.commands import Attack, PlayCard
from engine.rulesets.wulin.model.events import CardPlayed, CardsDrawn, LibraryShuffled
from engine.rulesets.wulin.view import PUBLIC_EVENTS, hidden_cards, redact, view

from .helpers import fc, given, run, side


def test_hands_and_face_down_cards_are_the_owners_alone() -> None:
    state = given(side(hand=[("a1", "WL-B08")], battle=[fc("a2", "WL-B03", False), fc("a3", "WL-B01")]))
    own, other, spectator = view(state, 0), view(state, 1), view(state, None)
    assert own.sides[0].hand is not None and own.sides[0].hand[0].card_id == "WL-B08"
    assert other.sides[0].hand is None and other.sides[0].hand_count == 1
    assert [c.iid for c in own.sides[0].battle_zone] == ["a2", "a3"]
    assert [c.iid for c in other.sides[0].battle_zone] == [None, "a3"]
    assert other.sides[0].battle_zone == spectator.sides[0].battle_zone
    assert other.sides[0].battle_zone[1].actual_atk == 30
    for viewer in (1, None):
        text = encode(view(state, viewer))
        assert b"WL-B08" not in text and b"WL-B03" not in text and b'"a2"' not in text
    assert set(hidden_cards(state, 1)) >= {"a1", "a2"} and "a3" not in hidden_cards(state, 1)


def test_played_and_drawn_cards_are_redacted_for_others() -> None:
    state = given(side(hand=[("a1", "WL-B08")]))
    events, _ = run(state, 0, PlayCard("a1"))
    played = events[0]
    assert isinstance(played, CardPlayed)
    assert redact(played, 0) == played
    assert redact(played, 1) == CardPlayed(0, None, None, "battle_zone")
    drawn = CardsDrawn(0, ("p0-05",), ("WL-Q01",), 1)
    assert redact(drawn, None) == CardsDrawn(0, None, None, 1)
    shuffled = LibraryShuffled(0, 1, ("WL-Q01",), 1)
    assert redact(shuffled, 0) == LibraryShuffled(0, 1, None, 1)


def test_pending_decisions_and_open_attacks_are_public() -> None:
    state = given(side(qi=10, battle=[fc("a1", "WL-B01")]))
    _, state = run(state, 0, Attack(("a1",), "single"))
    assert view(state, None).pending == state.pending and view(state, 1).open_attack == state.open_attack


def test_every_event_type_has_a_redaction_rule() -> None:
    private = {LibraryShuffled, CardsDrawn, CardPlayed}
    assert PUBLIC_EVENTS | private == set(RULESET.Event.__args__) and not PUBLIC_EVENTS & private
