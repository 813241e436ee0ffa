"""``decide_folded`` (docs/rulesets/voidlink.md §7.2, §8, §9): ``precheck``, the command's check (checks.py), then
its emission, found by one lookup on the exact command type."""

from __future__ import annotations

from collections.abc import Iterable

from engine.contract import Actor, ForfeitReason, seat_of
from engine.dispatch import Decider, deciders
from engine.errors import Rejected
from engine.rng import Rng
from engine.rulesets.voidlink.board import system_of
from engine.rulesets.voidlink.checks import (
    check_activate_combination,
    check_activate_commander,
    check_activate_magic,
    check_activate_monster_effect,
    check_activate_tactics,
    check_change_form,
    check_concede,
    check_declare_attack,
    check_discard,
    check_end_turn,
    check_go_to_battle,
    check_myth_summon,
    check_normal_summon,
    check_pass,
    check_set_magic,
    check_timeout,
    check_tribute_summon,
)
from engine.rulesets.voidlink.codes import Code
from engine.rulesets.voidlink.model import Command, Event, State
from engine.rulesets.voidlink.model.commands import (
    ActivateCombination,
    ActivateCommander,
    ActivateMagic,
    ActivateMonsterEffect,
    ActivateTactics,
    ChangeForm,
    Concede,
    DeclareAttack,
    Discard,
    EndTurn,
    Forfeit,
    GoToBattle,
    MythSummon,
    NormalSummon,
    Pass,
    SetMagic,
    Timeout,
    TributeSummon,
)
from engine.rulesets.voidlink.model.events import (
    AttackDeclared,
    Conceded,
    FormChanged,
    MagicSet,
    MatchEnded,
    Moved,
    Passed,
    PhaseEndRequested,
    SentToGraveyard,
    TimedOut,
)
from engine.rulesets.voidlink.model.state import GraveReason
from engine.rulesets.voidlink.resolve import Tape, add_link, await_open, discard, new_tape, proceed, summon, window
from engine.rulesets.voidlink.rules.common import precheck


def _to_graveyard(tape: Tape, seat: int, cards: Iterable[str], reason: GraveReason) -> None:
    state = tape.state
    hand = state.players[seat].hand
    moved = tuple([Moved(c, state.card_ids[c], "hand" if c in hand else "monster_zone") for c in cards])
    tape.emit(SentToGraveyard(seat, moved, reason))


def _end_turn(tape: Tape, seat: int) -> None:
    tape.emit(PhaseEndRequested(seat, "end"))
    window(tape, 1 - seat, "phase_end")


def _pass(tape: Tape, seat: int) -> None:
    awaiting = tape.state.awaiting
    assert awaiting is not None and awaiting.window is not None
    tape.emit(Passed(seat))
    proceed(tape, awaiting.window)


def _timeout(tape: Tape, actor: Actor, cmd: Timeout, rng: Rng) -> None:
    """§9 (D28): the least committal default for the decision that ran out."""
    awaiting = check_timeout(tape.state, actor, cmd)
    seat = awaiting.seat
    tape.emit(TimedOut(seat, awaiting.seq, awaiting.kind))
    if awaiting.kind == "open":
        limit = tape.state.options.open_timeouts_to_lose
        if limit and tape.state.players[seat].open_timeouts >= limit:
            tape.emit(MatchEnded("win", 1 - seat, "timeout"))
            return
        _end_turn(tape, seat)
    elif awaiting.kind == "response":
        _pass(tape, seat)
    else:
        assert awaiting.count is not None
        hand = tape.state.players[seat].hand
        discard(tape, seat, hand[len(hand) - awaiting.count :])


def decide_folded(state: State, actor: Actor, cmd: Command, rng: Rng) -> tuple[list[Event], State]:
    """The events for ``cmd`` from ``actor``, or ``Rejected`` with the spec's code (voidlink uses no RNG here)."""
    kind, decide = _DECIDERS[type(cmd)]
    precheck(state, actor, kind)
    tape = new_tape(state)
    decide(tape, actor, cmd, rng)
    return tape.events, tape.state


# Each command's check and emission, found by one lookup on the exact type: a match statement paid an
# isinstance call on a msgspec class for every case it tried first.


def _decide_normal_summon(tape: Tape, actor: Actor, cmd: NormalSummon, rng: Rng) -> None:
    seat = seat_of(actor)
    check_normal_summon(tape.state, seat, cmd)
    summon(tape, seat, cmd.card, "hand", cmd.form, "normal")


def _decide_tribute_summon(tape: Tape, actor: Actor, cmd: TributeSummon, rng: Rng) -> None:
    seat = seat_of(actor)
    check_tribute_summon(tape.state, seat, cmd)
    _to_graveyard(tape, seat, cmd.tributes, "tribute")
    summon(tape, seat, cmd.card, "hand", cmd.form, "tribute")


def _decide_myth_summon(tape: Tape, actor: Actor, cmd: MythSummon, rng: Rng) -> None:
    seat = seat_of(actor)
    check_myth_summon(tape.state, seat, cmd)
    _to_graveyard(tape, seat, cmd.materials, "material")
    summon(tape, seat, cmd.card, "extra", cmd.form, "myth")


def _decide_set_magic(tape: Tape, actor: Actor, cmd: SetMagic, rng: Rng) -> None:
    seat = seat_of(actor)
    zone = check_set_magic(tape.state, seat, cmd)
    tape.emit(MagicSet(seat, cmd.card, tape.state.card_ids[cmd.card], zone))
    await_open(tape)


