"""What each viewer may see in wulin (docs/rulesets/wulin.md §11, D32).

``view`` builds every field explicitly (opt-in); ``redact`` names every event type. Libraries are counts for
everyone; hands and face-down field cards are cards for their owner and anonymous for everyone else (not even
the instance id, D32); face-up cards, graveyards and everything else are public.
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from engine.contract import Viewer
from engine.rulesets.wulin.data import BATTLE
from engine.rulesets.wulin.model import (
    AttackDeclared,
    AttackEnded,
    CardDiscarded,
    CardFlipped,
    CardLeftField,
    CardPlayed,
    CardsDrawn,
    CardUsed,
    CardView,
    ClockRestarted,
    CombatResolved,
    Conceded,
    DefenceDeclared,
    DefenceDeclined,
    Event,
    FieldCard,
    FieldView,
    FirstPlayerDecided,
    HiddenWeaponThrown,
    HpChanged,
    LibraryShuffled,
    LossChoiceRequired,
    LossChosen,
    MatchEnded,
    OpeningReshuffled,
    PhaseEnded,
    PhaseStarted,
    QiChanged,
    RefereeRuled,
    SideView,
    SkillUpkeepFailed,
    State,
    TempModifierApplied,
    TimedOut,
    TruceAccepted,
    TruceExpired,
    TruceProposed,
    TruceRejected,
    View,
    WeaponBlocked,
    WeaponNotBlocked,
    WeaponResolved,
    WulinCreated,
)
from engine.rulesets.wulin.resolve import actual_both


def view(state: State, viewer: Viewer) -> View:
    """The match as ``viewer`` (a seat, or None for a spectator) may see it."""
    return View(
        viewer=viewer,
        status=state.status,
        result=state.result,
        phase_no=state.phase_no,
        round_no=(state.phase_no + 1) // 2,
        active_seat=state.active_seat,
        first_seat=state.first_seat,
        pending=state.pending,
        truce_offer=state.truce_offer,
        clock=state.clock,
        open_attack=state.open_attack,
        options=state.options,
        sides=tuple(_side_view(state, seat, viewer) for seat in range(len(state.sides))),
    )


def _side_view(state: State, seat: int, viewer: Viewer) -> SideView:
    side = state.sides[seat]
    owner = viewer == seat
    card_ids = state.card_ids
    return SideView(
        seat=seat,
        hp=side.hp,
        max_hp=side.max_hp,
        qi=side.qi,
        hero_attribute=side.hero_attribute,
        library_count=len(side.library),
        hand_count=len(side.hand),
        hand=tuple(CardView(iid, card_ids[iid]) for iid in side.hand) if owner else None,
        skill_zone=tuple(_field_view(state, seat, c, owner) for c in side.skill_zone),
        battle_zone=tuple(_field_view(state, seat, c, owner) for c in side.battle_zone),
        graveyard=side.graveyard,
        idle_streak=side.idle_streak,
        timeouts=side.timeouts,
        truce_proposals_used=side.truce_proposals_used,
        actions=side.actions,
        consumable_used=side.consumable_used,
        play_used=side.play_used,
        discard_used=side.discard_used,
        battle_flip_used=side.battle_flip_used,
    )


def _field_view(state: State, seat: int, card: FieldCard, owner: bool) -> FieldView:
    if not card.face_up and not owner:
        return FieldView(None, None, False, card.played_phase, None, None, 0, 0, 0, 0)
    atk, def_ = actual_both(state, seat, card, "none", False) if card.face_up and card.card_id in BATTLE else (0, 0)
    return FieldView(
        iid=card.iid,
        card_id=card.card_id,
        face_up=card.face_up,
        played_phase=card.played_phase,
        acted_phase=card.acted_phase,
        attacked_phase=card.attacked_phase,
        temp_atk=card.temp_atk,
        temp_def=card.temp_def,
        actual_atk=atk,
        actual_def=def_,
    )


def redact(event: Event, viewer: Viewer) -> Event:
    """``event`` as ``viewer`` may see it (§11): library orders for nobody, hand and face-down cards for the owner."""
    match event:
        case LibraryShuffled():
            return replace(event, card_ids=None)
        case CardsDrawn(seat=seat) | CardPlayed(seat=seat):
            if viewer == seat:
                return event
            if isinstance(event, CardsDrawn):
                return replace(event, iids=None, card_ids=None)
            return replace(event, card=None, card_id=None)
        case (
            WulinCreated() | FirstPlayerDecided() | OpeningReshuffled() | PhaseStarted() | SkillUpkeepFailed()
            | QiChanged() | HpChanged() | CardUsed() | CardDiscarded() | CardFlipped() | CardLeftField()
            | TempModifierApplied() | AttackDeclared() | DefenceDeclared() | DefenceDeclined() | CombatResolved()
            | LossChoiceRequired() | LossChosen() | AttackEnded() | HiddenWeaponThrown() | WeaponBlocked()
            | WeaponNotBlocked() | WeaponResolved() | PhaseEnded() | TimedOut() | ClockRestarted()
            | TruceProposed() | TruceAccepted() | TruceRejected() | TruceExpired() | Conceded() | RefereeRuled()
            | MatchEnded()
        ):
            return event
        case _:
            assert_never(event)


def hidden_cards(state: State, viewer: Viewer) -> list[str]:
    """Instance ids ``viewer`` may not identify: every library card, the other seats' hands and face-down cards."""
    hidden: list[str] = []
    for seat, side in enumerate(state.sides):
        hidden.extend(side.library)
        if seat != viewer:
            hidden.extend(side.hand)
            hidden.extend(c.iid for c in (*side.skill_zone, *side.battle_zone) if not c.face_up)
    return hidden
