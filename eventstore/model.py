"""The store's records: what goes in (NewEvent, CommandRecord, AppendRequest) and what comes out.

ARCHITECTURE.md, The path of an event: the store knows streams, versions, bytes and hashes, never a
ruleset or an event class; ``data`` and ``payload`` are canonical JSON bytes made by the caller.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

import msgspec

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

CHAIN_VERSION = 2
"""The hash chain new events are linked with (docs/eventstore.md "Hash chain"): 2 covers the recorded time and
the command record; 1, the chain of events stored before it, covers the type and data only."""


class NewEvent(msgspec.Struct, frozen=True):
    """An event to append: its type tag and its canonical JSON bytes."""

    type: str
    data: bytes


class CommandRecord(msgspec.Struct, frozen=True):
    """The command that caused an append; ``actor`` is a seat ("0".."5"), "system" or "admin"."""

    command_id: str
    actor: str
    type: str
    payload: bytes


class EventMeta(msgspec.Struct, frozen=True):
    """Who caused an event and when the store recorded it (UTC, microsecond precision)."""

    command_id: str
    actor: str
    recorded_at: datetime


class RecordedEvent(msgspec.Struct, frozen=True):
    """A stored event: global position, per-stream version, content, metadata and chain hash."""

    position: int
    stream_id: str
    version: int
    type: str
    data: bytes
    meta: EventMeta
    hash: bytes
    chain: int = 1
    """The chain the event's ``hash`` was linked with (``CHAIN_VERSION`` for new events)."""


class Page(msgspec.Struct, frozen=True):
    """What one read of the global order found (``read_all``, each step of ``subscribe``): its ``events`` in
    order (with ``types``, only those types), and ``through``, the last position it covered: every event (of
    those types) between its start and ``through`` is in ``events``; ``more``: it stopped at its limit, so more
    may follow at once."""

    events: list[RecordedEvent]
    through: int
    more: bool


class Appended(msgspec.Struct, frozen=True):
    """The result of an append; ``duplicate`` is True when the command id had been seen on the stream."""

    stream_id: str
    first_version: int
    last_version: int
    first_position: int
    last_position: int
    last_hash: bytes
    """The hash of the last event appended (the chain up to ``last_version``)."""
    recorded_at: datetime
    """When the store recorded the events (all of an append share it)."""
    duplicate: bool


class Snapshot(msgspec.Struct, frozen=True):
    """A cached fold of a stream up to ``version``; ``schema`` names the ruleset version that wrote it."""

    stream_id: str
    version: int
    schema: str
    data: bytes


class Origin(msgspec.Struct, frozen=True):
    """Where an imported append's events were first recorded: their time (microseconds since the Unix epoch,
    UTC) and the chain they were linked with, both kept so the imported stream has the same hashes. Chain 1 does
    not hash times: ``recorded_at`` None records them now, as a live append."""

    recorded_at: int | None
    chain: int


class AppendRequest(msgspec.Struct, frozen=True):
    """One append as the group-commit writer sees it (the arguments of ``append``)."""

    stream_id: str
    expected_version: int
    events: tuple[NewEvent, ...]
    command: CommandRecord
    secrets: tuple[tuple[str, bytes], ...] = ()
    origin: Origin | None = None
    """Set by an import only; a live append is recorded now, on ``CHAIN_VERSION``."""


def append_request(
    stream_id: str,
    expected_version: int,
    events: Sequence[NewEvent],
    command: CommandRecord,
    secrets: Mapping[str, bytes] | None = None,
    origin: Origin | None = None,
) -> AppendRequest:
    """Validate ``append``'s arguments into a request; bad arguments are bugs (ValueError, TypeError)."""
    if expected_version < 0:
        raise ValueError(f"expected_version must be >= 0, got {expected_version}")
    if not events:
        raise ValueError("an append needs at least one event")
    # Checked here, in the caller's task: a malformed request must not reach (and fail) a shared batch.
    for event in events:
        if not (isinstance(event, NewEvent) and isinstance(event.type, str) and isinstance(event.data, bytes)):
            raise TypeError(f"events must be NewEvent(type: str, data: bytes), got {event!r}")
    if not (isinstance(command, CommandRecord) and isinstance(command.payload, bytes)):
        raise TypeError(f"command must be a CommandRecord with bytes payload, got {command!r}")
    pairs = tuple(sorted((secrets or {}).items()))
    if not all(isinstance(value, bytes) for _, value in pairs):
        raise TypeError("secret values must be bytes")
    if origin is not None and origin.chain not in (1, CHAIN_VERSION):
        raise ValueError(f"no hash chain {origin.chain}")
    return AppendRequest(stream_id, expected_version, tuple(events), command, pairs, origin)


def now_micros() -> int:
    """The current time as stored in ``recorded_at``: integer microseconds since the Unix epoch, UTC."""
    return time.time_ns() // 1000


def from_micros(micros: int) -> datetime:
    """The UTC datetime of a stored ``recorded_at``."""
    return _EPOCH + timedelta(microseconds=micros)


def to_micros(moment: datetime) -> int:
    """A timezone-aware datetime as stored in ``recorded_at`` (``from_micros`` reversed, exactly)."""
    return (moment - _EPOCH) // timedelta(microseconds=1)
