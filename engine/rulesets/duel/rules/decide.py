"""``decide``: general checks, the command's own checks, emission, then ``settle`` (duel.md §7, §8.1).

``check`` is the single source of legality: ``decide`` and ``legal_commands`` both call it.
"""

from __future__ import annotations

from typing import Any, assert_never

from engine.contract import Actor
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


def check(state: State, actor: Actor, cmd: Command) -> tuple[int | None, Any]:
    """Every check of §7.1 and §7.2 for ``cmd``, in the spec's order; raises ``Rejected``.

    Returns the issuing seat (None for the system) and what emission needs.
    """
    precheck(state, actor, "")
    check_fields(cmd)
    seat = check_actor(state, actor, type(cmd))
    if seat is None:
        assert isinstance(cmd, Timeout)
        answers.check_timeout(state, cmd)
        return None, None
    return seat, check_command(state, seat, cmd)


def check_command(state: State, seat: int, cmd: Command) -> Any:
    """The command's own preconditions (§7.2, §8.7), once the general checks passed for ``seat``."""
    match cmd:
        case NormalSummon() | SetMonster():
            return summon.check_summon(state, seat, cmd)
        case FlipSummon():
            return summon.check_flip_summon(state, seat, cmd)
        case ChangePosition():
            return summon.check_change_position(state, seat, cmd)
        case SetSpellTrap():
            return summon.check_set_spell_trap(state, seat, cmd)
        case Activate():
            return check_activate(state, seat, cmd)
        case Advance():
            return check_advance(state, seat, cmd)
        case DeclareAttack():
            return check_declare_attack(state, seat, cmd)
        case ChooseTarget():
            return answers.check_choose_target(state, seat, cmd)
        case ReplayAttack():
            return answers.check_replay_attack(state, seat, cmd)
        case Discard():
            return answers.check_discard(state, seat, cmd)
        case Pass() | CancelAttack() | Concede():
            return answers.check_general_only(state, seat, cmd)
        case Timeout():
            return None
        case _:
            assert_never(cmd)


def decide_folded(state: State, actor: Actor, cmd: Command, rng: Rng) -> tuple[list[Event], State]:
    """The events of an accepted command, or ``Rejected``. Never draws from ``rng`` (D3)."""
    seat, checked = check(state, actor, cmd)
    tape = Tape(state, evolve)
    _emit(tape, seat, cmd, checked)
    settle(tape)
    return tape.events, tape.state


def _emit(tape: Tape[State, Event], seat: int | None, cmd: Command, checked: Any) -> None:
    if isinstance(cmd, Timeout):
        answers.emit_timeout(tape, cmd)
        return
    assert seat is not None
    match cmd:
        case NormalSummon() | SetMonster():
            summon.emit_summon(tape, seat, cmd, checked)
        case FlipSummon():
            summon.emit_flip_summon(tape, seat, cmd, checked)
        case ChangePosition():
            summon.emit_change_position(tape, seat, cmd, checked)
        case SetSpellTrap():
            summon.emit_set_spell_trap(tape, seat, cmd, *checked)
        case Activate():
            resolve_activation(tape, checked)
        case Advance(to=to):
            request_advance(tape, to)
        case DeclareAttack(attacker=attacker, target=target):
            declare(tape, attacker, target, replay=False)
        case Pass():
            answers.emit_pass(tape, answers.close(tape))
        case ChooseTarget(target=target):
            answers.close(tape)
            answers.emit_choose_target(tape, target)
        case ReplayAttack():
            answers.close(tape)
            answers.emit_replay_attack(tape, cmd)
        case CancelAttack():
            answers.close(tape)
            answers.emit_cancel_attack(tape)
        case Discard(card=card):
            answers.close(tape)
            answers.emit_discard(tape, seat, card)
        case Concede():
            answers.emit_concede(tape, seat)
        case _:
            assert_never(cmd)
