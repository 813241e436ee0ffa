"""voidlink: commanders, HP and LP, two-faced monsters and chains (docs/rulesets/voidlink.md)."""

from engine.assemble import assemble
from engine.contract import SearchTuning, SpeedTarget
from engine.rulesets.voidlink import determinize, evolve, greedy, model, rules, setup, view
from engine.rulesets.voidlink.data import CARD_DATA_HASH, PRESETS, deck_builtins

RULESET = assemble(
    model=model,
    setup=setup,
    rules=rules,
    evolve=evolve,
    view=view,
    greedy=greedy,
    determinize=determinize,
    id="voidlink",
    version=1,
    title="Voidlink",
    card_data_hash=CARD_DATA_HASH,
    min_seats=2,
    max_seats=2,
    presets={name: deck_builtins(deck) for name, deck in PRESETS.items()},
    public_config=setup.public_config,
    speed_target=SpeedTarget(commands_per_s=10_000),
    search=SearchTuning(rate=450),
)

__all__ = ["RULESET"]
