"""duel.md §14 scenarios 1-10: decks, setup, summons, positions, battles, turn 1.

Scenarios 11-18 are in test_scenarios_effects.py, 19-25 in test_scenarios_end.py.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine.errors import ConfigProblem
from engine.rng import ALL_ZERO_SEED, Rng
from engine.rulesets.duel import RULESET
from engine.rulesets.duel.model.commands import (
    Activate,
    Advance,
    ChangePosition,
    Choices,
    ChooseTarget,
    Concede,
    DeclareAttack,
    FlipSummon,
    NormalSummon,
    SetMonster,
)
from engine.rulesets.duel.model.events import (
    AttackDeclared,
    AttackEnded,
    CardActivated,
    CardDestroyed,
    CardDrawn,
    CardSentToGraveyard,
    DamageAmount,
    DamageCalculated,
    DamageDealt,
    DecisionClosed,
    DecisionRequested,
    DeckShuffled,
    DuelCreated,
    EffectResolved,
    EffectTriggered,
    FirstPlayerDecided,
    FlipSummoned,
    MonsterFlipped,
    MonsterSet,
    MonsterTurnedFaceDown,
    NormalSummoned,
    PhaseChanged,
    PositionChanged,
    TurnStarted,
)
from engine.rulesets.duel.model.state import Details, MonsterRef, Options
from engine.rulesets.duel.setup import DuelConfigError
from tests.engine.duel.helpers import M, S, cid, given, rejection, run

STARTERS = {"seats": [{"deck": "starter_a"}, {"deck": "starter_b"}], "options": {}}


def _problems(deck0: Any) -> list[ConfigProblem]:
    with pytest.raises(DuelConfigError) as refused:
        RULESET.configure({"seats": [{"deck": deck0}, {"deck": "starter_b"}], "options": {}})
    return list(refused.value.errors)


def _starter_a(**changes: Any) -> dict[str, list[str]]:
    deck = {key: list(cards) for key, cards in RULESET.presets["starter_a"].items()}
    for key, change in changes.items():
        change(deck[key])
    return deck


def _drop(card_id: str) -> Any:
    return lambda cards: cards.remove(card_id)


def _replace(old: str, new: str) -> Any:
    return lambda cards: cards.__setitem__(cards.index(old), new)


# --- scenario 1: deck validation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "expected"),
    [
        pytest.param(
            _starter_a(main=_drop("ironhide_boar")), [ConfigProblem("MAIN_DECK_TOO_SMALL", 0, count=39)], id="a"
        ),
        pytest.param(
            _starter_a(side=lambda s: s.append("cinder_wolf")),
            [ConfigProblem("TOO_MANY_COPIES", 0, card_id="cinder_wolf", count=4, limit=3)],
            id="b",
        ),
        pytest.param(
            _starter_a(main=_replace("ironhide_boar", "scorchfang_chimera")),
            [ConfigProblem("EXTRA_CARD_IN_MAIN_DECK", 0, card_id="scorchfang_chimera")],
            id="c",
        ),
        pytest.param(
            _starter_a(extra=lambda x: x.append("chorus_wyrm")),
            [ConfigProblem("EXTRA_DECK_TYPE_UNSUPPORTED", 0, section="extra", card_id="chorus_wyrm")],
            id="d",
        ),
        pytest.param(
            _starter_a(extra=lambda x: x.append("fusion_rite")),
            [ConfigProblem("MAIN_CARD_IN_EXTRA_DECK", 0, card_id="fusion_rite")],
            id="e",
        ),
        pytest.param(
            _starter_a(main=lambda m: m.append("blue_dragon")),
            [ConfigProblem("UNKNOWN_CARD", 0, card_id="blue_dragon")],
            id="f",
        ),
        pytest.param(
            _starter_a(main=_replace("twin_fortune", "second_dawn")),
            [ConfigProblem("TOO_MANY_COPIES", 0, card_id="second_dawn", count=2, limit=1)],
            id="g",
        ),
        pytest.param(
            _starter_a(
                main=_drop("ironhide_boar"),
                side=lambda s: s.extend(
                    ["bastion_marshal"] * 3
                    + ["dusk_visitation"] * 3
                    + ["grave_knight"] * 2
                    + ["thunder_leviathan"] * 2
                    + ["storm_drake", "glade_sprite", "kneeling_decree"]
                ),
            ),
            [ConfigProblem("MAIN_DECK_TOO_SMALL", 0, count=39), ConfigProblem("SIDE_DECK_TOO_LARGE", 0, count=16)],
            id="h",
        ),
    ],
)
def test_s01_deck_validation(deck: dict[str, list[str]], expected: list[ConfigProblem]) -> None:
    assert _problems(deck) == expected


def test_s01i_unknown_preset() -> None:
    assert _problems("starter_c") == [ConfigProblem("UNKNOWN_PRESET", 0)]


def test_s01j_starter_decks_are_valid() -> None:
    config = RULESET.configure(STARTERS)
    assert [len(s.deck.main) for s in config.seats] == [40, 40]
    assert msgspec.convert(msgspec.to_builtins(config), RULESET.Config) == config


# --- scenario 2: setup ----------------------------------------------------------------------------------


def _setup(options: dict[str, Any], seed: bytes = ALL_ZERO_SEED) -> list[Any]:
    config = RULESET.configure({**STARTERS, "options": options})
    return list(RULESET.setup(config, Rng(seed, 1)))


def test_s02_setup_with_a_fixed_first_player() -> None:
    events = _setup({"first_player": 1})
    created = events[0]
    assert isinstance(created, DuelCreated)
    assert created.options == Options(first_player=1)
    assert events[1] == FirstPlayerDecided("fixed", None, 1)
    shuffles = events[2:4]
    assert [type(e) for e in shuffles] == [DeckShuffled, DeckShuffled] and [e.seat for e in shuffles] == [0, 1]
    orders = {e.seat: e.order for e in shuffles}
    assert events[4:14] == [
        CardDrawn(seat=seat, instance=orders[seat][i], card_id=cid(orders[seat][i]), deck_count=39 - i)
        for seat in (1, 0)
        for i in range(5)
    ]
    assert events[14:16] == [TurnStarted(1, 1), PhaseChanged(1, "draw")]
    assert events[16] == CardDrawn(seat=1, instance=orders[1][5], card_id=cid(orders[1][5]), deck_count=34)
    assert events[17:] == [PhaseChanged(1, "standby"), PhaseChanged(1, "main1")]
    state = _fold(events)
    assert [len(s.hand) for s in state.sides] == [5, 6]
    assert RULESET.legal_commands(state, 0) == [Concede()]
    assert RULESET.redact(events[16], 0) == CardDrawn(seat=1, deck_count=34)
    hand = RULESET.view(state, 0).sides[1].hand
    assert msgspec.to_builtins(hand) == {"count": 6}
    assert events == _setup({"first_player": 1}), "same seed and config give the same events"


def _fold(events: list[Any]) -> Any:
    state = RULESET.initial(RULESET.configure(STARTERS))
    for event in events:
        state = RULESET.evolve(state, event)
    return state


def test_s02_coin_golden_values() -> None:
    events = _setup({})
    assert events[1] == FirstPlayerDecided("coin", "heads", 0)
    assert events[2].order[:6] == ("0-m35", "0-m20", "0-m16", "0-m27", "0-m40", "0-m09")
    assert events[3].order[:5] == ("1-m10", "1-m27", "1-m37", "1-m40", "1-m35")
    state = _fold(events)
    assert state.sides[0].hand == ("0-m35", "0-m20", "0-m16", "0-m27", "0-m40", "0-m09")


def test_s02_first_player_may_skip_the_first_draw() -> None:
    events = _setup({"first_player": 1, "first_player_draws": False})
    assert events[14:] == [
        TurnStarted(1, 1),
        PhaseChanged(1, "draw"),
        PhaseChanged(1, "standby"),
        PhaseChanged(1, "main1"),
    ]
    assert len(_fold(events).sides[1].hand) == 5


# --- scenario 3: tribute summons ---------------------------------------------------------------------------


def test_s03_tribute_summons() -> None:
    state = given(hands={0: ["0-m17", "0-m14", "0-m01"]}, monsters={0: {0: M("0-m07"), 1: M("0-m12", "fd_defense")}})
    assert rejection(state, 0, NormalSummon("0-m17", (0,))) == "TRIBUTE_COUNT_WRONG"
    assert rejection(state, 0, SetMonster("0-m14", ())) == "TRIBUTE_COUNT_WRONG"
    assert rejection(state, 0, NormalSummon("0-m17", (1, 0))) == "TRIBUTE_INVALID"
    events, state = run(state, 0, NormalSummon("0-m17", (0, 1)))
    assert events == [
        CardSentToGraveyard(0, "monster", 0, "0-m07", "ironhide_boar", 0, "tribute"),
        CardSentToGraveyard(0, "monster", 1, "0-m12", "glade_sprite", 0, "tribute"),
        NormalSummoned(0, 0, "0-m17", "thunder_leviathan"),
    ]
    assert state.sides[0].graveyard == ("0-m07", "0-m12")
    assert rejection(state, 0, SetMonster("0-m01", ())) == "NORMAL_SUMMON_USED"


# --- scenario 4: position changes and the main 2 summon --------------------------------------------------


def test_s04a_position_change_limits() -> None:
    state = given(hands={0: ["0-m01"]}, monsters={0: {0: M("0-m07"), 1: M("0-m18", "fd_defense")}})
    events, state = run(state, 0, ChangePosition(0))
    assert events == [PositionChanged(0, 0, "0-m07", "ironhide_boar", "fu_attack", "fu_defense", "manual")]
    assert rejection(state, 0, ChangePosition(0)) == "ALREADY_CHANGED_POSITION"
    assert rejection(state, 0, ChangePosition(1)) == "MONSTER_FACE_DOWN"
    assert rejection(state, 0, ChangePosition(3)) == "NO_MONSTER_IN_SLOT"
    events, state = run(state, 0, NormalSummon("0-m01"))
    assert events == [NormalSummoned(0, 2, "0-m01", "cinder_wolf")]
    assert rejection(state, 0, ChangePosition(2)) == "SUMMONED_THIS_TURN"


def test_s04b_set_in_main_2() -> None:
    state = given(phase="main2", hands={0: ["0-m19"]}, monsters={0: {0: M("0-m01"), 1: M("0-m04"), 2: M("0-m07")}})
    events, state = run(state, 0, SetMonster("0-m19"))
    assert events == [MonsterSet(seat=0, slot=3, instance="0-m19", card_id="maw_beetle")]
    assert RULESET.redact(events[0], 1) == MonsterSet(seat=0, slot=3)
    assert rejection(state, 0, FlipSummon(3, "attack")) == "SUMMONED_THIS_TURN"


# --- scenario 5: Maw Beetle flip summon -------------------------------------------------------------------


def test_s05_flip_summon_of_maw_beetle() -> None:
    state = given(
        turn=7,
        monsters={0: {0: M("0-m18", "fd_defense", arrived=5)}, 1: {0: M("1-m01"), 1: M("1-m08", "fd_defense")}},
    )
    events, state = run(state, 0, FlipSummon(0, "attack"))
    candidates = (MonsterRef(0, 0), MonsterRef(1, 0), MonsterRef(1, 1))
    assert events == [
        FlipSummoned(0, 0, "0-m18", "maw_beetle", "fd_defense"),
        EffectTriggered(0, "0-m18", "maw_beetle", "flip"),
        DecisionRequested(
            decision_id=1,
            seat=0,
            kind="select_target",
            details=Details(
                source="0-m18",
                card_id="maw_beetle",
                trigger="flip",
                candidates=candidates,
            ),
        ),
    ]
    assert rejection(state, 1, ChooseTarget(MonsterRef(1, 1))) == "NOT_YOUR_DECISION"
    assert rejection(state, 0, ChangePosition(0)) == "DECISION_PENDING"
    events, state = run(state, 0, ChooseTarget(MonsterRef(1, 1)))
    assert events == [
        DecisionClosed(1, 0, "answer"),
        CardDestroyed(1, "monster", 1, "1-m08", "shell_sentinel", 1, "effect"),
        EffectResolved(0, "0-m18", "maw_beetle", "flip", MonsterRef(1, 1), False),
    ]
    assert rejection(state, 0, ChangePosition(0)) == "ALREADY_CHANGED_POSITION"


# --- scenario 6: Bastion Marshal --------------------------------------------------------------------------


def test_s06_bastion_marshal_flips_into_defence() -> None:
    marshal, sentinel = M("1-m21", "fd_defense", arrived=4), M("1-m08", "fd_defense", arrived=4)
    state = given(turn=6, monsters={1: {0: marshal, 1: sentinel}})
    assert rejection(state, 1, FlipSummon(1, "defense")) == "FLIP_TO_DEFENSE_NOT_ALLOWED"
    events, after = run(state, 1, FlipSummon(0, "defense"))
    assert events == [
        FlipSummoned(1, 0, "1-m21", "bastion_marshal", "fd_defense"),
        PositionChanged(1, 0, "1-m21", "bastion_marshal", "fu_attack", "fu_defense", "effect"),
    ]
    assert rejection(after, 1, ChangePosition(0)) == "ALREADY_CHANGED_POSITION"
    events, _ = run(state, 1, FlipSummon(1, "attack"))
    assert events == [FlipSummoned(1, 1, "1-m08", "shell_sentinel", "fd_defense")]


# --- scenario 7: attack-position battles ----------------------------------------------------------------


def test_s07_attack_position_battles() -> None:
    state = given(
        phase="battle",
        monsters={0: {0: M("0-m01"), 1: M("0-m12"), 2: M("0-m02")}, 1: {0: M("1-m05"), 1: M("1-m01")}},
    )
    events, state = run(state, 0, DeclareAttack(0, 0))
    assert events == [
        AttackDeclared(0, 0, "0-m01", 0, False),
        DamageCalculated("0-m01", 1800, "1-m05", "fu_attack", 1600, ("1-m05",), DamageAmount(1, 200)),
        DamageDealt(1, 200, 7800, "battle", "0-m01"),
        CardDestroyed(1, "monster", 0, "1-m05", "ironhide_boar", 1, "battle"),
        AttackEnded(0, "0-m01"),
    ]
    assert rejection(state, 0, DeclareAttack(0, 1)) == "ALREADY_ATTACKED"
    events, state = run(state, 0, DeclareAttack(1, 1))
    assert events == [
        AttackDeclared(0, 1, "0-m12", 1, False),
        DamageCalculated("0-m12", 800, "1-m01", "fu_attack", 1800, ("0-m12",), DamageAmount(0, 1000)),
        DamageDealt(0, 1000, 7000, "battle", "0-m12"),
        CardDestroyed(0, "monster", 1, "0-m12", "glade_sprite", 0, "battle"),
        AttackEnded(0, "0-m12"),
    ]
    events, state = run(state, 0, DeclareAttack(2, 1))
    assert events == [
        AttackDeclared(0, 2, "0-m02", 1, False),
        DamageCalculated("0-m02", 1800, "1-m01", "fu_attack", 1800, ("0-m02", "1-m01"), None),
        CardDestroyed(0, "monster", 2, "0-m02", "cinder_wolf", 0, "battle"),
        CardDestroyed(1, "monster", 1, "1-m01", "cinder_wolf", 1, "battle"),
        AttackEnded(0, "0-m02"),
    ]
    assert [side.lp for side in state.sides] == [7000, 7800]


# --- scenario 8: defence battles ----------------------------------------------------------------------------


def _defence_battle() -> Any:
    return given(
        phase="battle",
        monsters={
            0: {0: M("0-m01"), 1: M("0-m04"), 2: M("0-m14")},
            1: {0: M("1-m08", "fd_defense"), 1: M("1-m05", "fu_defense"), 2: M("1-m11", "fu_defense")},
        },
    )


def test_s08a_face_down_defender_flips_and_is_stronger() -> None:
    events, _ = run(_defence_battle(), 0, DeclareAttack(0, 0))
    assert events == [
        AttackDeclared(0, 0, "0-m01", 0, False),
        MonsterFlipped(1, 0, "1-m08", "shell_sentinel", "fd_defense", "fu_defense", "attacked"),
        DamageCalculated("0-m01", 1800, "1-m08", "fu_defense", 1900, (), DamageAmount(0, 100)),
        DamageDealt(0, 100, 7900, "battle", "0-m01"),
        AttackEnded(0, "0-m01"),
    ]


def test_s08b_atk_equal_to_def_changes_nothing() -> None:
    events, _ = run(_defence_battle(), 0, DeclareAttack(1, 1))
    assert events == [
        AttackDeclared(0, 1, "0-m04", 1, False),
        DamageCalculated("0-m04", 1200, "1-m05", "fu_defense", 1200, (), None),
        AttackEnded(0, "0-m04"),
    ]


def test_s08c_defender_destroyed_without_damage() -> None:
    events, state = run(_defence_battle(), 0, DeclareAttack(2, 2))
    assert events == [
        AttackDeclared(0, 2, "0-m14", 2, False),
        DamageCalculated("0-m14", 2100, "1-m11", "fu_defense", 800, ("1-m11",), None),
        CardDestroyed(1, "monster", 2, "1-m11", "glade_sprite", 1, "battle"),
        AttackEnded(0, "0-m14"),
    ]
    assert state.sides[1].lp == 8000


# --- scenario 9: Dusk Visitation, face-down attack position, equip limits -----------------------------------


def _dusk() -> Any:
    return given(
        turn=6,
        hands={1: ["1-m27", "1-m33"]},
        monsters={0: {0: M("0-m01"), 1: M("0-m10", "fd_defense")}, 1: {0: M("1-m14")}},
        spell_traps={0: {0: S("0-m30", face_up=True, set_turn=None, equipped_to="0-m01")}},
    )


def test_s09ab_equip_and_dusk_targets() -> None:
    state = _dusk()
    assert RULESET.view(state, 1).sides[0].monsters[0].atk == 2300
    assert rejection(state, 1, Activate("1-m33", (MonsterRef(0, 1),))) == "TARGET_FACE_DOWN"
    assert rejection(state, 1, Activate("1-m27", (MonsterRef(0, 1),))) == "TARGET_INVALID"


def _dusk_resolved() -> Any:
    events, state = run(_dusk(), 1, Activate("1-m27", (MonsterRef(0, 0),)))
    assert events == [
        CardActivated(1, 0, "1-m27", "dusk_visitation", "hand", (MonsterRef(0, 0),), Choices(), None),
        MonsterTurnedFaceDown(0, 0, "0-m01", "cinder_wolf", "fu_attack", "fd_attack"),
        CardSentToGraveyard(0, "spell_trap", 0, "0-m30", "iron_gauntlet", 0, "equip_lost"),
        CardSentToGraveyard(1, "spell_trap", 0, "1-m27", "dusk_visitation", 1, "resolved"),
    ]
    return state


def test_s09c_dusk_visitation_turns_a_monster_face_down() -> None:
    state = _dusk_resolved()
    assert state.sides[0].monsters[0].position == "fd_attack"


def test_s09d_attacking_a_face_down_attack_position_monster() -> None:
    events, state = run(_dusk_resolved(), 1, Advance("battle"))
    assert events == [PhaseChanged(6, "battle")]
    events, state = run(state, 1, DeclareAttack(0, 0))
    assert events == [
        AttackDeclared(1, 0, "1-m14", 0, False),
        MonsterFlipped(0, 0, "0-m01", "cinder_wolf", "fd_attack", "fu_attack", "attacked"),
        DamageCalculated("1-m14", 2100, "0-m01", "fu_attack", 1800, ("0-m01",), DamageAmount(0, 300)),
        DamageDealt(0, 300, 7700, "battle", "1-m14"),
        CardDestroyed(0, "monster", 0, "0-m01", "cinder_wolf", 0, "battle"),
        AttackEnded(1, "1-m14"),
    ]


def test_s09e_face_down_attack_position_is_flip_summoned_not_attacking() -> None:
    _, state = run(_dusk_resolved(), 1, Advance("end"))
    assert (state.turn, state.turn_seat, state.phase) == (7, 0, "main1")
    events, _ = run(state, 0, FlipSummon(0, "attack"))
    assert events == [FlipSummoned(0, 0, "0-m01", "cinder_wolf", "fd_attack")]
    _, battle = run(state, 0, Advance("battle"))
    assert rejection(battle, 0, DeclareAttack(0, 0)) == "ATTACKER_NOT_IN_ATTACK_POSITION"


# --- scenario 10: turn-1 battle and direct attacks ------------------------------------------------------------


def test_s10_turn_one_battle_and_direct_attack() -> None:
    state = given(turn=1, hands={0: ["0-m01"]})
    events, state = run(state, 0, NormalSummon("0-m01"))
    assert events == [NormalSummoned(0, 0, "0-m01", "cinder_wolf")]
    assert rejection(state, 0, Advance("main2")) == "INVALID_PHASE_TARGET"
    events, state = run(state, 0, Advance("battle"))
    assert events == [PhaseChanged(1, "battle")]
    events, state = run(state, 0, DeclareAttack(0, None))
    assert events == [
        AttackDeclared(0, 0, "0-m01", None, False),
        DamageCalculated("0-m01", 1800, None, None, None, (), DamageAmount(1, 1800)),
        DamageDealt(1, 1800, 6200, "battle", "0-m01"),
        AttackEnded(0, "0-m01"),
    ]


def test_s10_no_battle_on_turn_one_when_disabled() -> None:
    state = given(turn=1, hands={0: ["0-m01"]}, options=Options(first_turn_battle=False))
    assert rejection(state, 0, Advance("battle")) == "NO_BATTLE_FIRST_TURN"
    assert [c for c in RULESET.legal_commands(state, 0) if isinstance(c, Advance)] == [Advance("end")]


def test_s10_direct_attack_only_against_an_empty_field() -> None:
    state = given(turn=1, phase="battle", monsters={0: {0: M("0-m01", arrived=1)}, 1: {0: M("1-m08", "fd_defense")}})
    assert rejection(state, 0, DeclareAttack(0, None)) == "DIRECT_ATTACK_NOT_ALLOWED"
    assert rejection(state, 0, DeclareAttack(0, 3)) == "TARGET_INVALID"
