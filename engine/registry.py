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


REFERENCE = "card_monsters"
"""The game the service benchmarks play (bench/capacity.py, fanout.py, lifecycle.py, pairing.py, service.py):
one shared game keeps their figures comparable, and a bench names no game itself. It is the worked example
of docs/adding-a-ruleset.md; the bare server (bench/bare_server.py) answers with its commands."""


def get(ruleset_id: str) -> Ruleset:
    """The ruleset with this id, or ``KeyError`` naming the known ones."""
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(RULESETS))}") from None
