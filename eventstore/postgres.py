"""The PostgreSQL store on asyncpg (measured at about twice SQLAlchemy's async layer).

Every append advances the one-row head counter in its transaction, which takes that row's lock: writers
of every process queue on it, so positions are gap-free and committed in order. An append whose streams'
last events this store remembers (``last_events.py``) is one statement in autocommit, one round trip (``WRITE``,
guarded); otherwise, or when that statement refuses, the checked path locks the head, reads the facts
(``KNOWN``), plans and writes in one transaction. Each commit notifies ``duelhall_events`` with the new
head; every store LISTENs, so subscribers in other processes wake at once. With group commit one writer
task takes every append waiting into one batch (docs/eventstore.md "Appends on PostgreSQL").
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import asyncpg
import msgspec

from eventstore import postgres_sql as sql
from eventstore.batch import (
    MAX_BATCH,
    AppendOutcome,
    CommitStats,
    Known,
    after_failure,
    broken,
    is_request_error,
    plan,
    refused,
)
from eventstore.errors import DatabaseError, StoreError
from eventstore.foreign import ForeignReads
from eventstore.last_events import LastEvents
from eventstore.leases import PostgresLeases
from eventstore.model import Appended, AppendRequest, RecordedEvent, now_micros, to_micros
from eventstore.parts import Writes
from eventstore.postgres_sql import SQL
from eventstore.schema import REVISION_QUERY, check_revision
from eventstore.statements import Sql, recorded
from eventstore.streams import AsyncStreams
from eventstore.subscription import HeadSignal
from eventstore.urls import asyncpg_dsn

DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError)


def _guard(requests: Sequence[AppendRequest], known: Sequence[Known]) -> list[tuple[str, int, bytes]]:
    """(stream, version, hash) of the event each stream's first request chains from, where there is one."""
    first: dict[str, tuple[str, int, bytes]] = {}
    for request, facts in zip(requests, known, strict=True):
        first.setdefault(request.stream_id, (request.stream_id, request.expected_version, facts.hash))
    return [entry for entry in first.values() if entry[1] > 0]


def _shifted(outcome: AppendOutcome, base: int) -> AppendOutcome:
    if not isinstance(outcome, Appended):
        return outcome
    first, last = outcome.first_position + base, outcome.last_position + base
    return msgspec.structs.replace(outcome, first_position=first, last_position=last)


class _Job(msgspec.Struct):
    request: AppendRequest
    future: asyncio.Future[AppendOutcome]


