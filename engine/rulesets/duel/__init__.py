"""The classic-era duel: the ruleset of docs/rulesets/duel.md on the engine contract (8000 LP, response
windows, flip effects, fusion)."""

from engine.contract import Ruleset
from engine.rulesets.duel.data import CARD_DATA_HASH, PRESETS
from engine.rulesets.duel.evolve import evolve
from engine.rulesets.duel.greedy import greedy_score
from engine.rulesets.duel.model.commands import Command
from engine.rulesets.duel.model.events import Event
from engine.rulesets.duel.model.state import Config, Options, State
from engine.rulesets.duel.model.views import View
from engine.rulesets.duel.rules import deadline, decide_folded, legal_commands, outcome, precheck, to_act
from engine.rulesets.duel.setup import configure, initial, public_config, setup
from engine.rulesets.duel.view import hidden_cards, redact, view

RULESET = Ruleset(
    id="duel",
    version=1,
    title="Duel (classic era)",
    card_data_hash=CARD_DATA_HASH,
    min_seats=2,
    max_seats=2,
    Config=Config,
    Options=Options,
    State=State,
    Command=Command,
    Event=Event,
    View=View,
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
    presets={name: {key: list(cards) for key, cards in deck.items()} for name, deck in PRESETS.items()},
    public_config=public_config,
)

__all__ = ["RULESET"]
