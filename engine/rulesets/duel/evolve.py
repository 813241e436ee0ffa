"""``evolve(state, event) -> state``: the fold of duel.md §7.3 and nothing else (no checks, no RNG)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.dispatch import by_type
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
    return _FOLDS[type(event)](state, event)


# One function per event type, found by one lookup on the exact type. A match statement tried its class
# patterns in turn, each miss an isinstance call on a msgspec class, and later events paid for earlier ones.


def _phase_changed(state: State, event: PhaseChanged) -> State:
    return replace(state, phase=event.phase)


def _card_drawn(state: State, event: CardDrawn) -> State:
    s = event.seat
    side = state.sides[s]
    return _with(state, s, replace(side, deck=side.deck[1:], hand=(*side.hand, side.deck[0])))


def _decision_requested(state: State, event: DecisionRequested) -> State:
    pending = Pending(event.decision_id, event.seat, event.kind, event.details)  # type: ignore[arg-type]
    return replace(state, pending=pending, next_decision_id=state.next_decision_id + 1)


def _decision_closed(state: State, event: DecisionClosed) -> State:
    return replace(state, pending=None)


def _turn_started(state: State, event: TurnStarted) -> State:
    return replace(state, turn=event.turn, turn_seat=event.seat, normal_summon_used=False, turn_expired=False)


def _normal_summoned(state: State, event: NormalSummoned) -> State:
    return _summon(state, event.seat, event.slot, Monster(event.instance, event.card_id, "fu_attack", state.turn))


def _monster_set(state: State, event: MonsterSet) -> State:
    i = event.instance
    monster = Monster(i, event.card_id, "fd_defense", state.turn)  # type: ignore[arg-type]
    return _summon(_conceal(state, i), event.seat, event.slot, monster)  # type: ignore[arg-type]


def _flip_summoned(state: State, event: FlipSummoned) -> State:
    return _monster(state, event.seat, event.slot, position="fu_attack", position_changed_turn=state.turn)


def _special_summoned(state: State, event: SpecialSummoned) -> State:
    s, i = event.seat, event.instance
    state = _take(state, s, i, event.from_)
    return _place(state, s, event.slot, Monster(i, event.card_id, event.position, state.turn))


def _position_changed(state: State, event: PositionChanged) -> State:
    if event.cause == "manual":
        return _monster(state, event.seat, event.slot, position=event.to, position_changed_turn=state.turn)
    return _monster(state, event.seat, event.slot, position=event.to)


def _monster_flipped(state: State, event: MonsterFlipped) -> State:
    return _monster(state, event.seat, event.slot, position=event.to)


def _monster_turned_face_down(state: State, event: MonsterTurnedFaceDown) -> State:
    return _reveal(_monster(state, event.seat, event.slot, position=event.to), event.instance)


def _spell_trap_set(state: State, event: SpellTrapSet) -> State:
    s, slot, i = event.seat, event.slot, event.instance
    side = state.sides[s]
    card = SpellTrap(i, event.card_id, face_up=False, set_turn=state.turn)  # type: ignore[arg-type]
    side = replace(side, hand=drop(side.hand, i), spell_traps=put(side.spell_traps, slot, card))
    return _conceal(_with(state, s, side), i)  # type: ignore[arg-type]


def _card_activated(state: State, event: CardActivated) -> State:
    activated = _activated(state, event.seat, event.slot, event.instance, event.card_id, event.from_ == "hand")
    state = _reveal_all(activated, _named(event.choices))
    if event.window == "attack_declared" and state.attack is not None:
        state = replace(state, attack=replace(state.attack, stage="responded"))
    return state


def _equip_attached(state: State, event: EquipAttached) -> State:
    return _spell_trap(state, event.seat, event.slot, equipped_to=event.target.instance)


def _counters_changed(state: State, event: CountersChanged) -> State:
    name, value = event.counter, event.value
    holder = state.sides[event.seat].spell_traps[event.slot]
    assert holder is not None
    if any(n == name for n, _ in holder.counters):
        counters = tuple((n, value if n == name else v) for n, v in holder.counters)
    else:
        counters = (*holder.counters, (name, value))
    return _spell_trap(state, event.seat, event.slot, counters=counters)


def _card_destroyed(state: State, event: CardDestroyed) -> State:
    return _to_graveyard(_clear(state, event.seat, event.zone, event.slot), event.owner, event.instance)


def _card_sent_to_graveyard(state: State, event: CardSentToGraveyard) -> State:
    s, slot, i = event.seat, event.slot, event.instance
    if slot is None:
        side = state.sides[s]
        return _to_graveyard(_with(state, s, replace(side, hand=drop(side.hand, i))), event.owner, i)
    return _to_graveyard(_clear(state, s, event.from_zone, slot), event.owner, i)


def _card_returned(state: State, event: CardReturned) -> State:
    owner, i = event.owner, event.instance
    state = _clear(state, event.seat, "monster", event.slot)
    side = state.sides[owner]
    side = replace(side, hand=(*side.hand, i)) if event.to == "hand" else replace(side, extra=(*side.extra, i))
    return _reveal(_with(state, owner, side), i)


def _effect_triggered(state: State, event: EffectTriggered) -> State:
    trigger = QueuedTrigger(event.seat, event.instance, event.card_id, event.trigger)
    return replace(state, queue=(*state.queue, trigger))


def _effect_resolved(state: State, event: EffectResolved) -> State:
    return replace(state, queue=state.queue[1:])


def _attack_declared(state: State, event: AttackDeclared) -> State:
    seat, attacker_slot, target_slot = event.seat, event.attacker_slot, event.target_slot
    defender = state.sides[1 - seat]
    target = defender.monsters[target_slot] if target_slot is not None else None
    count = sum(m is not None for m in defender.monsters)
    attack = Attack(event.attacker, attacker_slot, target_slot, target.instance if target else None, count, "declared")
    return replace(_monster(state, seat, attacker_slot, attacked_turn=state.turn), attack=attack)


def _attack_over(state: State, event: AttackCancelled | AttackEnded) -> State:
    return replace(state, attack=None)


def _damage_calculated(state: State, event: DamageCalculated) -> State:
    assert state.attack is not None
    return replace(state, attack=replace(state.attack, stage="damage_done"))


def _damage_dealt(state: State, event: DamageDealt) -> State:
    return _with(state, event.seat, replace(state.sides[event.seat], lp=event.lp))


def _timeout_recorded(state: State, event: TimeoutRecorded) -> State:
    state = _with(state, event.seat, replace(state.sides[event.seat], timeouts=event.count))
    return replace(state, turn_expired=True) if event.scope == "turn" else state


def _draw_failed(state: State, event: DrawFailed) -> State:
    return _with(state, event.seat, replace(state.sides[event.seat], deck_out=True))


def _match_ended(state: State, event: MatchEnded) -> State:
    return replace(state, ended=True, result=Result(event.outcome, event.winner, event.reasons), pending=None)


def _duel_created(state: State, event: DuelCreated) -> State:
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


def _first_player_decided(state: State, event: FirstPlayerDecided) -> State:
    return replace(state, first_seat=event.seat)


def _deck_shuffled(state: State, event: DeckShuffled) -> State:
    return _with(state, event.seat, replace(state.sides[event.seat], deck=event.order))


def _no_change(state: State, event: ResponsePassed | TurnEnded | PlayerConceded) -> State:
    return state


_FOLDS: dict[type, Callable[[State, Any], State]] = by_type(
    Event,
    {
        PhaseChanged: _phase_changed,
        CardDrawn: _card_drawn,
        DecisionRequested: _decision_requested,
        DecisionClosed: _decision_closed,
        TurnStarted: _turn_started,
        NormalSummoned: _normal_summoned,
        MonsterSet: _monster_set,
        FlipSummoned: _flip_summoned,
        SpecialSummoned: _special_summoned,
        PositionChanged: _position_changed,
        MonsterFlipped: _monster_flipped,
        MonsterTurnedFaceDown: _monster_turned_face_down,
        SpellTrapSet: _spell_trap_set,
        CardActivated: _card_activated,
        EquipAttached: _equip_attached,
        CountersChanged: _counters_changed,
        CardDestroyed: _card_destroyed,
        CardSentToGraveyard: _card_sent_to_graveyard,
        CardReturned: _card_returned,
        EffectTriggered: _effect_triggered,
        EffectResolved: _effect_resolved,
        AttackDeclared: _attack_declared,
        AttackCancelled: _attack_over,
        AttackEnded: _attack_over,
        DamageCalculated: _damage_calculated,
        DamageDealt: _damage_dealt,
        TimeoutRecorded: _timeout_recorded,
        DrawFailed: _draw_failed,
        MatchEnded: _match_ended,
        DuelCreated: _duel_created,
        FirstPlayerDecided: _first_player_decided,
        DeckShuffled: _deck_shuffled,
        ResponsePassed: _no_change,
        TurnEnded: _no_change,
        PlayerConceded: _no_change,
    },
)


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
