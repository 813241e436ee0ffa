"""The duel determiniser with a card on the other seat's side (duel.md §8: a monster special summoned from the
opponent's graveyard stays its owner's card under the summoner's control)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from engine.registry import HOSTED
from engine.rulesets.duel.determinize import determinize
from engine.rulesets.duel.model.state import State
from tests.engine.contract_helpers import playout

DUEL = max((key for key in HOSTED if key[0] == "duel"), key=lambda key: key[1])


def instances(state: State) -> Iterator[str]:
    for side in state.sides:
        yield from (*side.deck, *side.hand, *side.graveyard, *side.extra, *side.side_deck)
        yield from (m.instance for m in side.monsters if m is not None)
        yield from (c.instance for c in side.spell_traps if c is not None)


def taken_over(seeds: range) -> Iterator[State]:
    """The first state of each random match in which a seat controls a monster of the other seat's deck."""
    ruleset = HOSTED[DUEL]
    for seed in seeds:
        for match, _ in playout(ruleset, 2, seed, 400):
            state: State = match.state
            if ruleset.outcome(state) is not None:
                break
            if any(
                m is not None and not m.instance.startswith(f"{seat}-")
                for seat, side in enumerate(state.sides)
                for m in side.monsters
            ):
                yield state
                break


def test_a_card_under_the_other_seats_control_is_never_dealt_again() -> None:
    # The owner's unseen cards were numbered without it, so a sample dealt a second copy of it into the owner's
    # deck (and the search's playouts met two monsters of one instance, failing the rules' own checks).
    ruleset = HOSTED[DUEL]
    states = list(taken_over(range(12)))
    assert len(states) >= 3
    for state in states:
        for seat in (0, 1):
            seen = ruleset.view(state, seat)
            for k in range(8):
                sample = determinize(seen, seat, random.Random(k))
                twice = [i for i, n in Counter(instances(sample)).items() if n > 1]
                assert not twice, f"dealt twice: {twice}"
                assert ruleset.view(sample, seat) == seen and len(list(instances(sample))) == len(
                    list(instances(state))
                )
                # The seat's own deck holds exactly its instances not seen elsewhere: a monster taken from the other
                # seat was counted among its own places, so a sample dealt an instance that does not exist in
                # place of one of its deck (and the search played a command the real deck allowed on it).
                assert sorted(sample.sides[seat].deck) == sorted(state.sides[seat].deck)
                assert ruleset.legal_commands(sample, seat) == ruleset.legal_commands(state, seat)
