"""card_monsters §11: per-seat views, redaction and hidden cards."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine.bots import RandomBot
from engine.match import encode
from engine.rulesets.card_monsters import RULESET
from engine.rulesets.card_monsters.greedy import greedy_score
from engine.rulesets.card_monsters.model import (
    AttackHit,
    CardDrawn,
    CardView,
    Concede,
    CrystalsGained,
    Engage,
    FirstPlayerChosen,
    MatchEnded,
    MonsterMoved,
    PileShuffled,
    PlayMonster,
    Sacrifice,
    Sacrificed,
    TurnStarted,
    UseConsumable,
)
from engine.rulesets.card_monsters.view import hidden_cards, redact, view
from engine.selfplay import play

from .helpers import given, mon, side

BOARD = given(
    side(field=[mon("0:0", "M01", 6, 10, equipment=("0:12", "E05")), mon("0:3", "M03")],
         hand_monsters=[("0:4", "M03")], hand_items=[("0:8", "E01"), ("0:9", "E02")],
         monster_pile=[("0:5", "M04"), ("0:6", "M08")], item_pile=[("0:13", "C01")], discard=[("0:7", "M10")],
         crystals=4, losses=1),
    side(field=[mon("1:0", "M05", equipment=("1:8", "E01"))], hand_monsters=[("1:1", "M05")],
         hand_items=[("1:9", "E03")], item_pile=[("1:10", "E03")], sacrifice_used=True),
    turn=7,
)  # fmt: skip


def test_owner_sees_own_hand_and_only_counts_of_the_other() -> None:
    mine, theirs = view(BOARD, 0).sides
    assert mine.hand_monsters == (CardView("0:4", "M03"),)
    assert mine.hand_items == (CardView("0:8", "E01"), CardView("0:9", "E02"))
    assert (theirs.hand_monsters, theirs.hand_items) == (None, None)
    assert (theirs.hand_monster_count, theirs.hand_item_count) == (1, 1)
    assert (mine.monster_pile, mine.item_pile, theirs.monster_pile, theirs.item_pile) == (2, 1, 1, 1)


def test_spectator_sees_no_hand() -> None:
    for side_view in view(BOARD, None).sides:
        assert (side_view.hand_monsters, side_view.hand_items) == (None, None)


def test_public_zones_and_counters() -> None:
    seen = view(BOARD, 1)
    assert (seen.viewer, seen.turn, seen.active, seen.status, seen.turn_seconds) == (1, 7, 0, "main", 40)
    mine = seen.sides[0]
    assert mine.discard == (CardView("0:7", "M10"),)
    assert (mine.crystals, mine.losses, mine.sacrifice_used, seen.sides[1].sacrifice_used) == (4, 1, False, True)
    assert list(mine.deck) == RULESET.presets["starter_a"]


def test_field_shows_live_effective_values() -> None:
    brute, goblin = view(BOARD, None).sides[0].field
    assert (brute.position, brute.card, brute.hp, brute.max_hp, brute.equipment, brute.equipment_id) == (
        1, "0:0", 6, 10, "0:12", "E05",
    )  # fmt: skip
    assert (brute.magic, brute.ranged, brute.melee, brute.random, brute.traits, brute.colour) == (0, 0, 3, 0, (), "red")
    assert (goblin.position, goblin.traits) == (2, ("long_reach",))
    (adept,) = view(BOARD, None).sides[1].field
    assert (adept.magic, adept.traits) == (2, ("long_reach",))


def test_pile_order_is_redacted_for_everyone() -> None:
    event = PileShuffled(0, "monster", ("0:1", "0:0"), 2)
    for viewer in (0, 1, None):
        assert redact(event, viewer) == PileShuffled(0, "monster", None, 2)


def test_a_draw_is_seen_only_by_the_drawer() -> None:
    event = CardDrawn(1, "item", "1:9", "E03")
    assert redact(event, 1) == event
    assert redact(event, 0) == redact(event, None) == CardDrawn(1, "item", None, None)


@pytest.mark.parametrize(
    "event",
    [
        FirstPlayerChosen(1),
        TurnStarted(3, 0, 40),
        CrystalsGained(0, 3, "turn_start", 3),
        Sacrificed(0, "0:4", "M03", "hand", None, None),
        AttackHit(0, 1, "melee", "primary", 1, 1, "1:0", 3, 1),
        MonsterMoved(1, "1:3", 2, 1),
        MatchEnded("win", 0, "concede", (0, 0)),
    ],
)
def test_public_events_pass_unchanged(event: Any) -> None:
    for viewer in (0, 1, None):
        assert redact(event, viewer) == event


def test_hidden_cards_are_piles_and_other_hands() -> None:
    assert sorted(hidden_cards(BOARD, 0)) == ["0:13", "0:5", "0:6", "1:1", "1:10", "1:9", "1:99"]
    assert sorted(hidden_cards(BOARD, None)) == sorted(
        ["0:13", "0:5", "0:6", "1:10", "1:99", "0:4", "0:8", "0:9", "1:1", "1:9"]
    )


def _strings(value: Any) -> set[str]:
    """Every JSON string value in an encoded view or event."""
    decoded = msgspec.json.decode(msgspec.json.encode(value))
    found: set[str] = set()
    stack = [decoded]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


@pytest.mark.parametrize("seed", [3, 11])
def test_no_hidden_card_reaches_a_viewer_during_a_game(seed: int) -> None:
    bots = [RandomBot(seed), RandomBot(~seed)]
    played = play(RULESET, {"seats": [{}, {}]}, ["a", "b"], seed.to_bytes(32, "big"), bots)
    state = RULESET.initial(played.match.config)
    seen_in_events: dict[Any, set[str]] = {0: set(), 1: set(), None: set()}
    for event in played.events[1:]:
        state = RULESET.evolve(state, event)
        for viewer, seen in seen_in_events.items():
            seen |= _strings(redact(event, viewer))
            assert not set(hidden_cards(state, viewer)) & (seen | _strings(view(state, viewer)))


def test_greedy_score_prefers_useful_plays_to_engaging_and_never_sacrifices() -> None:
    state = given(
        side(field=[mon("0:0", "M01", 3, 7)], hand_monsters=[("0:2", "M02"), ("0:7", "M10")],
             hand_items=[("0:14", "C02"), ("0:13", "C01")], crystals=10),
        side(field=[mon("1:0", "M05", 3, 4), mon("1:3", "M07", 5, 5)]),
    )  # fmt: skip
    seen = view(state, 0)
    scores = {encode(cmd): greedy_score(seen, cmd) for cmd in RULESET.legal_commands(state, 0)}
    assert scores[encode(PlayMonster("0:2"))] > scores[encode(PlayMonster("0:7"))] > scores[encode(Engage())]
    assert scores[encode(UseConsumable("0:14", 1))] > scores[encode(UseConsumable("0:14", 2))] > 0
    assert scores[encode(UseConsumable("0:13", 1))] > 0
    assert scores[encode(Sacrifice(position=1))] < 0 and scores[encode(Concede())] < 0
