"""duelhall's event store: append-only streams on SQLite or PostgreSQL (docs/eventstore.md).

Optimistic concurrency per stream, idempotent commands, a hash chain per stream, gap-free global
positions in commit order, catch-up-then-live subscriptions, snapshots as a cache, group commit, and
the alembic migrations that create it all. Open one with ``open_store(database_url())``.
"""

from eventstore.batch import AppendOutcome
from eventstore.errors import DatabaseError, StoreError, StreamNotFound, WrongExpectedVersion
from eventstore.hashing import GENESIS_HASH, chain2_hash, chain_hash, command_digest, verify_chain
from eventstore.migrations import downgrade, migrate
from eventstore.model import (
    CHAIN_VERSION,
    Appended,
    AppendRequest,
    CommandRecord,
    EventMeta,
    NewEvent,
    Origin,
    Page,
    RecordedEvent,
    Snapshot,
    append_request,
    from_micros,
    to_micros,
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
    "CHAIN_VERSION",
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
    "Origin",
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
    "chain2_hash",
    "chain_hash",
    "command_digest",
    "database_url",
    "downgrade",
    "from_micros",
    "migrate",
    "open_store",
    "open_sync_store",
    "to_micros",
    "verify_chain",
]