class AsyncPostgresStore(AsyncStreams):
    """The event store on PostgreSQL for asyncio code (see ``AsyncEventStore`` for the contract)."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        listener: asyncpg.Connection,
        *,
        group_commit: bool,
        poll_interval: float,
        dsn: str = "",
        on_commit: Callable[[int], None] | None = None,
    ) -> None:
        self._pool, self._listener, self._dsn = pool, listener, dsn
        self._relistening: asyncio.Task[None] | None = None
        signal = HeadSignal()
        runner = PoolRunner(pool, signal)
        super().__init__(runner, signal, poll_interval)
        self.leases = PostgresLeases(runner.fetch)
        """Which instance owns each running match (``eventstore/leases.py``)."""
        self.foreign = ForeignReads(runner.fetch, self._recent, signal, poll_interval, self._seen_last)
        """Other processes' commits to chosen streams (``eventstore/foreign.py``)."""
        self._others = self.foreign.others  # every commit notifies duelhall_events
        self.stats = CommitStats(on_commit=on_commit)
        self._last = LastEvents()
        self._appending = 0
        """Appends under way: a notification heard meanwhile may be of one of them, not yet in ``_recent``."""
        self._heard_head = 0
        """The highest head a notification told while appends were under way, announced once they end."""
        self._queue: asyncio.Queue[_Job | None] | None = None
        self._writer: asyncio.Task[None] | None = None
        if group_commit:
            self._queue = asyncio.Queue()
            self._writer = asyncio.create_task(self._write_loop(self._queue), name="duelhall-pg-writer")

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        group_commit: bool = True,
        poll_interval: float = 5.0,
        pool_size: int = 10,
        on_commit: Callable[[int], None] | None = None,
    ) -> AsyncPostgresStore:
        """Connect (a pool and a listening connection) and check the schema revision."""
        dsn = asyncpg_dsn(url)
        try:
            pool = await asyncpg.create_pool(dsn, min_size=1, max_size=pool_size, reset=_keep_session)
        except DRIVER_ERRORS as exc:
            raise DatabaseError(f"cannot connect to PostgreSQL: {exc}") from exc
        try:
            await _check_schema(pool)
            listener = await asyncpg.connect(dsn)
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, DRIVER_ERRORS):
                raise DatabaseError(f"cannot use PostgreSQL: {exc}") from exc
            raise
        store = cls(
            pool, listener, group_commit=group_commit, poll_interval=poll_interval, dsn=dsn, on_commit=on_commit
        )
        try:
            await store._listen(listener)
            store._signal.advance(await store.head())
        except BaseException:
            await store.close()
            raise
        return store

    def _heard(self, connection: Any, pid: int, channel: str, payload: str) -> None:
        # A commit's notification can reach this process before the commit's own reply does: announced at
        # once, it would send every subscriber to the database for events this store is about to hold (one
        # read per type for a typed subscriber). Held until the appends under way end, at most a round trip.
        if self._appending:
            self._heard_head = max(self._heard_head, int(payload))
        else:
            self._signal.advance(int(payload))

    async def _listen(self, listener: asyncpg.Connection) -> None:
        await listener.add_listener(sql.CHANNEL, self._heard)
        listener.add_termination_listener(self._lost)

    def _lost(self, connection: Any) -> None:
        """The listening connection died (server restart, pg_terminate_backend): listen again, so that
        subscribers hear of commits at once rather than at the next poll."""
        if not self._signal.closed and self._relistening is None:
            self._relistening = asyncio.get_running_loop().create_task(self._relisten())

    async def _relisten(self) -> None:
        delay = 0.05
        try:
            while not self._signal.closed:
                try:
                    listener = await asyncpg.connect(self._dsn)
                    await self._listen(listener)
                except DRIVER_ERRORS:
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 2.0)
                    continue
                self._listener = listener
                with contextlib.suppress(StoreError):  # commits made while nobody listened: read to the head
                    self._signal.advance(await self.head())
                return
        finally:
            self._relistening = None

    # -- appends -----------------------------------------------------------------------------------

    async def _commit(self, request: AppendRequest) -> AppendOutcome:
        if self._queue is None:
            (outcome,) = await self.append_batch([request])
            return outcome
        if self._signal.closed:
            raise StoreError("the store is closed")
        future: asyncio.Future[AppendOutcome] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(request, future))
        return await future

    def _seen_last(self, event: RecordedEvent) -> None:
        self._last.learn(event.stream_id, event.version, event.hash, to_micros(event.meta.recorded_at))

    async def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendOutcome]:
        """Commit these appends in one transaction, each with its own outcome (never raised)."""
        self._appending += 1
        try:
            async with self._pool.acquire() as connection:
                return await self._append_on(connection, requests)
        except DRIVER_ERRORS as exc:
            return [refused(request, exc) for request in requests]
        finally:
            self._appending -= 1
            if not self._appending and self._heard_head:
                self._signal.advance(self._heard_head)
                self._heard_head = 0

    async def _append_on(
        self, connection: asyncpg.Connection, requests: Sequence[AppendRequest]
    ) -> list[AppendOutcome]:
        try:
            outcomes = await self._append_remembered(connection, requests)
            if outcomes is None:
                outcomes = await self._append_checked(connection, requests)
        except DRIVER_ERRORS as exc:
            failed = after_failure(requests, exc)
            if failed is None:
                return [outcome for request in requests for outcome in await self._append_on(connection, [request])]
            return failed
        for outcome in outcomes:
            if isinstance(outcome, Appended):
                self._last.learn(
                    outcome.stream_id, outcome.last_version, outcome.last_hash, to_micros(outcome.recorded_at)
                )
        self.stats.count(outcomes)
        self._signal.advance(max((o.last_position for o in outcomes if isinstance(o, Appended)), default=0))
        return outcomes

    async def _append_remembered(
        self, connection: asyncpg.Connection, requests: Sequence[AppendRequest]
    ) -> list[AppendOutcome] | None:
        """One statement, no transaction block, planned from remembered last events; None when that cannot do."""
        known = [facts for request in requests if (facts := self._last.known(request)) is not None]
        if len(known) < len(requests):
            return None
        result = plan(requests, known, 0, now_micros())
        if not all(isinstance(outcome, Appended) for outcome in result.outcomes):
            return None  # a conflict must be reported with the database's facts, not remembered ones
        try:
            base = await connection.fetchval(sql.WRITE.text, *sql.write_args(result, 0, _guard(requests, known)))
        except DRIVER_ERRORS as exc:
            if is_request_error(exc):  # a stale last event (another process appended) or a refused row
                return None
            raise
        if base is None:
            return None
        self._recent.add(base, [recorded((row[0] + base, *row[1:])) for row in result.event_rows])
        return [_shifted(outcome, base) for outcome in result.outcomes]

    async def _append_checked(
        self, connection: asyncpg.Connection, requests: Sequence[AppendRequest]
    ) -> list[AppendOutcome]:
        """Lock the head, read every request's facts, plan and write: one transaction."""
        async with connection.transaction():
            position = await connection.fetchval(SQL.LOCK_HEAD.text, *SQL.LOCK_HEAD.args())
            args = sql.KNOWN.args(
                stream_ids=[r.stream_id for r in requests], command_ids=[r.command.command_id for r in requests]
            )
            rows = await connection.fetch(sql.KNOWN.text, *args)
            known = [sql.known(request, row) for request, row in zip(requests, rows, strict=True)]
            result = plan(requests, known, position, now_micros())
            if result.event_rows:
                await connection.fetchval(sql.WRITE.text, *sql.write_args(result, position))
        self._recent.add(position, list(map(recorded, result.event_rows)))
        for request, facts in zip(requests, known, strict=True):
            if facts.version:
                self._last.learn(request.stream_id, facts.version, facts.hash, facts.recorded_at)
        return result.outcomes

    async def _write_loop(self, jobs: asyncio.Queue[_Job | None]) -> None:
        """The group-commit writer: take every append waiting, commit them together, settle each."""
        while (job := await jobs.get()) is not None:
            batch = [job]
            while len(batch) < MAX_BATCH and not jobs.empty():
                waiting = jobs.get_nowait()
                if waiting is None:
                    jobs.put_nowait(None)
                    break
                batch.append(waiting)
            try:
                outcomes = await self.append_batch([job.request for job in batch])
            except Exception as exc:  # a bug: every caller hears of it rather than waiting forever
                outcomes = [broken(exc) for _ in batch]
            for job, outcome in zip(batch, outcomes, strict=True):
                if not job.future.done():  # else the caller was cancelled; its append may have committed
                    job.future.set_result(outcome)

    async def close(self) -> None:
        """Finish queued appends, end subscriptions, close every connection."""
        if self._signal.closed:
            return
        self._signal.close()
        if self._queue is not None and self._writer is not None:
            self._queue.put_nowait(None)
            await self._writer
        if self._relistening is not None:
            self._relistening.cancel()
        with contextlib.suppress(*DRIVER_ERRORS):  # already lost: nothing left to close
            await self._listener.close()
        await self._pool.close()