def _decide_activate_magic(tape: Tape, actor: Actor, cmd: ActivateMagic, rng: Rng) -> None:
    seat = seat_of(actor)
    from_hand, zone = check_activate_magic(tape.state, seat, cmd)
    add_link(tape, seat, cmd.card, "hand" if from_hand else "set", zone, cmd.targets, cmd.form)


def _decide_activate_tactics(tape: Tape, actor: Actor, cmd: ActivateTactics, rng: Rng) -> None:
    seat = seat_of(actor)
    check_activate_tactics(tape.state, seat, cmd)
    add_link(tape, seat, cmd.card, "tactics", None, cmd.targets, cmd.form)


def _decide_activate_commander(tape: Tape, actor: Actor, cmd: ActivateCommander, rng: Rng) -> None:
    seat = seat_of(actor)
    card = check_activate_commander(tape.state, seat, cmd)
    add_link(tape, seat, card, "commander", None, cmd.targets, None)


def _decide_activate_monster_effect(tape: Tape, actor: Actor, cmd: ActivateMonsterEffect, rng: Rng) -> None:
    seat = seat_of(actor)
    system = check_activate_monster_effect(tape.state, seat, cmd)
    add_link(tape, seat, cmd.card, "monster", None, cmd.targets, None, cmd.effect, system)


def _decide_activate_combination(tape: Tape, actor: Actor, cmd: ActivateCombination, rng: Rng) -> None:
    seat = seat_of(actor)
    zone = check_activate_combination(tape.state, seat, cmd)
    _to_graveyard(tape, seat, cmd.materials, "material")
    add_link(tape, seat, cmd.card, "extra", zone, cmd.targets, None)


def _decide_change_form(tape: Tape, actor: Actor, cmd: ChangeForm, rng: Rng) -> None:
    seat = seat_of(actor)
    monster = check_change_form(tape.state, seat, cmd)
    tape.emit(FormChanged(cmd.card, monster.form, cmd.form, "command"))
    await_open(tape)


def _decide_go_to_battle(tape: Tape, actor: Actor, cmd: GoToBattle, rng: Rng) -> None:
    seat = seat_of(actor)
    check_go_to_battle(tape.state, seat, cmd)
    tape.emit(PhaseEndRequested(seat, "battle"))
    window(tape, 1 - seat, "phase_end")


def _decide_declare_attack(tape: Tape, actor: Actor, cmd: DeclareAttack, rng: Rng) -> None:
    seat = seat_of(actor)
    attacker = check_declare_attack(tape.state, seat, cmd)
    tape.emit(AttackDeclared(cmd.attacker, cmd.target, system_of(attacker.form), 1 - seat))
    window(tape, 1 - seat, "attack")


def _decide_end_turn(tape: Tape, actor: Actor, cmd: EndTurn, rng: Rng) -> None:
    seat = seat_of(actor)
    check_end_turn(tape.state, seat, cmd)
    _end_turn(tape, seat)


def _decide_pass(tape: Tape, actor: Actor, cmd: Pass, rng: Rng) -> None:
    seat = seat_of(actor)
    check_pass(tape.state, seat, cmd)
    _pass(tape, seat)


def _decide_discard(tape: Tape, actor: Actor, cmd: Discard, rng: Rng) -> None:
    seat = seat_of(actor)
    check_discard(tape.state, seat, cmd)
    discard(tape, seat, cmd.cards)


def _decide_concede(tape: Tape, actor: Actor, cmd: Concede, rng: Rng) -> None:
    seat = check_concede(tape.state, actor, cmd)
    tape.emit(Conceded(seat))
    tape.emit(MatchEnded("win", 1 - seat, "concede"))


def _forfeit(tape: Tape, actor: Actor, cmd: Forfeit, rng: Rng) -> None:
    """The system's concession for a seat: as ``concede``, the end's reason being the forfeit's."""
    if cmd.seat != 0 and cmd.seat != 1:
        raise Rejected(Code.BAD_FIELDS, f"seat {cmd.seat} is not 0 or 1")
    tape.emit(Conceded(cmd.seat))
    tape.emit(MatchEnded("win", 1 - cmd.seat, cmd.reason))


def forfeit(seat: int, reason: ForfeitReason) -> Forfeit:
    """The system's concession for ``seat``: the other seat wins as by ``concede``, for ``reason``."""
    return Forfeit(seat, reason)


_DECIDERS: dict[type, tuple[str, Decider[State, Event]]] = deciders(
    Command,
    (
        (NormalSummon, _decide_normal_summon),
        (TributeSummon, _decide_tribute_summon),
        (MythSummon, _decide_myth_summon),
        (SetMagic, _decide_set_magic),
        (ActivateMagic, _decide_activate_magic),
        (ActivateTactics, _decide_activate_tactics),
        (ActivateCommander, _decide_activate_commander),
        (ActivateMonsterEffect, _decide_activate_monster_effect),
        (ActivateCombination, _decide_activate_combination),
        (ChangeForm, _decide_change_form),
        (GoToBattle, _decide_go_to_battle),
        (DeclareAttack, _decide_declare_attack),
        (EndTurn, _decide_end_turn),
        (Pass, _decide_pass),
        (Discard, _decide_discard),
        (Concede, _decide_concede),
        (Timeout, _timeout),
        (Forfeit, _forfeit),
    ),
)
"""Each command type's tag (for ``precheck``) and the function that checks and emits it."""
