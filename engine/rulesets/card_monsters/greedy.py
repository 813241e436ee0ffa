"""The greedy bot's one-ply heuristic for card_monsters, from the bot's view alone."""

from __future__ import annotations

from typing import Any

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
    CardView,
    Concede,
    Engage,
    Equip,
    MonsterView,
    PlayMonster,
    Sacrifice,
    Timeout,
    UseConsumable,
    View,
)


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
