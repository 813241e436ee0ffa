"""The blocking face of PostgreSQL: the asyncpg store driven from its own event loop on a private thread.

One PostgreSQL implementation to trust rather than a second one on psycopg (which only alembic uses). Its
calls and parts are the shared blocking ones (``streams.py``, ``parts.py``) over the async store's pool
runner; its appends are the async store's.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar

from eventstore.batch import AppendOutcome, CommitStats
from eventstore.model import AppendRequest, RecordedEvent
from eventstore.parts import AsyncRunner, Writes
from eventstore.postgres import AsyncPostgresStore
from eventstore.statements import Sql
from eventstore.streams import SyncStreams

_T = TypeVar("_T")


class SyncPostgresStore(SyncStreams):
    """A SyncEventStore whose statements and appends run on an ``AsyncPostgresStore`` in a private loop thread."""

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
        super().__init__(_Blocking(self._store.runner, self._call))

    def _call(self, call: Coroutine[Any, Any, _T]) -> _T:
        return asyncio.run_coroutine_threadsafe(call, self._loop).result()

    def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendOutcome]:
        """See ``AsyncPostgresStore.append_batch``."""
        return self._call(self._store.append_batch(requests))

    def _seen_last(self, event: RecordedEvent) -> None:
        # The async store's memory of last events belongs to its loop: handed over there, ahead of any append
        # this thread queues after the read.
        self._loop.call_soon_threadsafe(self._store._seen_last, event)

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
