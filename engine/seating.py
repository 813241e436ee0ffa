"""A match created with open seats (docs/replay-format.md, Matches with open seats): the match-level events and
command of its seating, which no ruleset knows of.

Such a match's ``MatchCreated`` names its open seats (``open_seats``) and carries no configuration: the
ruleset cannot be configured before every seat has chosen its own. Each join appends a ``SeatJoined`` (the
``join_seat`` command); the join that fills the last open seat also appends ``SeatsFilled``, with the public
configuration of the whole match, then the ruleset's setup events.
"""

from __future__ import annotations

from typing import Any

import msgspec

SEAT_JOINED = "SeatJoined"
SEATS_FILLED = "SeatsFilled"
JOIN_COMMAND = "join_seat"
OPEN = "open"
"""The ``kind`` of an open seat in a create request as recorded (a player's seat records no kind)."""


class SeatJoined(msgspec.Struct, frozen=True, tag_field="type", tag=SEAT_JOINED):
    """A player took an open seat; public. Their configuration stays in the command (it may hold a deck)."""

    seat: int
    name: str


class SeatsFilled(msgspec.Struct, frozen=True, tag_field="type", tag=SEATS_FILLED):
    """Every seat is taken: the ruleset's public configuration, as a ``MatchCreated`` without open seats has it."""

    config: dict[str, Any]


class Join(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The ``join_seat`` command's payload: the seat, the player's name and the seat's configuration."""

    seat: int
    name: str
    config: dict[str, Any] = msgspec.field(default_factory=dict)


_join = msgspec.json.Decoder(Join)


def decode_join(payload: bytes | str) -> Join:
    """The join in a ``join_seat`` payload; ``msgspec.ValidationError`` / ``DecodeError`` when it is none."""
    return _join.decode(payload)


def requested_seats(request: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]], tuple[int, ...]]:
    """A create request's (as recorded) seat names, seat configurations and open seats; an open seat has no
    name and the configuration ``{}`` until it is joined."""
    seats = request["seats"]
    opened = tuple(i for i, seat in enumerate(seats) if seat.get("kind") == OPEN)
    names = ["" if i in opened else seat["name"] for i, seat in enumerate(seats)]
    configs = [{} if i in opened else seat["config"] for i, seat in enumerate(seats)]
    return names, configs, opened
