"""Scenario helpers for voidlink (docs/rulesets/voidlink.md §14): a ``given`` board builder, and ``run``,
``rejection`` and ``fold`` from tests/engine/scenario.py.

Cards are written ``("p0.m01", "VL-M01")`` (instance id, catalog id); as in §14 a scenario may put any card
anywhere, so a built state maps exactly the ids it mentions. Monsters get entries 1, 2, ... in the order given and
``entry_counter`` is ``E``; unless told otherwise each deck holds filler cards so nobody decks out by accident.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from engine.rulesets.voidlink import RULESET
from engine.rulesets.voidlink.data import Form
from engine.rulesets.voidlink.model import Options, State
from engine.rulesets.voidlink.model.events import AwaitingDecision
from engine.rulesets.voidlink.model.state import EMPTY_ZONES, Awaiting, MagicSlot, Monster, Phase, Player
from tests.engine.scenario import Scenario

CardRef = tuple[str, str]
E = 100
"""``entry_counter`` of every built state (§14's ``e``)."""
SEQ = 50
"""``awaiting.seq`` of every built state."""


class Mon(msgspec.Struct, frozen=True):
    """A monster for a ``given`` board: zone order is list order unless ``zone`` is set."""

    card: str
    card_id: str
    form: Form
    summoned_turn: int = 1
    modifiers: tuple[int, ...] = ()
    counters: dict[str, int] = {}
    zone: int | None = None


class Seat(msgspec.Struct, frozen=True):
    hand: tuple[CardRef, ...] = ()
    deck: tuple[CardRef, ...] | None = None
    graveyard: tuple[CardRef, ...] = ()
    extra: tuple[CardRef, ...] = ()
    tactics: tuple[CardRef, ...] = ()
    monsters: tuple[Mon, ...] = ()
    magic: tuple[tuple[int, CardRef, int], ...] = ()
    """(zone, card, set turn) of face-down magic."""
    commander: CardRef | None = None
    hp: int = 7000
    lp: int = 7000
    normal_summons_used: int = 0
    open_timeouts: int = 0


NOBODY = Seat()
"""A seat with only filler in its deck."""


def seat(**fields: Any) -> Seat:
    converted = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    return Seat(**converted)


def filler(s: int, n: int = 5) -> tuple[CardRef, ...]:
    return tuple((f"p{s}.m{80 - i}", "VL-M08") for i in range(n))


def given(
    s0: Seat = NOBODY, s1: Seat = NOBODY, *, turn: int = 3, turn_seat: int = 0, phase: Phase = "main", **options: Any
) -> State:
    """A state awaiting the turn seat's open decision (seq ``SEQ``) with exactly these boards and zones."""
    card_ids: dict[str, str] = {}
    players = []
    entry = 0
    for s, spec in enumerate((s0, s1)):
        deck = spec.deck if spec.deck is not None else filler(s)
        refs = [*spec.hand, *deck, *spec.graveyard, *spec.extra, *spec.tactics, *(c for _, c, _ in spec.magic)]
        refs += [(m.card, m.card_id) for m in spec.monsters]
        if spec.commander is not None:
            refs.append(spec.commander)
        for card, card_id in refs:
            assert card_ids.setdefault(card, card_id) == card_id, f"{card} used for two cards"
        zones: list[Monster | None] = list(EMPTY_ZONES)
        for i, m in enumerate(spec.monsters):
            entry += 1
            zones[m.zone if m.zone is not None else i] = Monster(
                m.card, m.card_id, m.form, entry, m.summoned_turn, modifiers=m.modifiers, counters=m.counters
            )
        magic: list[MagicSlot | None] = list(EMPTY_ZONES)
        for zone, (card, card_id), set_turn in spec.magic:
            magic[zone] = MagicSlot(card, card_id, True, set_turn)
        players.append(
            Player(
                hp=spec.hp,
                lp=spec.lp,
                normal_summons_used=spec.normal_summons_used,
                open_timeouts=spec.open_timeouts,
                deck=_ids(deck),
                hand=_ids(spec.hand),
                extra=_ids(spec.extra),
                graveyard=_ids(spec.graveyard),
                monsters=tuple(zones),
                magic=tuple(magic),
                commander=None if spec.commander is None else spec.commander[0],
                tactics=_ids(spec.tactics),
            )
        )
    opts = Options(**options)
    return State(
        options=opts,
        card_ids=card_ids,
        players=tuple(players),
        turn=turn,
        turn_seat=turn_seat,
        phase=phase,
        awaiting=Awaiting(turn_seat, "open", None, None, SEQ, opts.open_timer_s),
        entry_counter=E,
        seq=SEQ,
    )


def _ids(refs: Sequence[CardRef]) -> tuple[str, ...]:
    return tuple(card for card, _ in refs)


_SCENARIO = Scenario(RULESET)
run = _SCENARIO.run
rejection = _SCENARIO.rejection
fold = _SCENARIO.fold


def open_(seat: int, seq: int) -> AwaitingDecision:
    return AwaitingDecision(seat, "open", None, None, seq, 120)


def response(seat: int, window: Any, seq: int) -> AwaitingDecision:
    return AwaitingDecision(seat, "response", window, None, seq, 20)


def monster(state: State, card: str) -> Monster:
    for player in state.players:
        for m in player.monsters:
            if m is not None and m.card == card:
                return m
    raise AssertionError(f"{card} is not on the field")
