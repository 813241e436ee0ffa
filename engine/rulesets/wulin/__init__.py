"""Wulin (武侠牌对战): the ruleset of docs/rulesets/wulin.md on the engine contract."""

from engine.assemble import assemble
from engine.contract import SearchTuning, SpeedTarget
from engine.rulesets.wulin import determinize, evolve, greedy, model, rules, setup, view
from engine.rulesets.wulin.data import CARD_DATA_HASH, PRESET_ATTRIBUTES, PRESETS

RULESET = assemble(
    model=model,
    setup=setup,
    rules=rules,
    evolve=evolve,
    view=view,
    greedy=greedy,
    determinize=determinize,
    id="wulin",
    version=1,
    title="Wulin",
    card_data_hash=CARD_DATA_HASH,
    min_seats=2,
    max_seats=2,
    presets={name: {"hero_attribute": PRESET_ATTRIBUTES[name], "deck": list(deck)} for name, deck in PRESETS.items()},
    public_config=setup.public_config,
    admin_commands=frozenset({"referee_ruling"}),
    concede_options={"allow_concede": True},
    speed_target=SpeedTarget(commands_per_s=20_000),
    search=SearchTuning(rate=300),
)

__all__ = ["RULESET"]
