"""Card Monsters (卡片怪兽): the ruleset of docs/rulesets/card_monsters.md on the engine contract."""

from engine.assemble import assemble
from engine.contract import SearchTuning, SpeedTarget
from engine.rulesets.card_monsters import determinize, evolve, greedy, model, rules, setup, view
from engine.rulesets.card_monsters.data import CARD_DATA_HASH, PRESETS

RULESET = assemble(
    model=model,
    setup=setup,
    rules=rules,
    evolve=evolve,
    view=view,
    greedy=greedy,
    determinize=determinize,
    id="card_monsters",
    version=1,
    title="Card Monsters",
    card_data_hash=CARD_DATA_HASH,
    min_seats=2,
    max_seats=2,
    presets={name: list(deck) for name, deck in PRESETS.items()},
    speed_target=SpeedTarget(commands_per_s=20_000, fold_events_per_s=300_000),
    search=SearchTuning(rate=850),
)

__all__ = ["RULESET"]
