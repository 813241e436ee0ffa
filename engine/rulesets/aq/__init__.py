"""aq: the 2-6 player pet shedding game (docs/rulesets/aq.md)."""

from engine.contract import Ruleset
from engine.rulesets.aq.data import CARD_DATA_HASH, PRESETS
from engine.rulesets.aq.evolve import evolve
from engine.rulesets.aq.greedy import greedy_score
from engine.rulesets.aq.model import Command, Config, Event, Options, State, View
from engine.rulesets.aq.rules import deadline, decide_folded, legal_commands, outcome, precheck, to_act
from engine.rulesets.aq.setup import configure, initial, setup
from engine.rulesets.aq.view import hidden_cards, redact, view

RULESET = Ruleset(
    id="aq",
    version=1,
    title="AQ",
    card_data_hash=CARD_DATA_HASH,
    min_seats=2,
    max_seats=6,
    Config=Config,
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
    presets=PRESETS,
    Options=Options,
)

__all__ = ["RULESET"]
