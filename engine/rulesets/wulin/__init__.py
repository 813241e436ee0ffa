"""Wulin (武侠牌对战): the ruleset of docs/rulesets/wulin.md on the engine contract."""

from engine.contract import Ruleset
from engine.rulesets.wulin import model
from engine.rulesets.wulin.data import CARD_DATA_HASH, PRESET_ATTRIBUTES, PRESETS
from engine.rulesets.wulin.evolve import evolve
from engine.rulesets.wulin.greedy import greedy_score
from engine.rulesets.wulin.rules import deadline, decide_folded, legal_commands, outcome, precheck, to_act
from engine.rulesets.wulin.setup import configure, initial, public_config, setup
from engine.rulesets.wulin.view import hidden_cards, redact, view

RULESET = Ruleset(
    id="wulin",
    version=1,
    title="Wulin",
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
    presets={name: {"hero_attribute": PRESET_ATTRIBUTES[name], "deck": list(deck)} for name, deck in PRESETS.items()},
    public_config=public_config,
    admin_commands=frozenset({"referee_ruling"}),
    concede_options={"allow_concede": True},
)

__all__ = ["RULESET"]
