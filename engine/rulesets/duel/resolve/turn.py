"""Turns, phases and ``settle`` (duel.md §8.1, §8.3, §8.5, §6): everything that runs without a player."""

from __future__ import annotations

from engine.rulesets.duel.board import window_eligible
from engine.rulesets.duel.data import OPPONENT_END, OWN_STANDBY, Trigger
from engine.rulesets.duel.model.events import AttackEnded, Event, PhaseChanged, TurnEnded, TurnStarted
from engine.rulesets.duel.model.state import MAIN_PHASES, OPEN_PHASES, Details, State
from engine.rulesets.duel.resolve.battle import attack_continuation
from engine.rulesets.duel.resolve.decisions import request
from engine.rulesets.duel.resolve.effects import Context, resolve_first_trigger, run_steps
from engine.rulesets.duel.resolve.end import check_end, draw
from engine.tape import Tape

HAND_LIMIT = 6


def settle(tape: Tape[State, Event]) -> None:
    """§8.1: runs the automatic procedures until a decision is pending, the match ended, or the turn
    player is in its open state."""
    while True:
        state = tape.state
        if state.ended or state.pending is not None:
            return
        attack = state.attack
        if state.queue:
            resolve_first_trigger(tape)
        elif attack is not None and attack.stage == "responded":
            attack_continuation(tape)
        elif attack is not None and attack.stage == "damage_done":
            tape.emit(AttackEnded(state.turn_seat, attack.attacker))
        elif state.phase == "end":
            end_phase_step(tape)
        elif state.turn_expired and state.phase in OPEN_PHASES:
            request_advance(tape, "end")
        else:
            return


def start_turn(tape: Tape[State, Event], turn: int, seat: int) -> None:
    """§8.3: draw (D1), standby triggers (D33), then main 1."""
    tape.emit(TurnStarted(turn, seat))
    tape.emit(PhaseChanged(turn, "draw"))
    if turn != 1 or tape.state.options.first_player_draws:
        draw(tape, seat, 1)
        if tape.state.ended:
            return
    tape.emit(PhaseChanged(turn, "standby"))
    _run_field_triggers(tape, seat, OWN_STANDBY)
    if tape.state.ended:
        return
    tape.emit(PhaseChanged(turn, "main1"))


def request_advance(tape: Tape[State, Event], to: str) -> None:
    """§8.5: leaving a main phase first opens the opponent's ``main_end`` window when eligible (D5)."""
    state = tape.state
    responder = 1 - state.turn_seat
    if state.phase in MAIN_PHASES and window_eligible(state, responder):
        request(tape, responder, "response_window", Details(trigger="main_end", advance_to=to))
        return
    enter_phase(tape, to)


def enter_phase(tape: Tape[State, Event], to: str) -> None:
    """§8.5: the phase change; entering the end phase runs the opponent's end-phase countdowns (D31)."""
    tape.emit(PhaseChanged(tape.state.turn, to))
    if to == "end":
        _run_field_triggers(tape, 1 - tape.state.turn_seat, OPPONENT_END)


def end_phase_step(tape: Tape[State, Event]) -> None:
    """§8.5: ask for hand-limit discards (D21), else end the turn and start the next one."""
    state = tape.state
    excess = len(state.sides[state.turn_seat].hand) - HAND_LIMIT
    if excess > 0:
        request(tape, state.turn_seat, "discard", Details(count=excess))
        return
    tape.emit(TurnEnded(state.turn, state.turn_seat))
    start_turn(tape, state.turn + 1, 1 - state.turn_seat)


def _run_field_triggers(tape: Tape[State, Event], seat: int, triggers: dict[str, Trigger]) -> None:
    """Steps of the seat's face-up spell/trap cards that carry one of ``triggers``, slot ascending, each
    followed by a check point (§8.3 step 3)."""
    for slot in range(5):
        card = tape.state.sides[seat].spell_traps[slot]
        if card is None or not card.face_up or card.card_id not in triggers:
            continue
        run_steps(tape, Context(seat, card.instance), triggers[card.card_id].steps)
        check_end(tape)
        if tape.state.ended:
            return
