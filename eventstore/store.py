"""The store's two faces, ``AsyncEventStore`` and ``SyncEventStore``, their parts, and one factory per face.

The core is the streams: append, read, subscribe, the global head. Secrets, snapshots and projection rows
are small named parts, attributes of the store. The backend is chosen by the database URL here and nowhere
else. Every contract is written once, on the async protocols; the sync ones have the same names, blocking,
without ``subscribe``.
"""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Mapping, Sequence
from typing import Protocol, runtime_checkable

from eventstore.batch import AppendOutcome
from eventstore.blocking import SyncPostgresStore
from eventstore.model import (
    Appended,
    AppendRequest,
    CommandRecord,
    NewEvent,
    Origin,
    Page,
    RecordedEvent,
    Snapshot,
)
from eventstore.parts import RowChange
from eventstore.postgres import AsyncPostgresStore
from eventstore.sqlite import SyncSqliteStore
from eventstore.sqlite_async import AsyncSqliteStore
from eventstore.urls import backend_of

# Seconds between reads of an idle subscription when no notification came: on SQLite the only way to hear
# of another process's commits; on PostgreSQL a fallback should a notification be lost.
POLL_INTERVAL = {"sqlite": 0.2, "postgresql": 5.0}


class AsyncSecrets(Protocol):
    """``store.secrets``: values an append stored beside its events (e.g. the match seed), never in any event."""

    async def read(self, stream_id: str) -> dict[str, bytes]:
        """Every secret of the stream by name, in one read (``{}`` for none)."""
        ...


class AsyncSnapshots(Protocol):
    """``store.snapshots``: one cached fold per stream, only ever a cache."""

    async def save(self, snapshot: Snapshot) -> None:
        """Replace the stream's snapshot (StreamNotFound if the stream has no event at its version)."""
        ...

    async def load(self, stream_id: str, schema: str) -> Snapshot | None:
        """The stream's snapshot if it was saved under ``schema``; None otherwise."""
        ...


class AsyncRows(Protocol):
    """``store.rows``: projection (read model) tables of key-value rows, keys in code-point order."""

    async def put(self, table: str, key: str, value: bytes) -> None:
        """Insert or replace a row."""
        ...

    async def get(self, table: str, key: str) -> bytes | None:
        """A row's value, or None."""
        ...

    async def list(
        self, table: str, after_key: str | None = None, limit: int = 100, prefix: str = ""
    ) -> builtins.list[tuple[str, bytes]]:
        """Up to ``limit`` (key, value) rows in key order, after ``after_key`` (exclusive); with ``prefix``,
        only the keys that start with it: the read ends where they do, however many rows follow."""
        ...

    async def delete(self, table: str, key: str) -> None:
        """Delete a row (none if absent)."""
        ...

    async def write(self, changes: Iterable[RowChange]) -> None:
        """Put each (table, key, value) and delete each (table, key, None), in one transaction: all of them
        or, when it fails, none. A row changed twice ends as its last change says."""
        ...

    async def clear(self, table: str) -> None:
        """Delete every row of the table (before rebuilding it from the events)."""
        ...


class AsyncEventStore(Protocol):
    """The event store for asyncio code (docs/eventstore.md)."""

    @property
    def secrets(self) -> AsyncSecrets: ...
    @property
    def snapshots(self) -> AsyncSnapshots: ...
    @property
    def rows(self) -> AsyncRows: ...

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command: CommandRecord,
        secrets: Mapping[str, bytes] | None = None,
        origin: Origin | None = None,
    ) -> Appended:
        """Append ``events`` and the ``command`` that caused them (and ``secrets``) in one transaction.

        ``expected_version`` is the stream's version the events follow (0: the stream must not exist);
        otherwise WrongExpectedVersion carrying the actual version. A command id already recorded on the
        stream appends nothing and returns the original Appended with ``duplicate=True``. ``origin`` is an
        import's: the events keep the time and hash chain they were first recorded with, instead of now and
        chain 2.
        """
        ...

    async def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]:
        """The stream's events from ``from_version`` to ``to_version`` (both inclusive; None: the end)."""
        ...

    async def read_all(self, from_position: int = 1, limit: int = 1000, types: Collection[str] = ()) -> Page:
        """Every stream's events from ``from_position`` (inclusive) in global order, up to ``limit`` of them, and
        ``through``, the last position the read covered. With ``types``, only the events of those types, up to
        ``limit`` of each: the database skips the others, which a consumer of a few types would otherwise
        decode and discard one by one, and ``through`` moves its progress past them too."""
        ...

    def subscribe(
        self, from_position: int = 1, linger: float = 0.0, types: Collection[str] = ()
    ) -> AsyncIterator[Page]:
        """``read_all`` after ``read_all`` (of ``types`` when given), each from where the last one ended: every
        event from ``from_position`` on, in global order, each exactly once, the stored ones then live ones as
        they commit (in any process), a page at a time; a page is handed on when it covered a position, so with
        ``types`` it may hold no event. Ends when the store closes. ``linger``: once caught up, wait this many
        seconds before reading again, batching commits into one read."""
        ...

    async def head(self) -> int:
        """The global position of the last committed event; 0 when the store is empty."""
        ...

    async def last_version(self, stream_id: str) -> int:
        """The version of the stream's last event; 0 when the stream does not exist."""
        ...

    async def read_commands(self, stream_id: str, limit: int | None = None) -> list[tuple[CommandRecord, int, int]]:
        """The stream's command log in order: each command with the first and last version it appended (the
        first ``limit`` commands when given)."""
        ...

    async def close(self) -> None:
        """Finish queued writes, end subscriptions and close every connection."""
        ...


