"""End conditions and drawing (duel.md §8.4, §8.12, §10): ``check_end`` runs at every check point."""

from __future__ import annotations

from engine.rulesets.duel.data import ASSEMBLY, COUNTER_WIN
from engine.rulesets.duel.model.events import CardDrawn, DrawFailed, Event, MatchEnded
from engine.rulesets.duel.model.state import SEATS, Reason, State, card_of
from engine.tape import Tape


def has_assembly(state: State, seat: int) -> bool:
    """The seat's hand holds a ``hand_assembly_win`` card and every one of its pieces (§8.8)."""
    hand = {card_of(state, i) for i in state.sides[seat].hand}
    return any(card_id in hand and pieces <= hand for card_id, pieces in ASSEMBLY.items())


def has_counter_win(state: State, seat: int) -> bool:
    """The seat controls a face-up ``counter_win`` card that reached its count (§8.8)."""
    for card in state.sides[seat].spell_traps:
        if card is not None and card.face_up and card.card_id in COUNTER_WIN:
            rule = COUNTER_WIN[card.card_id]
            if card.counter(rule.counter) >= rule.at_least:
                return True
    return False


def check_end(tape: Tape[State, Event]) -> None:
    """§8.12: ends the duel when a seat prevails; a draw when both prevail at the same check point."""
    state = tape.state
    if state.ended:
        return
    reasons: list[Reason] = []
    lose, win = [False, False], [False, False]
    for seat in SEATS:
        side = state.sides[seat]
        conditions = (
            ("lp_zero", side.lp == 0),
            ("deck_out", side.deck_out),
            ("assembly", has_assembly(state, seat)),
            ("omen_counters", has_counter_win(state, seat)),
        )
        reasons.extend(Reason(seat, name) for name, holds in conditions if holds)
        lose[seat] = side.lp == 0 or side.deck_out
        win[seat] = conditions[2][1] or conditions[3][1]
    prevail = [win[s] or lose[1 - s] for s in SEATS]
    if all(prevail):
        tape.emit(MatchEnded("draw", None, tuple(reasons)))
    elif any(prevail):
        tape.emit(MatchEnded("win", prevail.index(True), tuple(reasons)))


def draw(tape: Tape[State, Event], seat: int, count: int) -> None:
    """§8.4: draws one card at a time, checking the end after each; an empty deck loses (D22)."""
    for _ in range(count):
        deck = tape.state.sides[seat].deck
        if not deck:
            tape.emit(DrawFailed(seat))
            check_end(tape)
            return
        top = deck[0]
        tape.emit(CardDrawn(seat=seat, instance=top, card_id=card_of(tape.state, top), deck_count=len(deck) - 1))
        check_end(tape)
        if tape.state.ended:
            return
