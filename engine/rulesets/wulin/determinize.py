"""A state a wulin seat could be in, from its view alone (docs/rulesets/wulin.md §11, D32): the search bot's sample.

Graveyards, face-up cards and the seat's own hand and face-down cards are shown; libraries, the opponent's hand and
face-down cards are not, and deck lists are not public. The unseen identities of each seat are guessed from the
preset closest to what was seen (its hero attribute first), a face-down card always of a kind its zone holds; the
unseen instance ids are dealt among the hidden places at random.
"""

from __future__ import annotations

import random

from engine.rulesets.wulin.data import PRESET_ATTRIBUTES, PRESETS, SKILL_IDS
from engine.rulesets.wulin.model import State, View
from engine.rulesets.wulin.model.state import FieldCard, Side
from engine.rulesets.wulin.model.views import FieldView, SideView
from engine.search.determinize import deal, guess_unseen, unaccounted


def _shown(card: FieldView) -> FieldCard | None:
    if card.iid is None or card.card_id is None:
        return None
    return FieldCard(
        card.iid,
        card.card_id,
        card.face_up,
        card.played_phase,
        card.acted_phase,
        card.attacked_phase,
        card.temp_atk,
        card.temp_def,
    )


def _take(cards: list[str], fits: bool) -> str:
    """The first unseen identity of the kind a face-down slot holds (skill or not), else any of that kind."""
    for k, card in enumerate(cards):
        if (card in SKILL_IDS) == fits:
            return cards.pop(k)
    cards.pop()  # the guess had none of that kind: one of another kind makes way, so the count stays
    return next(c for deck in PRESETS.values() for c in deck if (c in SKILL_IDS) == fits)


def _side(v: SideView, card_ids: dict[str, str], rng: random.Random) -> Side:
    zones = (*v.skill_zone, *v.battle_zone)
    hand = v.hand or ()
    seen = [*(c.card_id for c in hand), *(c.card_id for c in v.graveyard), *(c.card_id for c in zones if c.card_id)]
    hidden_field = sum(1 for c in zones if c.iid is None)
    unseen = v.library_count + (0 if v.hand is not None else v.hand_count) + hidden_field
    decks = [d for name, d in PRESETS.items() if PRESET_ATTRIBUTES[name] == v.hero_attribute] or list(PRESETS.values())
    identities = guess_unseen(seen, unseen, decks, rng)
    total = len(seen) + unseen
    shown_iids = [*(c.iid for c in hand), *(c.iid for c in v.graveyard), *(c.iid for c in zones if c.iid)]
    iids = unaccounted((f"p{v.seat}-{i:02d}" for i in range(total)), shown_iids)
    rng.shuffle(iids)
    for c in (*hand, *v.graveyard):
        card_ids[c.iid] = c.card_id

    def place(card: FieldView, skill: bool) -> FieldCard:
        shown = _shown(card)
        if shown is not None:
            card_ids[shown.iid] = shown.card_id
            return shown
        iid, card_id = iids.pop(), _take(identities, skill)
        card_ids[iid] = card_id
        return FieldCard(iid, card_id, False, card.played_phase)

    skill_zone = tuple(place(c, True) for c in v.skill_zone)
    battle_zone = tuple(place(c, False) for c in v.battle_zone)
    for iid, card_id in zip(iids, identities, strict=True):
        card_ids[iid] = card_id
    if v.hand is not None:
        (library,) = deal(iids, [v.library_count], rng)
        own = tuple(c.iid for c in hand)
    else:
        own, library = deal(iids, [v.hand_count, v.library_count], rng)
    return Side(
        v.hp,
        v.max_hp,
        v.qi,
        v.hero_attribute,
        library,
        own,
        skill_zone,
        battle_zone,
        v.graveyard,
        v.idle_streak,
        v.timeouts,
        v.truce_proposals_used,
        v.actions,
        v.consumable_used,
        v.play_used,
        v.discard_used,
        v.battle_flip_used,
    )


def determinize(v: View, seat: int, rng: random.Random) -> State:
    """A state whose ``view(state, seat)`` is ``v``, the hidden cards dealt from those unaccounted for."""
    card_ids: dict[str, str] = {}
    sides = tuple(_side(s, card_ids, rng) for s in v.sides)
    return State(
        v.options,
        sides,
        card_ids,
        v.status,
        v.result,
        v.phase_no,
        v.active_seat,
        v.first_seat,
        v.pending,
        v.truce_offer,
        v.clock,
        v.next_ref,
        v.open_attack,
    )
