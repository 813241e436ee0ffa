"""The blocking API over an async store: its own event loop on a private thread.

PostgreSQL's sync store is the asyncpg store driven from here, so there is one PostgreSQL implementation
to trust rather than a second one on psycopg (which only alembic uses).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, TypeVar

from eventstore.batch import AppendOutcome, CommitStats
from eventstore.model import Appended, AppendRequest, CommandRecord, NewEvent, RecordedEvent, Snapshot
from eventstore.postgres import PostgresStore

_T = TypeVar("_T")


class BlockingStore:
    """A SyncEventStore whose calls run on an async store in a private loop thread."""

    def __init__(self, open_async: Callable[[], Coroutine[Any, Any, PostgresStore]]) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="duelhall-store-loop", daemon=True)
        self._thread.start()
        try:
            self._store = self._call(open_async())
        except BaseException:
            self._stop()
            raise
        self.stats: CommitStats = self._store.stats

    def _call(self, call: Coroutine[Any, Any, _T]) -> _T:
        return asyncio.run_coroutine_threadsafe(call, self._loop).result()

    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command: CommandRecord,
        secrets: Mapping[str, bytes] | None = None,
    ) -> Appended:
        """See ``AsyncEventStore.append``."""
        return self._call(self._store.append(stream_id, expected_version, events, command, secrets))

    def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendOutcome]:
        """See ``AsyncEventStore.append_batch``."""
        return self._call(self._store.append_batch(requests))

    def read_stream(self, stream_id: str, from_version: int = 1, to_version: int | None = None) -> list[RecordedEvent]:
        """See ``AsyncEventStore.read_stream``."""
        return self._call(self._store.read_stream(stream_id, from_version, to_version))

    def read_all(self, from_position: int = 1, limit: int = 1000) -> list[RecordedEvent]:
        """See ``AsyncEventStore.read_all``."""
        return self._call(self._store.read_all(from_position, limit))

    def stream_version(self, stream_id: str) -> int:
        """See ``AsyncEventStore.stream_version``."""
        return self._call(self._store.stream_version(stream_id))

    def head_position(self) -> int:
        """See ``AsyncEventStore.head_position``."""
        return self._call(self._store.head_position())

    def read_commands(self, stream_id: str) -> list[tuple[CommandRecord, int, int]]:
        """See ``AsyncEventStore.read_commands``."""
        return self._call(self._store.read_commands(stream_id))

    def read_secret(self, stream_id: str, name: str) -> bytes | None:
        """See ``AsyncEventStore.read_secret``."""
        return self._call(self._store.read_secret(stream_id, name))

    def read_secrets(self, stream_id: str) -> dict[str, bytes]:
        """See ``AsyncEventStore.read_secrets``."""
        return self._call(self._store.read_secrets(stream_id))

    def save_snapshot(self, snapshot: Snapshot) -> None:
        """See ``AsyncEventStore.save_snapshot``."""
        self._call(self._store.save_snapshot(snapshot))

    def load_snapshot(self, stream_id: str, schema: str) -> Snapshot | None:
        """See ``AsyncEventStore.load_snapshot``."""
        return self._call(self._store.load_snapshot(stream_id, schema))

    def put_row(self, table: str, key: str, value: bytes) -> None:
        """See ``AsyncEventStore.put_row``."""
        self._call(self._store.put_row(table, key, value))

    def get_row(self, table: str, key: str) -> bytes | None:
        """See ``AsyncEventStore.get_row``."""
        return self._call(self._store.get_row(table, key))

    def list_rows(self, table: str, after_key: str | None = None, limit: int = 100) -> list[tuple[str, bytes]]:
        """See ``AsyncEventStore.list_rows``."""
        return self._call(self._store.list_rows(table, after_key, limit))

    def clear_rows(self, table: str) -> None:
        """See ``AsyncEventStore.clear_rows``."""
        self._call(self._store.clear_rows(table))

    def close(self) -> None:
        """Close the async store, then stop the loop thread."""
        if self._thread.is_alive():
            try:
                self._call(self._store.close())
            finally:
                self._stop()

    def _stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()
