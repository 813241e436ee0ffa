"""General checks, legal-command order and exactness, clocks, outcomes and effect details (duel.md §7.1,
§7.4, §8.7-§8.9, §9, §10).

``legal_commands`` is exact: a wide universe of commands is accepted iff it is listed. The contract suite
mutates listed commands one field at a time; ``test_listed_iff_accepted`` walks every command shape over the
cards and slots of real positions from random games. Effect details go beyond the §14 scenarios: fizzles,
choice checks, ownership.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import given as for_all
from hypothesis import settings
from hypothesis import strategies as st

from engine.bots import RandomBot
from engine.commands import decide_json
from engine.contract import ADMIN, SYSTEM, Deadline, Outcome
from engine.errors import Rejected
from engine.match import apply, create, fold
from engine.rng import Rng, ScriptedRng
from engine.rulesets.duel import RULESET
from engine.rulesets.duel.model.commands import (
    Activate,
    Advance,
    CancelAttack,
    ChangePosition,
    Choices,
    ChooseTarget,
    Concede,
    DeclareAttack,
    Discard,
    FlipSummon,
    NormalSummon,
    Pass,
    ReplayAttack,
    SetMonster,
    SetSpellTrap,
    Timeout,
)
from engine.rulesets.duel.model.events import (
    AttackEnded,
    CardActivated,
    CardDestroyed,
    CardReturned,
    CardSentToGraveyard,
    DamageCalculated,
    EffectResolved,
    EffectTriggered,
    MonsterFlipped,
    SpecialSummoned,
    TimeoutRecorded,
)
from engine.rulesets.duel.model.state import GraveyardRef, MonsterRef, Options, SpellTrapRef, State
from engine.rulesets.duel.rules.legal import canonical_json
from engine.selfplay import next_move
from tests.engine.duel.helpers import M, S, given, rejection, run

TABLE = [
    "normal_summon",
    "set_monster",
    "flip_summon",
    "change_position",
    "set_spell_trap",
    "activate",
    "advance",
    "declare_attack",
    "pass",
    "choose_target",
    "replay_attack",
    "cancel_attack",
    "discard",
]


def test_general_checks_in_spec_order() -> None:
    state = given()
    assert rejection(state, 0, ChangePosition(7)) == "BAD_FIELDS"
    assert rejection(state, 0, FlipSummon(0, "sideways")) == "BAD_FIELDS"  # type: ignore[arg-type]
    assert rejection(state, ADMIN, Timeout(0, "turn", 5)) == "NOT_SYSTEM_COMMAND"
    assert rejection(state, ADMIN, Advance("end")) == "NOT_A_PLAYER"
    assert rejection(state, SYSTEM, Concede()) == "NOT_A_PLAYER"
    assert rejection(state, 0, Pass()) == "NO_PENDING_DECISION"
    assert rejection(state, 1, Advance("end")) == "NOT_YOUR_TURN"
    assert rejection(state, 1, Pass()) == "NO_PENDING_DECISION"
    _, over = run(state, 0, Concede())
    assert rejection(over, 0, ChangePosition(7)) == "MATCH_OVER"


def test_json_commands_check_types_after_the_match_is_over_check() -> None:
    state = given()
    for raw in (b'{"type":"activate","card":"0-m30","choices":{"colour":"red"}}', b'{"type":"declare_attack"}'):
        with pytest.raises(Rejected) as refused:
            decide_json(RULESET, state, 0, raw, ScriptedRng())
        assert refused.value.code == "BAD_FIELDS"


def test_concede_is_accepted_while_the_other_seat_decides() -> None:
    state = given(phase="battle", monsters={0: {0: M("0-m01")}, 1: {0: M("1-m05")}}, spell_traps={1: {0: S("1-m37")}})
    _, state = run(state, 0, DeclareAttack(0, 0))
    assert RULESET.legal_commands(state, 0) == [Concede()]
    assert RULESET.outcome(run(state, 0, Concede())[1]) == Outcome((1,), (0,), False, "concede")


def test_turn_timeout_is_stale_while_a_decision_is_pending() -> None:
    state = given(phase="battle", monsters={0: {0: M("0-m01")}, 1: {0: M("1-m05")}}, spell_traps={1: {0: S("1-m37")}})
    _, state = run(state, 0, DeclareAttack(0, 0))
    assert rejection(state, SYSTEM, Timeout(0, "turn", 5)) == "STALE_TIMEOUT"
    assert rejection(state, SYSTEM, Timeout(0, "decision", 1)) == "STALE_TIMEOUT"


def test_deadlines_follow_the_acting_seat() -> None:
    state = given()
    assert RULESET.deadline(state) == Deadline(0, 180.0, Timeout(0, "turn", 5), pauses=True)
    assert RULESET.to_act(state) == (0,)
    state = given(phase="battle", monsters={0: {0: M("0-m01")}, 1: {0: M("1-m05")}}, spell_traps={1: {0: S("1-m37")}})
    _, state = run(state, 0, DeclareAttack(0, 0))
    assert RULESET.deadline(state) == Deadline(1, 30.0, Timeout(1, "decision", 1))
    assert RULESET.to_act(state) == (1,)


def test_timeouts_never_forfeit_when_the_limit_is_zero() -> None:
    state = given(timeouts=(99, 0), options=Options(max_timeouts=0))
    events, state = run(state, SYSTEM, Timeout(0, "turn", 5))
    assert events[0] == TimeoutRecorded(0, "turn", 5, 100) and not state.ended


def test_legal_answers_to_a_target_decision() -> None:
    state = given(turn=7, monsters={0: {0: M("0-m18", "fd_defense", arrived=5)}, 1: {1: M("1-m01")}})
    _, state = run(state, 0, FlipSummon(0))
    assert RULESET.legal_commands(state, 0) == [
        ChooseTarget(MonsterRef(0, 0)),
        ChooseTarget(MonsterRef(1, 1)),
        Concede(),
    ]
    assert RULESET.legal_commands(state, 1) == [Concede()]


def test_legal_discards_are_sorted_and_replays_list_slots_then_cancel() -> None:
    state = given(phase="main2", hands={0: ["0-m17", "0-m01", "0-m09", "0-m04", "0-m10", "0-m12", "0-m14"]})
    _, state = run(state, 0, Advance("end"))
    assert [c.card for c in RULESET.legal_commands(state, 0)[:-1]] == sorted(state.sides[0].hand)


def test_fusion_candidates_use_only_matching_materials() -> None:
    state = given(hands={0: ["0-m27", "0-m01", "0-m02", "0-m07"]}, monsters={0: {0: M("0-m04")}})
    fusions = [c for c in RULESET.legal_commands(state, 0) if isinstance(c, Activate)]
    materials = {(c.choices.fusion, c.choices.materials, c.choices.position) for c in fusions}
    assert materials == {
        (fusion, mats, pos)
        for fusion in ("0-x01", "0-x02")
        for mats in (("0-m01", "0-m04"), ("0-m02", "0-m04"))
        for pos in ("attack", "defense")
    }


def test_ambush_call_lists_distinct_deck_card_ids() -> None:
    state = given(turn=6, spell_traps={1: {0: S("1-m40")}})
    choices = [c.choices for c in RULESET.legal_commands(state, 1) if isinstance(c, Activate)]
    deck_ids = [c.card for c in choices if c.source == "deck"]
    assert deck_ids == ["cinder_wolf", "dune_scorpion", "glade_sprite", "ironhide_boar", "shell_sentinel"]
    assert Choices(source="hand", card="1-m01") not in choices


def _tag(cmd: Any) -> str:
    return str(cmd.__struct_config__.tag)


@settings(max_examples=15, deadline=None)
@for_all(seed=st.integers(min_value=0, max_value=2**32))
def test_legal_commands_are_canonical_and_accepted(seed: int) -> None:
    """§7.4 order (table order, then canonical JSON, concede last) at every step of a random game."""
    config: dict[str, Any] = {"seats": [{}, {}], "options": {}}
    match = fold(RULESET, create(RULESET, config, ["a", "b"], seed.to_bytes(32, "big")))
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    for _ in range(250):
        if RULESET.outcome(match.state) is not None:
            break
        for seat in (0, 1):
            legal = RULESET.legal_commands(match.state, seat)
            assert legal[-1] == Concede()
            body = legal[:-1]
            assert body == sorted(body, key=lambda c: (TABLE.index(_tag(c)), canonical_json(c)))
            assert len({msgspec.json.encode(c) for c in body}) == len(body)
            for cmd in body:
                RULESET.decide(match.state, seat, cmd, ScriptedRng())
        actor, cmd = next_move(RULESET, match.state, bots)
        match = apply(RULESET, match, RULESET.decide(match.state, actor, cmd, Rng(b"", 0)))


@pytest.mark.parametrize(
    "cmd",
    [
        NormalSummon("0-m99"),
        NormalSummon("0-m01", (4, 4)),
        Activate("1-m01"),
        Activate("zz", (MonsterRef(1, 4),)),
        Discard("0-m01"),
        ReplayAttack(3),
        DeclareAttack(4, None),
        Activate("0-m30", choices=Choices(materials=())),
    ],
)
def test_odd_commands_are_refused_with_a_code(cmd: Any) -> None:
    assert rejection(given(hands={0: ["0-m01", "0-m30"]}), 0, cmd)


# --- exactness over random games (§7.4) ---------------------------------------------------------------------

SLOTS = range(5)


def _universe(state: State, seat: int) -> Iterator[Any]:
    side = state.sides[seat]
    cards = [*side.hand, *(c.instance for c in side.spell_traps if c), *side.deck[:2], "1-m01", "0-x01", "zz"]
    graves = [*state.sides[0].graveyard, *state.sides[1].graveyard][:4]
    refs: list[Any] = [MonsterRef(s, n) for s in (0, 1) for n in SLOTS] + [SpellTrapRef(s, 0) for s in (0, 1)]
    refs += [GraveyardRef(g) for g in graves]
    for card in cards:
        for tributes in [(), (0,), (1,), (0, 1), (1, 0), (0, 2)]:
            yield NormalSummon(card, tributes)
            yield SetMonster(card, tributes)
        yield SetSpellTrap(card)
        yield Discard(card)
        yield Activate(card)
        yield Activate(card, choices=Choices(position="attack"))
        yield Activate(card, choices=Choices(source="deck", card="shell_sentinel"))
        yield Activate(card, choices=Choices(source="hand", card=side.hand[0] if side.hand else "zz"))
        for ref in refs:
            yield Activate(card, (ref,))
            yield Activate(card, (ref,), Choices(position="defense"))
    for slot in SLOTS:
        yield from (FlipSummon(slot), FlipSummon(slot, "defense"), ChangePosition(slot), ReplayAttack(slot))
        yield from (DeclareAttack(slot, target) for target in (*SLOTS, None))
    for ref in refs:
        yield ChooseTarget(ref)
    yield from (ReplayAttack(None), CancelAttack(), Pass(), Concede())
    yield from (Advance("battle"), Advance("main2"), Advance("end"))


def _accepted(state: State, seat: Any, cmd: Any) -> bool:
    try:
        RULESET.decide(state, seat, cmd, ScriptedRng())
    except Rejected:
        return False
    return True


@pytest.mark.parametrize("seed", [11, 12])
def test_listed_iff_accepted(seed: int) -> None:
    config: dict[str, Any] = {"seats": [{}, {}], "options": {}}
    match = fold(RULESET, create(RULESET, config, ["a", "b"], seed.to_bytes(32, "big")))
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    step = 0
    while RULESET.outcome(match.state) is None and step < 160:
        if step % 4 == 0:
            for seat in (0, 1):
                listed = {msgspec.json.encode(c) for c in RULESET.legal_commands(match.state, seat)}
                for cmd in _universe(match.state, seat):
                    assert _accepted(match.state, seat, cmd) == (msgspec.json.encode(cmd) in listed), (step, seat, cmd)
            deadline = RULESET.deadline(match.state)
            assert deadline is not None and _accepted(match.state, SYSTEM, deadline.timeout)
        actor, cmd = next_move(RULESET, match.state, bots)
        match = apply(RULESET, match, RULESET.decide(match.state, actor, cmd, Rng(b"", 0)))
        step += 1
    assert step > 40


# --- effect details (§8.7-§8.9) -----------------------------------------------------------------------------


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
        turn=6,
        hands={1: ["1-m14", "1-m12"]},
        decks={1: ["1-m08", "1-m19"]},
        spell_traps={1: {0: S("1-m40")}},
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
    "materials",
    [("0-m04", "0-m01"), ("0-m01", "0-m01"), ("0-m01", "0-m27"), ("0-m01", "0-m05")],
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
        hands={0: ["0-m34"]},
        graveyards={1: ["1-m14"]},
        spell_traps={1: {0: S("1-m38")}},
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
