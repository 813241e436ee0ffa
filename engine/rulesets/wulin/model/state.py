"""Wulin configuration and state (docs/rulesets/wulin.md §3.4-§3.8, §4): data only. Instances are ``p{seat}-{nn}``
(§3.4); library and hand hold instance ids, graveyards ``CardView`` records, field zones ``FieldCard`` records."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from engine.rulesets.wulin.data import Attribute

Status = Literal["setup", "in_progress", "ended"]
Zone = Literal["library", "hand", "skill_zone", "battle_zone", "graveyard"]
FieldZone = Literal["skill_zone", "battle_zone"]
Reason = Literal["hp_zero", "idle_timeouts", "concede", "truce", "referee", "round_limit", "disconnected"]
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
