"""``evolve(state, event) -> state``: the fold of duel.md §7.3 and nothing else (no checks, no RNG)."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from engine.rulesets.duel.model.commands import Choices
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
    SpecialSummoned,
    SpellTrapSet,
    TimeoutRecorded,
    TurnEnded,
    TurnStarted,
)
from engine.rulesets.duel.model.state import (
    Attack,
    CardRef,
    Monster,
    Pending,
    QueuedTrigger,
    Result,
    Side,
    SpellTrap,
    State,
    owner_of,
)
from engine.tuples import drop, put


def evolve(state: State, event: Event) -> State:
    """The state after ``event`` (§7.3 Fold column)."""
    match event:
        case PhaseChanged(phase=phase):
            return replace(state, phase=phase)
        case CardDrawn(seat=s):
            side = state.sides[s]
            return _with(state, s, replace(side, deck=side.deck[1:], hand=(*side.hand, side.deck[0])))
        case DecisionRequested(decision_id=d, seat=s, kind=kind, details=details):
            pending = Pending(d, s, kind, details)  # type: ignore[arg-type]
            return replace(state, pending=pending, next_decision_id=state.next_decision_id + 1)
        case DecisionClosed():
            return replace(state, pending=None)
        case TurnStarted(turn=t, seat=s):
            return replace(state, turn=t, turn_seat=s, normal_summon_used=False, turn_expired=False)
        case NormalSummoned(seat=s, slot=slot, instance=i, card_id=c):
            return _summon(state, s, slot, Monster(i, c, "fu_attack", state.turn))
        case MonsterSet(seat=s, slot=slot, instance=i, card_id=c):
            state = _conceal(state, i)  # type: ignore[arg-type]
            return _summon(state, s, slot, Monster(i, c, "fd_defense", state.turn))  # type: ignore[arg-type]
        case FlipSummoned(seat=s, slot=slot):
            return _monster(state, s, slot, position="fu_attack", position_changed_turn=state.turn)
        case SpecialSummoned(seat=s, slot=slot, instance=i, card_id=c, position=p, from_=source):
            state = _take(state, s, i, source)
            return _place(state, s, slot, Monster(i, c, p, state.turn))
        case PositionChanged(seat=s, slot=slot, to=to, cause=cause):
            if cause == "manual":
                return _monster(state, s, slot, position=to, position_changed_turn=state.turn)
            return _monster(state, s, slot, position=to)
        case MonsterFlipped(seat=s, slot=slot, to=to):
            return _monster(state, s, slot, position=to)
        case MonsterTurnedFaceDown(seat=s, slot=slot, instance=i, to=to):
            return _reveal(_monster(state, s, slot, position=to), i)
        case SpellTrapSet(seat=s, slot=slot, instance=i, card_id=c):
            side = state.sides[s]
            card = SpellTrap(i, c, face_up=False, set_turn=state.turn)  # type: ignore[arg-type]
            side = replace(side, hand=drop(side.hand, i), spell_traps=put(side.spell_traps, slot, card))
            return _conceal(_with(state, s, side), i)  # type: ignore[arg-type]
        case CardActivated(seat=s, slot=slot, instance=i, card_id=c, from_=source, choices=choices, window=window):
            state = _reveal_all(_activated(state, s, slot, i, c, source == "hand"), _named(choices))
            if window == "attack_declared" and state.attack is not None:
                state = replace(state, attack=replace(state.attack, stage="responded"))
            return state
        case EquipAttached(seat=s, slot=slot, target=target):
            return _spell_trap(state, s, slot, equipped_to=target.instance)
        case CountersChanged(seat=s, slot=slot, counter=name, value=value):
            holder = state.sides[s].spell_traps[slot]
            assert holder is not None
            if any(n == name for n, _ in holder.counters):
                counters = tuple((n, value if n == name else v) for n, v in holder.counters)
            else:
                counters = (*holder.counters, (name, value))
            return _spell_trap(state, s, slot, counters=counters)
        case CardDestroyed(seat=s, zone=zone, slot=slot, instance=i, owner=owner):
            return _to_graveyard(_clear(state, s, zone, slot), owner, i)
        case CardSentToGraveyard(seat=s, from_zone=zone, slot=slot, instance=i, owner=owner):
            if slot is None:
                side = state.sides[s]
                return _to_graveyard(_with(state, s, replace(side, hand=drop(side.hand, i))), owner, i)
            return _to_graveyard(_clear(state, s, zone, slot), owner, i)
        case CardReturned(seat=s, slot=slot, instance=i, owner=owner, to=to):
            state = _clear(state, s, "monster", slot)
            side = state.sides[owner]
            side = replace(side, hand=(*side.hand, i)) if to == "hand" else replace(side, extra=(*side.extra, i))
            return _reveal(_with(state, owner, side), i)
        case EffectTriggered(seat=s, instance=i, card_id=c, trigger=t):
            return replace(state, queue=(*state.queue, QueuedTrigger(s, i, c, t)))
        case EffectResolved():
            return replace(state, queue=state.queue[1:])
        case AttackDeclared(seat=s, attacker_slot=a_slot, attacker=a, target_slot=t_slot):
            return _declare(state, s, a_slot, a, t_slot)
        case AttackCancelled() | AttackEnded():
            return replace(state, attack=None)
        case DamageCalculated():
            assert state.attack is not None
            return replace(state, attack=replace(state.attack, stage="damage_done"))
        case DamageDealt(seat=s, lp=lp):
            return _with(state, s, replace(state.sides[s], lp=lp))
        case TimeoutRecorded(seat=s, scope=scope, count=count):
            state = _with(state, s, replace(state.sides[s], timeouts=count))
            return replace(state, turn_expired=True) if scope == "turn" else state
        case DrawFailed(seat=s):
            return _with(state, s, replace(state.sides[s], deck_out=True))
        case MatchEnded(outcome=outcome, winner=winner, reasons=reasons):
            return replace(state, ended=True, result=Result(outcome, winner, reasons), pending=None)
        case DuelCreated():
            return _created(state, event)
        case FirstPlayerDecided(seat=s):
            return replace(state, first_seat=s)
        case DeckShuffled(seat=s, order=order):
            return _with(state, s, replace(state.sides[s], deck=order))
        case ResponsePassed() | TurnEnded() | PlayerConceded():
            return state
        case _:
            assert_never(event)


def _with(state: State, seat: int, side: Side) -> State:
    return replace(state, sides=put(state.sides, seat, side))


def _reveal(state: State, instance: str) -> State:
    """Marks a card as seen by everyone while it is in, or goes back into, a hidden zone (D29, D16)."""
    if instance in state.revealed:
        return state
    return replace(state, revealed=(*state.revealed, instance))


def _reveal_all(state: State, instances: tuple[str, ...]) -> State:
    for instance in instances:
        state = _reveal(state, instance)
    return state


def _conceal(state: State, instance: str) -> State:
    """A card set face-down is secret again: the set event names it to its owner only (§11)."""
    if instance not in state.revealed:
        return state
    return replace(state, revealed=drop(state.revealed, instance))


def _named(choices: Choices) -> tuple[str, ...]:
    """Instances a public ``CardActivated`` names in its choices while they still sit in the activator's hand or
    extra deck (§11 "all other events are public"): the fusion monster, its materials, and an ``ambush_call``
    card taken from the hand (from the deck, ``card`` is a card id and names no instance)."""
    named = [choices.fusion] if isinstance(choices.fusion, str) else []
    if isinstance(choices.materials, tuple):
        named += choices.materials
    if choices.source == "hand" and isinstance(choices.card, str):
        named.append(choices.card)
    return tuple(named)


def _created(state: State, event: DuelCreated) -> State:
    cards: dict[str, CardRef] = {}
    sides = []
    for seat in event.seats:
        main, extra, side_deck = seat.main, seat.extra, seat.side
        assert isinstance(main, tuple) and isinstance(extra, tuple) and isinstance(side_deck, tuple)
        cards.update((r.instance, r) for refs in (main, extra, side_deck) for r in refs)
        sides.append(
            Side(
                lp=event.options.starting_lp,
                deck=tuple(r.instance for r in main),
                extra=tuple(r.instance for r in extra),
                side_deck=tuple(r.instance for r in side_deck),
            )
        )
    return State(options=event.options, cards=cards, sides=tuple(sides))


def _summon(state: State, seat: int, slot: int, monster: Monster) -> State:
    side = state.sides[seat]
    side = replace(side, hand=drop(side.hand, monster.instance), monsters=put(side.monsters, slot, monster))
    return replace(_with(state, seat, side), normal_summon_used=True)


def _take(state: State, seat: int, instance: str, source: str) -> State:
    """Removes a special-summoned card from its source zone (§7.3 SpecialSummoned)."""
    if source == "graveyard":
        owner = owner_of(instance)
        side = state.sides[owner]
        return _with(state, owner, replace(side, graveyard=drop(side.graveyard, instance)))
    side = state.sides[seat]
    if source == "hand":
        return _with(state, seat, replace(side, hand=drop(side.hand, instance)))
    if source == "deck":
        return _with(state, seat, replace(side, deck=drop(side.deck, instance)))
    return _with(state, seat, replace(side, extra=drop(side.extra, instance)))


def _place(state: State, seat: int, slot: int, monster: Monster) -> State:
    side = state.sides[seat]
    return _with(state, seat, replace(side, monsters=put(side.monsters, slot, monster)))


def _monster(state: State, seat: int, slot: int, **changes: object) -> State:
    side = state.sides[seat]
    monster = side.monsters[slot]
    assert monster is not None
    return _with(state, seat, replace(side, monsters=put(side.monsters, slot, replace(monster, **changes))))


def _spell_trap(state: State, seat: int, slot: int, **changes: object) -> State:
    side = state.sides[seat]
    card = side.spell_traps[slot]
    assert card is not None
    return _with(state, seat, replace(side, spell_traps=put(side.spell_traps, slot, replace(card, **changes))))


def _activated(state: State, seat: int, slot: int, instance: str, card_id: str, from_hand: bool) -> State:
    side = state.sides[seat]
    if from_hand:
        card = SpellTrap(instance, card_id, face_up=True)
        side = replace(side, hand=drop(side.hand, instance), spell_traps=put(side.spell_traps, slot, card))
        return _with(state, seat, side)
    return _spell_trap(state, seat, slot, face_up=True)


def _clear(state: State, seat: int, zone: str, slot: int) -> State:
    side = state.sides[seat]
    if zone == "monster":
        return _with(state, seat, replace(side, monsters=put(side.monsters, slot, None)))
    return _with(state, seat, replace(side, spell_traps=put(side.spell_traps, slot, None)))


def _to_graveyard(state: State, owner: int, instance: str) -> State:
    side = state.sides[owner]
    return _with(state, owner, replace(side, graveyard=(*side.graveyard, instance)))


def _declare(state: State, seat: int, attacker_slot: int, attacker: str, target_slot: int | None) -> State:
    defender = state.sides[1 - seat]
    target = defender.monsters[target_slot] if target_slot is not None else None
    count = sum(m is not None for m in defender.monsters)
    attack = Attack(attacker, attacker_slot, target_slot, target.instance if target else None, count, "declared")
    return replace(_monster(state, seat, attacker_slot, attacked_turn=state.turn), attack=attack)
