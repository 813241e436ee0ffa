"""voidlink: commanders, HP and LP, two-faced monsters and chains (docs/rulesets/voidlink.md)."""

from engine.contract import Ruleset
from engine.rulesets.voidlink import model
from engine.rulesets.voidlink.data import CARD_DATA_HASH, PRESETS, deck_builtins
from engine.rulesets.voidlink.evolve import evolve
from engine.rulesets.voidlink.greedy import greedy_score
from engine.rulesets.voidlink.rules import deadline, decide_folded, legal_commands, outcome, precheck, to_act
from engine.rulesets.voidlink.setup import configure, initial, public_config, setup
from engine.rulesets.voidlink.view import hidden_cards, redact, view

RULESET = Ruleset(
    id="voidlink",
    version=1,
    title="Voidlink",
    card_data_hash=CARD_DATA_HASH,
    min_seats=2,
    max_seats=2,
    Config=model.Config,
    Options=model.Options,
    State=model.State,
    Command=model.Command,
    Event=model.Event,
    View=model.View,
    configure=configure,
    initial=initial,
    setup=setup,
    precheck=precheck,
    decide_folded=decide_folded,
    evolve=evolve,
    legal_commands=legal_commands,
    to_act=to_act,
    view=view,
    redact=redact,
    deadline=deadline,
    outcome=outcome,
    hidden_cards=hidden_cards,
    greedy_score=greedy_score,
    presets={name: deck_builtins(deck) for name, deck in PRESETS.items()},
    public_config=public_config,
)

__all__ = ["RULESET"]
