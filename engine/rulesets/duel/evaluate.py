"""The search bot's score of a position it stops playing out (duel.md §11 view): life, field and cards in hand."""

from __future__ import annotations

import math

from engine.rulesets.duel.model.views import MonsterView, SideView, View

FACE_DOWN = 1000
"""What a face-down monster is worth when its card is hidden: a typical defender."""


def evaluate(view: View, seat: int) -> float:
    """The seat's chance to win in [0, 1] as a logistic of its lead, in life points and in their equivalents:
    the strength of its monsters and its cards in hand and set (each a future play)."""
    if view.result is not None:
        return 0.5 if view.result.winner is None else float(view.result.winner == seat)
    lead = _worth(view.sides[seat]) - _worth(view.sides[1 - seat])
    return 1 / (1 + math.exp(-lead / view.options.starting_lp * 3))


def _worth(side: SideView) -> float:
    cards = side.hand.count + sum(1 for c in side.spell_traps if c is not None)
    return side.lp + sum(_monster(m) for m in side.monsters if m is not None) + 400 * cards


def _monster(m: MonsterView) -> float:
    if m.face_down or not isinstance(m.atk, int) or not isinstance(m.defense, int):
        return FACE_DOWN
    return m.atk if m.position == "fu_attack" else m.defense
