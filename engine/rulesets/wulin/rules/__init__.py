"""Commands of wulin (wulin.md §6-§10): the checks, emission, ``decide``, ``legal_commands`` and the clock.

One module per part: the common checks and gates, each command's checks, its emission, the decide table,
the legal-command families with their situation table, and the clock. The contract's members are named here.
"""

from engine.rulesets.wulin.rules.clock import deadline, outcome, to_act
from engine.rulesets.wulin.rules.common import precheck
from engine.rulesets.wulin.rules.decide import decide_folded, forfeit
from engine.rulesets.wulin.rules.legal import FAMILIES, legal_commands

__all__ = ["FAMILIES", "deadline", "decide_folded", "forfeit", "legal_commands", "outcome", "precheck", "to_act"]
