"""voidlink data: configuration, state, commands, events and views (docs/rulesets/voidlink.md §3-§5, §7, §11).

Data only: the functions live in rules.py, resolve.py, evolve.py and view.py. Cards are instance ids
``p<seat>.<part><nn>`` (§3.3); monster and magic zones are 6-slot tuples, ``None`` for an empty slot.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from engine.rulesets.voidlink.data import Form, Pool, Step, System

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
EndReason = Literal["pool_zero", "deck_out", "special_victory", "concede", "timeout", "simultaneous"]

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


# --- commands (§7.2) ---------------------------------------------------------------------------------------


class _Command(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class NormalSummon(_Command, tag="normal_summon", frozen=True):
    card: str
    form: Form


class TributeSummon(_Command, tag="tribute_summon", frozen=True):
    card: str
    form: Form
    tributes: tuple[str, ...]


class MythSummon(_Command, tag="myth_summon", frozen=True):
    card: str
    form: Form
    materials: tuple[str, ...]


class SetMagic(_Command, tag="set_magic", frozen=True):
    card: str


class ActivateMagic(_Command, tag="activate_magic", frozen=True):
    card: str
    targets: tuple[str, ...] = ()
    form: Form | None = None


class ActivateTactics(_Command, tag="activate_tactics", frozen=True):
    card: str
    targets: tuple[str, ...] = ()
    form: Form | None = None


class ActivateCommander(_Command, tag="activate_commander", frozen=True):
    targets: tuple[str, ...] = ()


class ActivateMonsterEffect(_Command, tag="activate_monster_effect", frozen=True):
    card: str
    effect: int
    targets: tuple[str, ...] = ()


class ActivateCombination(_Command, tag="activate_combination", frozen=True):
    card: str
    materials: tuple[str, ...]
    targets: tuple[str, ...] = ()


class ChangeForm(_Command, tag="change_form", frozen=True):
    card: str
    form: Form


class GoToBattle(_Command, tag="go_to_battle", frozen=True):
    pass


class DeclareAttack(_Command, tag="declare_attack", frozen=True):
    attacker: str
    target: str | None = None


class EndTurn(_Command, tag="end_turn", frozen=True):
    pass


class Pass(_Command, tag="pass", frozen=True):
    pass


class Discard(_Command, tag="discard", frozen=True):
    cards: tuple[str, ...]


class Concede(_Command, tag="concede", frozen=True):
    pass


class Timeout(_Command, tag="timeout", frozen=True):
    seat: int
    seq: int


Command = (
    NormalSummon
    | TributeSummon
    | MythSummon
    | SetMagic
    | ActivateMagic
    | ActivateTactics
    | ActivateCommander
    | ActivateMonsterEffect
    | ActivateCombination
    | ChangeForm
    | GoToBattle
    | DeclareAttack
    | EndTurn
    | Pass
    | Discard
    | Concede
    | Timeout
)


# --- events (§7.3) -----------------------------------------------------------------------------------------


class _Event(msgspec.Struct, frozen=True, tag_field="type", tag=True):
    pass


class CardRef(msgspec.Struct, frozen=True):
    card: str
    card_id: str


class PlayerSetup(msgspec.Struct, frozen=True):
    """One seat in ``MatchStarted``; for a non-owner the lists are null and only the counts remain (§11)."""

    seat: int
    commander: CardRef | None
    hp: int
    lp: int
    main: tuple[CardRef, ...] | None
    main_count: int
    extra: tuple[CardRef, ...] | None
    extra_count: int
    tactics: tuple[CardRef, ...] | None
    tactics_count: int


class MatchStarted(_Event, frozen=True):
    ruleset: str
    options: Options
    players: tuple[PlayerSetup, ...]


class DeckShuffled(_Event, frozen=True):
    """``order`` (index 0 = top) is null for every viewer, the owner included (§11)."""

    seat: int
    order: tuple[str, ...] | None
    count: int


class FirstPlayerChosen(_Event, frozen=True):
    seat: int
    method: Literal["option", "rng"]


class CardsDrawn(_Event, frozen=True):
    """``cards`` is null for everyone but the drawer (§11)."""

    seat: int
    cards: tuple[str, ...] | None
    count: int
    reason: Literal["opening", "draw_phase", "effect"]


class DrawSkipped(_Event, frozen=True):
    seat: int


class DrawFailed(_Event, frozen=True):
    seat: int
    needed: int
    available: int


class TurnStarted(_Event, frozen=True):
    turn: int
    seat: int


class PhaseChanged(_Event, frozen=True):
    turn: int
    phase: Phase


class AwaitingDecision(_Event, frozen=True):
    seat: int
    kind: DecisionKind
    window: Window | None
    count: int | None
    seq: int
    timer_s: int


class PhaseEndRequested(_Event, frozen=True):
    seat: int
    next: Literal["battle", "end"]


class MonsterSummoned(_Event, frozen=True):
    seat: int
    card: str
    card_id: str
    from_: SummonFrom = msgspec.field(name="from")
    zone: int
    form: Form
    method: SummonMethod
    entry: int


class EffectTriggered(_Event, frozen=True):
    seat: int
    card: str
    card_id: str
    system: System
    effect: int


class Moved(msgspec.Struct, frozen=True):
    card: str
    card_id: str
    from_: LeaveFrom = msgspec.field(name="from")


class SentToGraveyard(_Event, frozen=True):
    seat: int
    cards: tuple[Moved, ...]
    reason: GraveReason


class MagicSet(_Event, frozen=True):
    """``card`` and ``card_id`` are null for everyone but the owner (§11)."""

    seat: int
    card: str | None
    card_id: str | None
    zone: int


class ChainLinkAdded(_Event, frozen=True):
    """A target chosen in the hand is null for everyone but the activator (D33)."""

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


class Passed(_Event, frozen=True):
    seat: int


class LinkNegated(_Event, frozen=True):
    link: int
    by_link: int


class LinkResolved(_Event, frozen=True):
    link: int
    negated: bool


class ChainResolved(_Event, frozen=True):
    pass


class StatModified(_Event, frozen=True):
    card: str
    atk_delta: int
    atk_now: int


class FormChanged(_Event, frozen=True):
    card: str
    from_: Form = msgspec.field(name="from")
    to: Form
    cause: Literal["command", "effect"]


class PoolChanged(_Event, frozen=True):
    seat: int
    pool: Pool
    delta: int
    value: int
    cause: Cause


class CardDestroyed(_Event, frozen=True):
    card: str
    card_id: str
    seat: int
    from_: Literal["monster_zone", "magic_zone", "chain"] = msgspec.field(name="from")
    reason: Cause


class DestructionPrevented(_Event, frozen=True):
    card: str
    reason: Literal["commander"]


class CounterAdded(_Event, frozen=True):
    card: str
    counter: str
    value: int


class DelayedEffectRegistered(_Event, frozen=True):
    delayed_id: int
    seat: int
    turn: int
    card_id: str
    subjects: tuple[Subject, ...]
    steps: tuple[Step, ...]


class DelayedEffectResolved(_Event, frozen=True):
    delayed_id: int


class AttackDeclared(_Event, frozen=True):
    attacker: str
    target: str | None
    system: System
    defender: int


class AttackNegated(_Event, frozen=True):
    attacker: str


class BattleCalculated(_Event, frozen=True):
    attacker: str
    target: str | None
    attacker_atk: int
    target_value: int | None
    target_position: Literal["attack", "defence"] | None


class AttackEnded(_Event, frozen=True):
    attacker: str
    outcome: Literal["resolved", "negated", "fizzled"]


class ModifiersExpired(_Event, frozen=True):
    cards: tuple[str, ...]


class TurnEnded(_Event, frozen=True):
    turn: int
    seat: int


class TimedOut(_Event, frozen=True):
    seat: int
    seq: int
    kind: DecisionKind


class Conceded(_Event, frozen=True):
    seat: int


class SpecialVictory(_Event, frozen=True):
    seat: int
    card: str
    card_id: str


class MatchEnded(_Event, frozen=True):
    result: Literal["win", "draw"]
    winner: int | None
    reason: EndReason


Event = (
    MatchStarted
    | DeckShuffled
    | FirstPlayerChosen
    | CardsDrawn
    | DrawSkipped
    | DrawFailed
    | TurnStarted
    | PhaseChanged
    | AwaitingDecision
    | PhaseEndRequested
    | MonsterSummoned
    | EffectTriggered
    | SentToGraveyard
    | MagicSet
    | ChainLinkAdded
    | Passed
    | LinkNegated
    | LinkResolved
    | ChainResolved
    | StatModified
    | FormChanged
    | PoolChanged
    | CardDestroyed
    | DestructionPrevented
    | CounterAdded
    | DelayedEffectRegistered
    | DelayedEffectResolved
    | AttackDeclared
    | AttackNegated
    | BattleCalculated
    | AttackEnded
    | ModifiersExpired
    | TurnEnded
    | TimedOut
    | Conceded
    | SpecialVictory
    | MatchEnded
)


# --- views (§11) -------------------------------------------------------------------------------------------


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
