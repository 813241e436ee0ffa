"""Commands and their checks (duel.md §7, §9, §10): ``decide``, ``legal_commands`` and the clock.

One module per command family, whose checks are the single source of legality. The contract's members
are named here, as ``rules.py`` names them in a ruleset small enough for one module.
"""

from engine.rulesets.duel.rules.clock import deadline, outcome, to_act
from engine.rulesets.duel.rules.common import precheck
from engine.rulesets.duel.rules.decide import decide_folded, forfeit
from engine.rulesets.duel.rules.legal import legal_commands

__all__ = ["deadline", "decide_folded", "forfeit", "legal_commands", "outcome", "precheck", "to_act"]
