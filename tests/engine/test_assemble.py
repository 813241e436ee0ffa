"""``assemble`` builds a ruleset from its modules; the greedy heuristic is the one module a game may omit."""

from __future__ import annotations

from engine.assemble import assemble
from engine.rulesets.card_monsters import RULESET, evolve, model, rules, setup, view


def test_a_ruleset_without_a_greedy_module_scores_every_command_alike() -> None:
    plain = assemble(
        model=model,
        setup=setup,
        rules=rules,
        evolve=evolve,
        view=view,
        id=RULESET.id,
        version=RULESET.version,
        title=RULESET.title,
        card_data_hash=RULESET.card_data_hash,
        min_seats=RULESET.min_seats,
        max_seats=RULESET.max_seats,
        presets=RULESET.presets,
    )
    config = plain.configure({"seats": [{}, {}], "options": {}})
    state = plain.initial(config)
    assert plain.greedy_score(plain.view(state, 0), model.Engage()) == 0.0
    assert plain.decide_folded is RULESET.decide_folded
