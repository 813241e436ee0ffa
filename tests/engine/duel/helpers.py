"""Scenario helpers for duel: a ``given`` state builder, one-command runs and rejections (duel.md §14).

Seat 0 ("A") plays ``starter_a`` and seat 1 ("B") ``starter_b``; cards not placed anywhere stay in their
owner's deck in submitted order. Monsters default to ``fu_attack``, arrived on turn 3; set cards to turn 4.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from engine.rulesets.duel import RULESET
from engine.rulesets.duel.data import PRESETS
from engine.rulesets.duel.model.state import (
    CardRef,
    DeckList,
    Monster,
    Options,
    Pending,
    Side,
    SpellTrap,
    State,
    card_of,
    instance_id,
)
from tests.engine.scenario import Scenario

DECKS = (
    DeckList(**{k: tuple(v) for k, v in PRESETS["starter_a"].items()}),
    DeckList(**{k: tuple(v) for k, v in PRESETS["starter_b"].items()}),
)
BASE = State(
    options=Options(),
    cards={
        instance_id(seat, section, i): CardRef(instance_id(seat, section, i), card_id)
        for seat, deck in enumerate(DECKS)
        for section, cards in (("m", deck.main), ("x", deck.extra), ("s", deck.side))
        for i, card_id in enumerate(cards)
    },
)


def cid(instance: str) -> str:
    """The card id of a starter-deck instance."""
    return card_of(BASE, instance)


def M(instance: str, position: str = "fu_attack", arrived: int = 3, **runtime: Any) -> Monster:
    """A monster on the field."""
    return Monster(instance, cid(instance), position, arrived, **runtime)


def S(instance: str, face_up: bool = False, set_turn: int | None = 4, **runtime: Any) -> SpellTrap:
    """A spell/trap card on the field, face-down and set on turn 4 unless told otherwise."""
    return SpellTrap(instance, cid(instance), face_up, set_turn, **runtime)


def _row(cards: Mapping[int, Any] | None) -> tuple[Any, ...]:
    cards = cards or {}
    return tuple(cards.get(slot) for slot in range(5))


def _all_instances(seat: int) -> list[str]:
    return [f"{seat}-m{i + 1:02d}" for i in range(len(DECKS[seat].main))]


def given(
    *,
    turn: int = 5,
    phase: str = "main1",
    hands: Mapping[int, Sequence[str]] | None = None,
    monsters: Mapping[int, Mapping[int, Monster]] | None = None,
    spell_traps: Mapping[int, Mapping[int, SpellTrap]] | None = None,
    graveyards: Mapping[int, Sequence[str]] | None = None,
    decks: Mapping[int, Sequence[str]] | None = None,
    extras: Mapping[int, Sequence[str]] | None = None,
    lp: tuple[int, int] = (8000, 8000),
    timeouts: tuple[int, int] = (0, 0),
    options: Options | None = None,
    next_decision_id: int = 1,
    **fields: Any,
) -> State:
    """A state in the §14 conventions; the turn seat follows the turn (A plays odd turns)."""
    hands, monsters, spell_traps = hands or {}, monsters or {}, spell_traps or {}
    graveyards, decks, extras = graveyards or {}, decks or {}, extras or {}
    placed = {i for seat in (0, 1) for i in (*hands.get(seat, ()), *graveyards.get(seat, ()))}
    placed |= {card.instance for row in monsters.values() for card in row.values()}
    placed |= {card.instance for row in spell_traps.values() for card in row.values()}
    sides = []
    for seat in (0, 1):
        deck = decks.get(seat)
        if deck is None:
            deck = [i for i in _all_instances(seat) if i not in placed]
        extra = extras.get(seat, [f"{seat}-x{i + 1:02d}" for i in range(len(DECKS[seat].extra))])
        sides.append(
            Side(
                lp=lp[seat],
                timeouts=timeouts[seat],
                deck=tuple(deck),
                hand=tuple(hands.get(seat, ())),
                monsters=_row(monsters.get(seat)),
                spell_traps=_row(spell_traps.get(seat)),
                graveyard=tuple(graveyards.get(seat, ())),
                extra=tuple(extra),
                side_deck=tuple(f"{seat}-s{i + 1:02d}" for i in range(len(DECKS[seat].side))),
            )
        )
    return replace(
        BASE,
        options=options or Options(),
        turn=turn,
        turn_seat=(turn + 1) % 2,
        phase=phase,
        sides=tuple(sides),
        next_decision_id=next_decision_id,
        **fields,
    )


_scenario = Scenario(RULESET)
fold, run, rejection = _scenario.fold, _scenario.run, _scenario.rejection


def pending(state: State) -> Pending:
    assert state.pending is not None
    return state.pending
