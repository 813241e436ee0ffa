"""Scenario helpers for aq: a ``given`` state builder, one-command runs and rejections (spec §14).

§14 conventions: n = 4, round 1, totals 0, clockwise, step main, a skill action available, reserve cap 2,
default options. A seat whose hand is not given holds one unnamed pet with attack >= 1; reserves and held
skills not given are empty; the field defaults to the last card alone; a skill deck not given is
non-empty; every other pet is in ``removed``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from engine.rulesets.aq import RULESET
from engine.rulesets.aq.data import ATTACK, bits
from engine.rulesets.aq.model import Event, Seat, State, Step
from engine.rulesets.aq.setup import configure, initial
from tests.engine.scenario import Scenario


def config(players: int = 4, **options: Any) -> dict[str, Any]:
    return {"seats": [{} for _ in range(players)], "options": options}


def given(
    n: int = 4,
    *,
    current: int = 0,
    field: Sequence[str] = ("Mon.40a",),
    hands: Mapping[int, Sequence[str]] | None = None,
    reserves: Mapping[int, Sequence[str]] | None = None,
    skills: Mapping[int, Sequence[str]] | None = None,
    totals: Sequence[int] | None = None,
    conceded: Sequence[int] = (),
    skill_deck: Sequence[str] | None = None,
    used_skills: Sequence[str] = (),
    round: int = 1,
    step: Step = "main",
    reserve_remaining: int = 0,
    drawn_playable: Sequence[str] = (),
    phase_no: int = 1,
    phases_in_round: int = 1,
    direction: int = 1,
    options: Mapping[str, Any] | None = None,
) -> State:
    """A live state at ``current``'s phase with exactly these zones and counters."""
    hands = dict(hands or {})
    reserves = dict(reserves or {})
    skills = dict(skills or {})
    cfg = configure(config(n, **dict(options or {})))
    named = {*field, *drawn_playable, *(c for cs in (*hands.values(), *reserves.values()) for c in cs)}
    fillers = iter(c for c in cfg.pets if c not in named and ATTACK[c] >= 1)
    for s in range(n):
        if s not in hands:
            hands[s] = [next(fillers)]
    placed = {*field, *(c for cs in (*hands.values(), *reserves.values()) for c in cs)}
    held = [k for ks in skills.values() for k in ks]
    deck = [k for k in cfg.skills if k not in held and k not in used_skills] if skill_deck is None else skill_deck
    seats = tuple(
        Seat(
            hand=tuple(sorted(hands[s])),
            reserve=tuple(reserves.get(s, ())),
            skills=tuple(skills.get(s, ())),
            total=totals[s] if totals else 0,
            conceded=s in conceded,
        )
        for s in range(n)
    )
    removed = tuple(c for c in cfg.pets if c not in placed)
    return replace(
        initial(cfg),
        seats=seats,
        exposed=bits((*field, *removed, *used_skills)),
        round=round,
        current=current,
        direction=direction,
        step=step,
        reserve_remaining=reserve_remaining,
        drawn_playable=tuple(drawn_playable),
        phase_no=phase_no,
        phases_in_round=phases_in_round,
        field=tuple(field),
        removed=removed,
        skill_deck=tuple(deck),
        used_skills=tuple(used_skills),
    )


_scenario = Scenario(RULESET)
fold, run, rejection = _scenario.fold, _scenario.run, _scenario.rejection


def types(events: Sequence[Event]) -> list[str]:
    return [type(e).__name__ for e in events]
