"""The events of an accepted command (wulin.md §7 effects, §8): each ``emit_<command>`` appends to the tape
what the check's result leads to, running the procedures of resolve.py."""

from __future__ import annotations

from engine.rulesets.wulin.data import (
    CATALOG,
    QI_COST,
    BattleCard,
    Card,
    FormationCard,
    QiCard,
    SecretArtCard,
    SkillCard,
    TreasureCard,
    effects_of,
)
from engine.rulesets.wulin.model import Event, State
from engine.rulesets.wulin.model.commands import Attack, Defend, DiscardCard, FlipCard, Timeout, UseCard
from engine.rulesets.wulin.model.events import (
    AttackDeclared,
    AttackEnded,
    CardDiscarded,
    CardFlipped,
    CardLeftField,
    CardUsed,
    DefenceDeclared,
    DefenceDeclined,
    HiddenWeaponThrown,
    LossChosen,
    MatchEnded,
    TimedOut,
    WeaponBlocked,
    WeaponNotBlocked,
    WeaponResolved,
)
from engine.rulesets.wulin.model.state import FieldCard, FieldZone, PendingBlock, PendingDefend, PendingLoss, Relation
from engine.rulesets.wulin.resolve import (
    IDLE_TIMEOUTS_LOSE,
    TIMEOUT_PENALTY,
    actual,
    change_hp,
    change_qi,
    direct_hit,
    end_phase,
    leave,
    pay,
    resolve_combat,
    run_effects,
)
from engine.tape import Tape


def emit_use_card(tape: Tape[State, Event], seat: int, cmd: UseCard, card: Card) -> None:
    tape.emit(CardUsed(seat, cmd.card, card.id, cmd.target))
    if isinstance(card, QiCard):
        change_qi(tape, seat, card.qi_gain, "qi_card", cmd.card)
        return
    art = isinstance(card, SecretArtCard)
    pay(tape, seat, QI_COST[card.id], "secret_art_cost" if art else "treasure_cost", cmd.card)
    if isinstance(card, TreasureCard) and card.hidden_weapon is not None:
        weapon = card.hidden_weapon
        tape.emit(
            HiddenWeaponThrown(tape.state.next_ref, seat, cmd.card, card.id, card.attribute, weapon.atk, weapon.stat)
        )
        return
    run_effects(tape, seat, cmd.card, effects_of(card), "secret_art" if art else "treasure", cmd.target)


def emit_discard_card(tape: Tape[State, Event], seat: int, cmd: DiscardCard, card: FieldCard | None) -> None:
    card_id = tape.state.card_ids[cmd.card]
    if card is None:
        tape.emit(CardDiscarded(seat, cmd.card, card_id, "hand", False, False))
        return
    origin: FieldZone = "skill_zone" if isinstance(CATALOG[card_id], SkillCard) else "battle_zone"
    tape.emit(CardDiscarded(seat, cmd.card, card_id, origin, card.face_up, card.face_up))
    entry = CATALOG[card_id]
    if card.face_up and isinstance(entry, BattleCard | SkillCard):
        run_effects(tape, seat, cmd.card, entry.on_discard, "discard_effect", None)


def emit_flip_card(tape: Tape[State, Event], seat: int, cmd: FlipCard, found: tuple[FieldCard, FieldZone]) -> None:
    card, zone = found
    tape.emit(CardFlipped(seat, card.iid, card.card_id, zone))
    entry = CATALOG[card.card_id]
    if not isinstance(entry, FormationCard):
        return
    pay(tape, seat, entry.qi_cost, "formation_cost", card.iid)
    if entry.mode == "instant":
        if run_effects(tape, seat, card.iid, entry.effects, "formation", None):
            return
        tape.emit(CardLeftField(seat, card.iid, card.card_id, "battle_zone", "instant_formation"))


def _event_primary(cards: tuple[str, ...], mode: str, primary: str | None) -> str | None:
    return cards[0] if mode == "single" else primary


