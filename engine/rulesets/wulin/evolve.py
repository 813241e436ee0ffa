"""The fold of wulin: ``evolve(state, event) -> state`` and nothing else (docs/rulesets/wulin.md §7.1).

Events carry their results (qi and hp after, the drawn cards), so the fold only places them; it validates
nothing and needs no RNG. Cases are ordered roughly by how often they occur in play.
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from engine.rulesets.wulin.data import CATALOG, BattleCard
from engine.rulesets.wulin.model import (
    ENDED,
    IN_PROGRESS,
    AttackDeclared,
    AttackEnded,
    CardDiscarded,
    CardFlipped,
    CardLeftField,
    CardPlayed,
    CardsDrawn,
    CardUsed,
    CardView,
    Clock,
    ClockRestarted,
    CombatResolved,
    Conceded,
    DefenceDeclared,
    DefenceDeclined,
    Event,
    FieldCard,
    FirstPlayerDecided,
    HiddenWeaponThrown,
    HpChanged,
    LibraryShuffled,
    LossChoiceRequired,
    LossChosen,
    MatchEnded,
    OpenAttack,
    OpeningReshuffled,
    PendingBlock,
    PendingDefend,
    PendingLoss,
    PhaseEnded,
    PhaseStarted,
    QiChanged,
    RefereeRuled,
    Result,
    Side,
    SkillUpkeepFailed,
    State,
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
from engine.tuples import drop


def evolve(state: State, event: Event) -> State:
    """The state after ``event``."""
    match event:
        case ClockRestarted(seat=seat, seq=seq, duration_s=duration):
            return replace(state, clock=Clock(seat, seq, duration))
        case QiChanged(seat=s, qi=qi):
            return _with(state, s, replace(state.sides[s], qi=qi))
        case HpChanged(seat=s, hp=hp):
            return _with(state, s, replace(state.sides[s], hp=hp))
        case PhaseStarted(phase_no=phase_no, seat=seat):
            sides = tuple(
                replace(side, actions=0, consumable_used=False, play_used=False, discard_used=False,
                        battle_flip_used=False)
                for side in state.sides
            )
            return replace(state, phase_no=phase_no, active_seat=seat, status=IN_PROGRESS, sides=sides)
        case CardsDrawn(seat=s, iids=iids, count=count):
            assert iids is not None, "the fold takes full events, never a viewer's redacted copy"
            side = state.sides[s]
            return _with(state, s, replace(side, library=side.library[count:], hand=(*side.hand, *iids)))
        case CardUsed(seat=s, card=card, card_id=card_id):
            side = state.sides[s]
            side = replace(side, hand=drop(side.hand, card), graveyard=(*side.graveyard, CardView(card, card_id)),
                           consumable_used=True, actions=side.actions + 1)
            return _with(state, s, side)
        case CardPlayed(seat=s, card=card, card_id=card_id, zone=zone):
            assert card is not None and card_id is not None, "the fold takes full events"
            side = state.sides[s]
            placed = FieldCard(card, card_id, played_phase=state.phase_no)
            side = replace(side, hand=drop(side.hand, card), play_used=True, actions=side.actions + 1)
            if zone == "skill_zone":
                side = replace(side, skill_zone=(*side.skill_zone, placed))
            else:
                side = replace(side, battle_zone=(*side.battle_zone, placed))
            return _with(state, s, side)
        case CardDiscarded(seat=s, card=card, card_id=card_id, from_=origin):
            side = state.sides[s]
            side = replace(side, hand=drop(side.hand, card)) if origin == "hand" else _remove(side, card)
            side = replace(side, graveyard=(*side.graveyard, CardView(card, card_id)), discard_used=True,
                           actions=side.actions + 1)
            return _with(state, s, side)
        case CardFlipped(seat=s, card=card, card_id=card_id):
            side = _update(state.sides[s], card, face_up=True)
            if isinstance(CATALOG[card_id], BattleCard):
                side = replace(side, battle_flip_used=True)
            if s == state.active_seat:
                side = replace(side, actions=side.actions + 1)
            return _with(state, s, side)
        case CardLeftField(seat=s, card=card, card_id=card_id):
            side = _remove(state.sides[s], card)
            return _with(state, s, replace(side, graveyard=(*side.graveyard, CardView(card, card_id))))
        case TempModifierApplied(cards=cards, atk=atk, def_=def_):
            sides = tuple(_add_temp(side, cards, atk, def_) for side in state.sides)
            return replace(state, sides=sides)
        case AttackDeclared():
            return _declare_attack(state, event)
        case DefenceDeclared():
            return _declare_defence(state, event)
        case LossChoiceRequired(attack_id=attack_id, seat=seat, options=options):
            return replace(state, pending=PendingLoss(seat, attack_id, options))
        case AttackEnded() | WeaponResolved():
            return replace(state, pending=None, open_attack=None)
        case HiddenWeaponThrown(weapon_id=weapon_id, seat=seat, attribute=attribute, atk=atk, stat=stat):
            pending = PendingBlock(1 - seat, weapon_id, attribute, atk, stat)
            return replace(state, pending=pending, next_ref=weapon_id + 1)
        case WeaponBlocked(seat=s, blocker=blocker):
            return _with(state, s, _update(state.sides[s], blocker, acted_phase=state.phase_no))
        case PhaseEnded(seat=s, reason=reason):
            sides = tuple(_clear_temp(side) for side in state.sides)
            state = replace(state, sides=sides)
            if reason != "idle_timeout":
                state = _with(state, s, replace(state.sides[s], idle_streak=0))
            return state
        case TimedOut(seat=s, kind=kind):
            side = state.sides[s]
            side = replace(side, timeouts=side.timeouts + 1)
            if kind == "phase_idle":
                side = replace(side, idle_streak=side.idle_streak + 1)
            return _with(state, s, side)
        case TruceProposed(seat=s, proposals_used=used):
            state = replace(state, truce_offer=s)
            return _with(state, s, replace(state.sides[s], truce_proposals_used=used))
        case TruceAccepted() | TruceRejected() | TruceExpired():
            return replace(state, truce_offer=None)
        case MatchEnded(winner=winner, reason=reason):
            return replace(state, status=ENDED, result=Result(winner, reason), pending=None, clock=None,
                           truce_offer=None)
        case LibraryShuffled(seat=s, card_ids=card_ids):
            assert card_ids is not None, "the fold takes full events, never a viewer's redacted copy"
            iids = tuple(f"p{s}-{i:02d}" for i in range(len(card_ids)))
            state = replace(state, card_ids={**state.card_ids, **dict(zip(iids, card_ids, strict=True))})
            return _with(state, s, replace(state.sides[s], library=iids))
        case WulinCreated(options=options, heroes=heroes):
            sides = tuple(
                Side(hp=h.hp, max_hp=h.hp, qi=h.qi, hero_attribute=h.hero_attribute) for h in heroes
            )
            return replace(state, options=options, sides=sides)
        case FirstPlayerDecided(first_seat=first):
            return replace(state, first_seat=first)
        case (
            OpeningReshuffled() | SkillUpkeepFailed() | DefenceDeclined() | CombatResolved() | LossChosen()
            | WeaponNotBlocked() | Conceded() | RefereeRuled()
        ):
            return state
        case _:
            assert_never(event)


def _with(state: State, seat: int, side: Side) -> State:
    sides = (side, state.sides[1]) if seat == 0 else (state.sides[0], side)
    return replace(state, sides=sides)


def _update(side: Side, iid: str, **fields: object) -> Side:
    """The side with field card ``iid`` (in either zone) changed."""
    battle = side.battle_zone
    for i, card in enumerate(battle):
        if card.iid == iid:
            return replace(side, battle_zone=(*battle[:i], replace(card, **fields), *battle[i + 1:]))
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
