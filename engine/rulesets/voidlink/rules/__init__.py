"""Commands of voidlink (docs/rulesets/voidlink.md §7, §9, §10): the generic checks, ``decide``, ``legal_commands``
and the timer, one module each. The contract's members are named here."""

from engine.rulesets.voidlink.rules.clock import deadline, outcome, to_act
from engine.rulesets.voidlink.rules.common import precheck
from engine.rulesets.voidlink.rules.decide import decide_folded, forfeit
from engine.rulesets.voidlink.rules.legal import FAMILIES, legal_commands

__all__ = ["FAMILIES", "deadline", "decide_folded", "forfeit", "legal_commands", "outcome", "precheck", "to_act"]
