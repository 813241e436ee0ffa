"""aq spec §14 acceptance scenarios, one test each (lettered parts split). Events are positional, as in §14."""

from __future__ import annotations

import pytest

from engine.contract import SYSTEM, Outcome
from engine.errors import ConfigError
from engine.rng import ScriptedRng
from engine.rulesets.aq import RULESET
from engine.rulesets.aq.model import (
    CardGiven,
    CardPlayed,
    CardRemoved,
    Concede,
    CoverReserve,
    DirectionChanged,
    Draw,
    EndPhase,
    Event,
    FieldCardDrawn,
    FieldLaidOut,
    HandDealt,
    HandRevealed,
    LearnSkill,
    MatchEnded,
    NextPhaseSkipped,
    Pending,
    PetsShuffled,
    PhaseAutoResolved,
    PhaseEnded,
    PhaseSkipped,
    PhaseStarted,
    PlayCard,
    PlayerConceded,
    ReserveCovered,
    ReserveReturned,
    RoundEnded,
    RoundScored,
    RoundStarted,
    SeatScore,
    SkillDealt,
    SkillDeckShuffled,
    SkillLearned,
    SkillUsed,
    StartingPlayerChosen,
    State,
    Timeout,
    UseSkill,
)
from engine.rulesets.aq.view import pending
from tests.engine.aq.helpers import config, given, rejection, run, types


def mon(*numbers: int, copy: str = "a") -> tuple[str, ...]:
    return tuple(f"Mon.{k:02d}{copy}" for k in numbers)


def code_of(data: dict[str, object]) -> str:
    with pytest.raises(ConfigError) as caught:
        RULESET.configure(data)
    return caught.value.code


# --- 1. Config ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [7, 1])
def test_s01_player_count(players: int) -> None:
    assert code_of(config(players)) == "PLAYER_COUNT_OUT_OF_RANGE"


def test_s01_deck_not_applicable() -> None:
    data = {"seats": [{}, {"deck": "starter_a"}, {}], "options": {}}
    with pytest.raises(ConfigError) as caught:
        RULESET.configure(data)
    assert (caught.value.code, caught.value.seat) == ("DECK_NOT_APPLICABLE", 1)


def test_s01_unknown_box_and_option_range() -> None:
    assert code_of(config(4, box="x")) == "UNKNOWN_BOX"
    assert code_of(config(4, max_rounds=6)) == "OPTION_OUT_OF_RANGE"


# --- 2. Setup -----------------------------------------------------------------------------------


def test_s02a_setup_four_players() -> None:
    events = RULESET.setup(RULESET.configure(config(4)), ScriptedRng())
    skills = [f"SK0{i}-{k}" for i in range(1, 9) for k in (1, 2)]
    assert events == [
        StartingPlayerChosen(0),
        RoundStarted(1, 0, "clockwise"),
        PetsShuffled(1, (*mon(*range(2, 42)), "Mon.01a"), 41),
        HandDealt(0, mon(*range(2, 10)), 8),
        HandDealt(1, mon(*range(10, 18)), 8),
        HandDealt(2, mon(*range(18, 26)), 8),
        HandDealt(3, mon(*range(26, 34)), 8),
        FieldLaidOut((*mon(*range(34, 42)), "Mon.01a")),
        SkillDeckShuffled(1, (*skills[1:], skills[0]), 16),
        SkillDealt(0, "SK01-2"),
        SkillDealt(1, "SK02-1"),
        SkillDealt(2, "SK02-2"),
        SkillDealt(3, "SK03-1"),
        PhaseStarted(1, 0, 1, 60),
    ]
    state = RULESET.initial(RULESET.configure(config(4)))
    for event in events:
        state = RULESET.evolve(state, event)
    assert len(state.skill_deck) == 12 and state.skill_deck[0] == "SK03-2"


def test_s02b_setup_five_players() -> None:
    events = RULESET.setup(RULESET.configure(config(5)), ScriptedRng())
    dealt = [e for e in events if isinstance(e, HandDealt)]
    field = next(e for e in events if isinstance(e, FieldLaidOut))
    assert len(next(e for e in events if isinstance(e, PetsShuffled)).order or ()) == 82
    assert dealt[0] == HandDealt(0, ("Mon.01b", *(c for k in range(2, 8) for c in (mon(k) + mon(k, copy="b")))), 13)
    assert len(field.cards) == 17 and field.cards[-1] == "Mon.01a"


