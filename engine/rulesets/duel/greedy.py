"""The greedy bot's one-ply heuristic: it sees only its view (duel.md §11) and the command."""

from __future__ import annotations

from typing import Any

from engine.rulesets.duel.data import CATALOG, Card, Destroy, ReturnToHand
from engine.rulesets.duel.model.commands import (
    Activate,
    Advance,
    ChangePosition,
    ChooseTarget,
    DeclareAttack,
    Discard,
    FlipSummon,
    NormalSummon,
    ReplayAttack,
    SetMonster,
    SetSpellTrap,
)
from engine.rulesets.duel.model.state import GraveyardRef, MonsterRef, SpellTrapRef
from engine.rulesets.duel.model.views import MonsterView, View

_HOSTILE = frozenset(
    card.id
    for card in CATALOG.values()
    if (card.effect.activate and any(isinstance(s, Destroy | ReturnToHand) for s in card.effect.activate.steps))
    or card.id in ("dusk_visitation", "kneeling_decree")
)
"""Cards whose target should be the opponent's."""


def greedy_score(view: View, command: Any) -> float:
    """Higher is better: develop the field, attack when it wins, aim hostile effects at the opponent."""
    me = view.viewer if view.viewer is not None else view.turn_seat
    match command:
        case NormalSummon(card=card, tributes=tributes):
            return 50 + _hand_card(view, me, card).atk / 100 - 15 * len(tributes)
        case SetMonster(card=card, tributes=tributes):
            return 30 + _hand_card(view, me, card).defense / 200 - 15 * len(tributes)
        case FlipSummon():
            return 40.0
        case ChangePosition():
            return 1.0
        case SetSpellTrap(card=card):
            return 25.0 if _hand_card(view, me, card).category == "trap" else 5.0
        case Activate():
            return _activation(view, me, command)
        case Advance(to=to):
            return {"battle": 20.0, "main2": 3.0, "end": 0.0}[to]
        case DeclareAttack(attacker=slot, target=target):
            return _attack(view, me, slot, target)
        case ReplayAttack(target=target):
            attack = view.attack
            return _attack(view, me, attack.attacker_slot if attack else 0, target)
        case ChooseTarget(target=target):
            return _target(view, me, target, hostile=True)
        case Discard(card=card):
            return -_hand_card(view, me, card).atk / 100
        case _:
            return 0.0


def _hand_card(view: View, me: int, instance: str) -> Card:
    cards = view.sides[me].hand.cards
    card_id = next((c.card_id for c in cards if c.instance == instance), None) if isinstance(cards, tuple) else None
    return CATALOG[card_id] if card_id else CATALOG["glade_sprite"]


def _activation(view: View, me: int, command: Activate) -> float:
    card_id = _field_or_hand_id(view, me, command.card)
    score = 45.0
    for target in command.targets:
        score += _target(view, me, target, hostile=card_id in _HOSTILE)
    return score


def _field_or_hand_id(view: View, me: int, instance: str) -> str:
    side = view.sides[me]
    for card in side.spell_traps:
        if card is not None and card.instance == instance and isinstance(card.card_id, str):
            return card.card_id
    return _hand_card(view, me, instance).id


def _target(view: View, me: int, target: Any, hostile: bool) -> float:
    if isinstance(target, MonsterRef | SpellTrapRef):
        theirs = target.seat != me
        bonus = 0.0
        if isinstance(target, MonsterRef):
            monster = view.sides[target.seat].monsters[target.slot]
            bonus = _known_atk(monster) / 200
        return (30.0 + bonus) if theirs == hostile else -30.0
    if isinstance(target, GraveyardRef):
        card_ids = [c.card_id for side in view.sides for c in side.graveyard if c.instance == target.instance]
        return CATALOG[card_ids[0]].atk / 100 if card_ids else 0.0
    return 0.0


def _known_atk(monster: MonsterView | None) -> int:
    if monster is None or not isinstance(monster.atk, int):
        return 1000
    return monster.atk


def _attack(view: View, me: int, slot: int, target: int | None) -> float:
    attacker = view.sides[me].monsters[slot]
    mine = _known_atk(attacker)
    if target is None:
        return 100.0
    defender = view.sides[1 - me].monsters[target]
    if defender is None or defender.face_down or not isinstance(defender.atk, int):
        return 15.0
    value = defender.atk if defender.position == "fu_attack" else defender.defense
    assert isinstance(value, int)
    return 60.0 + (mine - value) / 100 if mine > value else -10.0