class PoolRunner:
    """Runs compiled statements on a pool connection (``AsyncRunner``); a write is its own transaction.
    StoreError once the store closed."""

    sql = SQL

    def __init__(self, pool: asyncpg.Pool, signal: HeadSignal) -> None:
        self._pool, self._signal = pool, signal

    async def read(self, statement: Sql, /, **values: Any) -> list[asyncpg.Record]:
        if self._signal.closed:
            raise StoreError("the store is closed")
        async with _translated(self._pool.acquire()) as connection:
            rows: list[asyncpg.Record] = await connection.fetch(statement.text, *statement.args(**values))
            return rows

    write = read

    async def fetch(self, text: str, /, *args: Any) -> list[asyncpg.Record]:
        """A statement written as PostgreSQL text, not compiled from Core (the leases')."""
        if self._signal.closed:
            raise StoreError("the store is closed")
        async with _translated(self._pool.acquire()) as connection:
            rows: list[asyncpg.Record] = await connection.fetch(text, *args)
            return rows

    async def write_many(self, writes: Writes, /) -> None:
        """Every write in one transaction; one statement's ``executemany`` is atomic on its own (asyncpg), so
        it needs no transaction block (two round trips fewer)."""
        if self._signal.closed:
            raise StoreError("the store is closed")
        async with _translated(self._pool.acquire()) as connection:
            if len(writes) == 1:
                await _execute_many(connection, *writes[0])
                return
            async with connection.transaction():
                for statement, values in writes:
                    await _execute_many(connection, statement, values)


async def _execute_many(connection: asyncpg.Connection, statement: Sql, values: Sequence[Mapping[str, Any]]) -> None:
    await connection.executemany(statement.text, [statement.args(**each) for each in values])


class _translated:
    """Acquire a pool connection; the driver's errors inside become DatabaseError."""

    def __init__(self, acquiring: Any) -> None:
        self._acquiring = acquiring

    async def __aenter__(self) -> asyncpg.Connection:
        try:
            connection: asyncpg.Connection = await self._acquiring.__aenter__()
        except DRIVER_ERRORS as exc:
            raise DatabaseError(str(exc)) from exc
        return connection

    async def __aexit__(self, kind: Any, exc: BaseException | None, traceback: Any) -> None:
        await self._acquiring.__aexit__(kind, exc, traceback)
        if isinstance(exc, DRIVER_ERRORS):
            raise DatabaseError(str(exc)) from exc


async def _keep_session(connection: asyncpg.Connection) -> None:
    """Return a connection to the pool as it is: asyncpg's default reset costs a round trip per use, and
    the store leaves nothing to reset (no session settings, LISTEN, cursors or advisory locks on pool
    connections); asyncpg still rolls back a transaction left open."""


async def _check_schema(pool: asyncpg.Pool) -> None:
    try:
        found = await pool.fetchval(REVISION_QUERY)
    except asyncpg.UndefinedTableError:
        found = None
    check_revision(found)