@runtime_checkable
class AsyncBatches(Protocol):
    """A store that commits many appends in one transaction, each with its own outcome (never raised): both
    concrete async stores. Not part of ``AsyncEventStore``; a bulk job (an import) uses it when it is there."""

    async def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendOutcome]: ...


class SyncSecrets(Protocol):
    """``AsyncSecrets``, blocking."""

    def read(self, stream_id: str) -> dict[str, bytes]: ...


class SyncSnapshots(Protocol):
    """``AsyncSnapshots``, blocking."""

    def save(self, snapshot: Snapshot) -> None: ...
    def load(self, stream_id: str, schema: str) -> Snapshot | None: ...


class SyncRows(Protocol):
    """``AsyncRows``, blocking."""

    def put(self, table: str, key: str, value: bytes) -> None: ...
    def get(self, table: str, key: str) -> bytes | None: ...
    def list(
        self, table: str, after_key: str | None = None, limit: int = 100, prefix: str = ""
    ) -> builtins.list[tuple[str, bytes]]: ...
    def delete(self, table: str, key: str) -> None: ...
    def write(self, changes: Iterable[RowChange]) -> None: ...
    def clear(self, table: str) -> None: ...


class SyncEventStore(Protocol):
    """The same store, blocking (CLI tools and tests); the contracts are ``AsyncEventStore``'s."""

    @property
    def secrets(self) -> SyncSecrets: ...
    @property
    def snapshots(self) -> SyncSnapshots: ...
    @property
    def rows(self) -> SyncRows: ...
    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command: CommandRecord,
        secrets: Mapping[str, bytes] | None = None,
        origin: Origin | None = None,
    ) -> Appended: ...
    def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]: ...
    def read_all(self, from_position: int = 1, limit: int = 1000, types: Collection[str] = ()) -> Page: ...
    def head(self) -> int: ...
    def last_version(self, stream_id: str) -> int: ...
    def read_commands(self, stream_id: str, limit: int | None = None) -> list[tuple[CommandRecord, int, int]]: ...
    def close(self) -> None: ...


async def open_store(
    url: str,
    *,
    group_commit: bool = True,
    sqlite_synchronous: str = "NORMAL",
    poll_interval: float | None = None,
    pool_size: int = 10,
    on_commit: Callable[[int], None] | None = None,
) -> AsyncEventStore:
    """Open the migrated database at ``url`` (DatabaseError if it is not at the schema's revision).

    ``group_commit`` lets concurrent appends share a transaction; ``sqlite_synchronous`` is NORMAL, FULL or
    EXTRA (docs/eventstore.md "Durability"); ``pool_size`` bounds PostgreSQL connections; ``on_commit`` is
    called with the number of new appends of each committed transaction (from the writer, which may be
    another thread: keep it short and thread-safe).
    """
    backend = backend_of(url)
    interval = POLL_INTERVAL[backend] if poll_interval is None else poll_interval
    if backend == "sqlite":
        return AsyncSqliteStore(
            url, group_commit=group_commit, synchronous=sqlite_synchronous, poll_interval=interval, on_commit=on_commit
        )
    return await AsyncPostgresStore.open(
        url, group_commit=group_commit, poll_interval=interval, pool_size=pool_size, on_commit=on_commit
    )


def open_sync_store(url: str, *, sqlite_synchronous: str = "NORMAL") -> SyncEventStore:
    """Open the migrated database at ``url`` for blocking use (one caller thread at a time)."""
    if backend_of(url) == "sqlite":
        return SyncSqliteStore(url, synchronous=sqlite_synchronous)
    return SyncPostgresStore(lambda: AsyncPostgresStore.open(url, group_commit=False, pool_size=2))
