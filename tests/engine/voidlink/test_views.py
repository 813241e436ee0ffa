"""What each viewer sees in voidlink (docs/rulesets/voidlink.md §11), event by event through a whole match."""

from __future__ import annotations

import msgspec

from engine.bots import RandomBot
from engine.match import encode
from engine.rulesets.voidlink import RULESET
from engine.rulesets.voidlink.model.commands import ActivateTactics
from engine.rulesets.voidlink.model.events import ChainLinkAdded, MatchStarted
from engine.rulesets.voidlink.view import hidden_cards, redact, view
from engine.selfplay import play

from .helpers import given, run, seat


def test_match_started_shows_each_seat_only_its_own_lists() -> None:
    played = play(RULESET, {"seats": [{}, {}]}, ["a", "b"], bytes(32), [RandomBot(1), RandomBot(2)], max_commands=1)
    started = played.events[1]
    assert isinstance(started, MatchStarted)
    for viewer in (0, 1, None):
        seen = redact(started, viewer)
        assert isinstance(seen, MatchStarted)
        for player in seen.players:
            visible = player.seat == viewer
            assert (player.main is not None, player.extra is not None, player.tactics is not None) == (visible,) * 3
            assert (player.main_count, player.extra_count) == (40, 4)
        assert seen.players[0].commander is not None


def test_a_hand_target_is_hidden_from_the_other_seat() -> None:
    state = given(
        seat(monsters=[]),
        seat(hand=[("p1.m05", "VL-M02")], tactics=[("p1.c05", "VL-T05")]),
        turn=5,
        turn_seat=1,
    )
    events, _ = run(state, 1, ActivateTactics("p1.c05", ("p1.m05",), "void_defence"))
    link = events[0]
    assert isinstance(link, ChainLinkAdded)
    assert redact(link, 1) == link
    assert redact(link, 0).targets == (None,)  # type: ignore[union-attr]
    assert redact(link, None).targets == (None,)  # type: ignore[union-attr]


def test_no_viewer_ever_sees_a_hidden_card() -> None:
    played = play(RULESET, {"seats": [{}, {}]}, ["a", "b"], bytes(32), [RandomBot(3), RandomBot(4)])
    state = RULESET.initial(msgspec.convert(played.events[0].config, RULESET.Config))
    for event in played.events[1:]:
        state = RULESET.evolve(state, event)
        for viewer in (0, 1, None):
            tokens = [msgspec.json.encode(c) for c in hidden_cards(state, viewer)]
            seen = encode(redact(event, viewer)) + encode(view(state, viewer))
            assert not [t for t in tokens if t in seen]


def test_views_show_live_atk_and_the_chain() -> None:
    state = given(seat(hand=[("p0.m37", "VL-G05")]))
    spectator = view(state, None)
    assert spectator.players[0].hand is None and spectator.players[0].hand_count == 1
    assert view(state, 0).players[0].hand is not None
