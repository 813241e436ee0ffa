"""The aq determiniser while a seat chooses whether to play the card it drew (aq.md §7: step drawn_choice)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from engine.registry import HOSTED
from engine.rulesets.aq.determinize import determinize
from engine.rulesets.aq.model import State
from tests.engine.contract_helpers import playout

AQ = max((key for key in HOSTED if key[0] == "aq"), key=lambda key: key[1])


def choosing(players: int, seeds: range) -> Iterator[State]:
    """States of random matches in which the current seat chooses whether to play a drawn card."""
    ruleset = HOSTED[AQ]
    for seed in seeds:
        for match, _ in playout(ruleset, players, seed, 400):
            if match.state.step == "drawn_choice" and ruleset.outcome(match.state) is None:
                yield match.state


def test_every_seat_samples_the_shown_drawn_card_into_the_choosers_hand() -> None:
    # Every seat's view shows the drawn card the current seat may play; a sample from another seat's view dealt
    # that seat's hand without it, so the card was in no hand, or in two (a concession's autopilot then played
    # a card the hand did not hold).
    ruleset = HOSTED[AQ]
    states = [state for players in (2, 4, 6) for state in choosing(players, range(6))]
    assert len(states) >= 10
    for state in states:
        for seat in range(len(state.seats)):
            sample = determinize(ruleset.view(state, seat), seat, random.Random(seat))
            assert set(state.drawn_playable) <= set(sample.seats[state.current].hand)
            held = Counter(card for s in sample.seats for card in (*s.hand, *s.reserve))
            assert held == Counter(card for s in state.seats for card in (*s.hand, *s.reserve))