# --- 3-8. Plays, reserves, penalty draws ---------------------------------------------------------


def test_s03_counter_pairs_and_cap() -> None:
    state = given(current=1, field=["Mon.26a"], hands={1: mon(3, 9, 29, 38)})
    events, state = run(state, 1, PlayCard("Mon.29a"))
    assert events == [CardPlayed(1, "Mon.29a", "Mon.26a", 2, True, 2, "hand")]
    events, state = run(state, 1, CoverReserve("Mon.38a"))
    assert events == [ReserveCovered(1, "Mon.38a", "play")]
    events, state = run(state, 1, CoverReserve("Mon.09a"))
    assert events == [ReserveCovered(1, "Mon.09a", "play"), PhaseEnded(1), PhaseStarted(1, 2, 2, 60)]
    assert state.seats[1].hand == mon(3) and state.seats[1].reserve == mon(38, 9)


S4_HAND = mon(2, 5, 8, 13, 16)


def test_s04_forced_play_and_exact_legal_list() -> None:
    state = given(current=2, field=["Mon.09a"], hands={2: S4_HAND})
    assert rejection(state, 2, PlayCard("Mon.02a")) == "CARD_NOT_PLAYABLE"
    assert rejection(state, 2, PlayCard("Mon.05a")) == "CARD_NOT_PLAYABLE"
    assert rejection(state, 2, Draw()) == "MUST_PLAY"
    assert RULESET.legal_commands(state, 2) == [
        LearnSkill(("Mon.08a", "Mon.13a")),
        PlayCard("Mon.08a"),
        PlayCard("Mon.13a"),
        PlayCard("Mon.16a"),
        Concede(),
    ]


@pytest.mark.parametrize(
    ("card", "pairs", "beats", "allowance"),
    [
        ("Mon.08a", 1, False, 1),
        ("Mon.13a", 1, True, 2),
        ("Mon.16a", 0, True, 1),
    ],
)
def test_s04_allowances(card: str, pairs: int, beats: bool, allowance: int) -> None:
    events, _ = run(given(current=2, field=["Mon.09a"], hands={2: S4_HAND}), 2, PlayCard(card))
    assert events[0] == CardPlayed(2, card, "Mon.09a", pairs, beats, allowance, "hand")


def test_s05_attributeless() -> None:
    state = given(current=3, field=["Mon.21a"], hands={3: mon(1, 41), 0: mon(2)})
    assert rejection(state, 3, PlayCard("Mon.01a")) == "CARD_NOT_PLAYABLE"
    events, state = run(state, 3, PlayCard("Mon.41a"))
    assert events == [
        CardPlayed(3, "Mon.41a", "Mon.21a", 0, False, 0, "hand"),
        PhaseEnded(3),
        PhaseStarted(1, 0, 2, 60),
    ]
    events, state = run(state, 0, PlayCard("Mon.02a"))
    assert events == [CardPlayed(0, "Mon.02a", "Mon.41a", 0, True, 1, "hand"), PhaseEnded(0), PhaseStarted(1, 1, 3, 60)]


def test_s06_one_drawn_card_playable() -> None:
    state = given(field=mon(20, 8, 24), hands={0: mon(2, 26)}, reserves={0: mon(6)})
    events, state = run(state, 0, Draw())
    assert events == [
        HandRevealed(0, mon(2, 26)),
        FieldCardDrawn(0, "Mon.20a"),
        FieldCardDrawn(0, "Mon.08a"),
        CardPlayed(0, "Mon.08a", "Mon.24a", 1, False, 0, "drawn"),
        PhaseEnded(0),
        PhaseStarted(1, 1, 2, 60),
    ]
    assert state.seats[0].hand == mon(2, 20, 26) and state.field == mon(24, 8) and state.seats[0].reserve == mon(6)


def test_s07_nothing_playable_reserve_returns() -> None:
    state = given(field=mon(4, 10, 24), hands={0: mon(2)}, reserves={0: mon(11, 6)})
    events, state = run(state, 0, Draw())
    assert events[:5] == [
        HandRevealed(0, mon(2)),
        FieldCardDrawn(0, "Mon.04a"),
        FieldCardDrawn(0, "Mon.10a"),
        ReserveReturned(0, "Mon.06a"),
        PhaseEnded(0),
    ]
    assert state.seats[0].hand == mon(2, 4, 6, 10) and state.seats[0].reserve == mon(11)


