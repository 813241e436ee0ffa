"""Hidden information over whole games (duel.md §11): checked after every single event, as a watcher receives it,
and the public match head (``MatchCreated``), which must not hold the deck lists."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest

from engine.bots import make_bot
from engine.match import apply, create, decide, encode, event_decoder, fold, type_tag
from engine.rulesets.duel import RULESET
from engine.rulesets.duel.model.events import CardActivated, DuelCreated, MonsterSet, SpellTrapSet
from engine.rulesets.duel.model.state import Config, DeckList, SeatConfig, State
from engine.selfplay import next_move, play

STARTERS = {"seats": [{"deck": "starter_a"}, {"deck": "starter_b"}], "options": {}}
EFFECT_DECK = {
    "main": [
        *["recall_gate"] * 3, *["ambush_call"] * 3, *["dusk_visitation"] * 3, *["fusion_rite"] * 3, "second_dawn",
        "twin_fortune", "omen_dial", *["maw_beetle"] * 3, *["cinder_wolf"] * 3, *["dune_scorpion"] * 3,
        *["glade_sprite"] * 3, *["ironhide_boar"] * 3, *["shell_sentinel"] * 3, *["kneeling_decree"] * 3,
        *["radiant_blade_ward"] * 2, *["iron_gauntlet"] * 2, *["gale_sweep"] * 2, *["bastion_marshal"] * 2,
    ],
    "extra": ["scorchfang_chimera"] * 3,
    "side": ["spiked_snare", "ember_volley"],
}
"""Returns, face-down turns, fusions and Ambush Calls in most games: the cards that reveal and re-hide."""
EFFECTS = {"seats": [{"deck": EFFECT_DECK}, {"deck": EFFECT_DECK}], "options": {}}
CONFIGS = {"starters": STARTERS, "effects": EFFECTS}
VIEWERS = (0, 1, None)


def _leaks_per_event(events: list[Any], seen: Counter[str]) -> list[tuple[int, str, Any, list[str]]]:
    """Folds the match one event at a time from its public head; after each event, the ids that
    ``hidden_cards`` calls secret and that the event (redacted) or the view still shows to that viewer."""
    match = fold(RULESET, events[:1])
    state: State = match.state
    leaks = []
    for version, event in enumerate(events[1:], start=2):
        named = _named_hidden_zone_cards(state, event)
        state = RULESET.evolve(state, event)
        seen.update(named)
        for viewer in VIEWERS:
            hidden = RULESET.hidden_cards(state, viewer)
            seen["secret"] += len(hidden)
            shown = encode(RULESET.redact(event, viewer)) + encode(RULESET.view(state, viewer))
            found = [card for card in hidden if msgspec.json.encode(card) in shown]
            if found:
                leaks.append((version, type_tag(event), viewer, found))
    return leaks


def _named_hidden_zone_cards(state: State, event: Any) -> list[str]:
    """What makes a game a useful test here: activations naming hand or extra-deck cards, revealed cards set."""
    if isinstance(event, CardActivated):
        side, choices = state.sides[event.seat], event.choices
        named = [*(choices.materials or ()), choices.fusion, choices.card]
        return ["named" for card in named if card in side.hand or card in side.extra]
    if isinstance(event, MonsterSet | SpellTrapSet) and event.instance in state.revealed:
        return ["re-hidden"]
    return []


@pytest.mark.parametrize("deck", sorted(CONFIGS))
@pytest.mark.parametrize("kinds", [("random", "random"), ("greedy", "random")])
def test_hidden_cards_never_reach_a_viewer_after_any_event(deck: str, kinds: tuple[str, str]) -> None:
    seen: Counter[str] = Counter()
    for seed in range(4, 10):
        bots = [make_bot(kind, RULESET, seed * 10 + seat) for seat, kind in enumerate(kinds)]
        played = play(RULESET, CONFIGS[deck], ["a", "b"], seed.to_bytes(32, "big"), bots)
        assert _leaks_per_event(played.events, seen) == []
    assert seen["secret"] > 0
    if deck == "effects":
        assert seen["named"] > 0 and seen["re-hidden"] > 0, "the games must exercise reveals and re-hides"


# --- deck lists stay out of the public head (§11) ------------------------------------------------------------


@pytest.mark.parametrize("deck", sorted(CONFIGS))
def test_match_created_holds_no_deck_list(deck: str) -> None:
    config = RULESET.configure(CONFIGS[deck])
    events = create(RULESET, CONFIGS[deck], ["a", "b"], bytes(32))
    head = encode(events[0])
    card_ids = {card for seat in config.seats for cards in msgspec.structs.astuple(seat.deck) for card in cards}
    assert card_ids and not [c for c in card_ids if msgspec.json.encode(c) in head]
    assert b"starter_" not in head and b'"0-' not in head and b'"1-' not in head
    public = msgspec.convert(events[0].config, Config)
    assert public == RULESET.public_config(config)
    assert public.seats == (SeatConfig(DeckList(main=())), SeatConfig(DeckList(main=())))
    assert public.options == config.options


def test_public_config_keeps_the_options() -> None:
    data = {"seats": [{}, {}], "options": {"first_player": 1, "starting_lp": 4000, "first_turn_battle": False}}
    config = RULESET.configure(data)
    public = RULESET.public_config(config)
    assert msgspec.to_builtins(public.options) == msgspec.to_builtins(config.options)
    assert RULESET.initial(public) == RULESET.initial(config)


def test_the_fold_takes_the_decks_from_duel_created() -> None:
    events = create(RULESET, STARTERS, ["a", "b"], bytes(32))
    state = fold(RULESET, events).state
    created = events[1]
    assert isinstance(created, DuelCreated)
    assert [len(side.deck) + len(side.hand) for side in state.sides] == [40, 40]
    assert [side.extra for side in state.sides] == [("0-x01", "0-x02"), ("1-x01",)]
    assert state.cards["1-m40"].card_id == "ambush_call" and len(state.cards) == 89


@pytest.mark.parametrize("deck", sorted(CONFIGS))
def test_self_play_folds_to_the_same_state_from_the_public_head(deck: str) -> None:
    for seed in range(3):
        bots = [make_bot("random", RULESET, seed * 10 + seat) for seat in (0, 1)]
        played = play(RULESET, CONFIGS[deck], ["a", "b"], seed.to_bytes(32, "big"), bots)
        stored = [event_decoder(RULESET).decode(encode(e)) for e in played.events]
        refolded = fold(RULESET, stored)
        assert encode(refolded.state) == encode(played.match.state)
        assert refolded.version == len(played.events) and RULESET.outcome(refolded.state) == played.outcome


def test_commands_re_execute_byte_for_byte_on_matches_folded_from_stored_events() -> None:
    """What replay verification does: the creation again from the same request and seed, then each command
    decided again on the match folded from the stored events before it, the head holding only the public
    configuration, yields the recorded bytes."""
    seed = bytes(range(32))
    bots = [make_bot("random", RULESET, 3), make_bot("greedy", RULESET, 4)]
    events = create(RULESET, EFFECTS, ["a", "b"], seed)
    match = fold(RULESET, events)
    commands: list[tuple[Any, bytes, int, int]] = []
    while RULESET.outcome(match.state) is None:
        actor, command = next_move(RULESET, match.state, bots)
        new = decide(RULESET, match, actor, encode(command), seed).events
        commands.append((actor, encode(command), len(events), len(events) + len(new)))
        events += new
        match = apply(RULESET, match, new)
    recorded = [encode(e) for e in events]
    stored = [event_decoder(RULESET).decode(raw) for raw in recorded]
    assert [encode(e) for e in create(RULESET, EFFECTS, ["a", "b"], seed)] == recorded[: commands[0][2]]
    again = fold(RULESET, stored[: commands[0][2]])
    for actor, raw, first, end in commands:
        assert [encode(e) for e in decide(RULESET, again, actor, raw, seed).events] == recorded[first:end]
        again = apply(RULESET, again, stored[first:end])
    assert encode(again.state) == encode(match.state)
