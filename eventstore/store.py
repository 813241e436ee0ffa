"""The store's two faces, ``AsyncEventStore`` and ``SyncEventStore``, and the one factory per face.

The backend is chosen by the database URL here and nowhere else. The contract of every
method is written once, on ``AsyncEventStore``; the sync face has the same names, blocking, without
``subscribe``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Protocol

from eventstore.batch import AppendOutcome, CommitStats
from eventstore.blocking import BlockingStore
from eventstore.model import Appended, AppendRequest, CommandRecord, NewEvent, RecordedEvent, Snapshot
from eventstore.postgres import PostgresStore
from eventstore.sqlite import SqliteStore
from eventstore.sqlite_async import AsyncSqliteStore
from eventstore.urls import backend_of

# Seconds between reads of an idle subscription when no notification came: on SQLite the only way to hear
# of another process's commits; on PostgreSQL a fallback should a notification be lost.
POLL_INTERVAL = {"sqlite": 0.2, "postgresql": 5.0}


class AsyncEventStore(Protocol):
    """The event store for asyncio code (docs/eventstore.md)."""

    stats: CommitStats

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command: CommandRecord,
        secrets: Mapping[str, bytes] | None = None,
    ) -> Appended:
        """Append ``events`` and the ``command`` that caused them (and ``secrets``) in one transaction.

        ``expected_version`` is the stream's version the events follow (0: the stream must not exist);
        otherwise WrongExpectedVersion carrying the actual version. A command id already recorded on the
        stream appends nothing and returns the original Appended with ``duplicate=True``.
        """
        ...

    async def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendOutcome]:
        """Commit many appends in one transaction, each checked on its own: an Appended or the error per
        request, in order, never raised. A request refused by the database does not fail the others."""
        ...

    async def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]:
        """The stream's events from ``from_version`` to ``to_version`` (both inclusive; None: the end)."""
        ...

    async def read_all(self, from_position: int = 1, limit: int = 1000) -> list[RecordedEvent]:
        """Up to ``limit`` events of every stream from ``from_position`` (inclusive), in global order."""
        ...

    def subscribe(self, from_position: int = 1, linger: float = 0.0) -> AsyncIterator[RecordedEvent]:
        """Every event from ``from_position`` on, in global order, each exactly once: the stored ones,
        then live ones as they commit (in any process). Ends when the store closes. ``linger``: once
        caught up, wait this many seconds before reading again, batching commits into one read."""
        ...

    async def stream_version(self, stream_id: str) -> int:
        """The stream's last version; 0 when it does not exist."""
        ...

    async def head_position(self) -> int:
        """The position of the last committed event; 0 when the store is empty."""
        ...

    async def read_commands(self, stream_id: str) -> list[tuple[CommandRecord, int, int]]:
        """The stream's command log in order: each command with the first and last version it appended."""
        ...

    async def read_secret(self, stream_id: str, name: str) -> bytes | None:
        """A secret stored by an append (e.g. the match seed), never part of any event; None if absent."""
        ...

    async def read_secrets(self, stream_id: str) -> dict[str, bytes]:
        """Every secret of the stream by name, in one read (what loading a match needs)."""
        ...

    async def save_snapshot(self, snapshot: Snapshot) -> None:
        """Replace the stream's snapshot (StreamNotFound if the stream has no event at its version)."""
        ...

    async def load_snapshot(self, stream_id: str, schema: str) -> Snapshot | None:
        """The stream's snapshot if it was saved under ``schema``; None otherwise (it is only a cache)."""
        ...

    async def put_row(self, table: str, key: str, value: bytes) -> None:
        """Insert or replace a row of a projection (read model) table."""
        ...

    async def get_row(self, table: str, key: str) -> bytes | None:
        """A projection row's value, or None."""
        ...

    async def list_rows(self, table: str, after_key: str | None = None, limit: int = 100) -> list[tuple[str, bytes]]:
        """Up to ``limit`` (key, value) rows of a projection in key order, after ``after_key`` (exclusive)."""
        ...

    async def clear_rows(self, table: str) -> None:
        """Delete every row of a projection (before rebuilding it from the events)."""
        ...

    async def close(self) -> None:
        """Finish queued writes, end subscriptions and close every connection."""
        ...


class SyncEventStore(Protocol):
    """The same store, blocking (CLI tools and tests); the contracts are ``AsyncEventStore``'s."""

    stats: CommitStats

    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command: CommandRecord,
        secrets: Mapping[str, bytes] | None = None,
    ) -> Appended: ...
    def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendOutcome]: ...
    def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]: ...
    def read_all(self, from_position: int = 1, limit: int = 1000) -> list[RecordedEvent]: ...
    def stream_version(self, stream_id: str) -> int: ...
    def head_position(self) -> int: ...
    def read_commands(self, stream_id: str) -> list[tuple[CommandRecord, int, int]]: ...
    def read_secret(self, stream_id: str, name: str) -> bytes | None: ...
    def read_secrets(self, stream_id: str) -> dict[str, bytes]: ...
    def save_snapshot(self, snapshot: Snapshot) -> None: ...
    def load_snapshot(self, stream_id: str, schema: str) -> Snapshot | None: ...
    def put_row(self, table: str, key: str, value: bytes) -> None: ...
    def get_row(self, table: str, key: str) -> bytes | None: ...
    def list_rows(self, table: str, after_key: str | None = None, limit: int = 100) -> list[tuple[str, bytes]]: ...
    def clear_rows(self, table: str) -> None: ...
    def close(self) -> None: ...


async def open_store(
    url: str,
    *,
    group_commit: bool = True,
    sqlite_synchronous: str = "NORMAL",
    poll_interval: float | None = None,
    pool_size: int = 10,
) -> AsyncEventStore:
    """Open the migrated database at ``url`` (DatabaseError if it is not at the schema's revision).

    ``group_commit`` lets concurrent appends share a transaction; ``sqlite_synchronous`` is NORMAL, FULL or
    EXTRA (docs/eventstore.md "Durability"); ``pool_size`` bounds PostgreSQL connections.
    """
    backend = backend_of(url)
    interval = POLL_INTERVAL[backend] if poll_interval is None else poll_interval
    if backend == "sqlite":
        return AsyncSqliteStore(url, group_commit=group_commit, synchronous=sqlite_synchronous, poll_interval=interval)
    return await PostgresStore.open(url, group_commit=group_commit, poll_interval=interval, pool_size=pool_size)


def open_sync_store(url: str, *, sqlite_synchronous: str = "NORMAL") -> SyncEventStore:
    """Open the migrated database at ``url`` for blocking use (one caller thread at a time)."""
    if backend_of(url) == "sqlite":
        return SqliteStore(url, synchronous=sqlite_synchronous)
    return BlockingStore(lambda: PostgresStore.open(url, group_commit=False, pool_size=2))
