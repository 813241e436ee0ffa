"""aq views, redaction and hidden cards (spec §11)."""

from __future__ import annotations

import msgspec
import pytest

from engine.bots import make_bot
from engine.match import apply, create, encode, fold
from engine.rng import Rng, ScriptedRng
from engine.rulesets.aq import RULESET
from engine.rulesets.aq.model import (
    CardGiven,
    CardRemoved,
    Draw,
    Event,
    HandDealt,
    LearnSkill,
    PetsShuffled,
    ReserveCovered,
    ReserveReturned,
    SkillDealt,
    SkillDeckShuffled,
    SkillLearned,
    SkillUsed,
    State,
    UseSkill,
)
from engine.rulesets.aq.view import hidden_cards, redact, view
from engine.selfplay import next_move
from tests.engine.aq.helpers import config, given, run

VIEWERS = [None, 0, 1, 2, 3]


def setup_events() -> list[Event]:
    return list(RULESET.setup(RULESET.configure(config(4)), ScriptedRng()))


def test_shuffles_are_redacted_for_everyone() -> None:
    for event in setup_events():
        if isinstance(event, PetsShuffled | SkillDeckShuffled):
            for viewer in VIEWERS:
                shown = redact(event, viewer)
                assert shown.order is None and shown.count == event.count  # type: ignore[union-attr]


def test_dealt_hands_and_skills_only_to_their_seat() -> None:
    events = setup_events()
    for viewer in VIEWERS:
        for event in events:
            if isinstance(event, HandDealt):
                shown = redact(event, viewer)
                assert shown == (event if viewer == event.seat else HandDealt(event.seat, None, 8))
            if isinstance(event, SkillDealt):
                assert redact(event, viewer).skill == (event.skill if viewer == event.seat else None)  # type: ignore[union-attr]


def redacted_card(state: State, command: object, viewer: int | None, index: int) -> object:
    events, _ = run(state, 0, command)  # type: ignore[arg-type]
    return redact(events[index], viewer)


@pytest.mark.parametrize(
    ("skill", "card", "target", "shown_to"),
    [
        ("SK04-1", "Mon.21a", None, {0}),  # Stash: owner only
        ("SK05-1", "Mon.21a", None, {None, 0, 1, 2, 3}),  # Banish: public
        ("SK03-1", "Mon.21a", 2, {0, 2}),  # Gift: giver and receiver
    ],
)
def test_skill_used_card_visibility(skill: str, card: str, target: int | None, shown_to: set[int | None]) -> None:
    state = given(hands={0: ["Mon.02a", "Mon.21a"]}, skills={0: [skill]})
    events, _ = run(state, 0, UseSkill(skill, card, target))
    for viewer in VIEWERS:
        used = redact(events[0], viewer)
        assert isinstance(used, SkillUsed) and used.skill == skill
        assert used.card == (card if viewer in shown_to else None)
        follow = redact(events[1], viewer)
        assert isinstance(follow, ReserveCovered | CardGiven | CardRemoved)
        assert follow.card == (card if viewer in shown_to else None)


def test_learned_skill_hidden_but_cost_public() -> None:
    state = given(hands={0: ["Mon.07a", "Mon.26a", "Mon.41a"]}, skill_deck=["SK05-1"])
    events, _ = run(state, 0, LearnSkill(("Mon.07a", "Mon.26a")))
    assert redact(events[0], 0) == events[0]
    assert redact(events[0], 1) == SkillLearned(0, ("Mon.07a", "Mon.26a"), None)
    assert redact(events[0], None) == SkillLearned(0, ("Mon.07a", "Mon.26a"), None)


def test_reserve_moves_only_to_the_owner() -> None:
    state = given(field=["Mon.04a", "Mon.10a", "Mon.24a"], hands={0: ["Mon.02a"]}, reserves={0: ["Mon.11a", "Mon.06a"]})
    events, _ = run(state, 0, Draw())
    returned = events[3]
    assert isinstance(returned, ReserveReturned)
    assert redact(returned, 0) == returned and redact(returned, 1) == ReserveReturned(0, None)
    assert redact(events[0], 1) == events[0]  # HandRevealed is public


