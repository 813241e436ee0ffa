"""The fold of wulin: ``evolve(state, event) -> state`` and nothing else (docs/rulesets/wulin.md §7.1).

Events carry their results (qi and hp after, the drawn cards), so the fold only places them; it validates
nothing and needs no RNG. One function per event type, found by the exact type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.dispatch import by_type
from engine.rulesets.wulin.data import BATTLE
from engine.rulesets.wulin.model import Event, State
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
from engine.rulesets.wulin.model.state import (
    ENDED,
    IN_PROGRESS,
    CardView,
    Clock,
    FieldCard,
    OpenAttack,
    PendingBlock,
    PendingDefend,
    PendingLoss,
    Result,
    Side,
)
from engine.tuples import drop


def evolve(state: State, event: Event) -> State:
    """The state after ``event``."""
    # A table keyed by the exact type: ``isinstance`` on msgspec Structs (a metaclass) is slow enough that a
    # ``match`` over thirty-odd event classes dominated the fold.
    return _FOLDS[type(event)](state, event)


def _clock(state: State, e: ClockRestarted) -> State:
    return replace(state, clock=Clock(e.seat, e.seq, e.duration_s))


def _qi(state: State, e: QiChanged) -> State:
    return _with(state, e.seat, replace(state.sides[e.seat], qi=e.qi))


def _hp(state: State, e: HpChanged) -> State:
    return _with(state, e.seat, replace(state.sides[e.seat], hp=e.hp))


def _phase_started(state: State, e: PhaseStarted) -> State:
    sides = tuple(
        [
            replace(side, actions=0, consumable_used=False, play_used=False, discard_used=False, battle_flip_used=False)
            for side in state.sides
        ]
    )
    return replace(state, phase_no=e.phase_no, active_seat=e.seat, status=IN_PROGRESS, sides=sides)


def _drawn(state: State, e: CardsDrawn) -> State:
    assert e.iids is not None, "the fold takes full events, never a viewer's redacted copy"
    side = state.sides[e.seat]
    return _with(state, e.seat, replace(side, library=side.library[e.count :], hand=(*side.hand, *e.iids)))


def _used(state: State, e: CardUsed) -> State:
    side = state.sides[e.seat]
    side = replace(
        side,
        hand=drop(side.hand, e.card),
        graveyard=(*side.graveyard, CardView(e.card, e.card_id)),
        consumable_used=True,
        actions=side.actions + 1,
    )
    return _with(state, e.seat, side)


def _played(state: State, e: CardPlayed) -> State:
    assert e.card is not None and e.card_id is not None, "the fold takes full events"
    side = state.sides[e.seat]
    placed = FieldCard(e.card, e.card_id, played_phase=state.phase_no)
    side = replace(side, hand=drop(side.hand, e.card), play_used=True, actions=side.actions + 1)
    if e.zone == "skill_zone":
        side = replace(side, skill_zone=(*side.skill_zone, placed))
    else:
        side = replace(side, battle_zone=(*side.battle_zone, placed))
    return _with(state, e.seat, side)


def _discarded(state: State, e: CardDiscarded) -> State:
    side = state.sides[e.seat]
    side = replace(side, hand=drop(side.hand, e.card)) if e.from_ == "hand" else _remove(side, e.card)
    side = replace(
        side, graveyard=(*side.graveyard, CardView(e.card, e.card_id)), discard_used=True, actions=side.actions + 1
    )
    return _with(state, e.seat, side)


def _flipped(state: State, e: CardFlipped) -> State:
    side = _update(state.sides[e.seat], e.card, face_up=True)
    if e.card_id in BATTLE:
        side = replace(side, battle_flip_used=True)
    if e.seat == state.active_seat:
        side = replace(side, actions=side.actions + 1)
    return _with(state, e.seat, side)


def _left(state: State, e: CardLeftField) -> State:
    side = _remove(state.sides[e.seat], e.card)
    return _with(state, e.seat, replace(side, graveyard=(*side.graveyard, CardView(e.card, e.card_id))))


def _temp(state: State, e: TempModifierApplied) -> State:
    return replace(state, sides=tuple([_add_temp(side, e.cards, e.atk, e.def_) for side in state.sides]))


def _loss_required(state: State, e: LossChoiceRequired) -> State:
    return replace(state, pending=PendingLoss(e.seat, e.attack_id, e.options))


def _resolved(state: State, e: AttackEnded | WeaponResolved) -> State:
    return replace(state, pending=None, open_attack=None)


def _thrown(state: State, e: HiddenWeaponThrown) -> State:
    pending = PendingBlock(1 - e.seat, e.weapon_id, e.attribute, e.atk, e.stat)
    return replace(state, pending=pending, next_ref=e.weapon_id + 1)


def _blocked(state: State, e: WeaponBlocked) -> State:
    return _with(state, e.seat, _update(state.sides[e.seat], e.blocker, acted_phase=state.phase_no))


def _phase_ended(state: State, e: PhaseEnded) -> State:
    state = replace(state, sides=tuple([_clear_temp(side) for side in state.sides]))
    if e.reason != "idle_timeout":
        state = _with(state, e.seat, replace(state.sides[e.seat], idle_streak=0))
    return state


def _timed_out(state: State, e: TimedOut) -> State:
    side = state.sides[e.seat]
    side = replace(side, timeouts=side.timeouts + 1)
    if e.kind == "phase_idle":
        side = replace(side, idle_streak=side.idle_streak + 1)
    return _with(state, e.seat, side)


def _truce_proposed(state: State, e: TruceProposed) -> State:
    state = replace(state, truce_offer=e.seat)
    return _with(state, e.seat, replace(state.sides[e.seat], truce_proposals_used=e.proposals_used))


def _truce_closed(state: State, e: TruceAccepted | TruceRejected | TruceExpired) -> State:
    return replace(state, truce_offer=None)


def _ended(state: State, e: MatchEnded) -> State:
    return replace(state, status=ENDED, result=Result(e.winner, e.reason), pending=None, clock=None, truce_offer=None)


def _shuffled(state: State, e: LibraryShuffled) -> State:
    assert e.card_ids is not None, "the fold takes full events, never a viewer's redacted copy"
    iids = tuple(f"p{e.seat}-{i:02d}" for i in range(len(e.card_ids)))
    state = replace(state, card_ids={**state.card_ids, **dict(zip(iids, e.card_ids, strict=True))})
    return _with(state, e.seat, replace(state.sides[e.seat], library=iids))


def _created(state: State, e: WulinCreated) -> State:
    sides = tuple(Side(hp=h.hp, max_hp=h.hp, qi=h.qi, hero_attribute=h.hero_attribute) for h in e.heroes)
    return replace(state, options=e.options, sides=sides)


def _first(state: State, e: FirstPlayerDecided) -> State:
    return replace(state, first_seat=e.first_seat)


def _record(state: State, e: object) -> State:
    """Events that only record what happened (§7.1: no fold)."""
    return state


def _with(state: State, seat: int, side: Side) -> State:
    sides = (side, state.sides[1]) if seat == 0 else (state.sides[0], side)
    return replace(state, sides=sides)


def _update(side: Side, iid: str, **fields: object) -> Side:
    """The side with field card ``iid`` (in either zone) changed."""
    battle = side.battle_zone
    for i, card in enumerate(battle):
        if card.iid == iid:
            return replace(side, battle_zone=(*battle[:i], replace(card, **fields), *battle[i + 1 :]))
    skill = side.skill_zone
    return replace(side, skill_zone=tuple(replace(c, **fields) if c.iid == iid else c for c in skill))


def _remove(side: Side, iid: str) -> Side:
    """The side without field card ``iid``; later battle-zone cards shift left (§3.5)."""
    battle = tuple(c for c in side.battle_zone if c.iid != iid)
    if len(battle) != len(side.battle_zone):
        return replace(side, battle_zone=battle)
    return replace(side, skill_zone=tuple(c for c in side.skill_zone if c.iid != iid))


def _add_temp(side: Side, cards: tuple[str, ...], atk: int, def_: int) -> Side:
    if not any(c.iid in cards for c in side.battle_zone):
        return side
    zone = tuple(
        replace(c, temp_atk=c.temp_atk + atk, temp_def=c.temp_def + def_) if c.iid in cards else c
        for c in side.battle_zone
    )
    return replace(side, battle_zone=zone)


def _clear_temp(side: Side) -> Side:
    if not any(c.temp_atk or c.temp_def for c in side.battle_zone):
        return side
    zone = tuple(replace(c, temp_atk=0, temp_def=0) if c.temp_atk or c.temp_def else c for c in side.battle_zone)
    return replace(side, battle_zone=zone)


def _mark(side: Side, cards: tuple[str, ...], spared: str | None, phase: int, attacked: bool) -> Side:
    """§8.5: every card in ``cards`` spends its action except ``spared`` (a combination's partner)."""
    zone = []
    for c in side.battle_zone:
        if c.iid in cards:
            acted = c.acted_phase if c.iid == spared else phase
            c = replace(c, acted_phase=acted, attacked_phase=phase if attacked else c.attacked_phase)
        zone.append(c)
    return replace(side, battle_zone=tuple(zone))


def _spared(cards: tuple[str, ...], mode: str, primary: str | None) -> str | None:
    if mode != "combination":
        return None
    return next(c for c in cards if c != primary)


def _declare_attack(state: State, event: AttackDeclared) -> State:
    s, phase = event.seat, state.phase_no
    side = _mark(state.sides[s], event.cards, _spared(event.cards, event.mode, event.primary), phase, True)
    side = replace(side, actions=side.actions + 1)
    state = _with(state, s, side)
    pending = PendingDefend(1 - s, event.attack_id, event.cards, event.mode)
    attack = OpenAttack(event.attack_id, s, event.cards, event.mode, event.primary)
    return replace(state, pending=pending, open_attack=attack, next_ref=event.attack_id + 1)


def _declare_defence(state: State, event: DefenceDeclared) -> State:
    s = event.seat
    side = _mark(state.sides[s], event.cards, _spared(event.cards, event.mode, event.primary), state.phase_no, False)
    state = _with(state, s, side)
    if state.open_attack is not None:
        state = replace(state, open_attack=replace(state.open_attack, focus=event.focus, defenders=event.cards))
    return state


_FOLDS: dict[type, Callable[[State, Any], State]] = by_type(
    Event,
    {
        ClockRestarted: _clock,
        QiChanged: _qi,
        HpChanged: _hp,
        PhaseStarted: _phase_started,
        CardsDrawn: _drawn,
        CardUsed: _used,
        CardPlayed: _played,
        CardDiscarded: _discarded,
        CardFlipped: _flipped,
        CardLeftField: _left,
        TempModifierApplied: _temp,
        AttackDeclared: _declare_attack,
        DefenceDeclared: _declare_defence,
        LossChoiceRequired: _loss_required,
        AttackEnded: _resolved,
        WeaponResolved: _resolved,
        HiddenWeaponThrown: _thrown,
        WeaponBlocked: _blocked,
        PhaseEnded: _phase_ended,
        TimedOut: _timed_out,
        TruceProposed: _truce_proposed,
        TruceAccepted: _truce_closed,
        TruceRejected: _truce_closed,
        TruceExpired: _truce_closed,
        MatchEnded: _ended,
        LibraryShuffled: _shuffled,
        WulinCreated: _created,
        FirstPlayerDecided: _first,
        OpeningReshuffled: _record,
        SkillUpkeepFailed: _record,
        DefenceDeclined: _record,
        CombatResolved: _record,
        LossChosen: _record,
        WeaponNotBlocked: _record,
        Conceded: _record,
        RefereeRuled: _record,
    },
)
"""Every event type of model.Event and its fold."""
