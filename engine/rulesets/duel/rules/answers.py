"""Answers to pending decisions, their timeout defaults, concession and timeouts (duel.md §7.2, §8.13, §9)."""

from __future__ import annotations

from engine.errors import Rejected
from engine.rulesets.duel.codes import Code
from engine.rulesets.duel.model.commands import (
    CancelAttack,
    ChooseTarget,
    Concede,
    Discard,
    Pass,
    ReplayAttack,
    Timeout,
)
from engine.rulesets.duel.model.events import (
    AttackCancelled,
    CardSentToGraveyard,
    DecisionClosed,
    Event,
    MatchEnded,
    PlayerConceded,
    ResponsePassed,
    TimeoutRecorded,
)
from engine.rulesets.duel.model.state import OPEN_PHASES, Pending, Reason, State, TargetRef, card_of, owner_of
from engine.rulesets.duel.resolve.battle import damage_step, declare
from engine.rulesets.duel.resolve.effects import resolve_chosen
from engine.rulesets.duel.resolve.turn import HAND_LIMIT, enter_phase
from engine.rulesets.duel.rules.battle import check_attack_target
from engine.tape import Tape


def _pending(state: State) -> Pending:
    assert state.pending is not None
    return state.pending


def close(tape: Tape[State, Event], by: str = "answer") -> Pending:
    """``DecisionClosed`` for the pending decision (§7.1); returns it."""
    pending = _pending(tape.state)
    tape.emit(DecisionClosed(pending.decision_id, pending.seat, by))  # type: ignore[arg-type]
    return pending


def emit_pass(tape: Tape[State, Event], pending: Pending) -> None:
    """``ResponsePassed``, then the requested phase change or the damage step (§7.2 ``pass``)."""
    trigger = str(pending.details.trigger)
    tape.emit(ResponsePassed(pending.seat, trigger))
    if trigger == "main_end":
        enter_phase(tape, str(pending.details.advance_to))
    else:
        damage_step(tape)


def check_general_only(state: State, seat: int, cmd: Pass | CancelAttack | Concede) -> None:
    """``pass``, ``cancel_attack`` and ``concede`` have no checks beyond the general ones (G1-G6)."""


def check_choose_target(state: State, seat: int, cmd: ChooseTarget) -> None:
    if cmd.target not in _pending(state).details.candidates:  # type: ignore[operator]
        raise Rejected(Code.TARGET_INVALID, "choose one of the candidates")


def emit_choose_target(tape: Tape[State, Event], target: TargetRef) -> None:
    resolve_chosen(tape, tape.state.queue[0], target)


def check_replay_attack(state: State, seat: int, cmd: ReplayAttack) -> None:
    check_attack_target(state, seat, cmd.target)


def emit_replay_attack(tape: Tape[State, Event], cmd: ReplayAttack) -> None:
    attack = tape.state.attack
    assert attack is not None
    declare(tape, attack.attacker_slot, cmd.target, replay=True)


def emit_cancel_attack(tape: Tape[State, Event]) -> None:
    attack = tape.state.attack
    assert attack is not None
    tape.emit(AttackCancelled(tape.state.turn_seat, attack.attacker, "replay_declined"))


def check_discard(state: State, seat: int, cmd: Discard) -> str:
    if cmd.card not in state.sides[seat].hand:
        raise Rejected(Code.CARD_NOT_IN_HAND, "that card is not in your hand")
    return card_of(state, cmd.card)


def emit_discard(tape: Tape[State, Event], seat: int, instance: str) -> None:
    card_id = card_of(tape.state, instance)
    tape.emit(CardSentToGraveyard(seat, "hand", None, instance, card_id, owner_of(instance), "hand_limit"))


def emit_concede(tape: Tape[State, Event], seat: int, condition: str = "concede") -> None:
    """The seat concedes (``condition``: ``disconnected`` when the system forfeits it)."""
    tape.emit(PlayerConceded(seat))
    tape.emit(MatchEnded("win", 1 - seat, (Reason(seat, condition),)))


def check_timeout(state: State, cmd: Timeout) -> None:
    """§9: a timeout must name the decision or the turn clock that is running now."""
    pending = state.pending
    if cmd.scope == "decision":
        fresh = pending is not None and pending.decision_id == cmd.ref and pending.seat == cmd.seat
    else:
        open_state = pending is None and state.phase in OPEN_PHASES
        fresh = cmd.ref == state.turn and cmd.seat == state.turn_seat and open_state and not state.turn_expired
    if not fresh:
        raise Rejected(Code.STALE_TIMEOUT, "that clock is no longer running")


def emit_timeout(tape: Tape[State, Event], cmd: Timeout) -> None:
    """§9 effect: record it, forfeit at ``max_timeouts``, else apply the decision's default (§8.13)."""
    count = tape.state.sides[cmd.seat].timeouts + 1
    tape.emit(TimeoutRecorded(cmd.seat, cmd.scope, cmd.ref, count))
    limit = tape.state.options.max_timeouts
    if limit > 0 and count >= limit:
        tape.emit(MatchEnded("win", 1 - cmd.seat, (Reason(cmd.seat, "timeouts"),)))
        return
    if cmd.scope == "decision":
        emit_default(tape, close(tape, "timeout"))


def emit_default(tape: Tape[State, Event], pending: Pending) -> None:
    """§8.13 default answers, after ``DecisionClosed{by: timeout}``."""
    if pending.kind == "response_window":
        emit_pass(tape, pending)
    elif pending.kind == "select_target":
        first = pending.details.candidates[0]  # type: ignore[index]
        assert not isinstance(first, int)
        emit_choose_target(tape, first)
    elif pending.kind == "replay":
        emit_cancel_attack(tape)
    else:
        hand = tape.state.sides[pending.seat].hand
        for instance in reversed(hand[HAND_LIMIT:]):
            emit_discard(tape, pending.seat, instance)
