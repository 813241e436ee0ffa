"""aq data types (docs/rulesets/aq.md §3, §5-§11): configuration, state, commands, events and the view. Data only."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from engine.contract import ForfeitReason

Step = Literal["main", "reserve", "drawn_choice"]
Direction = Literal["clockwise", "counterclockwise"]


# --- configuration (§3.7, §4) -------------------------------------------------------------------


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """§3.7 with its defaults."""

    max_rounds: Annotated[int, msgspec.Meta(ge=1, le=5)] = 5
    phase_seconds: Annotated[int, msgspec.Meta(ge=10, le=600)] = 60
    max_phases_per_round: Annotated[int, msgspec.Meta(ge=20, le=1000)] = 200
    box: str = "starter_a"
    """A box name (§13); checked against the catalog as UNKNOWN_BOX, before the ranges."""


class Config(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A validated match: the player count, the options and the box expanded into instance ids."""

    players: int
    options: Options
    pets: tuple[str, ...]
    """The pets in play (D2), canonical order."""
    skills: tuple[str, ...]
    """The box's skill deck, canonical order (§13.4)."""


# --- state (§3.4, §3.5) -------------------------------------------------------------------------


class Seat(msgspec.Struct, frozen=True):
    """One seat's zones and counters."""

    hand: tuple[str, ...] = ()
    """Canonical order."""
    reserve: tuple[str, ...] = ()
    """Bottom → top."""
    skills: tuple[str, ...] = ()
    """Acquisition order."""
    total: int = 0
    conceded: bool = False
    glimpsed: int = 0
    """Bits (data.BIT) of cards this seat was shown privately: Gift cards, as giver or receiver (§11)."""


class State(msgspec.Struct, frozen=True):
    """§3.5. ``exposed`` records every id ever shown to all, so ``hidden_cards`` can tell what is still secret."""

    config: Config
    seats: tuple[Seat, ...]
    status: Literal["live", "over"] = "live"
    round: int = 0
    starting_seat: int = 0
    direction: int = 1
    current: int = 0
    phase_no: int = 0
    phases_in_round: int = 0
    step: Step = "main"
    skill_action_available: bool = True
    wild_active: bool = False
    reserve_cap: int = 2
    reserve_remaining: int = 0
    drawn_playable: tuple[str, ...] = ()
    skip_next: bool = False
    field: tuple[str, ...] = ()
    """Front (index 0) → last."""
    removed: tuple[str, ...] = ()
    skill_deck: tuple[str, ...] = ()
    """Index 0 = top."""
    used_skills: tuple[str, ...] = ()
    exposed: int = 0
    winners: tuple[int, ...] = ()
    reason: str = ""


# --- commands (§7) ------------------------------------------------------------------------------


