"""What a viewer sees of a voidlink match (docs/rulesets/voidlink.md §11)."""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.rulesets.voidlink.data import Form, System
from engine.rulesets.voidlink.model.events import CardRef
from engine.rulesets.voidlink.model.state import Attack, Awaiting, Delayed, LinkSource, Origin, Phase, Result


class MonsterView(msgspec.Struct, frozen=True):
    """A field monster with its live ATK/DEF (§8.1)."""

    zone: int
    card: str
    card_id: str
    form: Form
    atk: int
    def_: int = msgspec.field(name="def")
    entry: int = 0
    summoned_turn: int = 0
    form_changed: bool = False
    attacked: bool = False
    lock: System | None = None
    effects_used: tuple[tuple[System, int], ...] = ()
    modifiers: tuple[int, ...] = ()
    counters: dict[str, int] = {}


class MagicView(msgspec.Struct, frozen=True):
    """A magic zone; a face-down card shows only that the slot is taken unless the viewer owns it."""

    zone: int
    face_down: bool
    card: str | None
    card_id: str | None
    set_turn: int | None


class LinkView(msgspec.Struct, frozen=True):
    link: int
    seat: int
    card: str
    card_id: str
    source: LinkSource
    zone: int | None
    effect: int | None
    system: System | None
    targets: tuple[str | None, ...]
    form: Form | None
    origin: Origin | None
    negated: bool


class PlayerView(msgspec.Struct, frozen=True):
    """One seat as the viewer sees it; hidden parts are null, their counts public (§11)."""

    seat: int
    hp: int
    lp: int
    decked_out: bool
    normal_summons_used: int
    commander_used: bool
    combination_used: tuple[str, ...]
    open_timeouts: int
    commander: CardRef | None
    deck_count: int
    hand_count: int
    hand: tuple[CardRef, ...] | None
    extra_count: int
    extra: tuple[CardRef, ...] | None
    tactics_count: int
    tactics: tuple[CardRef, ...] | None
    graveyard: tuple[CardRef, ...]
    monsters: tuple[MonsterView, ...]
    magic: tuple[MagicView, ...]


class View(msgspec.Struct, frozen=True):
    """The match for one viewer (a seat, or None for a spectator); ``players`` are indexed by seat."""

    viewer: int | None
    turn: int
    turn_seat: int
    first_seat: int
    phase: Phase
    awaiting: Awaiting | None
    chain: tuple[LinkView, ...]
    attack: Attack | None
    pending_phase_end: Literal["battle", "end"] | None
    delayed: tuple[Delayed, ...]
    hand_limit: int
    result: Result | None
    players: tuple[PlayerView, ...]
