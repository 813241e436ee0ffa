"""A state aq's seat could be in, from its view alone (docs/rulesets/aq.md §11): the search bot's sample.

The view shows the field, the removed pets, the used skills, the seat's own hand, reserve and skills, and every
other zone's size. Other seats' hands and reserves are dealt from the pets the seat cannot see; other seats'
skills and the skill deck from the box's skills it cannot see. The box is not in the view: it is drawn among the
boxes whose skills fit what the seat saw; options the view does not show keep their defaults.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.rulesets.aq.data import BOXES, box_skills, pets_for
from engine.rulesets.aq.model import Config, Options, Seat, State, View
from engine.search.determinize import deal, unaccounted


def _boxes(v: View, seen: tuple[str, ...]) -> list[str]:
    """The boxes whose skill deck holds every skill the seat saw, in the number the view counts."""
    count = v.skill_deck_count + len(v.used_skills) + sum(s.skill_count for s in v.seats)
    fits = []
    for box in sorted(BOXES):
        skills = box_skills(box)
        if len(skills) == count and not Counter(seen) - Counter(skills):
            fits.append(box)
    return fits


def determinize(v: View, seat: int, rng: random.Random) -> State:
    """A state whose ``view(state, seat)`` is ``v``, the hidden cards dealt from those unaccounted for."""
    me = v.seats[seat]
    hand, reserve, skills = me.hand or (), me.reserve or (), me.skills or ()
    seen_skills = (*skills, *v.used_skills)
    boxes = _boxes(v, seen_skills)
    box = boxes[rng.randrange(len(boxes))]
    players = len(v.seats)
    config = Config(
        players=players,
        options=Options(max_rounds=v.max_rounds, box=box),
        pets=pets_for(players),
        skills=box_skills(box),
    )
    others = [s for s in v.seats if s.seat != seat]
    pending = v.pending
    # The drawn cards a seat may play are shown to every seat, and lie in that seat's hand.
    drawn = pending.options or () if pending and pending.step == "drawn_choice" and pending.seat != seat else ()
    shown = {pending.seat: drawn} if pending and drawn else {}
    pets = deal(
        unaccounted(config.pets, (*v.field, *v.removed, *hand, *reserve, *drawn)),
        [n for s in others for n in (s.hand_count - len(shown.get(s.seat, ())), s.reserve_count)],
        rng,
    )
    cards = deal(
        unaccounted(config.skills, seen_skills),
        [v.skill_deck_count, *(s.skill_count for s in others)],
        rng,
    )
    skill_deck, other_skills = cards[0], iter(cards[1:])
    zones = iter(pets)
    seats = []
    for s in v.seats:
        if s.seat == seat:
            seats.append(Seat(hand=hand, reserve=reserve, skills=skills, total=s.total, conceded=s.conceded))
        else:
            seats.append(
                Seat(
                    hand=tuple(sorted((*next(zones), *shown.get(s.seat, ())))),
                    reserve=next(zones),
                    skills=next(other_skills),
                    total=s.total,
                    conceded=s.conceded,
                )
            )
    return State(
        config=config,
        seats=tuple(seats),
        status=v.status,
        round=v.round,
        starting_seat=v.starting_seat,
        direction=1 if v.direction == "clockwise" else -1,
        current=v.current,
        phase_no=v.phase_no,
        phases_in_round=v.phases_in_round,
        step=pending.step if pending else "main",
        skill_action_available=v.skill_action_available,
        wild_active=v.wild_active,
        reserve_cap=v.reserve_cap,
        reserve_remaining=pending.reserve_remaining or 0 if pending else 0,
        drawn_playable=pending.options or () if pending else (),
        skip_next=v.skip_next,
        field=v.field,
        removed=v.removed,
        skill_deck=skill_deck,
        used_skills=v.used_skills,
        winners=v.winners,
        reason=v.reason,
    )