def test_s08_two_drawn_cards_pending_choice() -> None:
    state = given(field=mon(5, 29, 16), hands={0: mon(2)})
    events, state = run(state, 0, Draw())
    assert events == [HandRevealed(0, mon(2)), FieldCardDrawn(0, "Mon.05a"), FieldCardDrawn(0, "Mon.29a")]
    assert pending(state) == Pending(0, "drawn_choice", None, mon(5, 29))
    assert RULESET.legal_commands(state, 0) == [PlayCard("Mon.05a"), PlayCard("Mon.29a"), Concede()]
    assert rejection(state, 0, PlayCard("Mon.02a")) == "CARD_NOT_PLAYABLE"
    events, _ = run(state, 0, PlayCard("Mon.29a"))
    assert events[:2] == [CardPlayed(0, "Mon.29a", "Mon.16a", 1, False, 0, "drawn"), PhaseEnded(0)]


# --- 9-10. Round ends ----------------------------------------------------------------------------


def s09_board(**extra: object) -> State:
    return given(
        3,
        current=1,
        round=2,
        field=mon(7, 22),
        hands={0: mon(11), 1: mon(3), 2: mon(1, 2)},
        reserves={0: mon(16), 2: mon(4)},
        totals=[10, -5, 20],
        **extra,  # type: ignore[arg-type]
    )


def test_s09_field_exhaustion_and_scoring() -> None:
    events, state = run(s09_board(), 1, Draw())
    assert events[:6] == [
        HandRevealed(1, mon(3)),
        FieldCardDrawn(1, "Mon.07a"),
        FieldCardDrawn(1, "Mon.22a"),
        RoundEnded(2, "field_exhausted", 1),
        RoundScored(
            2,
            (
                SeatScore(0, mon(11), 7, mon(16), 10, 3, 10, 13, False),
                SeatScore(1, mon(3, 7, 22), 18, (), 0, -18, -5, -23, False),
                SeatScore(2, mon(1, 2), 3, mon(4), 2, -1, 20, 19, False),
            ),
        ),
        RoundStarted(3, 1, "clockwise"),
    ]
    assert state.status == "live"


def s10_board() -> State:
    return given(
        3,
        field=mon(7),
        hands={0: mon(16), 1: mon(3, 41), 2: mon(39)},
        reserves={0: mon(6), 2: mon(10)},
        skills={1: ["SK03-1"]},
    )


def test_s10a_hand_empty_end_is_deferred() -> None:
    events, state = run(s10_board(), 0, PlayCard("Mon.16a"))
    assert events == [CardPlayed(0, "Mon.16a", "Mon.07a", 1, True, 2, "hand"), PhaseEnded(0), PhaseStarted(1, 1, 2, 60)]
    events, state = run(state, 1, PlayCard("Mon.41a"))
    assert events == [
        CardPlayed(1, "Mon.41a", "Mon.16a", 0, False, 0, "hand"),
        PhaseEnded(1),
        PhaseStarted(1, 2, 3, 60),
    ]
    events, state = run(state, 2, PlayCard("Mon.39a"))
    assert events[:6] == [
        CardPlayed(2, "Mon.39a", "Mon.41a", 0, True, 1, "hand"),
        PhaseEnded(2),
        PhaseStarted(1, 0, 4, 60),
        RoundEnded(1, "hand_empty", 0),
        RoundScored(
            1,
            (
                SeatScore(0, (), 0, mon(6), 4, 4, 0, 4, False),
                SeatScore(1, mon(3), 1, (), 0, -1, 0, -1, False),
                SeatScore(2, (), 0, mon(10), 5, 5, 0, 5, False),
            ),
        ),
        RoundStarted(2, 0, "clockwise"),
    ]


