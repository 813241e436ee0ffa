"""The greedy bot's one-ply heuristic for aq, from the bot's view alone."""

from __future__ import annotations

from engine.rulesets.aq.data import ATTACK, SKILLS, allowance
from engine.rulesets.aq.model import Command, CoverReserve, Draw, EndPhase, LearnSkill, PlayCard, UseSkill, View

_SKILL_VALUE = {
    "reverse_direction": 1.0,
    "skip_next_phase": 1.0,
    "all_playable_this_phase": 0.5,
    "target_draws_from_field": 3.0,
    "set_reserve_cap_this_phase": 0.5,
}
"""Skills without a card: small fixed preferences (Burden hands an opponent a card that scores against it)."""


def greedy_score(v: View, command: Command) -> float:
    """One-ply value for the viewer: shedding hand cards gains their attack, covering gains it twice (§8.6)."""
    match command:
        case PlayCard(card=c):
            bonus = 3 * allowance(c, v.field[-1], v.reserve_cap) if v.pending and v.pending.step == "main" else 0
            return ATTACK[c] + bonus
        case CoverReserve(card=c):
            return 2 * ATTACK[c] + 1
        case LearnSkill(cards=(a, b)):
            return ATTACK[a] + ATTACK[b] + 1
        case UseSkill(skill=k, card=str(c)):
            # Stash moves the card from hand to reserve; Gift and Banish only take it out of the hand.
            return (2 if SKILLS[k].effect.op == "cover_reserve" else 1) * ATTACK[c] + 1
        case UseSkill(skill=k):
            return _SKILL_VALUE[SKILLS[k].effect.op]
        case Draw():
            return -10.0
        case EndPhase():
            return 0.0
        case _:
            return -100.0
