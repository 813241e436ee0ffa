"""What each viewer may see (docs/rulesets/aq.md §11): view, redact, hidden_cards."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from engine.contract import Viewer
from engine.rulesets.aq.data import BIT, SKILLS
from engine.rulesets.aq.model import (
    CardGiven,
    CardPlayed,
    CardRemoved,
    DirectionChanged,
    Event,
    FieldCardDrawn,
    FieldLaidOut,
    HandDealt,
    HandRevealed,
    MatchEnded,
    NextPhaseSkipped,
    Pending,
    PetsShuffled,
    PhaseAutoResolved,
    PhaseEnded,
    PhaseSkipped,
    PhaseStarted,
    PlayerConceded,
    ReserveCovered,
    ReserveReturned,
    RoundEnded,
    RoundScored,
    RoundStarted,
    Seat,
    SeatView,
    SkillDealt,
    SkillDeckShuffled,
    SkillLearned,
    SkillUsed,
    StartingPlayerChosen,
    State,
    View,
)


def pending(state: State) -> Pending | None:
    """§7 pending decision of the current seat."""
    if state.status == "over":
        return None
    return Pending(
        seat=state.current,
        step=state.step,
        reserve_remaining=state.reserve_remaining if state.step == "reserve" else None,
        options=state.drawn_playable if state.step == "drawn_choice" else None,
    )


def _seat_view(s: int, seat: Seat, viewer: Viewer) -> SeatView:
    mine = s == viewer
    return SeatView(
        seat=s,
        hand=seat.hand if mine else None,
        hand_count=len(seat.hand),
        reserve=seat.reserve if mine else None,
        reserve_count=len(seat.reserve),
        skills=seat.skills if mine else None,
        skill_count=len(seat.skills),
        total=seat.total,
        conceded=seat.conceded,
    )


def view(state: State, viewer: Viewer) -> View:
    """The state as ``viewer`` (a seat, or None for a spectator) may see it, built field by field."""
    return View(
        viewer=viewer,
        status=state.status,
        round=state.round,
        max_rounds=state.config.options.max_rounds,
        starting_seat=state.starting_seat,
        direction="clockwise" if state.direction == 1 else "counterclockwise",
        current=state.current,
        phase_no=state.phase_no,
        phases_in_round=state.phases_in_round,
        skill_action_available=state.skill_action_available,
        wild_active=state.wild_active,
        reserve_cap=state.reserve_cap,
        skip_next=state.skip_next,
        field=state.field,
        removed=state.removed,
        used_skills=state.used_skills,
        skill_deck_count=len(state.skill_deck),
        seats=tuple(_seat_view(s, seat, viewer) for s, seat in enumerate(state.seats)),
        pending=pending(state),
        winners=state.winners,
        reason=state.reason,
    )


def redact(event: Event, viewer: Viewer) -> Event:
    """The event as ``viewer`` may see it (§11); every event type is named."""
    match event:
        case PetsShuffled() | SkillDeckShuffled():
            return replace(event, order=None)
        case HandDealt(seat=s):
            return event if s == viewer else replace(event, cards=None)
        case SkillDealt(seat=s) | SkillLearned(seat=s):
            return event if s == viewer else replace(event, skill=None)
        case SkillUsed(seat=s, skill=k, target_seat=t):
            op = SKILLS[k].effect.op
            shown = s == viewer or op == "remove_card" or (op == "give_card" and t == viewer)
            return event if shown else replace(event, card=None)
        case CardGiven(from_seat=a, to_seat=b):
            return event if viewer in (a, b) else replace(event, card=None)
        case ReserveCovered(seat=s) | ReserveReturned(seat=s):
            return event if s == viewer else replace(event, card=None)
        case (
            StartingPlayerChosen()
            | RoundStarted()
            | FieldLaidOut()
            | PhaseStarted()
            | PhaseSkipped()
            | PhaseEnded()
            | RoundEnded()
            | RoundScored()
            | MatchEnded()
            | CardPlayed()
            | HandRevealed()
            | FieldCardDrawn()
            | DirectionChanged()
            | NextPhaseSkipped()
            | CardRemoved()
            | PlayerConceded()
            | PhaseAutoResolved()
        ):
            return event
        case _:
            assert_never(event)


def hidden_cards(state: State, viewer: Viewer) -> list[str]:
    """Ids in zones hidden from ``viewer`` (others' hands, reserves and skills; the skill deck) that were
    never shown to it: no view or redacted event for this viewer may contain them.

    Ids shown once stay known: every pet is public after a round's scoring, so from round 2 on only
    never-used skills remain on this list (see docs/rulesets/aq.md).
    """
    known = state.exposed
    zones: list[str] = list(state.skill_deck)
    for s, seat in enumerate(state.seats):
        if s == viewer:
            known |= seat.glimpsed
        else:
            zones.extend((*seat.hand, *seat.reserve, *seat.skills))
    return [card for card in zones if not known & BIT[card]]
