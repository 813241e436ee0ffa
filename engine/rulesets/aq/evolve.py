"""evolve(state, event) -> state: the aq fold (docs/rulesets/aq.md §5-§10) and nothing else.

Events carry their results; the only rule the fold applies itself is the penalty-draw choice of §8.3
(which drawn cards are playable), because the rules give that step no event of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from engine.dispatch import by_type
from engine.rulesets.aq.data import BIT, SKILLS, bits, playable
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
    PlayerConceded,
    ReserveCovered,
    ReserveReturned,
    RoundEnded,
    RoundScored,
    RoundStarted,
    Seat,
    SkillDealt,
    SkillDeckShuffled,
    SkillLearned,
    SkillUsed,
    StartingPlayerChosen,
    State,
)
from engine.tuples import drop, put


def _seat(state: State, s: int, seat: Seat) -> tuple[Seat, ...]:
    return put(state.seats, s, seat)


def _add(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The hand with ``card`` in canonical place (§3.4: ids sort canonically as strings)."""
    return tuple(sorted((*hand, card)))


def evolve(state: State, event: Event) -> State:
    """The state after one event."""
    return _FOLDS[type(event)](state, event)


# One function per event type, found by one lookup on the exact type. A match statement tried its class
# patterns in turn, each miss an isinstance call on a msgspec class, and later events paid for earlier ones.


def _phase_started(state: State, event: PhaseStarted) -> State:
    return replace(
        state,
        current=event.seat,
        phase_no=event.phase_no,
        phases_in_round=state.phases_in_round + 1,
        step="main",
        skill_action_available=True,
        wild_active=False,
        reserve_cap=2,
        reserve_remaining=0,
        drawn_playable=(),
    )


def _no_change(state: State, event: PhaseEnded | PhaseAutoResolved | PetsShuffled | RoundEnded) -> State:
    return state


def _reserve_covered(state: State, event: ReserveCovered) -> State:
    s, c = event.seat, _card_of(event)
    seat = state.seats[s]
    state = replace(state, seats=_seat(state, s, replace(seat, hand=drop(seat.hand, c), reserve=(*seat.reserve, c))))
    return replace(state, reserve_remaining=state.reserve_remaining - 1) if event.source == "play" else state


def _hand_revealed(state: State, event: HandRevealed) -> State:
    return replace(state, exposed=state.exposed | bits(event.cards), drawn_playable=())


def _reserve_returned(state: State, event: ReserveReturned) -> State:
    s, c = event.seat, _card_of(event)
    seat = state.seats[s]
    return replace(state, seats=_seat(state, s, replace(seat, reserve=seat.reserve[:-1], hand=_add(seat.hand, c))))


def _direction_changed(state: State, event: DirectionChanged) -> State:
    return replace(state, direction=1 if event.direction == "clockwise" else -1)


def _next_phase_skipped(state: State, event: NextPhaseSkipped) -> State:
    return replace(state, skip_next=True)


def _phase_skipped(state: State, event: PhaseSkipped) -> State:
    return replace(state, skip_next=False)


def _card_given(state: State, event: CardGiven) -> State:
    a, b, c = event.from_seat, event.to_seat, _card_of(event)
    giver, taker = state.seats[a], state.seats[b]
    seats = put(state.seats, a, replace(giver, hand=drop(giver.hand, c)))
    return replace(state, seats=put(seats, b, replace(taker, hand=_add(taker.hand, c))))


def _card_removed(state: State, event: CardRemoved) -> State:
    s, c = event.seat, event.card
    seat = state.seats[s]
    return replace(
        state,
        seats=_seat(state, s, replace(seat, hand=drop(seat.hand, c))),
        removed=(*state.removed, c),
        exposed=state.exposed | BIT[c],
    )


def _player_conceded(state: State, event: PlayerConceded) -> State:
    s = event.seat
    return replace(state, seats=_seat(state, s, replace(state.seats[s], conceded=True)))


def _match_ended(state: State, event: MatchEnded) -> State:
    return replace(state, status="over", winners=event.winners, reason=event.reason)


def _round_started(state: State, event: RoundStarted) -> State:
    # §5 step 8: every pet returns to the box; held skills, totals and concessions stay.
    seats = tuple(replace(seat, hand=(), reserve=()) for seat in state.seats)
    return replace(
        state,
        round=event.round,
        starting_seat=event.starting_seat,
        direction=1,
        skip_next=False,
        phases_in_round=0,
        seats=seats,
        field=(),
        removed=(),
    )


def _hand_dealt(state: State, event: HandDealt) -> State:
    s = event.seat
    return replace(state, seats=_seat(state, s, replace(state.seats[s], hand=event.cards or ())))


def _field_laid_out(state: State, event: FieldLaidOut) -> State:
    return replace(state, field=event.cards, exposed=state.exposed | bits(event.cards))


def _skill_deck_shuffled(state: State, event: SkillDeckShuffled) -> State:
    return replace(state, skill_deck=event.order or (), used_skills=())


def _skill_dealt(state: State, event: SkillDealt) -> State:
    s = event.seat
    seat = state.seats[s]
    return replace(
        state, skill_deck=state.skill_deck[1:], seats=_seat(state, s, replace(seat, skills=(*seat.skills, event.skill)))
    )


def _starting_player_chosen(state: State, event: StartingPlayerChosen) -> State:
    return replace(state, starting_seat=event.seat)


