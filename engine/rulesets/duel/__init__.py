"""The classic-era duel: the ruleset of docs/rulesets/duel.md on the engine contract (8000 LP, response
windows, flip effects, fusion)."""

from engine.assemble import assemble
from engine.contract import SearchTuning, SpeedTarget
from engine.rulesets.duel import determinize, evaluate, evolve, greedy, model, rules, setup, view
from engine.rulesets.duel.data import CARD_DATA_HASH, PRESETS

RULESET = assemble(
    model=model,
    setup=setup,
    rules=rules,
    evolve=evolve,
    view=view,
    greedy=greedy,
    determinize=determinize,
    evaluate=evaluate,
    id="duel",
    version=1,
    title="Duel (classic era)",
    card_data_hash=CARD_DATA_HASH,
    min_seats=2,
    max_seats=2,
    presets={name: {key: list(cards) for key, cards in deck.items()} for name, deck in PRESETS.items()},
    public_config=setup.public_config,
    speed_target=SpeedTarget(commands_per_s=10_000),
    search=SearchTuning(rate=450, horizon=40),
)

__all__ = ["RULESET"]