def test_s10b_gift_refills_an_empty_hand() -> None:
    state = s10_board()
    _, state = run(state, 0, PlayCard("Mon.16a"))
    events, state = run(state, 1, UseSkill("SK03-1", "Mon.03a", 0))
    assert events == [SkillUsed(1, "SK03-1", "SK03", "Mon.03a", 0), CardGiven(1, 0, "Mon.03a")]
    assert (state.current, state.step) == (1, "main")
    _, state = run(state, 1, PlayCard("Mon.41a"))
    events, state = run(state, 2, PlayCard("Mon.39a"))
    assert events[-1] == PhaseStarted(1, 0, 4, 60) and "RoundEnded" not in types(events)
    assert (state.current, state.step, state.seats[0].hand) == (0, "main", mon(3))


# --- 11. Learning ---------------------------------------------------------------------------------


def test_s11a_learning() -> None:
    state = given(current=2, hands={2: mon(3, 4, 7, 26, 41)}, skill_deck=["SK05-1", "SK06-1"])
    assert rejection(state, 2, LearnSkill(mon(3, 4))) == "LEARN_NO_SHARED_ATTRIBUTE"  # type: ignore[arg-type]
    assert rejection(state, 2, LearnSkill(mon(4, 41))) == "LEARN_NO_SHARED_ATTRIBUTE"  # type: ignore[arg-type]
    assert rejection(state, 2, LearnSkill(mon(26, 7))) == "BAD_FIELDS"  # type: ignore[arg-type]
    removed = state.removed
    events, state = run(state, 2, LearnSkill(mon(7, 26)))  # type: ignore[arg-type]
    assert events == [SkillLearned(2, mon(7, 26), "SK05-1")]  # type: ignore[arg-type]
    assert state.removed == (*removed, *mon(7, 26))
    assert rejection(state, 2, UseSkill("SK05-1", "Mon.03a")) == "SKILL_ACTION_USED"


def test_s11b_learning_the_last_two_cards_ends_the_phase() -> None:
    state = given(current=3, hands={3: mon(6, 11)}, skill_deck=["SK05-1"])
    events, _ = run(state, 3, LearnSkill(mon(6, 11)))  # type: ignore[arg-type]
    assert events == [SkillLearned(3, mon(6, 11), "SK05-1"), PhaseEnded(3), PhaseStarted(1, 0, 2, 60)]  # type: ignore[arg-type]


# --- 12-14. Skills --------------------------------------------------------------------------------


def s12_board(skill: str, **extra: object) -> State:
    return given(
        current=1,
        field=mon(21),
        hands={1: mon(2, 41), **extra.pop("hands", {})},  # type: ignore[dict-item]
        skills={1: [skill]},
        **extra,
    )  # type: ignore[arg-type]


def test_s12a_reverse() -> None:
    events, state = run(s12_board("SK01-1"), 1, UseSkill("SK01-1"))
    assert events == [SkillUsed(1, "SK01-1", "SK01", None, None), DirectionChanged("counterclockwise")]
    events, _ = run(state, 1, PlayCard("Mon.41a"))
    assert events == [
        CardPlayed(1, "Mon.41a", "Mon.21a", 0, False, 0, "hand"),
        PhaseEnded(1),
        PhaseStarted(1, 0, 2, 60),
    ]


def test_s12b_skip() -> None:
    events, state = run(s12_board("SK02-1"), 1, UseSkill("SK02-1"))
    assert events == [SkillUsed(1, "SK02-1", "SK02", None, None), NextPhaseSkipped(2)]
    events, _ = run(state, 1, PlayCard("Mon.41a"))
    assert events == [
        CardPlayed(1, "Mon.41a", "Mon.21a", 0, False, 0, "hand"),
        PhaseEnded(1),
        PhaseStarted(1, 2, 2, 60),
        PhaseSkipped(2),
        PhaseEnded(2),
        PhaseStarted(1, 3, 3, 60),
    ]


def test_s12c_hand_empty_end_before_the_skip() -> None:
    state = s12_board("SK02-1", hands={2: ()}, reserves={2: mon(4)})
    _, state = run(state, 1, UseSkill("SK02-1"))
    events, state = run(state, 1, PlayCard("Mon.41a"))
    assert events[2:4] == [PhaseStarted(1, 2, 2, 60), RoundEnded(1, "hand_empty", 2)]
    scored = events[4]
    assert isinstance(scored, RoundScored)
    assert [line.round_score for line in scored.results][1:3] == [-2, 2]
    assert scored.results[0].total_after < 0 and scored.results[3].total_after < 0
    assert events[5] == RoundStarted(2, 2, "clockwise")
    assert events[-1] == PhaseStarted(2, 2, 3, 60) and "PhaseSkipped" not in types(events)
    assert (state.round, state.current, state.step, state.skip_next) == (2, 2, "main", False)


