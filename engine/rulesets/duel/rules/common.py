"""The general checks of duel.md §7.1 (G1-G6), run before every command's own checks."""

from __future__ import annotations

from engine.contract import SYSTEM, Actor
from engine.errors import Rejected
from engine.rulesets.duel.codes import Code
from engine.rulesets.duel.model.commands import (
    ANSWER_ONLY,
    ANSWERS,
    Activate,
    Advance,
    ChangePosition,
    ChooseTarget,
    Command,
    Concede,
    DeclareAttack,
    FlipSummon,
    Forfeit,
    NormalSummon,
    ReplayAttack,
    SetMonster,
    Timeout,
)
from engine.rulesets.duel.model.state import SEATS, SLOTS, GraveyardRef, MonsterRef, SpellTrapRef, State, TargetRef


def precheck(state: State, actor: Actor, command_type: str) -> None:
    """G1, the only check before the fields are decoded: the match has not ended."""
    if state.ended:
        raise Rejected(Code.MATCH_OVER, "the duel is over")


def check_fields(cmd: Command) -> None:
    """G2 for values the decoder's types do not pin down: seats 0-1, slots 0-4, closed string sets."""
    match cmd:
        case NormalSummon(tributes=slots) | SetMonster(tributes=slots):
            _slots(*slots)
        case FlipSummon(slot=slot, position=position):
            _slots(slot)
            _member(position, ("attack", "defense"))
        case ChangePosition(slot=slot):
            _slots(slot)
        case Activate(targets=targets):
            for target in targets:
                _ref(target)
        case DeclareAttack(attacker=attacker, target=target):
            _slots(attacker, *(() if target is None else (target,)))
        case ChooseTarget(target=target):
            _ref(target)
        case ReplayAttack(target=target):
            _slots(*(() if target is None else (target,)))
        case Timeout(seat=seat, scope=scope):
            _member(seat, SEATS)
            _member(scope, ("turn", "decision"))
        case Forfeit(seat=seat):
            _member(seat, SEATS)
        case Advance(to=to):
            _member(to, ("battle", "main2", "end"))
        case _:
            pass


def _slots(*slots: int) -> None:
    for slot in slots:
        _member(slot, SLOTS)


def _ref(ref: TargetRef) -> None:
    if isinstance(ref, MonsterRef | SpellTrapRef):
        _member(ref.seat, SEATS)
        _member(ref.slot, SLOTS)
    elif not isinstance(ref, GraveyardRef):
        raise Rejected(Code.BAD_FIELDS, "a target is a monster, spell_trap or graveyard reference")


def _member(value: object, allowed: tuple[object, ...]) -> None:
    if type(value) is bool or value not in allowed:
        raise Rejected(Code.BAD_FIELDS, f"{value!r} is not one of {list(allowed)}")


def check_actor(state: State, actor: Actor, command: type[Command]) -> None:
    """G3-G6: who may send a command of this type now; they do not read its fields, so ``legal_commands``
    runs them once per family. Past them the actor is a seat, for every command but the timeout and forfeit."""
    if command is Timeout or command is Forfeit:
        if actor != SYSTEM:
            raise Rejected(Code.NOT_SYSTEM_COMMAND, "only the system sends timeouts and forfeits")
        return
    if type(actor) is not int or actor not in SEATS:
        raise Rejected(Code.NOT_A_PLAYER, "only seat 0 or 1 may send this command")
    if command is Concede:
        return
    pending = state.pending
    if pending is not None:
        if actor != pending.seat:
            raise Rejected(Code.NOT_YOUR_DECISION, "the other player is deciding")
        if command not in ANSWERS[pending.kind]:
            raise Rejected(Code.DECISION_PENDING, f"answer the pending {pending.kind} first")
        return
    if command in ANSWER_ONLY:
        raise Rejected(Code.NO_PENDING_DECISION, "no decision is pending")
    if actor != state.turn_seat:
        raise Rejected(Code.NOT_YOUR_TURN, "it is the other player's turn")
