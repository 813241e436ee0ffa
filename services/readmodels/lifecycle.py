"""Match lifecycle: every creation and every end, in the store's global order, resumable from a position.

A creation is the match's own first event, ``MatchCreated``. An end is recorded once as a ``MatchEnded`` event in a
stream of its own (``ended:<match id>``, appended at version 0, so the instance that loses the race appends
nothing): the match stream itself holds only the ruleset's events, which replays verify. Each change thus
has one global position, and a consumer that resumes after the last position it handled neither misses nor
repeats one. Labels are read from the match's creation command, stored in the same transaction as that event.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime

import msgspec

from engine.contract import SYSTEM, Outcome
from engine.match import MATCH_CREATED
from eventstore import Appended, AsyncEventStore, CommandRecord, NewEvent, RecordedEvent
from services.readmodels.matchrows import BOT, PUBLIC, has_labels

MATCH_ENDED = "MatchEnded"
ENDED_STREAM_PREFIX = "ended:"
CREATED = "created"
ENDED = "ended"
LINGER = 0.02
"""Seconds a follower lets commits gather between reads."""


class MatchEnded(msgspec.Struct, frozen=True, omit_defaults=True):
    match_id: str
    ruleset: str
    seats: tuple[str, ...]
    labels: dict[str, str]
    outcome: Outcome
    version: int
    spectators: str = PUBLIC
    """Left out when public, so that a public match's end is recorded as before spectator policies existed."""


class Change(msgspec.Struct, frozen=True):
    """A match was created or ended; ``position`` is the change's global position."""

    position: int
    kind: str
    match_id: str
    ruleset: str
    seats: tuple[str, ...]
    labels: dict[str, str]
    outcome: Outcome | None
    version: int
    recorded_at: datetime
    spectators: str = PUBLIC
    """Who may watch the match without a seat token: only public matches' changes reach a feed without the admin
    token."""


class _Created(msgspec.Struct):
    ruleset: str
    seats: tuple[str, ...]


class _Seat(msgspec.Struct):
    kind: str = ""
    bot_level: str = ""


class CreateRequest(msgspec.Struct):
    """What the list reads of a creation command's payload."""

    labels: dict[str, str] = msgspec.field(default_factory=dict)
    spectators: str = PUBLIC
    seats: list[_Seat] = msgspec.field(default_factory=list)

    @property
    def bots(self) -> dict[int, str]:
        """The bot seats' levels by seat (``services/matches/bot_seats.py`` records them)."""
        return {index: seat.bot_level for index, seat in enumerate(self.seats) if seat.kind == BOT}


_ended_decoder = msgspec.json.Decoder(MatchEnded)
_created_decoder = msgspec.json.Decoder(_Created)
_payload_decoder = msgspec.json.Decoder(CreateRequest)


async def record_end(store: AsyncEventStore, ended: MatchEnded) -> Appended:
    """Records the end of an ended match once, whichever instance (or how many) calls it: a second call is a
    duplicate of the first command and returns when the first recorded it."""
    command = CommandRecord(command_id=f"end-{ended.match_id}", actor=SYSTEM, type="record_end", payload=b"{}")
    return await store.append(
        ended_stream(ended.match_id),
        0,
        [NewEvent(type=MATCH_ENDED, data=msgspec.json.encode(ended))],
        command,
    )


def ended_stream(match_id: str) -> str:
    """The stream holding a match's ``MatchEnded`` once its end is recorded."""
    return f"{ENDED_STREAM_PREFIX}{match_id}"


async def labels_of(store: AsyncEventStore, match_id: str) -> dict[str, str]:
    """The labels a match was created with (from its creation command)."""
    return (await request_of(store, match_id)).labels


async def request_of(store: AsyncEventStore, match_id: str) -> CreateRequest:
    """The labels and spectator policy a match was created with (from its creation command)."""
    commands = await store.read_commands(match_id, limit=1)
    return request_in(commands[0][0].payload) if commands else CreateRequest()


def labels_in(payload: bytes) -> dict[str, str]:
    """The labels in a creation command's payload."""
    return request_in(payload).labels


def request_in(payload: bytes) -> CreateRequest:
    """The labels and spectator policy in a creation command's payload."""
    try:
        return _payload_decoder.decode(payload)
    except msgspec.DecodeError:
        return CreateRequest()


async def changes(
    store: AsyncEventStore, from_position: int, labels: dict[str, str] | None = None, everything: bool = False
) -> AsyncIterator[Change]:
    """Every lifecycle change at a position >= ``from_position``: the stored ones, then live ones (a client's
    feed, ``WatchLifecycle``: the client keeps its position; a read model follows through a projector). Without
    ``everything`` (the admin's), only public matches' changes: a match nobody may watch is not announced."""
    async for found in store.subscribe(max(from_position, 1), linger=LINGER, types=(MATCH_CREATED, MATCH_ENDED)):
        for recorded in found.events:
            change = await change_of(store, recorded)
            if change is not None and has_labels(change.labels, labels) and (everything or change.spectators == PUBLIC):
                yield change


async def change_of(store: AsyncEventStore, recorded: RecordedEvent) -> Change | None:
    """The lifecycle change an event records, if it records one."""
    if recorded.type == MATCH_CREATED and recorded.version == 1:
        created = _created_decoder.decode(recorded.data)
        request = await request_of(store, recorded.stream_id)
        return Change(
            position=recorded.position,
            kind=CREATED,
            match_id=recorded.stream_id,
            ruleset=created.ruleset,
            seats=created.seats,
            labels=request.labels,
            outcome=None,
            version=1,
            recorded_at=recorded.meta.recorded_at,
            spectators=request.spectators,
        )
    if recorded.type == MATCH_ENDED and recorded.stream_id.startswith(ENDED_STREAM_PREFIX):
        ended = _ended_decoder.decode(recorded.data)
        return Change(
            position=recorded.position,
            kind=ENDED,
            match_id=ended.match_id,
            ruleset=ended.ruleset,
            seats=ended.seats,
            labels=ended.labels,
            outcome=ended.outcome,
            version=ended.version,
            recorded_at=recorded.meta.recorded_at,
            spectators=ended.spectators,
        )
    return None