def test_s13a_greed() -> None:
    board = given(field=mon(26), hands={0: mon(1, 2, 3, 38)}, skills={0: ["SK08-1"]})
    events, state = run(board, 0, UseSkill("SK08-1"))
    assert events == [SkillUsed(0, "SK08-1", "SK08", None, None)]
    events, state = run(state, 0, PlayCard("Mon.38a"))
    assert events == [CardPlayed(0, "Mon.38a", "Mon.26a", 2, True, 3, "hand")]
    for card in mon(1, 2):
        events, state = run(state, 0, CoverReserve(card))
        assert events == [ReserveCovered(0, card, "play")]
    events, _ = run(state, 0, CoverReserve("Mon.03a"))
    assert events[:2] == [ReserveCovered(0, "Mon.03a", "play"), PhaseEnded(0)]
    events, _ = run(board, 0, PlayCard("Mon.38a"))
    assert events == [CardPlayed(0, "Mon.38a", "Mon.26a", 2, True, 2, "hand")]


def test_s13b_wild() -> None:
    state = given(current=1, field=mon(24), hands={1: mon(1, 2)}, skills={1: ["SK06-1"]})
    events, state = run(state, 1, UseSkill("SK06-1"))
    assert events == [SkillUsed(1, "SK06-1", "SK06", None, None)]
    assert rejection(state, 1, Draw()) == "MUST_PLAY"
    events, _ = run(state, 1, PlayCard("Mon.01a"))
    assert events[:2] == [CardPlayed(1, "Mon.01a", "Mon.24a", 0, False, 0, "hand"), PhaseEnded(1)]


def s14_board(skill: str, field: tuple[str, ...] = ("Mon.40a",)) -> State:
    return given(field=field, hands={0: mon(2, 21)}, skills={0: [skill]})


def test_s14a_stash() -> None:
    events, state = run(s14_board("SK04-1"), 0, UseSkill("SK04-1", "Mon.21a"))
    assert events == [SkillUsed(0, "SK04-1", "SK04", "Mon.21a", None), ReserveCovered(0, "Mon.21a", "skill")]
    assert (state.current, state.step, state.seats[0].reserve) == (0, "main", mon(21))
    # Mon.02a (2) cannot beat the attributeless Mon.40a (5): the phase goes on with a draw, no second skill.
    assert RULESET.legal_commands(state, 0) == [Draw(), Concede()]


def test_s14b_banish() -> None:
    events, state = run(s14_board("SK05-1"), 0, UseSkill("SK05-1", "Mon.21a"))
    assert events == [SkillUsed(0, "SK05-1", "SK05", "Mon.21a", None), CardRemoved(0, "Mon.21a")]
    assert state.removed[-1] == "Mon.21a"


def test_s14c_gift() -> None:
    state = s14_board("SK03-1")
    assert rejection(state, 0, UseSkill("SK03-1", "Mon.21a", 0)) == "BAD_TARGET"
    assert rejection(state, 0, UseSkill("SK03-1", None, 2)) == "BAD_FIELDS"
    events, state = run(state, 0, UseSkill("SK03-1", "Mon.21a", 2))
    assert events == [SkillUsed(0, "SK03-1", "SK03", "Mon.21a", 2), CardGiven(0, 2, "Mon.21a")]
    assert "Mon.21a" in state.seats[2].hand


def test_s14d_burden_exhausts_the_field() -> None:
    events, state = run(s14_board("SK07-1", field=mon(22)), 0, UseSkill("SK07-1", None, 3))
    assert events[:3] == [
        SkillUsed(0, "SK07-1", "SK07", None, 3),
        FieldCardDrawn(3, "Mon.22a"),
        RoundEnded(1, "field_exhausted", 0),
    ]
    scored = events[3]
    assert isinstance(scored, RoundScored)
    assert scored.results[0].round_score == -15 and all(line.total_after < 0 for line in scored.results)
    assert events[4] == RoundStarted(2, 0, "clockwise") and state.status == "live"


