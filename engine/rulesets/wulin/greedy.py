"""The greedy bot's one-ply heuristic for wulin, from the bot's view only.

It fights whenever it can: it defends and blocks rather than take damage, prefers the attack with the most
total attack (so a joint attack beats its members alone), and never offers or accepts a truce.
"""

from __future__ import annotations

from typing import Any

from engine.rulesets.wulin.data import CATALOG, QiCard, SecretArtCard
from engine.rulesets.wulin.model import View
from engine.rulesets.wulin.model.commands import (
    AcceptTruce,
    Attack,
    Block,
    ChooseLoss,
    Concede,
    Defend,
    DiscardCard,
    EndPhase,
    FlipCard,
    NoBlock,
    NoDefence,
    PlayCard,
    ProposeTruce,
    RejectTruce,
    UseCard,
)
from engine.rulesets.wulin.model.views import FieldView


def greedy_score(view: View, command: Any) -> float:
    """Higher is better; ties are broken at random by the bot."""
    assert view.viewer is not None
    own = view.sides[view.viewer]
    match command:
        case Attack(cards=cards):
            return 20.0 + _total(own.battle_zone, cards, "atk")
        case Defend(cards=cards):
            return 50.0 + _total(own.battle_zone, cards, "def") - 5.0 * len(cards)
        case Block():
            return 40.0
        case UseCard(card=card):
            entry = CATALOG[_card_id(own.hand, card)]
            if isinstance(entry, QiCard):
                return 70.0 if own.qi < 60 else 8.0
            return 25.0 if isinstance(entry, SecretArtCard) else 18.0
        case FlipCard():
            return 30.0
        case PlayCard():
            return 28.0
        case ChooseLoss() | NoDefence() | NoBlock() | EndPhase():
            return 0.0
        case DiscardCard():
            return -5.0
        case RejectTruce():
            return 1.0
        case AcceptTruce() | ProposeTruce():
            return -50.0
        case Concede():
            return -1000.0
    return 0.0


def _total(zone: tuple[FieldView, ...], cards: tuple[str, ...], stat: str) -> float:
    return float(sum(c.actual_atk if stat == "atk" else c.actual_def for c in zone if c.iid in cards))


def _card_id(hand: Any, iid: str) -> str:
    for card in hand or ():
        if card.iid == iid:
            return str(card.card_id)
    raise ValueError(f"{iid} is not in the viewer's hand")
