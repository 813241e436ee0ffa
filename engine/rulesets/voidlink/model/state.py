"""voidlink configuration and state (docs/rulesets/voidlink.md §3.4, §4, §5.1): data only. Cards are instance
ids ``p<seat>.<part><nn>`` (§3.3); monster and magic zones are 6-slot tuples, ``None`` for an empty slot."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from engine.rulesets.voidlink.data import Form, Step, System

Phase = Literal["draw", "main", "battle", "end"]
DecisionKind = Literal["open", "response", "discard"]
Window = Literal["chain", "summon", "attack", "phase_end"]
LinkSource = Literal["hand", "set", "tactics", "commander", "monster", "extra"]
Origin = Literal["open", "chain", "summon", "attack", "phase_end"]
SummonFrom = Literal["hand", "graveyard", "extra"]
SummonMethod = Literal["normal", "tribute", "myth", "special"]
LeaveFrom = Literal["hand", "monster_zone", "magic_zone", "chain"]
GraveReason = Literal["tribute", "material", "resolved", "hand_limit"]
Cause = Literal["battle", "effect"]
EndReason = Literal["pool_zero", "deck_out", "special_victory", "concede", "timeout", "simultaneous", "disconnected"]

ZONES = 6
EMPTY_ZONES: tuple[None, ...] = (None,) * ZONES


# --- configuration (§4, §5.1) ------------------------------------------------------------------------------


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Match options with the spec's defaults (§5.1)."""

    opening_hand_size: Annotated[int, msgspec.Meta(ge=0, le=10)] = 5
    hand_limit: Annotated[int, msgspec.Meta(ge=1, le=20)] = 6
    first_player: Literal["random", 0, 1] = "random"
    open_timer_s: Annotated[int, msgspec.Meta(ge=10, le=3600)] = 120
    response_timer_s: Annotated[int, msgspec.Meta(ge=5, le=600)] = 20
    discard_timer_s: Annotated[int, msgspec.Meta(ge=5, le=600)] = 30
    open_timeouts_to_lose: Annotated[int, msgspec.Meta(ge=0, le=100)] = 3


class Deck(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One seat's validated deck list, presets expanded (§4); private: ``public_config`` empties it."""

    main: tuple[tuple[str, int], ...] = ()
    extra: tuple[tuple[str, int], ...] = ()
    commander: tuple[str, ...] = ()


class SeatConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    deck: Deck


class Config(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seats: tuple[SeatConfig, ...]
    options: Options = Options()


# --- state (§3.4) ------------------------------------------------------------------------------------------


class Monster(msgspec.Struct, frozen=True):
    """A monster on the field; ``effects_used`` holds ``(system, effect index)`` pairs of this turn."""

    card: str
    card_id: str
    form: Form
    entry: int
    summoned_turn: int
    form_changed: bool = False
    attacked: bool = False
    lock: System | None = None
    effects_used: tuple[tuple[System, int], ...] = ()
    modifiers: tuple[int, ...] = ()
    counters: dict[str, int] = {}


class MagicSlot(msgspec.Struct, frozen=True):
    card: str
    card_id: str
    face_down: bool
    set_turn: int | None


class Player(msgspec.Struct, frozen=True):
    hp: int = 7000
    lp: int = 7000
    decked_out: bool = False
    normal_summons_used: int = 0
    commander_used: bool = False
    combination_used: tuple[str, ...] = ()
    open_timeouts: int = 0
    deck: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    graveyard: tuple[str, ...] = ()
    monsters: tuple[Monster | None, ...] = EMPTY_ZONES
    magic: tuple[MagicSlot | None, ...] = EMPTY_ZONES
    commander: str | None = None
    tactics: tuple[str, ...] = ()


class Awaiting(msgspec.Struct, frozen=True):
    seat: int
    kind: DecisionKind
    window: Window | None
    count: int | None
    seq: int
    timer_s: int


class Link(msgspec.Struct, frozen=True):
    """A chain link; ``entries`` holds each field target's entry at activation (None for other targets)."""

    link: int
    seat: int
    card: str
    card_id: str
    source: LinkSource
    zone: int | None
    effect: int | None
    system: System | None
    targets: tuple[str, ...]
    entries: tuple[int | None, ...]
    source_entry: int | None
    form: Form | None
    origin: Origin | None
    negated: bool = False


class Attack(msgspec.Struct, frozen=True):
    attacker: str
    attacker_entry: int
    target: str | None
    target_entry: int | None
    system: System
    defender: int
    negated: bool = False


class Subject(msgspec.Struct, frozen=True):
    card: str
    entry: int


class Delayed(msgspec.Struct, frozen=True):
    delayed_id: int
    seat: int
    turn: int
    card_id: str
    subjects: tuple[Subject, ...]
    steps: tuple[Step, ...]


class Result(msgspec.Struct, frozen=True):
    result: Literal["win", "draw"]
    winner: int | None
    reason: EndReason


class State(msgspec.Struct, frozen=True):
    """The whole match. ``card_ids`` maps every instance id to its catalog id (filled by ``MatchStarted``)."""

    options: Options
    card_ids: dict[str, str] = {}
    players: tuple[Player, ...] = (Player(), Player())
    on_chain: tuple[str, ...] = ()
    """Tactics cards that left their area onto the chain and are still there (§8.7)."""
    turn: int = 0
    turn_seat: int = 0
    first_seat: int = 0
    phase: Phase = "draw"
    awaiting: Awaiting | None = None
    chain: tuple[Link, ...] = ()
    attack: Attack | None = None
    pending_phase_end: Literal["battle", "end"] | None = None
    delayed: tuple[Delayed, ...] = ()
    entry_counter: int = 0
    delayed_counter: int = 0
    seq: int = 0
    result: Result | None = None