# --- 15-17. Scoring and the end ------------------------------------------------------------------


def s15_events(total: int) -> list[Event]:
    state = given(
        2,
        round=3,
        step="reserve",
        reserve_remaining=1,
        hands={0: mon(17, 21), 1: ()},
        reserves={0: mon(2), 1: mon(6, 10)},
        totals=[total, -10],
    )
    events, _ = run(state, 0, EndPhase())
    return events


def test_s15_flip() -> None:
    events = s15_events(-40)
    assert events[:5] == [
        PhaseEnded(0),
        PhaseStarted(3, 1, 2, 60),
        RoundEnded(3, "hand_empty", 1),
        RoundScored(
            3,
            (
                SeatScore(0, mon(17, 21), 24, mon(2), 2, -22, -40, 62, True),
                SeatScore(1, (), 0, mon(6, 10), 9, 9, -10, -1, False),
            ),
        ),
        RoundStarted(4, 1, "clockwise"),
    ]


def test_s15_variant_minus_50_does_not_flip() -> None:
    scored = s15_events(-28)[3]
    assert isinstance(scored, RoundScored)
    assert (scored.results[0].total_after, scored.results[0].flipped) == (-50, False)


def round_end(
    n: int,
    round: int,
    hands: dict[int, tuple[str, ...]],
    reserves: dict[int, tuple[str, ...]],
    totals: list[int],
    conceded: tuple[int, ...] = (),
) -> list[Event]:
    """Ends the round: the last seat ends its reserve step and seat 0 starts with an empty hand."""
    state = given(
        n,
        current=n - 1,
        round=round,
        step="reserve",
        reserve_remaining=1,
        hands=hands,
        reserves=reserves,
        totals=totals,
        conceded=conceded,
    )
    events, _ = run(state, n - 1, EndPhase())
    assert events[2] == RoundEnded(round, "hand_empty", 0)
    return events


def test_s16_exactly_zero_beats_the_highest() -> None:
    events = round_end(3, 2, {0: (), 1: mon(1), 2: mon(8)}, {0: mon(11), 1: mon(18, 4), 2: mon(5)}, [-7, 96, 30])
    assert events[-1] == MatchEnded((0,), "exact_zero", (0, 106, 30))


def test_s17a_joint_winners_at_the_round_limit() -> None:
    events = round_end(4, 5, {0: (), 1: (), 2: (), 3: mon(2)}, {}, [40, 72, 72, -1])
    assert events[-1] == MatchEnded((1, 2), "round_limit", (40, 72, 72, -3))


def test_s17b_over_100_jointly() -> None:
    events = round_end(4, 3, {0: (), 1: (), 2: (), 3: mon(2)}, {}, [101, 101, 50, 22])
    assert events[-1] == MatchEnded((0, 1), "over_100", (101, 101, 50, 20))


def test_s17c_flip_past_100() -> None:
    state = given(2, round=2, step="reserve", reserve_remaining=1, hands={0: mon(11, 24), 1: ()}, totals=[-100, 35])
    events, state = run(state, 0, EndPhase())
    assert events[-1] == MatchEnded((0,), "over_100", (120, 35))
    assert RULESET.outcome(state) == Outcome((0,), (1,), False, "over_100")


# --- 18. Next round reset --------------------------------------------------------------------------


def test_s18_next_round_reset() -> None:
    board = s09_board(
        skills={0: ["SK04-2"]}, skill_deck=["SK05-1", "SK07-2"], used_skills=["SK02-2", "SK01-1"], direction=-1
    )
    events, state = run(board, 1, Draw(), ScriptedRng())
    start = types(events).index("RoundStarted")
    assert events[start:] == [
        RoundStarted(3, 1, "clockwise"),
        PetsShuffled(3, (*mon(*range(2, 42)), "Mon.01a"), 41),
        HandDealt(1, mon(*range(2, 12)), 10),
        HandDealt(2, mon(*range(12, 22)), 10),
        HandDealt(0, mon(*range(22, 32)), 10),
        FieldLaidOut((*mon(*range(32, 42)), "Mon.01a")),
        SkillDeckShuffled(3, ("SK02-2", "SK05-1", "SK07-2", "SK01-1"), 4),
        PhaseStarted(3, 1, 2, 60),
    ]
    assert state.seats[0].skills == ("SK04-2",) and state.direction == 1


