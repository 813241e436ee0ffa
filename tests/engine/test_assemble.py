"""``assemble`` builds a ruleset from its modules; the greedy heuristic is the one module a game may omit."""

from __future__ import annotations

from engine.assemble import assemble
from engine.rulesets.card_monsters import RULESET, evolve, model, rules, setup, view


def test_a_ruleset_without_a_greedy_module_scores_every_command_alike() -> None:
    identity = ("id", "version", "title", "card_data_hash", "min_seats", "max_seats", "presets")
    plain = assemble(
        model=model, setup=setup, rules=rules, evolve=evolve, view=view, **{k: getattr(RULESET, k) for k in identity}
    )
    config = plain.configure({"seats": [{}, {}], "options": {}})
    state = plain.initial(config)
    assert plain.greedy_score(plain.view(state, 0), model.Engage()) == 0.0
    assert plain.decide_folded is RULESET.decide_folded