def emit_attack(tape: Tape[State, Event], seat: int, cmd: Attack, plan: tuple[tuple[str, ...], int]) -> None:
    cards, cost = plan
    attack_id = tape.state.next_ref
    tape.emit(AttackDeclared(attack_id, seat, cards, cmd.mode, _event_primary(cards, cmd.mode, cmd.primary), cost))
    pay(tape, seat, cost, "attack_cost", attack_id)


def emit_defend(tape: Tape[State, Event], seat: int, cmd: Defend, plan: tuple[tuple[str, ...], int]) -> None:
    cards, cost = plan
    pending = tape.state.pending
    assert isinstance(pending, PendingDefend)
    primary = _event_primary(cards, cmd.mode, cmd.primary)
    tape.emit(DefenceDeclared(pending.attack_id, seat, cards, cmd.mode, primary, cmd.focus, cost))
    pay(tape, seat, cost, "defence_cost", pending.attack_id)
    resolve_combat(tape)


def emit_no_defence(tape: Tape[State, Event], seat: int, auto: bool) -> None:
    pending = tape.state.pending
    assert isinstance(pending, PendingDefend)
    tape.emit(DefenceDeclined(pending.attack_id, seat, auto))
    direct_hit(tape)


def emit_block(tape: Tape[State, Event], seat: int, plan: tuple[FieldCard, Relation, int]) -> None:
    card, relation, cost = plan
    pending = tape.state.pending
    assert isinstance(pending, PendingBlock)
    defence = actual(tape.state, seat, card, "def", "defending", False)
    leaves = relation == "same" and pending.atk >= defence
    tape.emit(WeaponBlocked(pending.weapon_id, seat, card.iid, relation, cost, leaves))
    pay(tape, seat, cost, "block_cost", pending.weapon_id)
    if leaves:
        leave(tape, seat, card.iid, "weapon")
    tape.emit(WeaponResolved(pending.weapon_id))


def emit_no_block(tape: Tape[State, Event], seat: int, auto: bool) -> None:
    pending = tape.state.pending
    assert isinstance(pending, PendingBlock)
    tape.emit(WeaponNotBlocked(pending.weapon_id, seat, auto))
    if pending.stat == "hp":
        if change_hp(tape, seat, -pending.atk, "hidden_weapon", pending.weapon_id):
            return
    else:
        change_qi(tape, seat, -pending.atk, "hidden_weapon", pending.weapon_id)
    tape.emit(WeaponResolved(pending.weapon_id))


def emit_choose_loss(tape: Tape[State, Event], seat: int, card: str, auto: bool) -> None:
    pending = tape.state.pending
    assert isinstance(pending, PendingLoss)
    tape.emit(LossChosen(pending.attack_id, seat, card, auto))
    leave(tape, 1 - seat, card, "combat")
    tape.emit(AttackEnded(pending.attack_id))


def emit_timeout(tape: Tape[State, Event], cmd: Timeout) -> None:
    """§9.3: the pending decision's default answer, or the phase's end (with the idle penalty)."""
    state = tape.state
    assert state.clock is not None
    seat = state.clock.seat
    pending = state.pending
    if pending is not None:
        tape.emit(TimedOut(seat, cmd.clock_seq, "pending"))
        if isinstance(pending, PendingDefend):
            emit_no_defence(tape, seat, True)
        elif isinstance(pending, PendingBlock):
            emit_no_block(tape, seat, True)
        else:
            emit_choose_loss(tape, seat, pending.options[0], True)
        return
    if state.sides[seat].actions >= 1:
        tape.emit(TimedOut(seat, cmd.clock_seq, "phase_auto_end"))
        end_phase(tape, "timeout")
        return
    tape.emit(TimedOut(seat, cmd.clock_seq, "phase_idle"))
    if change_hp(tape, seat, -TIMEOUT_PENALTY, "timeout_penalty", None):
        return
    if tape.state.sides[seat].idle_streak >= IDLE_TIMEOUTS_LOSE:
        tape.emit(MatchEnded(1 - seat, "idle_timeouts"))
        return
    end_phase(tape, "idle_timeout")
