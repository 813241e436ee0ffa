"""duelhall's event store: append-only streams on SQLite or PostgreSQL (docs/eventstore.md).

Optimistic concurrency per stream, idempotent commands, a hash chain per stream, gap-free global
positions in commit order, catch-up-then-live subscriptions, snapshots as a cache, group commit, and
the alembic migrations that create it all. Open one with ``open_store(database_url())``.
"""

from eventstore.batch import AppendOutcome
from eventstore.errors import DatabaseError, StoreError, StreamNotFound, WrongExpectedVersion
from eventstore.hashing import GENESIS_HASH, chain_hash, verify_chain
from eventstore.migrations import downgrade, migrate
from eventstore.model import (
    Appended,
    AppendRequest,
    CommandRecord,
    EventMeta,
    NewEvent,
    Page,
    RecordedEvent,
    Snapshot,
    append_request,
)
from eventstore.parts import RowChange
from eventstore.store import (
    AsyncBatches,
    AsyncEventStore,
    AsyncRows,
    AsyncSecrets,
    AsyncSnapshots,
    SyncEventStore,
    SyncRows,
    SyncSecrets,
    SyncSnapshots,
    open_store,
    open_sync_store,
)
from eventstore.urls import DEFAULT_DATABASE_URL, database_url

__all__ = [
    "DEFAULT_DATABASE_URL",
    "GENESIS_HASH",
    "AppendOutcome",
    "AppendRequest",
    "Appended",
    "AsyncBatches",
    "AsyncEventStore",
    "AsyncRows",
    "AsyncSecrets",
    "AsyncSnapshots",
    "CommandRecord",
    "DatabaseError",
    "EventMeta",
    "NewEvent",
    "Page",
    "RecordedEvent",
    "RowChange",
    "Snapshot",
    "StoreError",
    "StreamNotFound",
    "SyncEventStore",
    "SyncRows",
    "SyncSecrets",
    "SyncSnapshots",
    "WrongExpectedVersion",
    "append_request",
    "chain_hash",
    "database_url",
    "downgrade",
    "migrate",
    "open_store",
    "open_sync_store",
    "verify_chain",
]
