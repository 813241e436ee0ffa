"""aq self-play: bots finish at every player count; legal_commands is exact against a wide candidate set."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given as for_seeds
from hypothesis import settings
from hypothesis import strategies as st

from engine.bots import make_bot
from engine.errors import Rejected
from engine.match import Match, apply, create, encode, fold
from engine.rng import Rng
from engine.rulesets.aq import RULESET
from engine.rulesets.aq.model import (
    Command,
    Concede,
    CoverReserve,
    Draw,
    EndPhase,
    LearnSkill,
    PlayCard,
    RoundScored,
    State,
    Timeout,
    UseSkill,
)
from engine.selfplay import next_move, play
from tests.engine.aq.helpers import config


def names(players: int) -> list[str]:
    return [f"p{s}" for s in range(players)]


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_finish_with_a_spec_outcome(players: int, bot: str) -> None:
    for game in range(3):
        bots = [make_bot(bot, RULESET, game * 10 + s) for s in range(players)]
        played = play(RULESET, config(players), names(players), game.to_bytes(32, "big"), bots)
        outcome = played.outcome
        assert outcome is not None and outcome.reason in ("exact_zero", "over_100", "round_limit")
        last = [e for e in played.events if isinstance(e, RoundScored)][-1]
        totals = [line.total_after for line in last.results]
        assert set(outcome.winners) | set(outcome.losers) == set(range(players)) and not outcome.draw
        assert all(totals[w] == 0 for w in outcome.winners) or all(totals[w] == max(totals) for w in outcome.winners)


def test_same_seed_same_game_and_the_fold_agrees() -> None:
    runs = [
        play(RULESET, config(5), names(5), bytes(32), [make_bot("random", RULESET, s) for s in range(5)])
        for _ in range(2)
    ]
    assert [encode(e) for e in runs[0].events] == [encode(e) for e in runs[1].events]
    assert fold(RULESET, runs[0].events) == runs[0].match


def playout(players: int, seed: int) -> Iterator[Match]:
    seed_bytes = seed.to_bytes(32, "big")
    match = fold(RULESET, create(RULESET, config(players), names(players), seed_bytes))
    bots = [make_bot("greedy" if seed % 2 else "random", RULESET, seed + s) for s in range(players)]
    while RULESET.outcome(match.state) is None:
        yield match
        actor, command = next_move(RULESET, match.state, bots)
        match = apply(RULESET, match, RULESET.decide(match.state, actor, command, Rng(seed_bytes, match.version + 1)))


def candidates(state: State) -> list[Command]:
    """Every command shape the current seat could send, legal or not (ids from all zones, seats out of range)."""
    seat = state.seats[state.current]
    cards = sorted({*seat.hand, *state.field[-2:], *state.drawn_playable, "Mon.99z"})
    out: list[Command] = [Draw(), EndPhase(), Concede(), Timeout(state.phase_no)]
    out += [PlayCard(c) for c in cards] + [CoverReserve(c) for c in cards]
    out += [LearnSkill((a, b)) for a in cards for b in cards]
    for skill in (*seat.skills, *state.used_skills[-1:]):
        for card in (None, *cards):
            out += [UseSkill(skill, card, target) for target in (None, -1, *range(len(state.seats) + 1))]
    return out


@settings(max_examples=12, deadline=None)
@for_seeds(players=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_legal_commands_are_exactly_the_accepted_ones(players: int, seed: int) -> None:
    for k, match in enumerate(playout(players, seed)):
        if k % 4:
            continue
        state = match.state
        for seat in range(players):
            listed = RULESET.legal_commands(state, seat)
            assert listed == sorted(set(listed), key=listed.index), "no duplicates"
            for command in candidates(state):
                try:
                    RULESET.decide(state, seat, command, Rng(bytes(32), 1))
                    accepted = True
                except Rejected:
                    accepted = False
                assert accepted == (command in listed), (seat, command)
