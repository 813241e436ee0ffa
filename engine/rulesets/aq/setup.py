"""aq configuration and match setup (docs/rulesets/aq.md §4, §5): configure, initial, setup."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.errors import BAD_CONFIG, ConfigError
from engine.options import option_problems
from engine.rng import Rng
from engine.rulesets.aq.codes import Code
from engine.rulesets.aq.data import BOXES, box_skills, pets_for
from engine.rulesets.aq.evolve import evolve
from engine.rulesets.aq.model import (
    Config,
    Event,
    Options,
    Seat,
    StartingPlayerChosen,
    State,
)
from engine.rulesets.aq.resolve import start_round
from engine.tape import Tape


def configure(data: Any) -> Config:
    """§4: validate ``{"seats": [{}…], "options": {…}}`` in the check order of §4; expand the box."""
    if not isinstance(data, dict) or not isinstance(data.get("seats"), list):
        raise ConfigError(BAD_CONFIG, None, "expected an object with a list 'seats'")
    seats = data["seats"]
    if not 2 <= len(seats) <= 6:
        raise ConfigError(Code.PLAYER_COUNT_OUT_OF_RANGE, None, f"aq seats 2 to 6 players, not {len(seats)}")
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise ConfigError(BAD_CONFIG, i, "a seat entry must be an object")
        if seat.get("deck") is not None:
            raise ConfigError(Code.DECK_NOT_APPLICABLE, i, "aq plays from the box; seats bring no deck")
    raw = data.get("options") or {}
    if not isinstance(raw, dict):
        raise ConfigError(BAD_CONFIG, None, "'options' must be an object")
    problems = option_problems(raw, Options)
    unknown = [p.name for p in problems if p.unknown]
    if unknown:
        raise ConfigError(Code.UNKNOWN_OPTION, None, f"unknown option {unknown[0]!r}")
    box = raw.get("box", Options().box)
    if not isinstance(box, str) or box not in BOXES:
        raise ConfigError(Code.UNKNOWN_BOX, None, f"known boxes: {', '.join(sorted(BOXES))}")
    if problems:
        raise ConfigError(Code.OPTION_OUT_OF_RANGE, None, f"{problems[0].name} is out of range")
    options = msgspec.convert(raw, Options)
    players = len(seats)
    return Config(players=players, options=options, pets=pets_for(players), skills=box_skills(box))


def initial(config: Config) -> State:
    """The state before the first setup event: every seat empty at total 0."""
    return State(config=config, seats=tuple(Seat() for _ in range(config.players)))


def setup(config: Config, rng: Rng) -> list[Event]:
    """§5: the starting seat (one ``randbelow(n)``), then round 1's setup and its first phase start."""
    tape = Tape(initial(config), evolve)
    tape.emit(StartingPlayerChosen(seat=rng.randbelow(config.players)))
    start_round(tape, rng, 1, tape.state.starting_seat)
    return tape.events
