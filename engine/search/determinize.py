"""The common part of determinisation: a full state a seat could be in, sampled from what it sees.

A ruleset's ``determinize(view, seat, rng)`` (its ``determinize`` module, registered on the ``Ruleset``) builds
the state from the seat's view alone, never from the true state: what the view shows is copied, and every card
the view hides (deck order, opponents' hands, face-down cards) is dealt at random from the cards the seat cannot
account for. The helpers here are that dealing; the ruleset knows its zones and its card pool.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from engine.contract import Ruleset

T = TypeVar("T")


def unaccounted(pool: Iterable[T], seen: Iterable[T]) -> list[T]:
    """The pool less what was seen, as multisets, in the pool's order (so a fixed rng deals the same)."""
    left = Counter(seen)
    out = []
    for card in pool:
        if left[card] > 0:
            left[card] -= 1
        else:
            out.append(card)
    return out


def deal(cards: Sequence[T], sizes: Sequence[int], rng: random.Random) -> list[tuple[T, ...]]:
    """``cards`` shuffled and cut into hidden zones of these sizes, in order (any rest is left out)."""
    shuffled = list(cards)
    rng.shuffle(shuffled)
    if sum(sizes) > len(shuffled):
        raise ValueError(f"{sum(sizes)} hidden cards to deal from {len(shuffled)} unaccounted for")
    zones = []
    at = 0
    for size in sizes:
        zones.append(tuple(shuffled[at : at + size]))
        at += size
    return zones


def determinize(ruleset: Ruleset, view: Any, seat: int, rng: random.Random) -> Any:
    """A state consistent with ``view`` (what ``seat`` sees), its hidden cards sampled by ``rng``."""
    if ruleset.determinize is None:
        raise ValueError(f"{ruleset.id} has no determiniser")
    return ruleset.determinize(view, seat, rng)


def guess_unseen(seen: Sequence[str], size: int, decks: Sequence[Sequence[str]], rng: random.Random) -> list[str]:
    """``size`` card ids for the unseen part of a deck whose list the seat does not know (an opponent's, or its
    own where the view omits it): the rest of a known deck list (a preset) sharing the most cards with what was
    seen (ties drawn at random), cut to size or topped up from the same list."""
    counts = Counter(seen)
    overlap = [sum((Counter(deck) & counts).values()) for deck in decks]
    best = max(overlap)
    picks = [deck for deck, o in zip(decks, overlap, strict=True) if o == best]
    deck = picks[rng.randrange(len(picks))]
    rest = unaccounted(deck, seen)
    rng.shuffle(rest)
    while len(rest) < size:
        rest.append(deck[rng.randrange(len(deck))])
    return rest[:size]


def closest(seen: dict[str, str], expansions: Sequence[dict[str, str]], rng: random.Random) -> dict[str, str]:
    """Of deck lists expanded to instance id -> card id (instance ids number a list's places), the one that
    agrees with the most instances seen (ties drawn at random): the guess at a deck list the seat has not seen."""
    agree = [sum(1 for iid, card in seen.items() if e.get(iid) == card) for e in expansions]
    best = [e for e, a in zip(expansions, agree, strict=True) if a == max(agree)]
    return best[rng.randrange(len(best))]
