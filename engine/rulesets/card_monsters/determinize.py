"""A state a Card Monsters seat could be in, from its view alone (card_monsters.md §11): the search bot's sample.

Deck lists are public (D31), so every instance's identity is known; what the view hides is where each unseen
instance lies. A seat's instances not on the field, in the discard or in the viewer's own hand are dealt among its
hand (for the opponent) and its pile, monsters and items apart, in random order.
"""

from __future__ import annotations

import random

from engine.rulesets.card_monsters.data import CATALOG, MonsterCard
from engine.rulesets.card_monsters.model import Monster, Options, Side, SideView, State, View
from engine.rulesets.card_monsters.setup import instance_id
from engine.search.determinize import deal, unaccounted


def _side(v: SideView, mine: bool, card_ids: dict[str, str], rng: random.Random) -> Side:
    field: list[Monster | None] = [None, None, None]
    for m in v.field:
        field[m.position - 1] = Monster(m.card, m.card_id, m.hp, m.max_hp, m.equipment, m.equipment_id)
    own_monsters = tuple(c.card for c in v.hand_monsters or ())
    own_items = tuple(c.card for c in v.hand_items or ())
    seen = (
        *own_monsters,
        *own_items,
        *(c.card for c in v.discard),
        *(m.card for m in v.field),
        *(m.equipment for m in v.field if m.equipment is not None),
    )
    unseen = unaccounted((instance_id(v.seat, i) for i in range(len(v.deck))), seen)
    monsters = [c for c in unseen if isinstance(CATALOG[card_ids[c]], MonsterCard)]
    items = [c for c in unseen if not isinstance(CATALOG[card_ids[c]], MonsterCard)]
    if mine:
        (monster_pile,) = deal(monsters, [v.monster_pile], rng)
        (item_pile,) = deal(items, [v.item_pile], rng)
    else:
        own_monsters, monster_pile = deal(monsters, [v.hand_monster_count, v.monster_pile], rng)
        own_items, item_pile = deal(items, [v.hand_item_count, v.item_pile], rng)
    return Side(
        monster_pile=monster_pile,
        item_pile=item_pile,
        hand_monsters=own_monsters,
        hand_items=own_items,
        field=tuple(field),
        discard=tuple(c.card for c in v.discard),
        crystals=v.crystals,
        sacrifice_used=v.sacrifice_used,
        losses=v.losses,
    )


def determinize(v: View, seat: int, rng: random.Random) -> State:
    """A state whose ``view(state, seat)`` is ``v``, the hidden cards dealt from those unaccounted for."""
    decks = tuple(s.deck for s in v.sides)
    card_ids = {instance_id(s, i): card for s, deck in enumerate(decks) for i, card in enumerate(deck)}
    return State(
        options=Options(turn_seconds=v.turn_seconds, crystal_cap=v.crystal_cap, max_turns=v.max_turns),
        decks=decks,
        card_ids=card_ids,
        sides=tuple(_side(s, s.seat == seat, card_ids, rng) for s in v.sides),
        turn=v.turn,
        active=v.active,
        status=v.status,
        result=v.result,
    )
