"""What each viewer may see in card_monsters (card_monsters.md §11), and the greedy bot's heuristic.

``view`` builds every field explicitly (opt-in); ``redact`` names every event type. Piles are counts for
everyone, hands are cards for their owner and counts for everyone else, the rest is public.
"""

from __future__ import annotations

from typing import Any, assert_never

from msgspec.structs import replace

from engine.contract import Viewer
from engine.rulesets.card_monsters.data import (
    CATALOG,
    PROFILES,
    AddAttack,
    AddMaxHp,
    ConsumableCard,
    Damage,
    EquipmentCard,
    GainCrystals,
    Heal,
    MonsterCard,
)
from engine.rulesets.card_monsters.model import (
    POSITIONS,
    AttackHit,
    CardDrawn,
    CardView,
    Concede,
    ConsumableUsed,
    CrystalsGained,
    EffectHit,
    Engage,
    Equip,
    EquipmentAttached,
    Event,
    FirstPlayerChosen,
    MatchEnded,
    Monster,
    MonsterDestroyed,
    MonsterHealed,
    MonsterMoved,
    MonsterPlayed,
    MonsterView,
    PileShuffled,
    PlayMonster,
    Sacrifice,
    Sacrificed,
    SideView,
    State,
    Timeout,
    TurnEnded,
    TurnStarted,
    UseConsumable,
    View,
)


def view(state: State, viewer: Viewer) -> View:
    """The match as ``viewer`` (a seat, or None for a spectator) may see it."""
    options = state.options
    return View(
        viewer=viewer,
        turn=state.turn,
        active=state.active,
        status=state.status,
        turn_seconds=options.turn_seconds,
        max_turns=options.max_turns,
        crystal_cap=options.crystal_cap,
        result=state.result,
        sides=(_side_view(state, 0, viewer), _side_view(state, 1, viewer)),
    )


def _side_view(state: State, seat: int, viewer: Viewer) -> SideView:
    side = state.sides[seat]
    is_owner = viewer == seat
    return SideView(
        seat=seat,
        deck=state.decks[seat],  # D31: deck lists are public
        crystals=side.crystals,
        sacrifice_used=side.sacrifice_used,
        losses=side.losses,
        monster_pile=len(side.monster_pile),
        item_pile=len(side.item_pile),
        hand_monster_count=len(side.hand_monsters),
        hand_item_count=len(side.hand_items),
        hand_monsters=_cards(state, side.hand_monsters) if is_owner else None,
        hand_items=_cards(state, side.hand_items) if is_owner else None,
        field=tuple([_monster_view(p, m) for p, m in zip(POSITIONS, side.field) if m is not None]),
        discard=_cards(state, side.discard),
    )


def _cards(state: State, cards: tuple[str, ...]) -> tuple[CardView, ...]:
    card_ids = state.card_ids
    return tuple([CardView(card, card_ids[card]) for card in cards])


def _monster_view(position: int, monster: Monster) -> MonsterView:
    """A field monster with its live effective attacks and traits (§3.3)."""
    profile = PROFILES[monster.card_id, monster.equipment_id]
    entry = CATALOG[monster.card_id]
    assert isinstance(entry, MonsterCard)
    magic, ranged, melee, random = profile.values
    return MonsterView(
        position=position,
        card=monster.card,
        card_id=monster.card_id,
        colour=entry.colour,
        hp=monster.hp,
        max_hp=monster.max_hp,
        equipment=monster.equipment,
        equipment_id=monster.equipment_id,
        magic=magic,
        ranged=ranged,
        melee=melee,
        random=random,
        traits=profile.trait_names,
    )


def redact(event: Event, viewer: Viewer) -> Event:
    """``event`` as ``viewer`` may see it (§11): pile orders for nobody, drawn cards for the drawer only."""
    match event:
        case PileShuffled():
            return replace(event, order=None)
        case CardDrawn(seat=seat):
            return event if viewer == seat else replace(event, card=None, card_id=None)
        case (
            FirstPlayerChosen()
            | TurnStarted()
            | CrystalsGained()
            | MonsterPlayed()
            | EquipmentAttached()
            | ConsumableUsed()
            | MonsterHealed()
            | EffectHit()
            | Sacrificed()
            | TurnEnded()
            | AttackHit()
            | MonsterDestroyed()
            | MonsterMoved()
            | MatchEnded()
        ):
            return event
        case _:
            assert_never(event)


def hidden_cards(state: State, viewer: Viewer) -> list[str]:
    """Instance ids ``viewer`` may not identify: every pile card, and the hands of the other seats."""
    hidden: list[str] = []
    for seat, side in enumerate(state.sides):
        hidden.extend(side.monster_pile)
        hidden.extend(side.item_pile)
        if seat != viewer:
            hidden.extend(side.hand_monsters)
            hidden.extend(side.hand_items)
    return hidden


def greedy_score(view: View, command: Any) -> float:
    """One-ply preference from the view alone: deploy, equip and hit; engage when nothing helps."""
    assert view.viewer is not None
    own = view.sides[view.viewer]
    match command:
        case Sacrifice():
            return -5.0  # crystals now for a card gone for good: never worth it one ply ahead
        case Engage():
            return 0.0
        case PlayMonster(card=card):
            return _DEPLOY_SCORES[_card_id(own.hand_monsters, card)]
        case Equip(card=card, position=position):
            return _equip_score(_at(own.field, position), CATALOG[_card_id(own.hand_items, card)])
        case UseConsumable(card=card, target_position=target):
            enemy = view.sides[1 - view.viewer]
            return _consumable_score(own.field, enemy.field, CATALOG[_card_id(own.hand_items, card)], target)
        case Concede() | Timeout():
            return -1000.0
    return 0.0


_DEPLOY_SCORES = {
    card.id: 10.0 + sum(PROFILES[card.id, None].values) for card in CATALOG.values() if isinstance(card, MonsterCard)
}


def _card_id(cards: tuple[CardView, ...] | None, card: str) -> str:
    for entry in cards or ():
        if entry.card == card:
            return entry.card_id
    raise ValueError(f"{card} is not in the viewer's hand")


def _at(field: tuple[MonsterView, ...], position: int | None) -> MonsterView | None:
    for monster in field:
        if monster.position == position:
            return monster
    return None


def _equip_score(monster: MonsterView | None, entry: Any) -> float:
    assert isinstance(entry, EquipmentCard)
    # a granted trait (no amount) is valued like a small attack bonus
    gain = sum(m.amount for m in entry.modifiers if isinstance(m, AddAttack | AddMaxHp)) or 2
    return 4.0 + gain - (6.0 if monster is not None and monster.equipment is not None else 0.0)


def _consumable_score(
    own: tuple[MonsterView, ...], enemy: tuple[MonsterView, ...], entry: Any, target: int | None
) -> float:
    assert isinstance(entry, ConsumableCard)
    effect = entry.effect
    if isinstance(effect, GainCrystals):
        return 1.0
    if isinstance(effect, Heal):
        monster = _at(own, target)
        return float(min(effect.amount, monster.max_hp - monster.hp)) - 1.0 if monster else -1.0
    assert isinstance(effect, Damage)
    monster = _at(enemy, target)
    return 5.0 + (10.0 if monster and monster.hp <= effect.amount else 0.0)