def test_view_shows_only_the_viewers_zones() -> None:
    state = given(hands={0: ["Mon.02a", "Mon.21a"]}, reserves={1: ["Mon.06a"]}, skills={0: ["SK01-1"], 2: ["SK02-1"]})
    mine = view(state, 0)
    assert mine.seats[0].hand == ("Mon.02a", "Mon.21a") and mine.seats[0].skills == ("SK01-1",)
    assert mine.seats[1].reserve is None and mine.seats[1].reserve_count == 1
    assert mine.seats[2].skills is None and mine.seats[2].skill_count == 1
    spectator = view(state, None)
    assert all(s.hand is None and s.reserve is None and s.skills is None for s in spectator.seats)
    assert spectator.field == state.field and spectator.skill_deck_count == len(state.skill_deck)
    assert spectator.pending is not None and (spectator.pending.seat, spectator.pending.step) == (0, "main")


def test_hidden_cards_follow_what_was_shown() -> None:
    state = given(field=["Mon.05a", "Mon.29a", "Mon.16a"], hands={0: ["Mon.02a"], 1: ["Mon.21a"]})
    assert "Mon.21a" in hidden_cards(state, 0) and "Mon.21a" not in hidden_cards(state, 1)
    assert "Mon.02a" in hidden_cards(state, None)
    _, state = run(state, 0, Draw())  # HandRevealed shows Mon.02a; the drawn cards were on the public field
    assert "Mon.02a" not in hidden_cards(state, None) and "Mon.05a" not in hidden_cards(state, 1)
    gift = given(hands={0: ["Mon.02a", "Mon.21a"]}, skills={0: ["SK03-1"]})
    _, gift = run(gift, 0, UseSkill("SK03-1", "Mon.21a", 2))
    assert "Mon.21a" not in hidden_cards(gift, 0) and "Mon.21a" in hidden_cards(gift, 1)


def assert_no_leak(state: State, viewer: int | None, shown: list[bytes]) -> None:
    tokens = [msgspec.json.encode(c) for c in hidden_cards(state, viewer)]
    assert not [t for t in tokens for blob in shown if t in blob], viewer


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_whole_games_never_leak(players: int, bot: str) -> None:
    """Event by event, as a watch stream sends them: each redacted event and the view after it, against the
    hidden cards of the state after it, for every viewer and a whole game."""
    seed = bytes(32)
    bots = [make_bot(bot, RULESET, 40 + seat) for seat in range(players)]
    created = create(RULESET, config(players), [str(s) for s in range(players)], seed)
    match = fold(RULESET, created[:1])
    batch: list[Event] = created[1:]
    while True:
        state = match.state
        for event in batch:
            state = RULESET.evolve(state, event)
            for viewer in [None, *range(players)]:
                assert_no_leak(state, viewer, [encode(redact(event, viewer)), encode(view(state, viewer))])
        match = apply(RULESET, match, batch)
        if RULESET.outcome(match.state) is not None:
            break
        actor, command = next_move(RULESET, match.state, bots)
        batch = list(RULESET.decide(match.state, actor, command, Rng(seed, match.version + 1)))


@pytest.mark.parametrize(("skill", "target", "knows"), [("SK05-1", None, {None, 0, 1, 2, 3}), ("SK03-1", 2, {0, 2})])
def test_a_card_shown_by_skill_used_is_known_from_that_event_on(
    skill: str, target: int | None, knows: set[int | None]
) -> None:
    # A watch stream sends SkillUsed before CardRemoved / CardGiven: the card must count as shown already.
    state = given(hands={0: ["Mon.02a", "Mon.21a"]}, skills={0: [skill]})
    events, _ = run(state, 0, UseSkill(skill, "Mon.21a", target))
    after_skill_used = RULESET.evolve(state, events[0])
    for viewer in VIEWERS:
        assert ("Mon.21a" in hidden_cards(after_skill_used, viewer)) == (viewer not in knows)
