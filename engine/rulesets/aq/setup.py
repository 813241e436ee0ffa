"""aq configuration and match setup (spec §4, §5): configure, initial, setup."""

from __future__ import annotations

from typing import Any

from engine.errors import BAD_CONFIG, ConfigError
from engine.rng import Rng
from engine.rulesets.aq.codes import Code
from engine.rulesets.aq.data import BOXES, box_skills, pets_for
from engine.rulesets.aq.model import Config, Event, Options, Seat, StartingPlayerChosen, State
from engine.rulesets.aq.resolve import Tape, start_round

OPTION_DEFAULTS: dict[str, Any] = {"max_rounds": 5, "phase_seconds": 60, "max_phases_per_round": 200, "box": "starter_a"}
"""§3.7 defaults (also served by the API)."""

_RANGES = {"max_rounds": (1, 5), "phase_seconds": (10, 600), "max_phases_per_round": (20, 1000)}
"""§3.7 integer option ranges, checked in this order."""


def configure(data: Any) -> Config:
    """§4: validate ``{"seats": [{}…], "options": {…}}`` in the spec's check order; expand the box."""
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
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ConfigError(BAD_CONFIG, None, "'options' must be an object")
    for name in sorted(options):
        if name not in OPTION_DEFAULTS:
            raise ConfigError(Code.UNKNOWN_OPTION, None, f"unknown option {name!r}")
    merged = {**OPTION_DEFAULTS, **options}
    if not isinstance(merged["box"], str) or merged["box"] not in BOXES:
        raise ConfigError(Code.UNKNOWN_BOX, None, f"known boxes: {', '.join(sorted(BOXES))}")
    for name, (low, high) in _RANGES.items():
        value = merged[name]
        if type(value) is not int or not low <= value <= high:
            raise ConfigError(Code.OPTION_OUT_OF_RANGE, None, f"{name} must be an integer in {low}..{high}")
    players = len(seats)
    return Config(players=players, options=Options(**merged), pets=pets_for(players),
                  skills=box_skills(merged["box"]))


def initial(config: Config) -> State:
    """The state before the first setup event: every seat empty at total 0."""
    return State(config=config, seats=tuple(Seat() for _ in range(config.players)))


def setup(config: Config, rng: Rng) -> list[Event]:
    """§5: the starting seat (one ``randbelow(n)``), then round 1's setup and its first phase start."""
    tape = Tape(initial(config), rng)
    tape.emit(StartingPlayerChosen(seat=rng.randbelow(config.players)))
    start_round(tape, 1, tape.state.starting_seat)
    return tape.events
