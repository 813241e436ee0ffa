"""voidlink events (docs/rulesets/voidlink.md §7.3): a tagged union, tag = the event name."""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.rulesets.voidlink.data import Form, Pool, Step, System
from engine.rulesets.voidlink.model.state import (
    Cause,
    DecisionKind,
    EndReason,
    GraveReason,
    LeaveFrom,
    LinkSource,
    Options,
    Origin,
    Phase,
    Subject,
    SummonFrom,
    SummonMethod,
    Window,
)


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