# --- 19-22. Timer, concession, phase limit, reserve step -------------------------------------------


def s19_board(**extra: object) -> State:
    return given(current=2, field=mon(9), hands={2: S4_HAND}, phase_no=17, **extra)  # type: ignore[arg-type]


def test_s19a_timeout_plays_the_first_playable_card() -> None:
    state = s19_board()
    assert rejection(state, SYSTEM, Timeout(16)) == "TIMEOUT_STALE"
    events, state = run(state, SYSTEM, Timeout(17))
    assert events == [
        PhaseAutoResolved(2, 17, "timeout"),
        CardPlayed(2, "Mon.08a", "Mon.09a", 1, False, 1, "hand"),
        PhaseEnded(2),
        PhaseStarted(1, 3, 18, 60),
    ]
    assert state.seats[2].reserve == ()


def test_s19b_timeout_in_the_reserve_step() -> None:
    events, _ = run(s19_board(step="reserve", reserve_remaining=1), SYSTEM, Timeout(17))
    assert events == [PhaseAutoResolved(2, 17, "timeout"), PhaseEnded(2), PhaseStarted(1, 3, 18, 60)]


def test_s19c_timeout_from_a_seat() -> None:
    assert rejection(s19_board(), 2, Timeout(17)) == "NOT_SYSTEM"


def test_s20a_conceded_seat_on_autopilot() -> None:
    state = given(3, field=mon(1), hands={0: mon(5), 1: mon(2, 11)}, phase_no=4)
    events, state = run(state, 1, Concede())
    assert events == [PlayerConceded(1)]
    assert rejection(state, 1, Concede()) == "SEAT_CONCEDED"
    events, state = run(state, 0, PlayCard("Mon.05a"))
    assert events == [
        CardPlayed(0, "Mon.05a", "Mon.01a", 1, True, 2, "hand"),
        PhaseEnded(0),
        PhaseStarted(1, 1, 5, 60),
        PhaseAutoResolved(1, 5, "conceded"),
        CardPlayed(1, "Mon.11a", "Mon.05a", 0, True, 1, "hand"),
        PhaseEnded(1),
        PhaseStarted(1, 2, 6, 60),
    ]
    assert state.seats[1].hand == mon(2) and state.seats[1].reserve == ()


def test_s20b_last_seat_standing_wins() -> None:
    events, state = run(given(2), 1, Concede())
    assert events == [PlayerConceded(1), MatchEnded((0,), "concede", (0, 0))]
    assert rejection(state, 0, Concede()) == "MATCH_OVER"


def test_s20c_conceded_seat_neither_ends_nor_wins() -> None:
    events = round_end(3, 5, {0: (), 1: (), 2: ()}, {}, [10, 0, 5], conceded=(1,))
    assert events[-1] == MatchEnded((0,), "round_limit", (10, 0, 5))


def test_s21_phase_limit() -> None:
    state = given(
        current=3, step="reserve", reserve_remaining=1, phases_in_round=20, options={"max_phases_per_round": 20}
    )
    events, _ = run(state, 3, EndPhase())
    assert events[:2] == [PhaseEnded(3), RoundEnded(1, "phase_limit", 0)]
    scored = events[2]
    assert isinstance(scored, RoundScored) and all(line.total_after < 0 for line in scored.results)
    assert events[3] == RoundStarted(2, 0, "clockwise")


def test_s22_reserve_step_exactness() -> None:
    state = given(current=1, step="reserve", reserve_remaining=1, hands={1: mon(3, 9)})
    assert RULESET.legal_commands(state, 1) == [
        CoverReserve("Mon.03a"),
        CoverReserve("Mon.09a"),
        EndPhase(),
        Concede(),
    ]
    assert RULESET.legal_commands(state, 0) == [Concede()]
    assert rejection(state, 1, Draw()) == "WRONG_STEP"
    assert rejection(state, 0, EndPhase()) == "NOT_YOUR_PHASE"
    events, _ = run(state, 1, CoverReserve("Mon.03a"))
    assert events[:2] == [ReserveCovered(1, "Mon.03a", "play"), PhaseEnded(1)]
