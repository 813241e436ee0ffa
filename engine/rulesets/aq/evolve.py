"""evolve(state, event) -> state: the aq fold (docs/rulesets/aq.md §5-§10) and nothing else.

Events carry their results; the only rule the fold applies itself is the penalty-draw choice of §8.3
(which drawn cards are playable), because the rules give that step no event of its own.
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

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
    SeatScore,
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
    match event:
        case PhaseStarted(seat=s, phase_no=k):
            return replace(
                state,
                current=s,
                phase_no=k,
                phases_in_round=state.phases_in_round + 1,
                step="main",
                skill_action_available=True,
                wild_active=False,
                reserve_cap=2,
                reserve_remaining=0,
                drawn_playable=(),
            )
        case PhaseEnded() | PhaseAutoResolved() | PetsShuffled() | RoundEnded():
            return state
        case CardPlayed():
            return _card_played(state, event)
        case ReserveCovered(seat=s, card=str(c), source=src):
            seat = state.seats[s]
            state = replace(
                state, seats=_seat(state, s, replace(seat, hand=drop(seat.hand, c), reserve=(*seat.reserve, c)))
            )
            return replace(state, reserve_remaining=state.reserve_remaining - 1) if src == "play" else state
        case FieldCardDrawn():
            return _field_card_drawn(state, event)
        case HandRevealed(cards=cs):
            return replace(state, exposed=state.exposed | bits(cs), drawn_playable=())
        case ReserveReturned(seat=s, card=str(c)):
            seat = state.seats[s]
            return replace(
                state, seats=_seat(state, s, replace(seat, reserve=seat.reserve[:-1], hand=_add(seat.hand, c)))
            )
        case SkillLearned():
            return _skill_learned(state, event)
        case SkillUsed():
            return _skill_used(state, event)
        case DirectionChanged(direction=d):
            return replace(state, direction=1 if d == "clockwise" else -1)
        case NextPhaseSkipped():
            return replace(state, skip_next=True)
        case PhaseSkipped():
            return replace(state, skip_next=False)
        case CardGiven(from_seat=a, to_seat=b, card=str(c)):
            giver, taker = state.seats[a], state.seats[b]
            seats = put(state.seats, a, replace(giver, hand=drop(giver.hand, c)))
            return replace(state, seats=put(seats, b, replace(taker, hand=_add(taker.hand, c))))
        case CardRemoved(seat=s, card=c):
            seat = state.seats[s]
            return replace(
                state,
                seats=_seat(state, s, replace(seat, hand=drop(seat.hand, c))),
                removed=(*state.removed, c),
                exposed=state.exposed | BIT[c],
            )
        case PlayerConceded(seat=s):
            return replace(state, seats=_seat(state, s, replace(state.seats[s], conceded=True)))
        case RoundScored(results=rs):
            return _round_scored(state, rs)
        case MatchEnded(winners=w, reason=r):
            return replace(state, status="over", winners=w, reason=r)
        case RoundStarted(round=r, starting_seat=s):
            # §5 step 8: every pet returns to the box; held skills, totals and concessions stay.
            seats = tuple(replace(seat, hand=(), reserve=()) for seat in state.seats)
            return replace(
                state,
                round=r,
                starting_seat=s,
                direction=1,
                skip_next=False,
                phases_in_round=0,
                seats=seats,
                field=(),
                removed=(),
            )
        case HandDealt(seat=s, cards=cs):
            return replace(state, seats=_seat(state, s, replace(state.seats[s], hand=cs or ())))
        case FieldLaidOut(cards=cs):
            return replace(state, field=cs, exposed=state.exposed | bits(cs))
        case SkillDeckShuffled(order=o):
            return replace(state, skill_deck=o or (), used_skills=())
        case SkillDealt(seat=s, skill=k):
            seat = state.seats[s]
            return replace(
                state, skill_deck=state.skill_deck[1:], seats=_seat(state, s, replace(seat, skills=(*seat.skills, k)))
            )
        case StartingPlayerChosen(seat=s):
            return replace(state, starting_seat=s)
        case ReserveCovered() | ReserveReturned() | CardGiven():
            raise ValueError(f"a redacted {type(event).__name__} cannot be folded")
        case _:
            assert_never(event)


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


def _round_scored(state: State, results: tuple[SeatScore, ...]) -> State:
    """§8.6: new totals; every hand and reserve has now been shown."""
    exposed = state.exposed
    seats = list(state.seats)
    for line in results:
        seats[line.seat] = replace(seats[line.seat], total=line.total_after)
        exposed |= bits(line.hand) | bits(line.reserve)
    return replace(state, seats=tuple(seats), exposed=exposed)
