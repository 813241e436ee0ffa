"""Every ruleset the engine hosts, by id: explicit imports, no registration side effects."""

from __future__ import annotations

from engine.contract import Ruleset
from engine.rulesets import aq, card_monsters, duel, voidlink, wulin

RULESETS: dict[str, Ruleset] = {
    "aq": aq.RULESET,
    "card_monsters": card_monsters.RULESET,
    "duel": duel.RULESET,
    "voidlink": voidlink.RULESET,
    "wulin": wulin.RULESET,
}


def get(ruleset_id: str) -> Ruleset:
    """The ruleset with this id, or ``KeyError`` naming the known ones."""
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(RULESETS))}") from None
