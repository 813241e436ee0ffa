"""Wulin data: options, configuration, state, commands, events and views (docs/rulesets/wulin.md §3, §7, §11).

Data only: the functions live in rules.py, resolve.py, evolve.py and view.py. Instances are ``p{seat}-{nn}``
(§3.4); library and hand hold instance ids, graveyards ``CardView`` records, field zones ``FieldCard`` records.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from engine.rulesets.wulin.data import Attribute

Status = Literal["setup", "in_progress", "ended"]
Zone = Literal["library", "hand", "skill_zone", "battle_zone", "graveyard"]
FieldZone = Literal["skill_zone", "battle_zone"]
Reason = Literal["hp_zero", "idle_timeouts", "concede", "truce", "referee", "round_limit"]
QiReason = Literal[
    "attack_cost",
    "defence_cost",
    "block_cost",
    "secret_art_cost",
    "treasure_cost",
    "formation_cost",
    "skill_upkeep",
    "qi_card",
    "hidden_weapon",
    "secret_art",
    "treasure",
    "formation",
    "discard_effect",
]
HpReason = Literal[
    "combat",
    "hidden_weapon",
    "secret_art",
    "treasure",
    "formation",
    "discard_effect",
    "timeout_penalty",
]
EffectReason = Literal["secret_art", "treasure", "formation", "discard_effect"]
LeaveReason = Literal["combat", "weapon", "upkeep", "instant_formation"]
PhaseEndReason = Literal["end_phase", "timeout", "idle_timeout"]
TimeoutKind = Literal["phase_idle", "phase_auto_end", "pending"]
Relation = Literal["same", "counter"]

IN_PROGRESS: Status = "in_progress"
ENDED: Status = "ended"
SEATS = (0, 1)


# --- configuration (§3.8, §4) ---------------------------------------------------------------------------


class Options(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    """Match options with the spec's defaults (§3.8)."""

    starting_hp: Annotated[int, msgspec.Meta(ge=1, le=9999)] = 300
    starting_qi: Annotated[int, msgspec.Meta(ge=0, le=9999)] = 0
    action_timer_s: Annotated[int, msgspec.Meta(ge=10, le=600)] = 60
    round_limit: Annotated[int, msgspec.Meta(ge=1, le=999)] = 50
    allow_concede: bool = False
    secret_art_counters: bool = False
    formation_flip: bool = False
    referee_enabled: bool = False


