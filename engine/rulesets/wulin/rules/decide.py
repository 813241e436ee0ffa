"""``decide_folded``: precheck, the command's check and emission, then the clock rule (wulin.md §7, §9.2)."""

from __future__ import annotations

from engine.contract import Actor, ForfeitReason
from engine.dispatch import Decider, deciders
from engine.errors import Rejected
from engine.rng import Rng
from engine.rulesets.wulin.codes import Code
from engine.rulesets.wulin.data import SKILL_IDS
from engine.rulesets.wulin.evolve import evolve
from engine.rulesets.wulin.model import Command, Event, State
from engine.rulesets.wulin.model.commands import (
    AcceptTruce,
    Attack,
    Block,
    ChooseLoss,
    Concede,
    Defend,
    DiscardCard,
    EndPhase,
    FlipCard,
    Forfeit,
    NoBlock,
    NoDefence,
    PlayCard,
    ProposeTruce,
    RefereeRuling,
    RejectTruce,
    Timeout,
    UseCard,
)
from engine.rulesets.wulin.model.events import (
    CardPlayed,
    Conceded,
    MatchEnded,
    RefereeRuled,
    TruceAccepted,
    TruceProposed,
    TruceRejected,
)
from engine.rulesets.wulin.model.state import FieldZone
from engine.rulesets.wulin.resolve import end_phase
from engine.rulesets.wulin.rules.checks import (
    check_answer_truce,
    check_attack,
    check_block,
    check_choose_loss,
    check_concede,
    check_defend,
    check_discard_card,
    check_end_phase,
    check_flip_card,
    check_no_block,
    check_no_defence,
    check_play_card,
    check_propose_truce,
    check_referee_ruling,
    check_timeout,
    check_use_card,
)
from engine.rulesets.wulin.rules.clock import restart_clock
from engine.rulesets.wulin.rules.common import player_seat, precheck
from engine.rulesets.wulin.rules.emit import (
    emit_attack,
    emit_block,
    emit_choose_loss,
    emit_defend,
    emit_discard_card,
    emit_flip_card,
    emit_no_block,
    emit_no_defence,
    emit_timeout,
    emit_use_card,
)
from engine.tape import Tape


def decide_folded(state: State, actor: Actor, cmd: Command, rng: Rng) -> tuple[list[Event], State]:
    """The events for ``cmd`` from ``actor`` and the state they fold to, or ``Rejected`` with the spec's code."""
    kind, decide = _DECIDERS[type(cmd)]
    precheck(state, actor, kind)
    tape: Tape[State, Event] = Tape(state, evolve)
    decide(tape, actor, cmd, rng)
    restart_clock(tape, state, actor, kind)
    return tape.events, tape.state


# Each command's check and emission, found by one lookup on the exact type, as the fold does (isinstance on
# msgspec Structs is slow).


# Each command's check and emission, found by one lookup on the exact type, as the fold does (isinstance on
# msgspec Structs is slow).

Tape_ = Tape[State, Event]


def _use(tape: Tape_, actor: Actor, cmd: UseCard, rng: Rng) -> None:
    emit_use_card(tape, player_seat(actor), cmd, check_use_card(tape.state, actor, cmd))


def _play(tape: Tape_, actor: Actor, cmd: PlayCard, rng: Rng) -> None:
    card = check_play_card(tape.state, actor, cmd)
    zone: FieldZone = "skill_zone" if card.id in SKILL_IDS else "battle_zone"
    tape.emit(CardPlayed(player_seat(actor), cmd.card, card.id, zone))


def _discard(tape: Tape_, actor: Actor, cmd: DiscardCard, rng: Rng) -> None:
    emit_discard_card(tape, player_seat(actor), cmd, check_discard_card(tape.state, actor, cmd))


def _flip(tape: Tape_, actor: Actor, cmd: FlipCard, rng: Rng) -> None:
    emit_flip_card(tape, player_seat(actor), cmd, check_flip_card(tape.state, actor, cmd))


def _attack(tape: Tape_, actor: Actor, cmd: Attack, rng: Rng) -> None:
    emit_attack(tape, player_seat(actor), cmd, check_attack(tape.state, actor, cmd))


