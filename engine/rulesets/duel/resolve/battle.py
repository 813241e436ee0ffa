"""Attacks (duel.md §8.10, D8-D12): the attack window, the continuation after a response, the damage step."""

from __future__ import annotations

from engine.rulesets.duel.board import atk, defense, monster_count, monster_slot, occupied, window_eligible
from engine.rulesets.duel.model.events import (
    AttackCancelled,
    AttackDeclared,
    DamageAmount,
    DamageCalculated,
    Event,
)
from engine.rulesets.duel.model.state import Details, Monster, State
from engine.rulesets.duel.resolve.decisions import request
from engine.rulesets.duel.resolve.effects import deal_damage, destroy_card, flip_face_up
from engine.tape import Tape


def declare(tape: Tape[State, Event], attacker_slot: int, target_slot: int | None, replay: bool) -> None:
    """``AttackDeclared``, then the defender's window when eligible, else the damage step (§8.10)."""
    state = tape.state
    seat = state.turn_seat
    attacker = state.sides[seat].monsters[attacker_slot]
    assert attacker is not None
    tape.emit(AttackDeclared(seat, attacker_slot, attacker.instance, target_slot, replay))
    defender = 1 - seat
    if window_eligible(tape.state, defender):
        details = Details(
            trigger="attack_declared",
            attacker=attacker.instance,
            attacker_slot=attacker_slot,
            target_slot=target_slot,
        )
        request(tape, defender, "response_window", details)
    else:
        damage_step(tape)


def attack_continuation(tape: Tape[State, Event]) -> None:
    """§8.10 after an activation answered the attack window: cancel, ask for a replay, or go on."""
    state = tape.state
    attack = state.attack
    assert attack is not None
    seat = state.turn_seat
    slot = monster_slot(state.sides[seat], attack.attacker)
    if slot is None:
        tape.emit(AttackCancelled(seat, attack.attacker, "attacker_left_field"))
        return
    attacker = state.sides[seat].monsters[slot]
    assert attacker is not None
    if attacker.position != "fu_attack":
        tape.emit(AttackCancelled(seat, attack.attacker, "attacker_not_in_attack_position"))
        return
    defender = state.sides[1 - seat]
    target = defender.monsters[attack.target_slot] if attack.target_slot is not None else None
    target_gone = attack.target_slot is not None and (target is None or target.instance != attack.target)
    if target_gone or monster_count(defender) != attack.defender_count:
        slots = occupied(defender)
        details = Details(
            attacker=attack.attacker,
            attacker_slot=attack.attacker_slot,
            candidates=tuple(slots),
            direct=not slots,
        )
        request(tape, seat, "replay", details)
        return
    damage_step(tape)


def damage_step(tape: Tape[State, Event]) -> None:
    """§8.10 ``damage_step``: flip a face-down target, compare, deal damage, then destroy (D9, D10)."""
    attack = tape.state.attack
    assert attack is not None
    seat, defender = tape.state.turn_seat, 1 - tape.state.turn_seat
    t_slot = attack.target_slot
    if t_slot is not None:
        flip_face_up(tape, defender, t_slot, "attacked")  # §8.10 step 2
    state = tape.state
    attacker = state.sides[seat].monsters[attack.attacker_slot]
    assert attacker is not None
    target = state.sides[defender].monsters[t_slot] if t_slot is not None else None
    a = atk(state, attacker)
    destroyed: list[tuple[int, int, Monster]] = []
    damage: DamageAmount | None = None
    value: int | None = None
    if target is None:
        damage = DamageAmount(defender, a)
    elif target.position == "fu_attack":
        value = atk(state, target)
        if a >= value:
            destroyed.append((defender, t_slot, target))  # type: ignore[arg-type]
        if a <= value:
            destroyed.insert(0, (seat, attack.attacker_slot, attacker))
        damage = DamageAmount(defender, a - value) if a > value else DamageAmount(seat, value - a)
    else:
        value = defense(target)
        if a > value:
            destroyed.append((defender, t_slot, target))  # type: ignore[arg-type]
        elif a < value:
            damage = DamageAmount(seat, value - a)
    if damage is not None and damage.amount == 0:
        damage = None  # a damage of 0 counts as none (§8.10 step 3)
    tape.emit(
        DamageCalculated(
            attacker.instance,
            a,
            target.instance if target else None,
            target.position if target else None,
            value,
            tuple(m.instance for _, _, m in destroyed),
            damage,
        )
    )
    if damage is not None:
        deal_damage(tape, [damage.seat], damage.amount, "battle", attacker.instance)
        if tape.state.ended:
            return
    for holder, slot, _ in destroyed:
        destroy_card(tape, holder, "monster", slot, "battle")
