"""Events (duel.md §7.3): names and fields exactly as the spec; tag = the class name.

Fields that redaction removes (§11) default to ``UNSET`` and are left out of the JSON when unset; those
events are keyword-only. ``from`` is a Python keyword, so it is spelled ``from_`` and renamed on the wire.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from engine.rulesets.duel.model.commands import Choices
from engine.rulesets.duel.model.state import CardRef, Details, Options, Reason, TargetRef


class _Event(msgspec.Struct, frozen=True, tag_field="type", tag=True):
    pass


class SeatDeck(msgspec.Struct, frozen=True, kw_only=True):
    """One seat in ``DuelCreated``: the lists for the owner, the counts for everyone else (§11)."""

    seat: int
    main: tuple[CardRef, ...] | UnsetType = UNSET
    extra: tuple[CardRef, ...] | UnsetType = UNSET
    side: tuple[CardRef, ...] | UnsetType = UNSET
    main_count: int | UnsetType = UNSET
    extra_count: int | UnsetType = UNSET
    side_count: int | UnsetType = UNSET


class DuelCreated(_Event, frozen=True):
    options: Options
    seats: tuple[SeatDeck, ...]


class FirstPlayerDecided(_Event, frozen=True):
    method: Literal["coin", "fixed"]
    coin: Literal["heads", "tails"] | None
    seat: int


class DeckShuffled(_Event, kw_only=True, frozen=True):
    seat: int
    order: tuple[str, ...] | UnsetType = UNSET


class CardDrawn(_Event, kw_only=True, frozen=True):
    seat: int
    instance: str | UnsetType = UNSET
    card_id: str | UnsetType = UNSET
    deck_count: int


class DrawFailed(_Event, frozen=True):
    seat: int


class TurnStarted(_Event, frozen=True):
    turn: int
    seat: int


class PhaseChanged(_Event, frozen=True):
    turn: int
    phase: str


class NormalSummoned(_Event, frozen=True):
    seat: int
    slot: int
    instance: str
    card_id: str


class MonsterSet(_Event, kw_only=True, frozen=True):
    seat: int
    slot: int
    instance: str | UnsetType = UNSET
    card_id: str | UnsetType = UNSET


class FlipSummoned(_Event, frozen=True):
    seat: int
    slot: int
    instance: str
    card_id: str
    from_: str = msgspec.field(name="from")


class SpecialSummoned(_Event, frozen=True):
    seat: int
    slot: int
    instance: str
    card_id: str
    position: str
    from_: Literal["hand", "deck", "graveyard", "extra"] = msgspec.field(name="from")


class PositionChanged(_Event, frozen=True):
    seat: int
    slot: int
    instance: str
    card_id: str
    from_: str = msgspec.field(name="from")
    to: str
    cause: Literal["manual", "effect"]


class MonsterFlipped(_Event, frozen=True):
    seat: int
    slot: int
    instance: str
    card_id: str
    from_: str = msgspec.field(name="from")
    to: str
    cause: Literal["attacked", "effect"]


class MonsterTurnedFaceDown(_Event, frozen=True):
    seat: int
    slot: int
    instance: str
    card_id: str
    from_: str = msgspec.field(name="from")
    to: str


class SpellTrapSet(_Event, kw_only=True, frozen=True):
    seat: int
    slot: int
    instance: str | UnsetType = UNSET
    card_id: str | UnsetType = UNSET


class CardActivated(_Event, frozen=True):
    seat: int
    slot: int
    instance: str
    card_id: str
    from_: Literal["hand", "set"] = msgspec.field(name="from")
    targets: tuple[TargetRef, ...]
    choices: Choices
    window: str | None


class EquipTarget(msgspec.Struct, frozen=True):
    seat: int
    slot: int
    instance: str


class EquipAttached(_Event, frozen=True):
    seat: int
    slot: int
    instance: str
    target: EquipTarget


class CountersChanged(_Event, frozen=True):
    seat: int
    slot: int
    instance: str
    counter: str
    value: int


class CardDestroyed(_Event, frozen=True):
    seat: int
    zone: Literal["monster", "spell_trap"]
    slot: int
    instance: str
    card_id: str
    owner: int
    cause: Literal["battle", "effect"]


class CardSentToGraveyard(_Event, frozen=True):
    seat: int
    from_zone: Literal["hand", "monster", "spell_trap"]
    slot: int | None
    instance: str
    card_id: str
    owner: int
    reason: Literal["tribute", "fusion_material", "resolved", "expired", "equip_lost", "hand_limit"]


class CardReturned(_Event, frozen=True):
    seat: int
    slot: int
    instance: str
    card_id: str
    owner: int
    to: Literal["hand", "extra"]


class EffectTriggered(_Event, frozen=True):
    seat: int
    instance: str
    card_id: str
    trigger: str


class EffectResolved(_Event, frozen=True):
    seat: int
    instance: str
    card_id: str
    trigger: str
    target: TargetRef | None
    fizzled: bool


class AttackDeclared(_Event, frozen=True):
    seat: int
    attacker_slot: int
    attacker: str
    target_slot: int | None
    replay: bool


class AttackCancelled(_Event, frozen=True):
    seat: int
    attacker: str
    reason: Literal["attacker_left_field", "attacker_not_in_attack_position", "replay_declined"]


class DamageAmount(msgspec.Struct, frozen=True):
    seat: int
    amount: int


class DamageCalculated(_Event, frozen=True):
    attacker: str
    attacker_atk: int
    target: str | None
    target_position: str | None
    target_value: int | None
    destroyed: tuple[str, ...]
    damage: DamageAmount | None


class DamageDealt(_Event, frozen=True):
    seat: int
    amount: int
    lp: int
    kind: Literal["battle", "effect"]
    source: str


class AttackEnded(_Event, frozen=True):
    seat: int
    attacker: str


class DecisionRequested(_Event, kw_only=True, frozen=True):
    decision_id: int
    seat: int
    kind: str
    details: Details | UnsetType = UNSET


class DecisionClosed(_Event, frozen=True):
    decision_id: int
    seat: int
    by: Literal["answer", "timeout"]


class ResponsePassed(_Event, frozen=True):
    seat: int
    trigger: str


class TimeoutRecorded(_Event, frozen=True):
    seat: int
    scope: Literal["turn", "decision"]
    ref: int
    count: int


class TurnEnded(_Event, frozen=True):
    turn: int
    seat: int


class PlayerConceded(_Event, frozen=True):
    seat: int


class MatchEnded(_Event, frozen=True):
    outcome: Literal["win", "draw"]
    winner: int | None
    reasons: tuple[Reason, ...]


Event = (
    DuelCreated
    | FirstPlayerDecided
    | DeckShuffled
    | CardDrawn
    | DrawFailed
    | TurnStarted
    | PhaseChanged
    | NormalSummoned
    | MonsterSet
    | FlipSummoned
    | SpecialSummoned
    | PositionChanged
    | MonsterFlipped
    | MonsterTurnedFaceDown
    | SpellTrapSet
    | CardActivated
    | EquipAttached
    | CountersChanged
    | CardDestroyed
    | CardSentToGraveyard
    | CardReturned
    | EffectTriggered
    | EffectResolved
    | AttackDeclared
    | AttackCancelled
    | DamageCalculated
    | DamageDealt
    | AttackEnded
    | DecisionRequested
    | DecisionClosed
    | ResponsePassed
    | TimeoutRecorded
    | TurnEnded
    | PlayerConceded
    | MatchEnded
)