class _Command(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class LearnSkill(_Command, tag="learn_skill", frozen=True):
    cards: tuple[str, str]


class UseSkill(_Command, tag="use_skill", frozen=True):
    skill: str
    card: str | None = None
    target_seat: int | None = None


class PlayCard(_Command, tag="play_card", frozen=True):
    card: str


class Draw(_Command, tag="draw", frozen=True):
    pass


class CoverReserve(_Command, tag="cover_reserve", frozen=True):
    card: str


class EndPhase(_Command, tag="end_phase", frozen=True):
    pass


class Concede(_Command, tag="concede", frozen=True):
    pass


class Timeout(_Command, tag="timeout", frozen=True):
    phase_no: int


class Forfeit(_Command, tag="forfeit", frozen=True):
    """The system's concession for ``seat`` (its player gone, ``Ruleset.forfeit``)."""

    seat: int
    reason: ForfeitReason


Command = LearnSkill | UseSkill | PlayCard | Draw | CoverReserve | EndPhase | Concede | Timeout | Forfeit


# --- events (§5-§10; fields in the order of the rules) ---------------------------------------


class _Event(msgspec.Struct, frozen=True, tag_field="type"):
    pass


class StartingPlayerChosen(_Event, frozen=True):
    seat: int


class RoundStarted(_Event, frozen=True):
    round: int
    starting_seat: int
    direction: Direction


class PetsShuffled(_Event, frozen=True):
    round: int
    order: tuple[str, ...] | None
    """Redacted (None) for every viewer (§11)."""
    count: int


class HandDealt(_Event, frozen=True):
    seat: int
    cards: tuple[str, ...] | None
    """Canonical order; None for everyone but the seat (§11)."""
    count: int


class FieldLaidOut(_Event, frozen=True):
    cards: tuple[str, ...]


class SkillDeckShuffled(_Event, frozen=True):
    round: int
    order: tuple[str, ...] | None
    """Redacted (None) for every viewer (§11)."""
    count: int


class SkillDealt(_Event, frozen=True):
    seat: int
    skill: str | None


class PhaseStarted(_Event, frozen=True):
    round: int
    seat: int
    phase_no: int
    seconds: int


class PhaseSkipped(_Event, frozen=True):
    seat: int


class PhaseEnded(_Event, frozen=True):
    seat: int


class RoundEnded(_Event, frozen=True):
    round: int
    reason: Literal["field_exhausted", "hand_empty", "phase_limit"]
    ending_seat: int


class SeatScore(msgspec.Struct, frozen=True):
    """One line of §8.6."""

    seat: int
    hand: tuple[str, ...]
    hand_total: int
    reserve: tuple[str, ...]
    reserve_total: int
    round_score: int
    total_before: int
    total_after: int
    flipped: bool


class RoundScored(_Event, frozen=True):
    round: int
    results: tuple[SeatScore, ...]


class MatchEnded(_Event, frozen=True):
    winners: tuple[int, ...]
    reason: Literal["exact_zero", "over_100", "round_limit", "concede", "disconnected"]
    totals: tuple[int, ...]


class SkillLearned(_Event, frozen=True):
    seat: int
    cards: tuple[str, str]
    skill: str | None


class SkillUsed(_Event, frozen=True):
    seat: int
    skill: str
    skill_id: str
    card: str | None
    target_seat: int | None


class CardPlayed(_Event, frozen=True):
    seat: int
    card: str
    on_card: str
    counter_pairs: int
    beats_attack: bool
    reserve_allowance: int
    source: Literal["hand", "drawn"]


class HandRevealed(_Event, frozen=True):
    seat: int
    cards: tuple[str, ...]


class FieldCardDrawn(_Event, frozen=True):
    seat: int
    card: str


class ReserveReturned(_Event, frozen=True):
    seat: int
    card: str | None


class ReserveCovered(_Event, frozen=True):
    seat: int
    card: str | None
    source: Literal["play", "skill"]


class DirectionChanged(_Event, frozen=True):
    direction: Direction


class NextPhaseSkipped(_Event, frozen=True):
    seat: int


class CardGiven(_Event, frozen=True):
    from_seat: int
    to_seat: int
    card: str | None


class CardRemoved(_Event, frozen=True):
    seat: int
    card: str


class PlayerConceded(_Event, frozen=True):
    seat: int


class PhaseAutoResolved(_Event, frozen=True):
    seat: int
    phase_no: int
    reason: Literal["timeout", "conceded"]


Event = (
    StartingPlayerChosen
    | RoundStarted
    | PetsShuffled
    | HandDealt
    | FieldLaidOut
    | SkillDeckShuffled
    | SkillDealt
    | PhaseStarted
    | PhaseSkipped
    | PhaseEnded
    | RoundEnded
    | RoundScored
    | MatchEnded
    | SkillLearned
    | SkillUsed
    | CardPlayed
    | HandRevealed
    | FieldCardDrawn
    | ReserveReturned
    | ReserveCovered
    | DirectionChanged
    | NextPhaseSkipped
    | CardGiven
    | CardRemoved
    | PlayerConceded
    | PhaseAutoResolved
)


# --- view (§11) ---------------------------------------------------------------------------------


class SeatView(msgspec.Struct, frozen=True):
    """A seat as one viewer sees it: card lists only for the viewer's own seat."""

    seat: int
    hand: tuple[str, ...] | None
    hand_count: int
    reserve: tuple[str, ...] | None
    reserve_count: int
    skills: tuple[str, ...] | None
    skill_count: int
    total: int
    conceded: bool


class Pending(msgspec.Struct, frozen=True):
    """§7 pending decision: ``reserve_remaining`` in step reserve, ``options`` in step drawn_choice."""

    seat: int
    step: Step
    reserve_remaining: int | None
    options: tuple[str, ...] | None


class View(msgspec.Struct, frozen=True):
    viewer: int | None
    status: Literal["live", "over"]
    round: int
    max_rounds: int
    starting_seat: int
    direction: Direction
    current: int
    phase_no: int
    phases_in_round: int
    skill_action_available: bool
    wild_active: bool
    reserve_cap: int
    skip_next: bool
    field: tuple[str, ...]
    removed: tuple[str, ...]
    used_skills: tuple[str, ...]
    skill_deck_count: int
    seats: tuple[SeatView, ...]
    pending: Pending | None
    winners: tuple[int, ...]
    reason: str
