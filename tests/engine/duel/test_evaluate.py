"""The search bot's score of a duel position (engine/rulesets/duel/evaluate.py): a lead in life or on the field
is worth more than even, the two seats' scores are complementary, and an ended duel scores its result."""

from __future__ import annotations

import msgspec

from engine.registry import HOSTED
from engine.rulesets.duel.evaluate import evaluate
from engine.rulesets.duel.model.state import Result
from engine.rulesets.duel.model.views import MonsterView, View
from tests.engine.contract_helpers import playout

RULESET = HOSTED["duel", 1]


def _opening() -> View:
    state = next(match.state for match, _ in playout(RULESET, 2, 3, 0))
    view = RULESET.view(state, None)
    assert isinstance(view, View)
    return view


def _with_side(view: View, seat: int, **changes: object) -> View:
    sides = list(view.sides)
    sides[seat] = msgspec.structs.replace(sides[seat], **changes)
    return msgspec.structs.replace(view, sides=tuple(sides))


def test_an_even_position_scores_a_half_and_the_seats_scores_add_up_to_one() -> None:
    opening = _opening()  # the first seat has drawn a card more
    assert abs(evaluate(opening, 0) + evaluate(opening, 1) - 1) < 1e-12
    view = msgspec.structs.replace(opening, sides=(opening.sides[0], msgspec.structs.replace(opening.sides[0], seat=1)))
    assert evaluate(view, 0) == evaluate(view, 1) == 0.5
    behind = _with_side(view, 1, lp=3000)
    assert evaluate(behind, 0) > 0.5 > evaluate(behind, 1)
    assert abs(evaluate(behind, 0) + evaluate(behind, 1) - 1) < 1e-12


def test_a_stronger_field_scores_higher() -> None:
    view = _opening()
    monster = MonsterView(
        face_down=False, position="fu_attack", arrived_turn=1, position_changed_turn=None, attacked_turn=None,
        atk=1800, defense=1000,
    )  # fmt: skip
    one = _with_side(view, 0, monsters=(monster, None, None, None, None))
    two = _with_side(view, 0, monsters=(monster, monster, None, None, None))
    assert 0.5 < evaluate(one, 0) < evaluate(two, 0)


def test_an_ended_duel_scores_its_result() -> None:
    view = _opening()
    won = msgspec.structs.replace(view, result=Result(outcome="win", winner=1, reasons=()))
    assert (evaluate(won, 0), evaluate(won, 1)) == (0.0, 1.0)
    drawn = msgspec.structs.replace(view, result=Result(outcome="draw", winner=None, reasons=()))
    assert evaluate(drawn, 0) == evaluate(drawn, 1) == 0.5
