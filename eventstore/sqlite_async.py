"""The async SQLite store: the blocking ``SyncSqliteStore`` run off the event loop.

Writes go to one writer thread owning the only write connection (aiosqlite through SQLAlchemy's async
layer measured ten times slower here). Jobs made in one event-loop iteration reach it together;
with group commit it takes every append waiting into one transaction (``SyncSqliteStore.append_batch``), so
commits and fsyncs are shared. Reads run on a small pool of threads, one connection each: in WAL mode they
never wait for the writer. The calls are ``AsyncStreams``' (``streams.py``) over these threads (``_Threads``).
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import msgspec

from eventstore.batch import MAX_BATCH, AppendOutcome, CommitStats, broken
from eventstore.errors import StoreError
from eventstore.model import Appended, AppendRequest, RecordedEvent
from eventstore.parts import Writes
from eventstore.sqlite import SQL, SyncSqliteStore
from eventstore.statements import Sql, recorded
from eventstore.streams import AsyncStreams
from eventstore.subscription import HeadSignal

READERS = 2

_T = TypeVar("_T")


class _Job(msgspec.Struct):
    """Work for the writer thread: ``requests`` to append, or a ``call`` on the writer's store."""

    future: asyncio.Future[Any]
    requests: tuple[AppendRequest, ...] = ()
    call: Callable[[SyncSqliteStore], Any] | None = None
    joins: bool = False  # a single append that may share a transaction with the appends around it


def _runs(jobs: list[_Job]) -> Iterator[list[_Job]]:
    """Split jobs, in order, into transactions: joining appends together (up to MAX_BATCH), others alone."""
    run: list[_Job] = []
    for job in jobs:
        if not job.joins:
            if run:
                yield run
                run = []
            yield [job]
            continue
        if len(run) == MAX_BATCH:
            yield run
            run = []
        run.append(job)
    if run:
        yield run