class SeatConfig(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    """One seat's deck (presets expanded, config order) and hero attribute; the public copy has no deck."""

    hero_attribute: Attribute
    deck: tuple[str, ...] = ()


class Config(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    seats: tuple[SeatConfig, ...]
    options: Options = Options()


# --- state (§3.4-§3.7) ------------------------------------------------------------------------------------


class CardView(msgspec.Struct, frozen=True, gc=False):
    """A card anyone may identify (graveyards are public): its instance and catalog ids."""

    iid: str
    card_id: str


class FieldCard(msgspec.Struct, frozen=True, gc=False):
    """A card in a skill or battle zone (§3.4)."""

    iid: str
    card_id: str
    face_up: bool = False
    played_phase: int | None = None
    acted_phase: int | None = None
    attacked_phase: int | None = None
    temp_atk: int = 0
    temp_def: int = 0


class Side(msgspec.Struct, frozen=True, gc=False):
    """One seat's hero, zones and counters (§3.5, §3.6); the per-phase flags reset at every phase start."""

    hp: int
    max_hp: int
    qi: int
    hero_attribute: Attribute
    library: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    skill_zone: tuple[FieldCard, ...] = ()
    battle_zone: tuple[FieldCard, ...] = ()
    graveyard: tuple[CardView, ...] = ()
    idle_streak: int = 0
    timeouts: int = 0
    truce_proposals_used: int = 0
    actions: int = 0
    consumable_used: bool = False
    play_used: bool = False
    discard_used: bool = False
    battle_flip_used: bool = False


class PendingDefend(msgspec.Struct, frozen=True, gc=False, tag_field="kind", tag="defend"):
    seat: int
    attack_id: int
    attackers: tuple[str, ...]
    mode: str


class PendingBlock(msgspec.Struct, frozen=True, gc=False, tag_field="kind", tag="block"):
    seat: int
    weapon_id: int
    attribute: Attribute | None
    atk: int
    stat: Literal["hp", "qi"]


class PendingLoss(msgspec.Struct, frozen=True, gc=False, tag_field="kind", tag="choose_loss"):
    seat: int
    attack_id: int
    options: tuple[str, ...]


Pending = PendingDefend | PendingBlock | PendingLoss


class Clock(msgspec.Struct, frozen=True, gc=False):
    seat: int
    seq: int
    duration_s: int


class OpenAttack(msgspec.Struct, frozen=True, gc=False):
    attack_id: int
    seat: int
    cards: tuple[str, ...]
    mode: str
    primary: str | None
    focus: str | None = None
    defenders: tuple[str, ...] = ()


class Result(msgspec.Struct, frozen=True, gc=False):
    winner: int | None
    reason: Reason


class State(msgspec.Struct, frozen=True, gc=False):
    """The whole match. ``card_ids`` maps every instance id to its catalog id (filled by ``LibraryShuffled``)."""

    options: Options
    sides: tuple[Side, ...]
    card_ids: dict[str, str] = {}
    status: Status = "setup"
    result: Result | None = None
    phase_no: int = 0
    active_seat: int = 0
    first_seat: int = 0
    pending: Pending | None = None
    truce_offer: int | None = None
    clock: Clock | None = None
    next_ref: int = 1
    open_attack: OpenAttack | None = None


# --- commands (§7) ----------------------------------------------------------------------------------------


class _Command(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag_field="type"):
    pass


class UseCard(_Command, tag="use_card", frozen=True, gc=False):
    card: str
    target: str | None = None


class PlayCard(_Command, tag="play_card", frozen=True, gc=False):
    card: str


class DiscardCard(_Command, tag="discard_card", frozen=True, gc=False):
    card: str


class FlipCard(_Command, tag="flip_card", frozen=True, gc=False):
    card: str


class Attack(_Command, tag="attack", frozen=True, gc=False):
    cards: tuple[str, ...]
    mode: str
    primary: str | None = None


class Defend(_Command, tag="defend", frozen=True, gc=False):
    cards: tuple[str, ...]
    mode: str
    primary: str | None = None
    focus: str | None = None


class NoDefence(_Command, tag="no_defence", frozen=True, gc=False):
    pass


class Block(_Command, tag="block", frozen=True, gc=False):
    card: str


class NoBlock(_Command, tag="no_block", frozen=True, gc=False):
    pass


class ChooseLoss(_Command, tag="choose_loss", frozen=True, gc=False):
    card: str


class EndPhase(_Command, tag="end_phase", frozen=True, gc=False):
    pass


class ProposeTruce(_Command, tag="propose_truce", frozen=True, gc=False):
    pass


class AcceptTruce(_Command, tag="accept_truce", frozen=True, gc=False):
    pass


class RejectTruce(_Command, tag="reject_truce", frozen=True, gc=False):
    pass


class Concede(_Command, tag="concede", frozen=True, gc=False):
    pass


class Timeout(_Command, tag="timeout", frozen=True, gc=False):
    clock_seq: int


class RefereeRuling(_Command, tag="referee_ruling", frozen=True, gc=False):
    winner: int | None
    note: Annotated[str, msgspec.Meta(max_length=200)] = ""


Command = (
    UseCard
    | PlayCard
    | DiscardCard
    | FlipCard
    | Attack
    | Defend
    | NoDefence
    | Block
    | NoBlock
    | ChooseLoss
    | EndPhase
    | ProposeTruce
    | AcceptTruce
    | RejectTruce
    | Concede
    | Timeout
    | RefereeRuling
)


# --- events (§7.1) ----------------------------------------------------------------------------------------


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


# --- views (§11) ------------------------------------------------------------------------------------------


class FieldView(msgspec.Struct, frozen=True, gc=False):
    """A field card; a face-down card the viewer may not see has null ``iid``/``card_id`` and zero stats."""

    iid: str | None
    card_id: str | None
    face_up: bool
    played_phase: int | None
    acted_phase: int | None
    attacked_phase: int | None
    temp_atk: int
    temp_def: int
    actual_atk: int
    actual_def: int


class SideView(msgspec.Struct, frozen=True, gc=False):
    seat: int
    hp: int
    max_hp: int
    qi: int
    hero_attribute: Attribute
    library_count: int
    hand_count: int
    hand: tuple[CardView, ...] | None
    skill_zone: tuple[FieldView, ...]
    battle_zone: tuple[FieldView, ...]
    graveyard: tuple[CardView, ...]
    idle_streak: int
    timeouts: int
    truce_proposals_used: int
    actions: int
    consumable_used: bool
    play_used: bool
    discard_used: bool
    battle_flip_used: bool


class View(msgspec.Struct, frozen=True, gc=False):
    viewer: int | None
    status: Status
    result: Result | None
    phase_no: int
    round_no: int
    active_seat: int
    first_seat: int
    pending: Pending | None
    truce_offer: int | None
    clock: Clock | None
    next_ref: int
    open_attack: OpenAttack | None
    options: Options
    sides: tuple[SideView, ...]
