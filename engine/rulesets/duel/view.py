"""Hidden information (duel.md §11): views built field by field, event redaction, and the hidden cards.

A viewer is a seat or None (a spectator). Nothing is copied and then deleted: each view field is chosen.
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from engine.contract import Viewer
from engine.rulesets.duel.board import atk_with, defense, equipment
from engine.rulesets.duel.model.events import (
    AttackCancelled,
    AttackDeclared,
    AttackEnded,
    CardActivated,
    CardDestroyed,
    CardDrawn,
    CardReturned,
    CardSentToGraveyard,
    CountersChanged,
    DamageCalculated,
    DamageDealt,
    DecisionClosed,
    DecisionRequested,
    DeckShuffled,
    DrawFailed,
    DuelCreated,
    EffectResolved,
    EffectTriggered,
    EquipAttached,
    Event,
    FirstPlayerDecided,
    FlipSummoned,
    MatchEnded,
    MonsterFlipped,
    MonsterSet,
    MonsterTurnedFaceDown,
    NormalSummoned,
    PhaseChanged,
    PlayerConceded,
    PositionChanged,
    ResponsePassed,
    SeatDeck,
    SpecialSummoned,
    SpellTrapSet,
    TimeoutRecorded,
    TurnEnded,
    TurnStarted,
)
from engine.rulesets.duel.model.state import SEATS, CardRef, Monster, SpellTrap, State
from engine.rulesets.duel.model.views import (
    AttackView,
    MonsterView,
    PendingView,
    Pile,
    SideView,
    SpellTrapView,
    View,
)


def view(state: State, viewer: Viewer) -> View:
    """What ``viewer`` may see now (§11 table)."""
    equipped = equipment(state)
    return View(
        viewer=viewer,
        options=state.options,
        first_seat=state.first_seat,
        turn=state.turn,
        turn_seat=state.turn_seat,
        phase=state.phase,
        normal_summon_used=state.normal_summon_used,
        sides=tuple(_side_view(state, seat, viewer == seat, equipped) for seat in SEATS),
        attack=_attack_view(state, viewer),
        queue=state.queue,
        pending=_pending_view(state, viewer),
        ended=state.ended,
        result=state.result,
    )


def _refs(state: State, instances: tuple[str, ...]) -> tuple[CardRef, ...]:
    cards = state.cards
    return tuple(cards[i] for i in instances)


def _pile(state: State, instances: tuple[str, ...], visible: bool) -> Pile:
    if visible:
        return Pile(count=len(instances), cards=_refs(state, instances))
    return Pile(count=len(instances))


def _side_view(state: State, seat: int, own: bool, equipped: dict[str, list[SpellTrap]]) -> SideView:
    side = state.sides[seat]
    return SideView(
        seat=seat,
        lp=side.lp,
        deck_out=side.deck_out,
        timeouts=side.timeouts,
        deck=Pile(count=len(side.deck)),
        hand=_pile(state, side.hand, own),
        extra=_pile(state, side.extra, own),
        side_deck=_pile(state, side.side_deck, own),
        monsters=tuple(
            None if m is None else _monster_view(m, own, equipped.get(m.instance, [])) for m in side.monsters
        ),
        spell_traps=tuple(None if c is None else _spell_trap_view(c, own) for c in side.spell_traps),
        graveyard=_refs(state, side.graveyard),
    )


def _monster_view(monster: Monster, own: bool, equips: list[SpellTrap]) -> MonsterView:
    face_down = not monster.face_up
    turns = (monster.arrived_turn, monster.position_changed_turn, monster.attacked_turn)
    if face_down and not own:
        return MonsterView(
            face_down=True,
            position=monster.position,
            arrived_turn=turns[0],
            position_changed_turn=turns[1],
            attacked_turn=turns[2],
        )
    return MonsterView(
        face_down=face_down,
        position=monster.position,
        arrived_turn=turns[0],
        position_changed_turn=turns[1],
        attacked_turn=turns[2],
        instance=monster.instance,
        card_id=monster.card_id,
        atk=atk_with(monster, equips),
        defense=defense(monster),
        equips=tuple(card.instance for card in equips),
    )


def _spell_trap_view(card: SpellTrap, own: bool) -> SpellTrapView:
    if not card.face_up and not own:
        return SpellTrapView(face_down=True, set_turn=card.set_turn)
    return SpellTrapView(
        face_down=not card.face_up,
        set_turn=card.set_turn,
        instance=card.instance,
        card_id=card.card_id,
        counters=dict(card.counters),
        equipped_to=card.equipped_to,
    )


def _attack_view(state: State, viewer: Viewer) -> AttackView | None:
    attack = state.attack
    if attack is None:
        return None
    defender = 1 - state.turn_seat
    visible = viewer == defender
    if not visible and attack.target_slot is not None:
        target = state.sides[defender].monsters[attack.target_slot]
        visible = target is not None and target.instance == attack.target and target.face_up
    base = AttackView(
        attacker=attack.attacker,
        attacker_slot=attack.attacker_slot,
        target_slot=attack.target_slot,
        defender_count=attack.defender_count,
        stage=attack.stage,
    )
    return replace(base, target=attack.target) if visible or attack.target_slot is None else base


def _pending_view(state: State, viewer: Viewer) -> PendingView | None:
    pending = state.pending
    if pending is None:
        return None
    if viewer == pending.seat:
        details = pending.details
        return PendingView(decision_id=pending.decision_id, seat=pending.seat, kind=pending.kind, details=details)
    return PendingView(decision_id=pending.decision_id, seat=pending.seat, kind=pending.kind)


def redact(event: Event, viewer: Viewer) -> Event:
    """The event as ``viewer`` may see it (§11 event redaction); every event type is named."""
    match event:
        case DuelCreated(seats=seats):
            return replace(event, seats=tuple(s if s.seat == viewer else _counts(s) for s in seats))
        case DeckShuffled(seat=seat):
            return DeckShuffled(seat=seat)
        case CardDrawn(seat=seat, deck_count=count):
            return event if viewer == seat else CardDrawn(seat=seat, deck_count=count)
        case MonsterSet(seat=seat, slot=slot):
            return event if viewer == seat else MonsterSet(seat=seat, slot=slot)
        case SpellTrapSet(seat=seat, slot=slot):
            return event if viewer == seat else SpellTrapSet(seat=seat, slot=slot)
        case DecisionRequested(decision_id=d, seat=seat, kind=kind):
            return event if viewer == seat else DecisionRequested(decision_id=d, seat=seat, kind=kind)
        case (
            FirstPlayerDecided()
            | DrawFailed()
            | TurnStarted()
            | PhaseChanged()
            | NormalSummoned()
            | FlipSummoned()
            | SpecialSummoned()
            | PositionChanged()
            | MonsterFlipped()
            | MonsterTurnedFaceDown()
            | CardActivated()
            | EquipAttached()
            | CountersChanged()
            | CardDestroyed()
            | CardSentToGraveyard()
            | CardReturned()
            | EffectTriggered()
            | EffectResolved()
            | AttackDeclared()
            | AttackCancelled()
            | DamageCalculated()
            | DamageDealt()
            | AttackEnded()
            | DecisionClosed()
            | ResponsePassed()
            | TimeoutRecorded()
            | TurnEnded()
            | PlayerConceded()
            | MatchEnded()
        ):
            return event
        case _:
            assert_never(event)


def _counts(seat: SeatDeck) -> SeatDeck:
    lengths = [len(cards) if isinstance(cards, tuple) else 0 for cards in (seat.main, seat.extra, seat.side)]
    return SeatDeck(seat=seat.seat, main_count=lengths[0], extra_count=lengths[1], side_count=lengths[2])


def hidden_cards(state: State, viewer: Viewer) -> list[str]:
    """Instance ids whose identity ``viewer`` may not learn: the other seats' hands, decks, extra and side
    decks and face-down cards, minus cards already revealed to everyone (D29)."""
    revealed = set(state.revealed)
    hidden: list[str] = []
    for seat in SEATS:
        if seat == viewer:
            continue
        side = state.sides[seat]
        hidden += [*side.hand, *side.deck, *side.extra, *side.side_deck]
        hidden += [m.instance for m in side.monsters if m is not None and not m.face_up]
        hidden += [c.instance for c in side.spell_traps if c is not None and not c.face_up]
    return [i for i in hidden if i not in revealed]
