"""Card Monsters (卡片怪兽): the ruleset of docs/rulesets/card_monsters.md on the engine contract."""

from engine.contract import Ruleset
from engine.rulesets.card_monsters import model
from engine.rulesets.card_monsters.data import CARD_DATA_HASH, PRESETS
from engine.rulesets.card_monsters.evolve import evolve
from engine.rulesets.card_monsters.greedy import greedy_score
from engine.rulesets.card_monsters.rules import deadline, decide_folded, legal_commands, outcome, precheck, to_act
from engine.rulesets.card_monsters.setup import configure, initial, setup
from engine.rulesets.card_monsters.view import hidden_cards, redact, view

RULESET = Ruleset(
    id="card_monsters",
    version=1,
    title="Card Monsters",
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
    presets={name: list(deck) for name, deck in PRESETS.items()},
)

__all__ = ["RULESET"]
