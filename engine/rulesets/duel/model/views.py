"""What one viewer sees (duel.md §11): built field by field by ``view.py``; hidden fields stay ``UNSET``."""

from __future__ import annotations

import msgspec
from msgspec import UNSET, UnsetType

from engine.rulesets.duel.model.state import CardRef, Details, Options, QueuedTrigger, Result


class Pile(msgspec.Struct, frozen=True, kw_only=True):
    """A zone seen as its count, plus its cards when the viewer may see them (hand, extra, side)."""

    count: int
    cards: tuple[CardRef, ...] | UnsetType = UNSET


class MonsterView(msgspec.Struct, frozen=True, kw_only=True):
    """A monster slot: face-down monsters show only their position and turns to others (§11)."""

    face_down: bool
    position: str
    arrived_turn: int
    position_changed_turn: int | None
    attacked_turn: int | None
    instance: str | UnsetType = UNSET
    card_id: str | UnsetType = UNSET
    atk: int | UnsetType = UNSET
    defense: int | UnsetType = msgspec.field(default=UNSET, name="def")
    equips: tuple[str, ...] | UnsetType = UNSET


class SpellTrapView(msgspec.Struct, frozen=True, kw_only=True):
    """A spell/trap slot: face-down cards show only ``set_turn`` to others (§11)."""

    face_down: bool
    set_turn: int | None
    instance: str | UnsetType = UNSET
    card_id: str | UnsetType = UNSET
    counters: dict[str, int] | UnsetType = UNSET
    equipped_to: str | UnsetType | None = UNSET


class SideView(msgspec.Struct, frozen=True):
    seat: int
    lp: int
    deck_out: bool
    timeouts: int
    deck: Pile
    hand: Pile
    extra: Pile
    side_deck: Pile
    monsters: tuple[MonsterView | None, ...]
    spell_traps: tuple[SpellTrapView | None, ...]
    graveyard: tuple[CardRef, ...]


class AttackView(msgspec.Struct, frozen=True, kw_only=True):
    attacker: str
    attacker_slot: int
    target_slot: int | None
    defender_count: int
    stage: str
    target: str | UnsetType | None = UNSET


class PendingView(msgspec.Struct, frozen=True, kw_only=True):
    decision_id: int
    seat: int
    kind: str
    details: Details | UnsetType = UNSET


class View(msgspec.Struct, frozen=True):
    """The match as ``viewer`` (a seat, or None for a spectator) may see it."""

    viewer: int | None
    options: Options
    first_seat: int
    turn: int
    turn_seat: int
    phase: str
    normal_summon_used: bool
    sides: tuple[SideView, ...]
    attack: AttackView | None
    queue: tuple[QueuedTrigger, ...]
    pending: PendingView | None
    ended: bool
    result: Result | None
