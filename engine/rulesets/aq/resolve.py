"""Automatic procedures of aq (docs/rulesets/aq.md §5.1, §6, §8, §9, §10), one function each, emitting onto a Tape.

Each procedure folds as it emits, so later steps read the state the earlier events produced.
"""

from __future__ import annotations

from typing import TypeVar

from engine.rng import Rng
from engine.rulesets.aq.data import ATTACK, HAND_SIZE, SKILLS, allowance, beats, pairs, playable
from engine.rulesets.aq.model import (
    CardGiven,
    CardPlayed,
    CardRemoved,
    DirectionChanged,
    Event,
    FieldCardDrawn,
    FieldLaidOut,
    HandDealt,
    HandRevealed,
    MatchEnded,
    NextPhaseSkipped,
    PetsShuffled,
    PhaseAutoResolved,
    PhaseEnded,
    PhaseSkipped,
    PhaseStarted,
    ReserveCovered,
    ReserveReturned,
    RoundEnded,
    RoundScored,
    RoundStarted,
    SeatScore,
    SkillDealt,
    SkillDeckShuffled,
    State,
)
from engine.tape import Tape

T = TypeVar("T")


def next_seat(state: State, seat: int) -> int:
    """§3.5: ``next(s) = (s + direction) mod n``."""
    return (seat + state.direction) % len(state.seats)


def is_playable(state: State, card: str) -> bool:
    """§8.1 for the current phase: Wild makes every card playable."""
    return state.wild_active or playable(card, state.field[-1])


def first_playable(state: State, hand: tuple[str, ...]) -> str | None:
    """The first playable card in canonical order, or None (§7 draw, §9 defaults)."""
    for card in hand:
        if is_playable(state, card):
            return card
    return None


# --- rounds (§5.1, §6.6, §8.6, §10) --------------------------------------------------------------


def start_round(tape: Tape[State, Event], rng: Rng, round_no: int, start: int) -> None:
    """§5.1 round setup for ``round_no`` opened by seat ``start``, then that seat's phase start."""
    state = tape.state
    config = state.config
    n = config.players
    tape.emit(RoundStarted(round=round_no, starting_seat=start, direction="clockwise"))
    order = rng.shuffle(config.pets)
    tape.emit(PetsShuffled(round=round_no, order=tuple(order), count=len(order)))
    size = HAND_SIZE[n]
    for k in range(n):
        seat = (start + k) % n
        cards = tuple(sorted(order[k * size : (k + 1) * size]))
        tape.emit(HandDealt(seat=seat, cards=cards, count=size))
    tape.emit(FieldLaidOut(cards=tuple(order[n * size :])))
    deck = config.skills if round_no == 1 else tuple(sorted((*state.skill_deck, *state.used_skills)))
    skills = tuple(rng.shuffle(deck))
    tape.emit(SkillDeckShuffled(round=round_no, order=skills, count=len(skills)))
    if round_no == 1:
        for k in range(n):
            tape.emit(SkillDealt(seat=(start + k) % n, skill=tape.state.skill_deck[0]))
    begin_phase(tape, rng, start)


def end_round(tape: Tape[State, Event], rng: Rng, reason: str, ending: int) -> None:
    """§6.6: RoundEnded, scoring, the end check, then the next round opened by the ending seat."""
    round_no = tape.state.round
    tape.emit(RoundEnded(round=round_no, reason=reason, ending_seat=ending))  # type: ignore[arg-type]
    tape.emit(RoundScored(round=round_no, results=score(tape.state)))
    ended = end_check(tape.state)
    if ended is not None:
        tape.emit(ended)
    else:
        start_round(tape, rng, round_no + 1, ending)


def score(state: State) -> tuple[SeatScore, ...]:
    """§8.6 for every seat in ascending order; D17: a total below −50 flips to positive."""
    lines = []
    for s, seat in enumerate(state.seats):
        hand_total = sum(ATTACK[c] for c in seat.hand)
        reserve_total = sum(ATTACK[c] for c in seat.reserve)
        t = seat.total + reserve_total - hand_total
        lines.append(
            SeatScore(
                seat=s,
                hand=seat.hand,
                hand_total=hand_total,
                reserve=seat.reserve,
                reserve_total=reserve_total,
                round_score=reserve_total - hand_total,
                total_before=seat.total,
                total_after=-t if t < -50 else t,
                flipped=t < -50,
            )
        )
    return tuple(lines)


def end_check(state: State) -> MatchEnded | None:
    """§10: only unconceded seats trigger the end and win; exact 0 beats the highest total (D19)."""
    live = [s for s, seat in enumerate(state.seats) if not seat.conceded]
    totals = tuple(seat.total for seat in state.seats)
    zero = [s for s in live if totals[s] == 0]
    over = any(totals[s] > 100 for s in live)
    if not (zero or over or state.round >= state.config.options.max_rounds):
        return None
    if zero:
        return MatchEnded(winners=tuple(zero), reason="exact_zero", totals=totals)
    best = max(totals[s] for s in live)
    winners = tuple(s for s in live if totals[s] == best)
    return MatchEnded(winners=winners, reason="over_100" if over else "round_limit", totals=totals)


# --- phases (§6.1, §6.5, §9) ----------------------------------------------------------------------


