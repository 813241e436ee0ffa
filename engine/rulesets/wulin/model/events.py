"""Wulin events (docs/rulesets/wulin.md §7.1): a tagged union, tag = the event name."""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.rulesets.wulin.data import Attribute
from engine.rulesets.wulin.model.state import (
    FieldZone,
    HpReason,
    LeaveReason,
    Options,
    PhaseEndReason,
    QiReason,
    Reason,
    Relation,
    TimeoutKind,
)


class _Event(msgspec.Struct, frozen=True, gc=False, tag_field="type", tag=True):
    pass


class Hero(msgspec.Struct, frozen=True, gc=False):
    seat: int
    hero_attribute: Attribute
    hp: int
    qi: int


class WulinCreated(_Event, frozen=True, gc=False):
    options: Options
    heroes: tuple[Hero, ...]
    deck_sizes: tuple[int, ...]


class FirstPlayerDecided(_Event, frozen=True, gc=False):
    throws: tuple[tuple[str, str], ...]
    first_seat: int


class OpeningReshuffled(_Event, frozen=True, gc=False):
    seat: int
    attempt: int


class LibraryShuffled(_Event, frozen=True, gc=False):
    """``card_ids`` (top first) is null for every viewer (§11)."""

    seat: int
    attempt: int
    card_ids: tuple[str, ...] | None
    count: int


class CardsDrawn(_Event, frozen=True, gc=False):
    """``iids`` and ``card_ids`` are null for everyone but the drawing seat (§11, D32)."""

    seat: int
    iids: tuple[str, ...] | None
    card_ids: tuple[str, ...] | None
    count: int


class PhaseStarted(_Event, frozen=True, gc=False):
    phase_no: int
    round_no: int
    seat: int


class SkillUpkeepFailed(_Event, frozen=True, gc=False):
    seat: int
    card: str
    card_id: str
    upkeep: int
    qi: int


class QiChanged(_Event, frozen=True, gc=False):
    seat: int
    amount: int
    delta: int
    qi: int
    reason: QiReason
    source: str | int | None = None


class HpChanged(_Event, frozen=True, gc=False):
    seat: int
    amount: int
    delta: int
    hp: int
    reason: HpReason
    source: str | int | None = None


class CardUsed(_Event, frozen=True, gc=False):
    seat: int
    card: str
    card_id: str
    target: str | None = None


class CardPlayed(_Event, frozen=True, gc=False):
    """``card`` and ``card_id`` are null for everyone but the owner (§11, D32)."""

    seat: int
    card: str | None
    card_id: str | None
    zone: FieldZone


class CardDiscarded(_Event, frozen=True, gc=False):
    seat: int
    card: str
    card_id: str
    from_: Literal["hand", "skill_zone", "battle_zone"] = msgspec.field(name="from")
    face_up: bool
    effect_triggered: bool


class CardFlipped(_Event, frozen=True, gc=False):
    seat: int
    card: str
    card_id: str
    zone: FieldZone


class CardLeftField(_Event, frozen=True, gc=False):
    seat: int
    card: str
    card_id: str
    from_: FieldZone = msgspec.field(name="from")
    reason: LeaveReason


class TempModifierApplied(_Event, frozen=True, gc=False):
    source: str
    cards: tuple[str, ...]
    atk: int
    def_: int = msgspec.field(name="def")


class AttackDeclared(_Event, frozen=True, gc=False):
    attack_id: int
    seat: int
    cards: tuple[str, ...]
    mode: str
    primary: str | None
    qi_paid: int


class DefenceDeclared(_Event, frozen=True, gc=False):
    attack_id: int
    seat: int
    cards: tuple[str, ...]
    mode: str
    primary: str | None
    focus: str | None
    qi_paid: int


class DefenceDeclined(_Event, frozen=True, gc=False):
    attack_id: int
    seat: int
    auto: bool


class CombatResolved(_Event, frozen=True, gc=False):
    attack_id: int
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    atk_a: int
    def_a: int
    atk_d: int
    def_d: int
    attacker_losses: tuple[str, ...]
    defender_losses: tuple[str, ...]
    loss_choice: bool


class LossChoiceRequired(_Event, frozen=True, gc=False):
    attack_id: int
    seat: int
    options: tuple[str, ...]


class LossChosen(_Event, frozen=True, gc=False):
    attack_id: int
    seat: int
    card: str
    auto: bool


class AttackEnded(_Event, frozen=True, gc=False):
    attack_id: int


class HiddenWeaponThrown(_Event, frozen=True, gc=False):
    weapon_id: int
    seat: int
    card: str
    card_id: str
    attribute: Attribute | None
    atk: int
    stat: Literal["hp", "qi"]


class WeaponBlocked(_Event, frozen=True, gc=False):
    weapon_id: int
    seat: int
    blocker: str
    relation: Relation
    qi_paid: int
    blocker_leaves: bool


class WeaponNotBlocked(_Event, frozen=True, gc=False):
    weapon_id: int
    seat: int
    auto: bool


class WeaponResolved(_Event, frozen=True, gc=False):
    weapon_id: int


class PhaseEnded(_Event, frozen=True, gc=False):
    phase_no: int
    seat: int
    reason: PhaseEndReason


class TimedOut(_Event, frozen=True, gc=False):
    seat: int
    clock_seq: int
    kind: TimeoutKind


class ClockRestarted(_Event, frozen=True, gc=False):
    seat: int
    seq: int
    duration_s: int


class TruceProposed(_Event, frozen=True, gc=False):
    seat: int
    proposals_used: int


class TruceAccepted(_Event, frozen=True, gc=False):
    seat: int


class TruceRejected(_Event, frozen=True, gc=False):
    seat: int


class TruceExpired(_Event, frozen=True, gc=False):
    seat: int


class Conceded(_Event, frozen=True, gc=False):
    seat: int


class RefereeRuled(_Event, frozen=True, gc=False):
    winner: int | None
    note: str


class MatchEnded(_Event, frozen=True, gc=False):
    winner: int | None
    reason: Reason


Event = (
    WulinCreated
    | FirstPlayerDecided
    | OpeningReshuffled
    | LibraryShuffled
    | CardsDrawn
    | PhaseStarted
    | SkillUpkeepFailed
    | QiChanged
    | HpChanged
    | CardUsed
    | CardPlayed
    | CardDiscarded
    | CardFlipped
    | CardLeftField
    | TempModifierApplied
    | AttackDeclared
    | DefenceDeclared
    | DefenceDeclined
    | CombatResolved
    | LossChoiceRequired
    | LossChosen
    | AttackEnded
    | HiddenWeaponThrown
    | WeaponBlocked
    | WeaponNotBlocked
    | WeaponResolved
    | PhaseEnded
    | TimedOut
    | ClockRestarted
    | TruceProposed
    | TruceAccepted
    | TruceRejected
    | TruceExpired
    | Conceded
    | RefereeRuled
    | MatchEnded
)
