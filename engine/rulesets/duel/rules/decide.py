"""``decide``: general checks, the command's own checks, emission, then ``settle`` (duel.md §7, §8.1).

The checks are the single source of legality: ``decide`` and ``legal_commands`` both call them.
"""

from __future__ import annotations

from engine.contract import Actor, ForfeitReason, seat_of
from engine.dispatch import Decider, deciders
from engine.rng import Rng
from engine.rulesets.duel.evolve import evolve
from engine.rulesets.duel.model.commands import (
    Activate,
    Advance,
    CancelAttack,
    ChangePosition,
    ChooseTarget,
    Command,
    Concede,
    DeclareAttack,
    Discard,
    FlipSummon,
    Forfeit,
    NormalSummon,
    Pass,
    ReplayAttack,
    SetMonster,
    SetSpellTrap,
    Timeout,
)
from engine.rulesets.duel.model.events import Event
from engine.rulesets.duel.model.state import State
from engine.rulesets.duel.resolve.battle import declare
from engine.rulesets.duel.resolve.effects import resolve_activation
from engine.rulesets.duel.resolve.turn import request_advance, settle
from engine.rulesets.duel.rules import answers, summon
from engine.rulesets.duel.rules.activate import check_activate
from engine.rulesets.duel.rules.battle import check_advance, check_declare_attack
from engine.rulesets.duel.rules.common import check_actor, check_fields, precheck
from engine.tape import Tape


def decide_folded(state: State, actor: Actor, cmd: Command, rng: Rng) -> tuple[list[Event], State]:
    """The events of an accepted command, or ``Rejected``. Never draws from ``rng`` (D3)."""
    kind, decide = _DECIDERS[type(cmd)]
    precheck(state, actor, kind)
    check_fields(cmd)
    check_actor(state, actor, type(cmd))
    tape = Tape(state, evolve)
    decide(tape, actor, cmd, rng)
    settle(tape)
    return tape.events, tape.state


def forfeit(seat: int, reason: ForfeitReason) -> Forfeit:
    """The system's concession for ``seat``: its side loses as by ``concede``, the condition being ``reason``."""
    return Forfeit(seat, reason)


# Each command's own checks (§7.2, §8.7) and emission, found by one lookup on the exact type: a match
# statement paid an isinstance call on a msgspec class for every case it tried first. ``check_actor`` has
# made the actor a seat for every command but the system's timeout and forfeit.


def _decide_summon(tape: Tape[State, Event], actor: Actor, cmd: NormalSummon | SetMonster, rng: Rng) -> None:
    seat = seat_of(actor)
    summon.emit_summon(tape, seat, cmd, summon.check_summon(tape.state, seat, cmd))


def _decide_flip_summon(tape: Tape[State, Event], actor: Actor, cmd: FlipSummon, rng: Rng) -> None:
    seat = seat_of(actor)
    summon.emit_flip_summon(tape, seat, cmd, summon.check_flip_summon(tape.state, seat, cmd))


def _decide_change_position(tape: Tape[State, Event], actor: Actor, cmd: ChangePosition, rng: Rng) -> None:
    seat = seat_of(actor)
    summon.emit_change_position(tape, seat, cmd, summon.check_change_position(tape.state, seat, cmd))


def _decide_set_spell_trap(tape: Tape[State, Event], actor: Actor, cmd: SetSpellTrap, rng: Rng) -> None:
    seat = seat_of(actor)
    summon.emit_set_spell_trap(tape, seat, cmd, *summon.check_set_spell_trap(tape.state, seat, cmd))


def _decide_activate(tape: Tape[State, Event], actor: Actor, cmd: Activate, rng: Rng) -> None:
    seat = seat_of(actor)
    resolve_activation(tape, check_activate(tape.state, seat, cmd))


def _decide_advance(tape: Tape[State, Event], actor: Actor, cmd: Advance, rng: Rng) -> None:
    seat = seat_of(actor)
    check_advance(tape.state, seat, cmd)
    request_advance(tape, cmd.to)


def _decide_declare_attack(tape: Tape[State, Event], actor: Actor, cmd: DeclareAttack, rng: Rng) -> None:
    seat = seat_of(actor)
    check_declare_attack(tape.state, seat, cmd)
    declare(tape, cmd.attacker, cmd.target, replay=False)


def _decide_pass(tape: Tape[State, Event], actor: Actor, cmd: Pass, rng: Rng) -> None:
    seat = seat_of(actor)
    answers.check_general_only(tape.state, seat, cmd)
    answers.emit_pass(tape, answers.close(tape))


def _decide_choose_target(tape: Tape[State, Event], actor: Actor, cmd: ChooseTarget, rng: Rng) -> None:
    seat = seat_of(actor)
    answers.check_choose_target(tape.state, seat, cmd)
    answers.close(tape)
    answers.emit_choose_target(tape, cmd.target)


def _decide_replay_attack(tape: Tape[State, Event], actor: Actor, cmd: ReplayAttack, rng: Rng) -> None:
    seat = seat_of(actor)
    answers.check_replay_attack(tape.state, seat, cmd)
    answers.close(tape)
    answers.emit_replay_attack(tape, cmd)


def _decide_cancel_attack(tape: Tape[State, Event], actor: Actor, cmd: CancelAttack, rng: Rng) -> None:
    seat = seat_of(actor)
    answers.check_general_only(tape.state, seat, cmd)
    answers.close(tape)
    answers.emit_cancel_attack(tape)


def _decide_discard(tape: Tape[State, Event], actor: Actor, cmd: Discard, rng: Rng) -> None:
    seat = seat_of(actor)
    answers.check_discard(tape.state, seat, cmd)
    answers.close(tape)
    answers.emit_discard(tape, seat, cmd.card)


def _decide_concede(tape: Tape[State, Event], actor: Actor, cmd: Concede, rng: Rng) -> None:
    seat = seat_of(actor)
    answers.check_general_only(tape.state, seat, cmd)
    answers.emit_concede(tape, seat)


def _decide_timeout(tape: Tape[State, Event], actor: Actor, cmd: Timeout, rng: Rng) -> None:
    answers.check_timeout(tape.state, cmd)
    answers.emit_timeout(tape, cmd)


def _decide_forfeit(tape: Tape[State, Event], actor: Actor, cmd: Forfeit, rng: Rng) -> None:
    answers.emit_concede(tape, cmd.seat, cmd.reason)


_DECIDERS: dict[type, tuple[str, Decider[State, Event]]] = deciders(
    Command,
    (
        (NormalSummon, _decide_summon),
        (SetMonster, _decide_summon),
        (FlipSummon, _decide_flip_summon),
        (ChangePosition, _decide_change_position),
        (SetSpellTrap, _decide_set_spell_trap),
        (Activate, _decide_activate),
        (Advance, _decide_advance),
        (DeclareAttack, _decide_declare_attack),
        (Pass, _decide_pass),
        (ChooseTarget, _decide_choose_target),
        (ReplayAttack, _decide_replay_attack),
        (CancelAttack, _decide_cancel_attack),
        (Discard, _decide_discard),
        (Concede, _decide_concede),
        (Timeout, _decide_timeout),
        (Forfeit, _decide_forfeit),
    ),
)
"""Each command type's tag (for ``precheck``) and the function that checks and emits it."""