class AsyncSqliteStore(AsyncStreams):
    """The event store on SQLite for asyncio code (see ``AsyncEventStore`` for the contract)."""

    def __init__(
        self,
        url: str,
        *,
        group_commit: bool,
        synchronous: str,
        poll_interval: float,
        on_commit: Callable[[int], None] | None = None,
    ) -> None:
        self._url, self._synchronous, self._group_commit = url, synchronous, group_commit
        self._loop = asyncio.get_running_loop()
        self._writer = SyncSqliteStore(url, synchronous=synchronous, on_commit=on_commit)
        self.stats: CommitStats = self._writer.stats
        super().__init__(_Threads(self), HeadSignal(self._writer.head()), poll_interval)
        self._writer.committed = []
        self._pending: list[_Job] = []
        self._jobs: queue.SimpleQueue[list[_Job] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._write_loop, name="duelhall-sqlite-writer", daemon=True)
        self._thread.start()
        self._readers = ThreadPoolExecutor(READERS, thread_name_prefix="duelhall-sqlite-reader")
        self._local = threading.local()
        self._reader_stores: list[SyncSqliteStore] = []
        self._reader_lock = threading.Lock()

    # -- writes: one thread, batched ------------------------------------------------------------

    async def _commit(self, request: AppendRequest) -> AppendOutcome:
        outcomes: list[AppendOutcome] = await self._submit(requests=(request,), joins=self._group_commit)
        return outcomes[0]

    async def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendOutcome]:
        """Commit these appends in one transaction, each with its own outcome (never raised)."""
        result: list[AppendOutcome] = await self._submit(requests=tuple(requests))
        return result

    def _submit(self, **job: Any) -> asyncio.Future[Any]:
        """Queue a job; jobs queued in the same loop iteration reach the writer together."""
        if self._signal.closed:
            raise StoreError("the store is closed")
        future = self._loop.create_future()
        self._pending.append(_Job(future, **job))
        if len(self._pending) == 1:
            self._loop.call_soon(self._flush)
        return future

    def _flush(self) -> None:
        if self._pending:
            jobs, self._pending = self._pending, []
            self._jobs.put(jobs)

    def _write_loop(self) -> None:
        """The writer thread: take everything waiting, commit it run by run, hand outcomes to the loop."""
        closing = False
        while not closing and (jobs := self._jobs.get()) is not None:
            while True:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    closing = True
                    break
                jobs += more
            for run in _runs(jobs):
                self._run(run)

    def _run(self, run: list[_Job]) -> None:
        """One transaction: joining appends together, or one job alone."""
        settled: list[tuple[asyncio.Future[Any], Any, bool]] = []
        committed: list[AppendOutcome] = []
        if run[0].call is not None:
            try:
                settled.append((run[0].future, run[0].call(self._writer), False))
            except Exception as exc:
                settled.append((run[0].future, exc, True))
        elif run[0].joins:
            committed = self._attempt([job.requests[0] for job in run])
            settled += [(job.future, [outcome], False) for job, outcome in zip(run, committed, strict=True)]
        else:
            committed = self._attempt(list(run[0].requests))
            settled.append((run[0].future, committed, False))
        head = max((o.last_position for o in committed if isinstance(o, Appended)), default=0)
        transactions, self._writer.committed = self._writer.committed or [], []
        events = [(found, list(map(recorded, rows))) for found, rows in transactions]
        self._loop.call_soon_threadsafe(self._settle, settled, head, events)

    def _attempt(self, requests: list[AppendRequest]) -> list[AppendOutcome]:
        try:
            return self._writer.append_batch(requests)
        except Exception as exc:  # a bug: every caller hears of it rather than waiting forever
            return [broken(exc) for _ in requests]

    def _settle(
        self,
        settled: list[tuple[asyncio.Future[Any], Any, bool]],
        head: int,
        events: list[tuple[int, list[RecordedEvent]]],
    ) -> None:
        """On the loop: keep the committed events, announce the new head, then resolve the callers' futures."""
        for found, committed in events:
            self._recent.add(found, committed)
        self._signal.advance(head)
        for future, value, is_error in settled:
            if future.done():  # the caller was cancelled; its append may still have committed
                continue
            if is_error:
                future.set_exception(value)
            else:
                future.set_result(value)

    # -- reads: a thread pool, a connection per thread --------------------------------------------

    async def _read(self, read: Callable[[SyncSqliteStore], _T]) -> _T:
        if self._signal.closed:
            raise StoreError("the store is closed")
        return await self._loop.run_in_executor(self._readers, lambda: read(self._reader()))

    def _reader(self) -> SyncSqliteStore:
        store: SyncSqliteStore | None = getattr(self._local, "store", None)
        if store is None:
            store = self._local.store = SyncSqliteStore(self._url, synchronous=self._synchronous)
            with self._reader_lock:
                self._reader_stores.append(store)
        return store

    async def close(self) -> None:
        """Finish queued writes, end subscriptions, close every connection."""
        if self._signal.closed:
            return
        self._signal.close()
        self._flush()  # appends made in this loop iteration still go before the writer stops
        self._jobs.put(None)
        await asyncio.to_thread(self._thread.join)
        await asyncio.to_thread(self._readers.shutdown)
        for store in [self._writer, *self._reader_stores]:
            store.close()


class _Threads:
    """The parts' runner (``AsyncRunner``): reads on the reader threads, writes on the writer thread."""

    sql = SQL

    def __init__(self, store: AsyncSqliteStore) -> None:
        self._store = store

    async def read(self, statement: Sql, /, **values: Any) -> list[Any]:
        rows: list[Any] = await self._store._read(lambda store: store.runner.read(statement, **values))
        return rows

    async def write(self, statement: Sql, /, **values: Any) -> list[Any]:
        rows: list[Any] = await self._store._submit(call=lambda store: store.runner.write(statement, **values))
        return rows

    async def write_many(self, writes: Writes, /) -> None:
        await self._store._submit(call=lambda store: store.runner.write_many(writes))
