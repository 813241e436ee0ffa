"""The service's side of a match created with open seats (engine/seating.py): what a join is decided with, and the
refusal of every call that needs a match whose setup has run."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

import msgspec

from engine.match import Match
from engine.seating import JOIN_COMMAND, SEAT_JOINED, Join, SeatJoined, decode_join, requested_seats
from eventstore import AsyncEventStore
from services.core.errors import Conflict, Refused
from services.matches.hot import HotMatch
from services.matches.tokens import TOKEN_SECRET_PREFIX, token_hash

JOIN_COMMAND_PREFIX = "join-"
JOINED_TOKEN_PREFIX = "joined_token:"
"""The secret holding the token of a seat joined with a request id (retries answer it)."""

_joined = msgspec.json.Decoder(SeatJoined)


class Seated(msgspec.Struct, frozen=True):
    """A join's answer: the seat taken and its token (the same on every retry of the request)."""

    seat: int
    token: str
    version: int
    """The match's version after the join (now, for a retry)."""


def started(match_id: str, match: Match) -> None:
    """Refuses, with ``MATCH_NOT_STARTED``, a call that needs the match's setup to have run (a view, a command,
    a watch) while seats are still open."""
    if match.seating:
        raise Refused(
            f"match {match_id} has not started: {len(match.created.open_seats)} seat(s) still open (JoinSeat)",
            reason="MATCH_NOT_STARTED",
            open_seats=str(len(match.created.open_seats)),
        )


async def requested_configs(store: AsyncEventStore, match_id: str) -> tuple[list[Any], Any]:
    """Every seat's configuration as requested so far (an open seat's ``{}``) and the options: from the creating
    command and the joins in the match's command log (the events hold no configuration: it may hold a deck)."""
    commands = await store.read_commands(match_id)
    request = msgspec.json.decode(commands[0][0].payload)  # the creating command's, as recorded
    _, configs, _ = requested_seats(request)
    for command, _, _ in commands[1:]:
        if command.type == JOIN_COMMAND:
            joined = decode_join(command.payload)
            configs[joined.seat] = joined.config
    return configs, request["options"]


def join_command_id(request_id: str) -> str:
    """The command id of a join: derived from its request id, so that every retry, on any instance, is the same
    command, which the store appends once; a fresh one without a request id."""
    if not request_id:
        return uuid.uuid4().hex
    return JOIN_COMMAND_PREFIX + hashlib.sha256(request_id.encode()).hexdigest()[:32]


def join_secrets(seat: int, token: str, kept: bool) -> dict[str, bytes]:
    """What a join stores beside its events: its seat's token hash, and with a request id the token itself, for a
    retry whose first answer was lost (as ``create_requests`` keeps a created match's tokens)."""
    hashed = {f"{TOKEN_SECRET_PREFIX}{seat}": token_hash(token)}
    return hashed | ({f"{JOINED_TOKEN_PREFIX}{seat}": token.encode()} if kept else {})


async def rejoined(
    store: AsyncEventStore, hot: HotMatch, command_id: str, seat: int | None, name: str, config: dict[str, Any]
) -> Seated:
    """The answer to a join request already recorded: its seat and token; ``Conflict(REQUEST_ID_REUSED)`` when the
    request id was used for another join (another name, configuration or seat)."""
    first, _ = hot.command_ids[command_id]
    recorded = await store.read_stream(hot.match_id, first, first)
    joined = _joined.decode(recorded[0].data) if recorded and recorded[0].type == SEAT_JOINED else None
    asked = await _join_of(store, hot.match_id, command_id)
    same = asked is not None and (asked.name, asked.config) == (name, config) and seat in (None, asked.seat)
    if joined is None or not same:
        raise Conflict(
            "request_id was used for another join of this match", reason="REQUEST_ID_REUSED", match_id=hot.match_id
        )
    token = (await store.secrets.read(hot.match_id)).get(f"{JOINED_TOKEN_PREFIX}{joined.seat}", b"").decode()
    return Seated(joined.seat, token, hot.version)


async def _join_of(store: AsyncEventStore, match_id: str, command_id: str) -> Join | None:
    for command, _, _ in await store.read_commands(match_id):
        if command.command_id == command_id:
            return decode_join(command.payload) if command.type == JOIN_COMMAND else None
    return None


async def stored_hashes(store: AsyncEventStore, match_id: str, seats: int) -> tuple[bytes, ...]:
    """The seats' token hashes as stored (b"" for a seat still open): a join stores its seat's."""
    hidden = await store.secrets.read(match_id)
    return tuple(hidden.get(f"{TOKEN_SECRET_PREFIX}{seat}", b"") for seat in range(seats))