def _card_of(event: ReserveCovered | ReserveReturned | CardGiven) -> str:
    """The card the event moves; a viewer's copy with the card redacted cannot be folded."""
    if event.card is None:
        raise ValueError(f"a redacted {type(event).__name__} cannot be folded")
    return event.card


def _card_played(state: State, event: CardPlayed) -> State:
    """§8.2: the card becomes the last field card; a hand play with an allowance opens the reserve step."""
    seat = state.seats[event.seat]
    hand = drop(seat.hand, event.card)
    state = replace(
        state,
        seats=_seat(state, event.seat, replace(seat, hand=hand)),
        field=(*state.field, event.card),
        exposed=state.exposed | BIT[event.card],
    )
    if event.source == "hand" and event.reserve_allowance > 0 and hand:
        return replace(state, step="reserve", reserve_remaining=event.reserve_allowance)
    return state


def _field_card_drawn(state: State, event: FieldCardDrawn) -> State:
    """§8.3 step 2 (the current seat's penalty draw) or §8.4 Burden (another seat): front card to a hand.

    For a penalty draw the fold also keeps P, the drawn cards playable on the unchanged last card (§8.3
    step 3); when both are, the seat owes a choice (step ``drawn_choice``).
    """
    seat = state.seats[event.seat]
    field = state.field[1:]
    state = replace(state, field=field, seats=_seat(state, event.seat, replace(seat, hand=_add(seat.hand, event.card))))
    if event.seat != state.current or not field or not playable(event.card, field[-1]):
        return state
    drawn = tuple(sorted((*state.drawn_playable, event.card)))
    return replace(state, drawn_playable=drawn, step="drawn_choice" if len(drawn) == 2 else state.step)


def _skill_learned(state: State, event: SkillLearned) -> State:
    """§7 learn_skill: the cost goes to ``removed`` (public), the top skill to the seat."""
    seat = state.seats[event.seat]
    a, b = event.cards
    seat = replace(seat, hand=drop(drop(seat.hand, a), b), skills=(*seat.skills, event.skill or ""))
    return replace(
        state,
        seats=_seat(state, event.seat, seat),
        removed=(*state.removed, a, b),
        skill_deck=state.skill_deck[1:],
        skill_action_available=False,
        exposed=state.exposed | BIT[a] | BIT[b],
    )


def _skill_used(state: State, event: SkillUsed) -> State:
    """§7 use_skill; Wild and Greed change the phase here, as they have no event of their own (§8.4).

    The event itself shows its card (§11): to all for Banish, to giver and receiver for Gift.
    """
    seat = state.seats[event.seat]
    state = replace(
        state,
        seats=_seat(state, event.seat, replace(seat, skills=drop(seat.skills, event.skill))),
        used_skills=(*state.used_skills, event.skill),
        skill_action_available=False,
        exposed=state.exposed | BIT[event.skill],
    )
    effect = SKILLS[event.skill].effect
    if effect.op == "remove_card" and event.card is not None:
        return replace(state, exposed=state.exposed | BIT[event.card])
    if effect.op == "give_card" and event.card is not None and event.target_seat is not None:
        return replace(state, seats=_glimpse(state.seats, (event.seat, event.target_seat), BIT[event.card]))
    if effect.op == "all_playable_this_phase":
        return replace(state, wild_active=True)
    if effect.op == "set_reserve_cap_this_phase":
        return replace(state, reserve_cap=effect.value)
    return state


def _glimpse(seats: tuple[Seat, ...], who: tuple[int, ...], bit: int) -> tuple[Seat, ...]:
    for s in who:
        seats = put(seats, s, replace(seats[s], glimpsed=seats[s].glimpsed | bit))
    return seats


def _round_scored(state: State, event: RoundScored) -> State:
    """§8.6: new totals; every hand and reserve has now been shown."""
    exposed = state.exposed
    seats = list(state.seats)
    for line in event.results:
        seats[line.seat] = replace(seats[line.seat], total=line.total_after)
        exposed |= bits(line.hand) | bits(line.reserve)
    return replace(state, seats=tuple(seats), exposed=exposed)


_FOLDS: dict[type, Callable[[State, Any], State]] = by_type(
    Event,
    {
        PhaseStarted: _phase_started,
        PhaseEnded: _no_change,
        PhaseAutoResolved: _no_change,
        PetsShuffled: _no_change,
        RoundEnded: _no_change,
        CardPlayed: _card_played,
        ReserveCovered: _reserve_covered,
        FieldCardDrawn: _field_card_drawn,
        HandRevealed: _hand_revealed,
        ReserveReturned: _reserve_returned,
        SkillLearned: _skill_learned,
        SkillUsed: _skill_used,
        DirectionChanged: _direction_changed,
        NextPhaseSkipped: _next_phase_skipped,
        PhaseSkipped: _phase_skipped,
        CardGiven: _card_given,
        CardRemoved: _card_removed,
        PlayerConceded: _player_conceded,
        RoundScored: _round_scored,
        MatchEnded: _match_ended,
        RoundStarted: _round_started,
        HandDealt: _hand_dealt,
        FieldLaidOut: _field_laid_out,
        SkillDeckShuffled: _skill_deck_shuffled,
        SkillDealt: _skill_dealt,
        StartingPlayerChosen: _starting_player_chosen,
    },
)
