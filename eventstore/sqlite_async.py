"""The async SQLite store: the blocking ``SyncSqliteStore`` run off the event loop.

Writes go to one writer thread owning the only write connection (aiosqlite through SQLAlchemy's async
layer measured ten times slower here). Jobs made in one event-loop iteration reach it together;
with group commit it takes every append waiting into one transaction (``SyncSqliteStore.append_batch``), so
commits and fsyncs are shared. Reads run on a small pool of threads, one connection each: in WAL mode they
never wait for the writer.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import AsyncIterator, Callable, Collection, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import msgspec

from eventstore.batch import MAX_BATCH, AppendOutcome, CommitStats, broken
from eventstore.errors import StoreError
from eventstore.model import Appended, AppendRequest, CommandRecord, NewEvent, RecordedEvent, Scan, append_request
from eventstore.parts import AsyncRowsPart, AsyncSecretsPart, AsyncSnapshotsPart, Writes
from eventstore.recent import RecentEvents
from eventstore.sqlite import SQL, SyncSqliteStore
from eventstore.statements import Sql, recorded
from eventstore.subscription import HeadSignal, every_event, of_types

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


class AsyncSqliteStore:
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
        self._url, self._synchronous = url, synchronous
        self._group_commit, self._poll_interval = group_commit, poll_interval
        self._loop = asyncio.get_running_loop()
        self._writer = SyncSqliteStore(url, synchronous=synchronous, on_commit=on_commit)
        self.stats: CommitStats = self._writer.stats
        self._signal = HeadSignal(self._writer.head())
        self._writer.committed = []
        self._recent = RecentEvents()
        self._pending: list[_Job] = []
        self._jobs: queue.SimpleQueue[list[_Job] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._write_loop, name="duelhall-sqlite-writer", daemon=True)
        self._thread.start()
        self._readers = ThreadPoolExecutor(READERS, thread_name_prefix="duelhall-sqlite-reader")
        self._local = threading.local()
        self._reader_stores: list[SyncSqliteStore] = []
        self._reader_lock = threading.Lock()
        threads = _Threads(self)
        self.secrets = AsyncSecretsPart(threads)
        self.snapshots = AsyncSnapshotsPart(threads)
        self.rows = AsyncRowsPart(threads)

    # -- writes: one thread, batched ------------------------------------------------------------

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command: CommandRecord,
        secrets: Mapping[str, bytes] | None = None,
    ) -> Appended:
        """Append events and their command in one transaction; see ``AsyncEventStore.append``."""
        request = append_request(stream_id, expected_version, events, command, secrets)
        (outcome,) = await self._submit(requests=(request,), joins=self._group_commit)
        if isinstance(outcome, StoreError):
            raise outcome
        assert isinstance(outcome, Appended)
        return outcome

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

    async def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]:
        """The stream's events from ``from_version`` to ``to_version`` (both inclusive), in order."""
        return await self._read(lambda store: store.read_stream(stream_id, from_version, to_version))

    async def read_all(self, from_position: int = 1, limit: int = 1000) -> list[RecordedEvent]:
        """Up to ``limit`` events from ``from_position`` (inclusive), in global order: this process's recent
        commits from memory, up to the first position another process committed."""
        if not self._signal.closed and (recent := self._recent.read(from_position, limit)) is not None:
            return recent
        return await self._read(lambda store: store.read_all(from_position, limit))

    async def scan(self, from_position: int, types: Collection[str], limit: int = 1000) -> Scan:
        """See ``AsyncEventStore.scan``; from this process's recent commits while they hold the positions."""
        if not self._signal.closed and (recent := self._recent.scan(from_position, types, limit)) is not None:
            return recent
        return await self._read(lambda store: store.scan(from_position, types, limit))

    async def last_version(self, stream_id: str) -> int:
        """The version of the stream's last event; 0 when it does not exist."""
        return await self._read(lambda store: store.last_version(stream_id))

    async def head(self) -> int:
        """The global position of the last committed event."""
        return await self._read(lambda store: store.head())

    async def read_commands(self, stream_id: str, limit: int | None = None) -> list[tuple[CommandRecord, int, int]]:
        """See ``AsyncEventStore.read_commands``."""
        return await self._read(lambda store: store.read_commands(stream_id, limit))

    def subscribe(self, from_position: int = 1, linger: float = 0.0) -> AsyncIterator[RecordedEvent]:
        """Every event from ``from_position`` on, catching up then live; ends when the store closes."""
        return every_event(self.read_all, self._signal, from_position, self._poll_interval, linger)

    def subscribe_types(
        self, types: Collection[str], from_position: int = 1, linger: float = 0.0
    ) -> AsyncIterator[Scan]:
        """See ``AsyncEventStore.subscribe_types``."""
        return of_types(self.scan, types, self._signal, from_position, self._poll_interval, linger)

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
