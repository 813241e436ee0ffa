"""The fold of card_monsters: ``evolve(state, event) -> state`` and nothing else (card_monsters.md §5-§10).

Events carry their results (totals, hp, the drawn card), so the fold only places them; it validates
nothing and needs no RNG.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.dispatch import by_type
from engine.rulesets.card_monsters.data import CATALOG, MonsterCard
from engine.rulesets.card_monsters.model import (
    MAIN,
    OVER,
    AttackHit,
    CardDrawn,
    ConsumableUsed,
    CrystalsGained,
    EffectHit,
    EquipmentAttached,
    Event,
    FirstPlayerChosen,
    MatchEnded,
    Monster,
    MonsterDestroyed,
    MonsterHealed,
    MonsterMoved,
    MonsterPlayed,
    PileShuffled,
    Result,
    Sacrificed,
    Side,
    State,
    TurnEnded,
    TurnStarted,
)
from engine.tuples import drop


def evolve(state: State, event: Event) -> State:
    """The state after ``event``."""
    return _FOLDS[type(event)](state, event)


# One function per event type, found by one lookup on the exact type. A match statement tried its class
# patterns in turn, each miss an isinstance call on a msgspec class, and the fold took twice as long.


def _crystals_gained(state: State, event: CrystalsGained) -> State:
    s = event.seat
    return _with_side(state, s, replace(state.sides[s], crystals=event.total))


def _card_drawn(state: State, event: CardDrawn) -> State:
    s = event.seat
    return _with_side(state, s, _draw(state.sides[s], event.pile, event.card))


def _hit(state: State, event: AttackHit | EffectHit) -> State:
    s = event.target_seat
    return _with_side(state, s, _set_hp(state.sides[s], event.target_position, event.hp))


def _turn_started(state: State, event: TurnStarted) -> State:
    s = event.seat
    state = replace(state, turn=event.turn, active=s, status=MAIN)
    return _with_side(state, s, replace(state.sides[s], sacrifice_used=False))


def _turn_ended(state: State, event: TurnEnded) -> State:
    return state


def _monster_played(state: State, event: MonsterPlayed) -> State:
    s = event.seat
    return _with_side(state, s, _play(state.sides[s], event.card, event.card_id, event.position, event.crystals))


def _equipment_attached(state: State, event: EquipmentAttached) -> State:
    return _with_side(state, event.seat, _attach(state.sides[event.seat], event))


def _consumable_used(state: State, event: ConsumableUsed) -> State:
    s, card = event.seat, event.card
    side = state.sides[s]
    side = replace(side, hand_items=drop(side.hand_items, card), discard=(*side.discard, card), crystals=event.crystals)
    return _with_side(state, s, side)


def _monster_healed(state: State, event: MonsterHealed) -> State:
    s = event.seat
    return _with_side(state, s, _set_hp(state.sides[s], event.position, event.hp))


def _monster_destroyed(state: State, event: MonsterDestroyed) -> State:
    s = event.seat
    side = _remove(state.sides[s], event.position)
    return _with_side(state, s, replace(side, losses=side.losses + 1))


def _monster_moved(state: State, event: MonsterMoved) -> State:
    s = event.seat
    return _with_side(state, s, _move(state.sides[s], event.from_, event.to))


def _sacrificed(state: State, event: Sacrificed) -> State:
    return _with_side(state, event.seat, _sacrifice(state.sides[event.seat], event))


def _match_ended(state: State, event: MatchEnded) -> State:
    return replace(state, status=OVER, result=Result(event.result, event.winner, event.reason, event.losses))


def _pile_shuffled(state: State, event: PileShuffled) -> State:
    order = event.order
    assert order is not None, "the fold takes full events, never a viewer's redacted copy"
    s = event.seat
    side = state.sides[s]
    side = replace(side, monster_pile=order) if event.pile == "monster" else replace(side, item_pile=order)
    return _with_side(state, s, side)


def _first_player_chosen(state: State, event: FirstPlayerChosen) -> State:
    return replace(state, active=event.seat)


_FOLDS: dict[type, Callable[[State, Any], State]] = by_type(
    Event,
    {
        CrystalsGained: _crystals_gained,
        CardDrawn: _card_drawn,
        AttackHit: _hit,
        EffectHit: _hit,
        TurnStarted: _turn_started,
        TurnEnded: _turn_ended,
        MonsterPlayed: _monster_played,
        EquipmentAttached: _equipment_attached,
        ConsumableUsed: _consumable_used,
        MonsterHealed: _monster_healed,
        MonsterDestroyed: _monster_destroyed,
        MonsterMoved: _monster_moved,
        Sacrificed: _sacrificed,
        MatchEnded: _match_ended,
        PileShuffled: _pile_shuffled,
        FirstPlayerChosen: _first_player_chosen,
    },
)


def _with_side(state: State, seat: int, side: Side) -> State:
    sides = (side, state.sides[1]) if seat == 0 else (state.sides[0], side)
    return replace(state, sides=sides)


def _with_field(side: Side, position: int, monster: Monster | None) -> Side:
    one, two, three = side.field
    if position == 1:
        return replace(side, field=(monster, two, three))
    if position == 2:
        return replace(side, field=(one, monster, three))
    return replace(side, field=(one, two, monster))


def _draw(side: Side, pile: str, card: str | None) -> Side:
    assert card is not None, "the fold takes full events, never a viewer's redacted copy"
    if pile == "monster":
        return replace(side, monster_pile=side.monster_pile[1:], hand_monsters=(*side.hand_monsters, card))
    return replace(side, item_pile=side.item_pile[1:], hand_items=(*side.hand_items, card))


def _set_hp(side: Side, position: int, hp: int) -> Side:
    monster = side.field[position - 1]
    assert monster is not None
    return _with_field(side, position, replace(monster, hp=hp))


def _play(side: Side, card: str, card_id: str, position: int, crystals: int) -> Side:
    entry = CATALOG[card_id]
    assert isinstance(entry, MonsterCard)
    side = replace(side, hand_monsters=drop(side.hand_monsters, card), crystals=crystals)
    return _with_field(side, position, Monster(card, card_id, entry.max_hp, entry.max_hp))


def _attach(side: Side, event: EquipmentAttached) -> Side:
    monster = side.field[event.position - 1]
    assert monster is not None
    discard = side.discard if event.replaced is None else (*side.discard, event.replaced)
    side = replace(side, hand_items=drop(side.hand_items, event.card), discard=discard, crystals=event.crystals)
    monster = replace(monster, hp=event.hp, max_hp=event.max_hp, equipment=event.card, equipment_id=event.card_id)
    return _with_field(side, event.position, monster)


def _remove(side: Side, position: int) -> Side:
    """The monster at ``position`` leaves the field; it, then its equipment, go to discard (§8.4, §8.6)."""
    monster = side.field[position - 1]
    assert monster is not None
    gone = (monster.card,) if monster.equipment is None else (monster.card, monster.equipment)
    return _with_field(replace(side, discard=(*side.discard, *gone)), position, None)


def _move(side: Side, origin: int, to: int) -> Side:
    monster = side.field[origin - 1]
    return _with_field(_with_field(side, to, monster), origin, None)


def _sacrifice(side: Side, event: Sacrificed) -> Side:
    side = replace(side, sacrifice_used=True)
    if event.position is not None:
        return _remove(side, event.position)
    discard = (*side.discard, event.card)
    if event.card in side.hand_monsters:
        return replace(side, hand_monsters=drop(side.hand_monsters, event.card), discard=discard)
    return replace(side, hand_items=drop(side.hand_items, event.card), discard=discard)
