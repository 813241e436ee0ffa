"""The greedy bot's one-ply heuristic for voidlink, from the bot's view only.

It develops the board, attacks when the battle favours it, and answers in response windows: it negates attacks
and links, flips attackers out of their system and blocks lethal damage, instead of always passing.
"""

from __future__ import annotations

from typing import Any

from engine.rulesets.voidlink.data import CATALOG, MonsterCard, MythCard
from engine.rulesets.voidlink.model import View
from engine.rulesets.voidlink.model.commands import (
    ActivateCombination,
    ActivateCommander,
    ActivateMagic,
    ActivateMonsterEffect,
    ActivateTactics,
    ChangeForm,
    Concede,
    DeclareAttack,
    Discard,
    EndTurn,
    GoToBattle,
    MythSummon,
    NormalSummon,
    Pass,
    SetMagic,
    Timeout,
    TributeSummon,
)
from engine.rulesets.voidlink.model.views import MonsterView

# Preference by catalog id for activations: answers (negations, flips) are worth the most in a window.
_ACTIVATION = {
    "VL-T01": 8.0,
    "VL-T02": 7.0,
    "VL-T03": 4.0,
    "VL-T04": 5.0,
    "VL-T05": 6.0,
    "VL-T06": 6.0,
    "VL-T07": 3.0,
    "VL-G01": 3.0,
    "VL-G02": 1.0,
    "VL-G03": 4.0,
    "VL-G04": 2.0,
    "VL-G05": 6.0,
    "VL-G06": 1.5,
    "VL-Y01": 5.0,
    "VL-C01": 3.0,
    "VL-C02": 3.0,
    "VL-M04": 2.0,
}


def greedy_score(view: View, command: Any) -> float:
    """One-ply preference: summon big, attack to win battles, respond when it helps; pass or end otherwise."""
    assert view.viewer is not None
    me = view.players[view.viewer]
    foe = view.players[1 - view.viewer]
    match command:
        case NormalSummon(form=form) | TributeSummon(form=form) | MythSummon(form=form):
            card_id = _card_id(me.hand or (), command.card) or _card_id(me.extra or (), command.card)
            return 4.0 + _printed_atk(card_id, form) / 500.0 - (0.5 if form.endswith("defence") else 0.0)
        case DeclareAttack(attacker=attacker, target=target):
            mine = _monster(me.monsters, attacker)
            if mine is None:
                return 0.0
            if target is None:
                return 5.0 + mine.atk / 1000.0
            theirs = _monster(foe.monsters, target)
            if theirs is None:
                return 0.0
            guard = theirs.atk if theirs.form.endswith("attack") else theirs.def_
            return 3.0 + (mine.atk - guard) / 500.0 if mine.atk > guard else -3.0
        case ActivateTactics(card=card) | ActivateMagic(card=card) | ActivateCombination(card=card):
            card_id = _card_id((*(me.hand or ()), *(me.tactics or ()), *(me.extra or ())), card)
            if card_id is None:
                card_id = next((s.card_id for s in me.magic if s.card == card), None)
            return _ACTIVATION.get(card_id or "", 1.0)
        case ActivateCommander():
            return _ACTIVATION.get(me.commander.card_id if me.commander else "", 1.0)
        case ActivateMonsterEffect():
            return 2.0
        case SetMagic():
            return 0.5
        case GoToBattle():
            return 1.0 if any(m.form.endswith("attack") and not m.attacked for m in me.monsters) else -1.0
        case ChangeForm():
            return -0.5
        case Pass() | EndTurn() | Discard():
            return 0.0
        case Concede() | Timeout():
            return -1000.0
    return 0.0


def _card_id(cards: Any, card: str) -> str | None:
    for ref in cards:
        if ref.card == card:
            return str(ref.card_id)
    return None


def _monster(monsters: tuple[MonsterView, ...], card: str) -> MonsterView | None:
    return next((m for m in monsters if m.card == card), None)


def _printed_atk(card_id: str | None, form: str) -> int:
    entry = CATALOG.get(card_id or "")
    if isinstance(entry, MythCard):
        return entry.atk
    if isinstance(entry, MonsterCard):
        return (entry.faces.void if form.startswith("void") else entry.faces.reality).atk
    return 0
