"""Effect details beyond the §14 scenarios (duel.md §8.7-§8.9): fizzles, choice checks, ownership."""

from __future__ import annotations

import pytest

from engine.rulesets.duel.model.commands import Activate, Advance, Choices, DeclareAttack
from engine.rulesets.duel.model.events import (
    AttackEnded, CardActivated, CardDestroyed, CardReturned, CardSentToGraveyard, DamageCalculated,
    EffectResolved, EffectTriggered, MonsterFlipped, SpecialSummoned,
)
from engine.rulesets.duel.model.state import GraveyardRef, MonsterRef, SpellTrapRef
from tests.engine.duel.helpers import M, S, given, rejection, run


def test_flip_trigger_without_candidates_fizzles() -> None:
    state = given(phase="battle", monsters={0: {0: M("0-m18")}, 1: {0: M("1-m19", "fd_attack")}})
    events, state = run(state, 0, DeclareAttack(0, 0))
    assert events[1:] == [
        MonsterFlipped(1, 0, "1-m19", "maw_beetle", "fd_attack", "fu_attack", "attacked"),
        EffectTriggered(1, "1-m19", "maw_beetle", "flip"),
        DamageCalculated("0-m18", 500, "1-m19", "fu_attack", 500, ("0-m18", "1-m19"), None),
        CardDestroyed(0, "monster", 0, "0-m18", "maw_beetle", 0, "battle"),
        CardDestroyed(1, "monster", 0, "1-m19", "maw_beetle", 1, "battle"),
        EffectResolved(1, "1-m19", "maw_beetle", "flip", None, True),
        AttackEnded(0, "0-m18"),
    ]
    assert state.queue == () and state.pending is None


@pytest.mark.parametrize(
    "choices",
    [
        Choices(source="deck"),
        Choices(source="grave", card="shell_sentinel"),
        Choices(source="hand", card="1-m08"),
        Choices(source="hand", card="1-m14"),
        Choices(source="deck", card="1-m08"),
        Choices(source="deck", card="maw_beetle"),
        Choices(source="deck", card="shell_sentinel", position="attack"),
    ],
)
def test_ambush_call_choices_must_fit(choices: Choices) -> None:
    state = given(
        turn=6, hands={1: ["1-m14", "1-m12"]}, decks={1: ["1-m08", "1-m19"]}, spell_traps={1: {0: S("1-m40")}},
    )
    assert rejection(state, 1, Activate("1-m40", (), choices)) == "CHOICE_INVALID"


def test_ambush_call_from_the_hand() -> None:
    state = given(turn=6, hands={1: ["1-m14", "1-m12"]}, spell_traps={1: {0: S("1-m40")}})
    choices = Choices(source="hand", card="1-m12")
    events, state = run(state, 1, Activate("1-m40", (), choices))
    assert events[1] == SpecialSummoned(1, 0, "1-m12", "glade_sprite", "fu_defense", "hand")
    assert state.sides[1].hand == ("1-m14",)


@pytest.mark.parametrize(
    "choices",
    [
        Choices(fusion="0-x01", materials=("0-m01", "0-m04")),
        Choices(fusion="0-m01", materials=("0-m01", "0-m04"), position="attack"),
        Choices(fusion="0-x01", materials=("0-m01", "0-m04"), position="sideways"),
    ],
)
def test_fusion_choices_must_fit(choices: Choices) -> None:
    state = given(hands={0: ["0-m27", "0-m01"]}, monsters={0: {0: M("0-m04")}})
    assert rejection(state, 0, Activate("0-m27", (), choices)) == "CHOICE_INVALID"


@pytest.mark.parametrize(
    "materials", [("0-m04", "0-m01"), ("0-m01", "0-m01"), ("0-m01", "0-m27"), ("0-m01", "0-m05")],
)
def test_fusion_materials_must_be_ascending_owned_and_distinct(materials: tuple[str, ...]) -> None:
    state = given(hands={0: ["0-m27", "0-m01"]}, monsters={0: {0: M("0-m04")}})
    choices = Choices(fusion="0-x01", materials=materials, position="attack")
    assert rejection(state, 0, Activate("0-m27", (), choices)) == "MATERIALS_INVALID"


def test_fusion_frees_the_slot_of_a_field_material() -> None:
    row = {slot: M(i) for slot, i in enumerate(["0-m04", "0-m07", "0-m08", "0-m09", "0-m12"])}
    state = given(hands={0: ["0-m27", "0-m01"]}, monsters={0: row})
    choices = Choices(fusion="0-x02", materials=("0-m01", "0-m04"), position="defense")
    events, _ = run(state, 0, Activate("0-m27", (), choices))
    assert SpecialSummoned(0, 0, "0-x02", "scorchfang_chimera", "fu_defense", "extra") in events


def test_second_dawn_summons_an_opponents_card_that_returns_to_its_owner() -> None:
    state = given(
        hands={0: ["0-m34"]}, graveyards={1: ["1-m14"]}, spell_traps={1: {0: S("1-m38")}},
    )
    choices = Choices(position="defense")
    events, state = run(state, 0, Activate("0-m34", (GraveyardRef("1-m14"),), choices))
    assert events[:2] == [
        CardActivated(0, 0, "0-m34", "second_dawn", "hand", (GraveyardRef("1-m14"),), choices, None),
        SpecialSummoned(0, 0, "1-m14", "storm_drake", "fu_defense", "graveyard"),
    ]
    assert state.sides[1].graveyard == ()
    _, state = run(state, 0, Advance("end"))
    events, state = run(state, 1, Activate("1-m38", (MonsterRef(0, 0),)))
    assert CardReturned(0, 0, "1-m14", "storm_drake", 1, "hand") in events
    assert state.sides[1].hand[-1] == "1-m14"


def test_gale_sweep_cannot_target_itself_and_destroys_set_cards() -> None:
    state = given(turn=6, spell_traps={0: {1: S("0-m36", set_turn=5)}, 1: {0: S("1-m29")}})
    assert rejection(state, 1, Activate("1-m29", (MonsterRef(1, 0),))) == "TARGET_INVALID"
    events, _ = run(state, 1, Activate("1-m29", (SpellTrapRef(0, 1),)))
    assert CardDestroyed(0, "spell_trap", 1, "0-m36", "spiked_snare", 0, "effect") in events
    assert events[-1] == CardSentToGraveyard(1, "spell_trap", 0, "1-m29", "gale_sweep", 1, "resolved")