def _defend(tape: Tape_, actor: Actor, cmd: Defend, rng: Rng) -> None:
    emit_defend(tape, player_seat(actor), cmd, check_defend(tape.state, actor, cmd))


def _no_defence(tape: Tape_, actor: Actor, cmd: NoDefence, rng: Rng) -> None:
    check_no_defence(tape.state, actor, cmd)
    emit_no_defence(tape, player_seat(actor), False)


def _block(tape: Tape_, actor: Actor, cmd: Block, rng: Rng) -> None:
    emit_block(tape, player_seat(actor), check_block(tape.state, actor, cmd))


def _no_block(tape: Tape_, actor: Actor, cmd: NoBlock, rng: Rng) -> None:
    check_no_block(tape.state, actor, cmd)
    emit_no_block(tape, player_seat(actor), False)


def _choose_loss(tape: Tape_, actor: Actor, cmd: ChooseLoss, rng: Rng) -> None:
    check_choose_loss(tape.state, actor, cmd)
    emit_choose_loss(tape, player_seat(actor), cmd.card, False)


def _end_phase(tape: Tape_, actor: Actor, cmd: EndPhase, rng: Rng) -> None:
    check_end_phase(tape.state, actor, cmd)
    end_phase(tape, "end_phase")


def _propose(tape: Tape_, actor: Actor, cmd: ProposeTruce, rng: Rng) -> None:
    tape.emit(TruceProposed(player_seat(actor), check_propose_truce(tape.state, actor, cmd)))


def _accept(tape: Tape_, actor: Actor, cmd: AcceptTruce, rng: Rng) -> None:
    check_answer_truce(tape.state, actor, cmd)
    tape.emit(TruceAccepted(player_seat(actor)))
    tape.emit(MatchEnded(None, "truce"))


def _reject(tape: Tape_, actor: Actor, cmd: RejectTruce, rng: Rng) -> None:
    check_answer_truce(tape.state, actor, cmd)
    tape.emit(TruceRejected(player_seat(actor)))


def _concede(tape: Tape_, actor: Actor, cmd: Concede, rng: Rng) -> None:
    check_concede(tape.state, actor, cmd)
    tape.emit(Conceded(player_seat(actor)))
    tape.emit(MatchEnded(1 - player_seat(actor), "concede"))


def _forfeit(tape: Tape_, actor: Actor, cmd: Forfeit, rng: Rng) -> None:
    """The system's concession for a seat: as ``concede``, the end's reason being the forfeit's."""
    if cmd.seat != 0 and cmd.seat != 1:
        raise Rejected(Code.BAD_FIELDS, f"seat {cmd.seat} is not 0 or 1")
    tape.emit(Conceded(cmd.seat))
    tape.emit(MatchEnded(1 - cmd.seat, cmd.reason))


def forfeit(seat: int, reason: ForfeitReason) -> Forfeit:
    """The system's concession for ``seat``: the other seat wins as by ``concede``, for ``reason``."""
    return Forfeit(seat, reason)


def _timeout(tape: Tape_, actor: Actor, cmd: Timeout, rng: Rng) -> None:
    check_timeout(tape.state, actor, cmd)
    emit_timeout(tape, cmd)


def _ruling(tape: Tape_, actor: Actor, cmd: RefereeRuling, rng: Rng) -> None:
    check_referee_ruling(tape.state, actor, cmd)
    tape.emit(RefereeRuled(cmd.winner, cmd.note))
    tape.emit(MatchEnded(cmd.winner, "referee"))


_DECIDERS: dict[type, tuple[str, Decider[State, Event]]] = deciders(
    Command,
    (
        (UseCard, _use),
        (PlayCard, _play),
        (DiscardCard, _discard),
        (FlipCard, _flip),
        (Attack, _attack),
        (Defend, _defend),
        (NoDefence, _no_defence),
        (Block, _block),
        (NoBlock, _no_block),
        (ChooseLoss, _choose_loss),
        (EndPhase, _end_phase),
        (ProposeTruce, _propose),
        (AcceptTruce, _accept),
        (RejectTruce, _reject),
        (Concede, _concede),
        (Timeout, _timeout),
        (Forfeit, _forfeit),
        (RefereeRuling, _ruling),
    ),
)
"""Each command type's tag (for ``precheck``) and the function that checks and emits it."""
