"""aq: the 2-6 player pet shedding game (docs/rulesets/aq.md)."""

from engine.assemble import assemble
from engine.contract import SearchTuning, SpeedTarget
from engine.rulesets.aq import determinize, evolve, greedy, model, rules, setup, view
from engine.rulesets.aq.data import CARD_DATA_HASH, PRESETS

RULESET = assemble(
    model=model,
    setup=setup,
    rules=rules,
    evolve=evolve,
    view=view,
    greedy=greedy,
    determinize=determinize,
    id="aq",
    version=1,
    title="AQ",
    card_data_hash=CARD_DATA_HASH,
    min_seats=2,
    max_seats=6,
    presets=PRESETS,
    speed_target=SpeedTarget(commands_per_s=20_000),
    search=SearchTuning(rate=430),
    showcase_seats=3,
)

__all__ = ["RULESET"]
