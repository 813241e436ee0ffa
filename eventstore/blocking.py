"""The blocking face of PostgreSQL: the asyncpg store driven from its own event loop on a private thread.

One PostgreSQL implementation to trust rather than a second one on psycopg (which only alembic uses). Its
parts are the shared blocking ones (``eventstore/parts.py``) over the async store's pool runner.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, TypeVar

from eventstore.batch import AppendOutcome, CommitStats
from eventstore.model import Appended, AppendRequest, CommandRecord, NewEvent, RecordedEvent
from eventstore.parts import AsyncRunner, SyncRowsPart, SyncSecretsPart, SyncSnapshotsPart, Writes
from eventstore.postgres import AsyncPostgresStore
from eventstore.statements import Sql

_T = TypeVar("_T")


class SyncPostgresStore:
    """A SyncEventStore whose calls run on an ``AsyncPostgresStore`` in a private loop thread."""

    def __init__(self, open_async: Callable[[], Coroutine[Any, Any, AsyncPostgresStore]]) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="duelhall-store-loop", daemon=True)
        self._thread.start()
        try:
            self._store = self._call(open_async())
        except BaseException:
            self._stop()
            raise
        self.stats: CommitStats = self._store.stats
        runner = _Blocking(self._store.runner, self._call)
        self.secrets = SyncSecretsPart(runner)
        self.snapshots = SyncSnapshotsPart(runner)
        self.rows = SyncRowsPart(runner)

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
        """See ``AsyncPostgresStore.append_batch``."""
        return self._call(self._store.append_batch(requests))

    def read_stream(self, stream_id: str, from_version: int = 1, to_version: int | None = None) -> list[RecordedEvent]:
        """See ``AsyncEventStore.read_stream``."""
        return self._call(self._store.read_stream(stream_id, from_version, to_version))

    def read_all(self, from_position: int = 1, limit: int = 1000) -> list[RecordedEvent]:
        """See ``AsyncEventStore.read_all``."""
        return self._call(self._store.read_all(from_position, limit))

    def head(self) -> int:
        """See ``AsyncEventStore.head``."""
        return self._call(self._store.head())

    def last_version(self, stream_id: str) -> int:
        """See ``AsyncEventStore.last_version``."""
        return self._call(self._store.last_version(stream_id))

    def read_commands(self, stream_id: str, limit: int | None = None) -> list[tuple[CommandRecord, int, int]]:
        """See ``AsyncEventStore.read_commands``."""
        return self._call(self._store.read_commands(stream_id, limit))

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


class _Blocking:
    """A ``SyncRunner`` over an async one, each statement run on the loop thread."""

    def __init__(self, run: AsyncRunner, call: Callable[[Coroutine[Any, Any, Any]], Any]) -> None:
        self._run, self._call = run, call
        self.sql = run.sql

    def read(self, statement: Sql, /, **values: Any) -> Sequence[Any]:
        rows: Sequence[Any] = self._call(self._run.read(statement, **values))
        return rows

    def write(self, statement: Sql, /, **values: Any) -> Sequence[Any]:
        rows: Sequence[Any] = self._call(self._run.write(statement, **values))
        return rows

    def write_many(self, writes: Writes, /) -> None:
        self._call(self._run.write_many(writes))
