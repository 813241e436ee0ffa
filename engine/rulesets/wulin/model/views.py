"""What a viewer sees of a wulin match (docs/rulesets/wulin.md §11)."""

from __future__ import annotations

import msgspec

from engine.rulesets.wulin.data import Attribute
from engine.rulesets.wulin.model.state import CardView, Clock, OpenAttack, Options, Pending, Result, Status


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