def begin_phase(tape: Tape[State, Event], rng: Rng, seat: int) -> None:
    """§6.1 phase start for ``seat``: phase limit, PhaseStarted, hand-empty end, skip, autopilot."""
    state = tape.state
    options = state.config.options
    if state.phases_in_round >= options.max_phases_per_round:
        end_round(tape, rng, "phase_limit", seat)
        return
    tape.emit(PhaseStarted(round=state.round, seat=seat, phase_no=state.phase_no + 1, seconds=options.phase_seconds))
    if not tape.state.seats[seat].hand:
        end_round(tape, rng, "hand_empty", seat)  # D14: checked before a pending skip
    elif tape.state.skip_next:
        tape.emit(PhaseSkipped(seat=seat))
        finish_phase(tape, rng)
    elif tape.state.seats[seat].conceded:
        autopilot(tape, rng, "conceded")


def finish_phase(tape: Tape[State, Event], rng: Rng) -> None:
    """§6.5: PhaseEnded, then the next seat's phase start."""
    seat = tape.state.current
    tape.emit(PhaseEnded(seat=seat))
    begin_phase(tape, rng, next_seat(tape.state, seat))


def autopilot(tape: Tape[State, Event], rng: Rng, reason: str) -> None:
    """§9 defaults from the current step to the end of the phase (timeout or a conceded seat)."""
    state = tape.state
    tape.emit(PhaseAutoResolved(seat=state.current, phase_no=state.phase_no, reason=reason))  # type: ignore[arg-type]
    if state.step == "reserve":
        finish_phase(tape, rng)
    elif state.step == "drawn_choice":
        play(tape, rng, state.drawn_playable[0], "drawn")
    else:
        card = first_playable(state, state.seats[state.current].hand)
        if card is not None:
            play(tape, rng, card, "hand", cover=False)
            return
        penalty_draw(tape, rng)
        after = tape.state
        if after.step == "drawn_choice" and after.phase_no == state.phase_no:
            play(tape, rng, after.drawn_playable[0], "drawn")


# --- play and draw (§8.2, §8.3) ------------------------------------------------------------------


def play(tape: Tape[State, Event], rng: Rng, card: str, source: str, cover: bool = True) -> None:
    """§8.2: CardPlayed; a hand play with an allowance and cards left opens the reserve step.

    ``cover=False`` is the §9 default: the allowance is recorded but the phase ends without covering.
    """
    state = tape.state
    on = state.field[-1]
    earned = allowance(card, on, state.reserve_cap) if source == "hand" else 0
    tape.emit(
        CardPlayed(
            seat=state.current,
            card=card,
            on_card=on,
            counter_pairs=pairs(card, on),
            beats_attack=beats(card, on),
            reserve_allowance=earned,
            source=source,  # type: ignore[arg-type]
        )
    )
    if not (cover and tape.state.step == "reserve"):
        finish_phase(tape, rng)


def draw_from_field(tape: Tape[State, Event], rng: Rng, seat: int, ending: int) -> bool:
    """One card from the front to ``seat``'s hand; True when that emptied the field and ended the round (D13)."""
    tape.emit(FieldCardDrawn(seat=seat, card=tape.state.field[0]))
    if tape.state.field:
        return False
    end_round(tape, rng, "field_exhausted", ending)
    return True


def penalty_draw(tape: Tape[State, Event], rng: Rng) -> None:
    """§8.3: reveal, draw up to 2 from the front, then play the drawn card(s) or lose the top reserve."""
    seat = tape.state.current
    tape.emit(HandRevealed(seat=seat, cards=tape.state.seats[seat].hand))
    for _ in range(2):
        if draw_from_field(tape, rng, seat, seat):
            return
    state = tape.state
    if state.step == "drawn_choice":
        return  # §6.4: the seat chooses which drawn card to play
    if state.drawn_playable:
        play(tape, rng, state.drawn_playable[0], "drawn")
        return
    reserve = state.seats[seat].reserve
    if reserve:
        tape.emit(ReserveReturned(seat=seat, card=reserve[-1]))
    finish_phase(tape, rng)


# --- skill effects (§8.4) --------------------------------------------------------------------------


def skill_effect(tape: Tape[State, Event], rng: Rng, skill: str, card: str | None, target: int | None) -> bool:
    """The effect of a skill just used by the current seat; False when it ended the round (Burden, D13)."""
    state = tape.state
    seat = state.current
    effect = SKILLS[skill].effect
    match effect.op:
        case "reverse_direction":
            tape.emit(DirectionChanged(direction="counterclockwise" if state.direction == 1 else "clockwise"))
        case "skip_next_phase":
            tape.emit(NextPhaseSkipped(seat=next_seat(state, seat)))
        case "give_card":
            tape.emit(CardGiven(from_seat=seat, to_seat=_given(target), card=card))
        case "cover_reserve":
            tape.emit(ReserveCovered(seat=seat, card=card, source="skill"))
        case "remove_card":
            tape.emit(CardRemoved(seat=seat, card=_given(card)))
        case "target_draws_from_field":
            for _ in range(effect.count):
                if draw_from_field(tape, rng, _given(target), seat):
                    return False
        case "all_playable_this_phase" | "set_reserve_cap_this_phase":
            pass  # the fold of SkillUsed applies these (§8.4: no extra event)
    return True


def _given(value: T | None) -> T:
    """A field the skill's ``needs`` made mandatory (checked by rules.check_use_skill)."""
    assert value is not None
    return value
