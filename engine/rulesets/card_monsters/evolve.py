"""The fold of card_monsters: ``evolve(state, event) -> state`` and nothing else (card_monsters.md §5-§10).

Events carry their results (totals, hp, the drawn card), so the fold only places them; it validates
nothing and needs no RNG. Cases are ordered by how often they occur in play.
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

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
    match event:
        case CrystalsGained(seat=s, total=total):
            return _with_side(state, s, replace(state.sides[s], crystals=total))
        case CardDrawn(seat=s, pile=pile, card=card):
            return _with_side(state, s, _draw(state.sides[s], pile, card))
        case AttackHit(target_seat=s, target_position=p, hp=hp) | EffectHit(target_seat=s, target_position=p, hp=hp):
            return _with_side(state, s, _set_hp(state.sides[s], p, hp))
        case TurnStarted(turn=turn, seat=s):
            state = replace(state, turn=turn, active=s, status=MAIN)
            return _with_side(state, s, replace(state.sides[s], sacrifice_used=False))
        case TurnEnded():
            return state
        case MonsterPlayed(seat=s, card=card, card_id=card_id, position=p, crystals=crystals):
            return _with_side(state, s, _play(state.sides[s], card, card_id, p, crystals))
        case EquipmentAttached():
            return _with_side(state, event.seat, _attach(state.sides[event.seat], event))
        case ConsumableUsed(seat=s, card=card, crystals=crystals):
            side = state.sides[s]
            side = replace(
                side, hand_items=drop(side.hand_items, card), discard=(*side.discard, card), crystals=crystals
            )
            return _with_side(state, s, side)
        case MonsterHealed(seat=s, position=p, hp=hp):
            return _with_side(state, s, _set_hp(state.sides[s], p, hp))
        case MonsterDestroyed(seat=s, position=p):
            side = _remove(state.sides[s], p)
            return _with_side(state, s, replace(side, losses=side.losses + 1))
        case MonsterMoved(seat=s, from_=origin, to=to):
            return _with_side(state, s, _move(state.sides[s], origin, to))
        case Sacrificed():
            return _with_side(state, event.seat, _sacrifice(state.sides[event.seat], event))
        case MatchEnded(result=result, winner=winner, reason=reason, losses=losses):
            return replace(state, status=OVER, result=Result(result, winner, reason, losses))
        case PileShuffled(seat=s, pile=pile, order=order):
            assert order is not None, "the fold takes full events, never a viewer's redacted copy"
            side = state.sides[s]
            side = replace(side, monster_pile=order) if pile == "monster" else replace(side, item_pile=order)
            return _with_side(state, s, side)
        case FirstPlayerChosen(seat=s):
            return replace(state, active=s)
        case _:
            assert_never(event)


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
