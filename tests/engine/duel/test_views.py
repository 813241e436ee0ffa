"""Hidden information (duel.md §11): views, event redaction and the hidden-card list; over whole games,
checked after every single event as a watcher receives it, and the public match head (``MatchCreated``),
which must not hold the deck lists."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest

from engine.bots import make_bot
from engine.match import EventDecoder, apply, create, decide, encode, fold, type_tag
from engine.rng import ALL_ZERO_SEED, Rng
from engine.rulesets.duel import RULESET
from engine.rulesets.duel.model.commands import Activate, Advance, Choices, DeclareAttack, SetMonster, SetSpellTrap
from engine.rulesets.duel.model.events import (
    CardActivated,
    CardDrawn,
    DecisionRequested,
    DeckShuffled,
    DuelCreated,
    Event,
    MonsterSet,
    SeatDeck,
    SpellTrapSet,
)
from engine.rulesets.duel.model.state import Config, DeckList, MonsterRef, SeatConfig, State
from engine.selfplay import next_move, play
from tests.engine.duel.helpers import M, S, given, run

STARTERS = {"seats": [{"deck": "starter_a"}, {"deck": "starter_b"}], "options": {}}


def _board() -> State:
    return given(
        turn=6,
        phase="battle",
        hands={0: ["0-m01", "0-m02"], 1: ["1-m38"]},
        monsters={0: {0: M("0-m18", "fd_defense")}, 1: {0: M("1-m14"), 1: M("1-m21", "fd_defense")}},
        spell_traps={0: {0: S("0-m37")}, 1: {2: S("1-m34", face_up=True, set_turn=4, counters=(("omen", 2),))}},
    )


def test_opponent_sees_counts_and_face_down_shapes() -> None:
    view = msgspec.to_builtins(RULESET.view(_board(), 1))
    a = view["sides"][0]
    assert a["hand"] == {"count": 2} and a["deck"] == {"count": len(_board().sides[0].deck)}
    assert a["extra"] == {"count": 2} and a["side_deck"] == {"count": 3}
    assert a["monsters"][0] == {
        "face_down": True,
        "position": "fd_defense",
        "arrived_turn": 3,
        "position_changed_turn": None,
        "attacked_turn": None,
    }
    assert a["spell_traps"][0] == {"face_down": True, "set_turn": 4}


def test_owner_sees_its_hidden_cards() -> None:
    view = RULESET.view(_board(), 1)
    own = view.sides[1]
    assert [c.instance for c in own.hand.cards] == ["1-m38"]
    assert own.monsters[1].instance == "1-m21" and own.monsters[1].defense == 2100
    assert own.spell_traps[2].counters == {"omen": 2}
    assert view.sides[0].monsters[0].instance is msgspec.UNSET


def test_spectator_sees_neither_hand() -> None:
    view = RULESET.view(_board(), None)
    assert [side.hand.cards for side in view.sides] == [msgspec.UNSET, msgspec.UNSET]
    assert view.sides[1].monsters[1].face_down and view.sides[1].monsters[1].card_id is msgspec.UNSET


def test_attack_on_a_face_down_monster_hides_the_target_from_others() -> None:
    state = given(
        phase="battle",
        monsters={0: {0: M("0-m01")}, 1: {0: M("1-m08", "fd_defense")}},
        spell_traps={1: {0: S("1-m38")}},
    )
    _, state = run(state, 0, DeclareAttack(0, 0))
    assert RULESET.view(state, 0).attack.target is msgspec.UNSET
    assert RULESET.view(state, None).attack.target is msgspec.UNSET
    assert RULESET.view(state, 1).attack.target == "1-m08"
    assert RULESET.view(state, 1).pending.details.trigger == "attack_declared"
    assert RULESET.view(state, 0).pending.details is msgspec.UNSET


def test_setup_events_are_redacted_per_viewer() -> None:
    config = RULESET.configure(STARTERS)
    events = RULESET.setup(config, Rng(ALL_ZERO_SEED, 1))
    created = events[0]
    assert isinstance(created, DuelCreated)
    mine = RULESET.redact(created, 0)
    assert mine.seats[0] == created.seats[0]
    assert mine.seats[1] == SeatDeck(seat=1, main_count=40, extra_count=1, side_count=3)
    assert [s.main_count for s in RULESET.redact(created, None).seats] == [40, 40]
    assert RULESET.redact(events[2], 0) == DeckShuffled(seat=0)
    drawn = events[4]
    assert RULESET.redact(drawn, 0) == drawn
    assert RULESET.redact(drawn, 1) == CardDrawn(seat=0, deck_count=39)


def test_sets_and_decisions_are_redacted_for_others() -> None:
    assert RULESET.redact(MonsterSet(seat=0, slot=1, instance="0-m18", card_id="maw_beetle"), None) == MonsterSet(
        seat=0,
        slot=1,
    )
    assert RULESET.redact(SpellTrapSet(seat=1, slot=0, instance="1-m37", card_id="spiked_snare"), 0) == SpellTrapSet(
        seat=1,
        slot=0,
    )
    asked = DecisionRequested(decision_id=4, seat=0, kind="discard")
    assert encode(RULESET.redact(asked, 1)) == b'{"type":"DecisionRequested","decision_id":4,"seat":0,"kind":"discard"}'


def test_hidden_cards_name_the_other_seats_secrets() -> None:
    state = _board()
    hidden = set(RULESET.hidden_cards(state, 1))
    assert {"0-m01", "0-m02", "0-m18", "0-m37", "0-x01", "0-s01"} <= hidden
    assert not hidden & {"1-m38", "1-m21", "1-m14", "1-m34"}
    assert {"1-m38", "1-m21", "0-m18"} <= set(RULESET.hidden_cards(state, None))


def test_a_card_returned_to_the_hand_stays_public() -> None:
    state = given(
        turn=6,
        monsters={0: {0: M("0-m01")}},
        spell_traps={1: {0: S("1-m38")}},
    )
    events, state = run(state, 1, Activate("1-m38", (MonsterRef(0, 0),)))
    assert state.sides[0].hand == ("0-m01",)
    assert "0-m01" not in RULESET.hidden_cards(state, 1)
    for event in events:
        assert b'"0-m02"' not in encode(RULESET.redact(event, 1))


def _named_to_others(state: State, events: list[Event], seat: int) -> list[tuple[str, list[str]]]:
    """(event type, hidden ids it or the view shows) for every event after which the other seat or a spectator
    could read an id that ``hidden_cards`` still calls secret, folding one event at a time."""
    leaks = []
    for event in events:
        state = RULESET.evolve(state, event)
        for viewer in (1 - seat, None):
            shown = encode(RULESET.redact(event, viewer)) + encode(RULESET.view(state, viewer))
            found = [i for i in RULESET.hidden_cards(state, viewer) if msgspec.json.encode(i) in shown]
            if found:
                leaks.append((type(event).__name__, found))
    return leaks


def test_fusion_choices_reveal_their_cards_from_the_activation_on() -> None:
    state = given(hands={0: ["0-m27", "0-m01", "0-m07"]}, monsters={0: {0: M("0-m04")}})
    choices = Choices(fusion="0-x01", materials=("0-m01", "0-m04"), position="attack")
    events, _ = run(state, 0, Activate("0-m27", (), choices))
    assert _named_to_others(state, events, 0) == []
    assert isinstance(events[0], CardActivated)
    hidden = RULESET.hidden_cards(RULESET.evolve(state, events[0]), 1)
    assert "0-m01" not in hidden and "0-x01" not in hidden
    assert {"0-m07", "0-x02"} <= set(hidden), "cards the activation does not name stay secret"


def test_an_ambush_call_hand_choice_is_revealed_by_the_activation() -> None:
    state = given(hands={1: ["1-m12", "1-m11"]}, monsters={0: {0: M("0-m01")}}, spell_traps={1: {0: S("1-m40")}})
    _, state = run(state, 0, Advance("battle"))
    events, _ = run(state, 1, Activate("1-m40", (), Choices(source="hand", card="1-m12")))
    assert _named_to_others(state, events, 1) == []
    closed, activated = events[:2]
    assert isinstance(activated, CardActivated)
    hidden = RULESET.hidden_cards(RULESET.evolve(RULESET.evolve(state, closed), activated), 0)
    assert "1-m12" not in hidden and "1-m11" in hidden


def test_a_revealed_card_set_face_down_is_secret_again() -> None:
    state = given(turn=7, hands={0: ["0-m01", "0-m30"]}, revealed=("0-m01", "0-m30"))
    assert not {"0-m01", "0-m30"} & set(RULESET.hidden_cards(state, 1))
    events, state = run(state, 0, SetMonster("0-m01"))
    more, state = run(state, 0, SetSpellTrap("0-m30"))
    assert {"0-m01", "0-m30"} <= set(RULESET.hidden_cards(state, 1))
    assert state.revealed == ()
    for event in (*events, *more):
        assert b"0-m" not in encode(RULESET.redact(event, 1))


# --- whole games, event by event ----------------------------------------------------------------------------

EFFECT_DECK = {
    "main": [
        *["recall_gate"] * 3,
        *["ambush_call"] * 3,
        *["dusk_visitation"] * 3,
        *["fusion_rite"] * 3,
        "second_dawn",
        "twin_fortune",
        "omen_dial",
        *["maw_beetle"] * 3,
        *["cinder_wolf"] * 3,
        *["dune_scorpion"] * 3,
        *["glade_sprite"] * 3,
        *["ironhide_boar"] * 3,
        *["shell_sentinel"] * 3,
        *["kneeling_decree"] * 3,
        *["radiant_blade_ward"] * 2,
        *["iron_gauntlet"] * 2,
        *["gale_sweep"] * 2,
        *["bastion_marshal"] * 2,
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
        stored = [EventDecoder(RULESET).decode(type_tag(e), encode(e)) for e in played.events]
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
    stored = [EventDecoder(RULESET).decode(type_tag(e), raw) for e, raw in zip(events, recorded, strict=True)]
    assert [encode(e) for e in create(RULESET, EFFECTS, ["a", "b"], seed)] == recorded[: commands[0][2]]
    again = fold(RULESET, stored[: commands[0][2]])
    for actor, raw, first, end in commands:
        assert [encode(e) for e in decide(RULESET, again, actor, raw, seed).events] == recorded[first:end]
        again = apply(RULESET, again, stored[first:end])
    assert encode(again.state) == encode(match.state)
