"""What each viewer may see in wulin (docs/rulesets/wulin.md §11, D32).

``view`` builds every field explicitly (opt-in); ``redact`` names every event type. Libraries are counts for
everyone; hands and face-down field cards are cards for their owner and anonymous for everyone else (not even
the instance id, D32); face-up cards, graveyards and everything else are public.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.contract import Viewer
from engine.rulesets.wulin.data import BATTLE
from engine.rulesets.wulin.model import Event, State, View
from engine.rulesets.wulin.model.events import (
    AttackDeclared,
    AttackEnded,
    CardDiscarded,
    CardFlipped,
    CardLeftField,
    CardPlayed,
    CardsDrawn,
    CardUsed,
    ClockRestarted,
    CombatResolved,
    Conceded,
    DefenceDeclared,
    DefenceDeclined,
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
    SkillUpkeepFailed,
    TempModifierApplied,
    TimedOut,
    TruceAccepted,
    TruceExpired,
    TruceProposed,
    TruceRejected,
    WeaponBlocked,
    WeaponNotBlocked,
    WeaponResolved,
    WulinCreated,
)
from engine.rulesets.wulin.model.state import CardView, FieldCard
from engine.rulesets.wulin.model.views import FieldView, SideView
from engine.rulesets.wulin.resolve import actual_both


def view(state: State, viewer: Viewer) -> View:
    """The match as ``viewer`` (a seat, or None for a spectator) may see it."""
    # Positional construction, in the field order of model.View (views are built for every bot move).
    return View(
        viewer,
        state.status,
        state.result,
        state.phase_no,
        (state.phase_no + 1) // 2,
        state.active_seat,
        state.first_seat,
        state.pending,
        state.truce_offer,
        state.clock,
        state.next_ref,
        state.open_attack,
        state.options,
        tuple([_side_view(state, seat, viewer) for seat in range(len(state.sides))]),
    )


def _side_view(state: State, seat: int, viewer: Viewer) -> SideView:
    side = state.sides[seat]
    owner = viewer == seat
    card_ids = state.card_ids
    hand = tuple([CardView(iid, card_ids[iid]) for iid in side.hand]) if owner else None
    return SideView(
        seat,
        side.hp,
        side.max_hp,
        side.qi,
        side.hero_attribute,
        len(side.library),
        len(side.hand),
        hand,
        tuple([_field_view(state, seat, c, owner) for c in side.skill_zone]),
        tuple([_field_view(state, seat, c, owner) for c in side.battle_zone]),
        side.graveyard,
        side.idle_streak,
        side.timeouts,
        side.truce_proposals_used,
        side.actions,
        side.consumable_used,
        side.play_used,
        side.discard_used,
        side.battle_flip_used,
    )


def _field_view(state: State, seat: int, card: FieldCard, owner: bool) -> FieldView:
    if not card.face_up:
        if not owner:
            return FieldView(None, None, False, card.played_phase, None, None, 0, 0, 0, 0)
        atk = def_ = 0
    elif card.card_id in BATTLE:
        atk, def_ = actual_both(state, seat, card, "none", False)
    else:
        atk = def_ = 0
    return FieldView(
        card.iid,
        card.card_id,
        card.face_up,
        card.played_phase,
        card.acted_phase,
        card.attacked_phase,
        card.temp_atk,
        card.temp_def,
        atk,
        def_,
    )


PUBLIC_EVENTS: frozenset[type] = frozenset(
    {
        WulinCreated,
        FirstPlayerDecided,
        OpeningReshuffled,
        PhaseStarted,
        SkillUpkeepFailed,
        QiChanged,
        HpChanged,
        CardUsed,
        CardDiscarded,
        CardFlipped,
        CardLeftField,
        TempModifierApplied,
        AttackDeclared,
        DefenceDeclared,
        DefenceDeclined,
        CombatResolved,
        LossChoiceRequired,
        LossChosen,
        AttackEnded,
        HiddenWeaponThrown,
        WeaponBlocked,
        WeaponNotBlocked,
        WeaponResolved,
        PhaseEnded,
        TimedOut,
        ClockRestarted,
        TruceProposed,
        TruceAccepted,
        TruceRejected,
        TruceExpired,
        Conceded,
        RefereeRuled,
        MatchEnded,
    }
)
"""Events every viewer sees whole; the other three are redacted below (test_views checks the union)."""


def redact(event: Event, viewer: Viewer) -> Event:
    """``event`` as ``viewer`` may see it (§11): library orders for nobody, hand and face-down cards for the owner."""
    kind = type(event)
    if kind is LibraryShuffled:
        assert isinstance(event, LibraryShuffled)
        return replace(event, card_ids=None)
    if kind is CardsDrawn:
        assert isinstance(event, CardsDrawn)
        return event if viewer == event.seat else replace(event, iids=None, card_ids=None)
    if kind is CardPlayed:
        assert isinstance(event, CardPlayed)
        return event if viewer == event.seat else replace(event, card=None, card_id=None)
    if kind in PUBLIC_EVENTS:
        return event
    raise TypeError(f"{kind.__name__} has no redaction rule")


def hidden_cards(state: State, viewer: Viewer) -> list[str]:
    """Instance ids ``viewer`` may not identify: every library card, the other seats' hands and face-down cards."""
    hidden: list[str] = []
    for seat, side in enumerate(state.sides):
        hidden.extend(side.library)
        if seat != viewer:
            hidden.extend(side.hand)
            hidden.extend(c.iid for c in (*side.skill_zone, *side.battle_zone) if not c.face_up)
    return hidden
