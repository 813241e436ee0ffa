"""The SQLite store, blocking: the sync face, and the core the async store runs in its threads.

WAL mode; every append transaction starts with ``BEGIN IMMEDIATE``, so it holds SQLite's single write lock
from the head-counter read to its commit: that lock is what keeps positions gap-free and in commit order,
across processes too (docs/eventstore.md). Statements are Core's, compiled once for sqlite3 (``SQL``).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from eventstore.batch import AppendOutcome, CommitStats, Known, after_failure, plan
from eventstore.errors import DatabaseError
from eventstore.model import AppendRequest, now_micros
from eventstore.parts import Writes
from eventstore.schema import REVISION_QUERY, check_revision
from eventstore.statements import Sql, compile_for, original_outcome
from eventstore.streams import SyncStreams
from eventstore.urls import sqlite_path

SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")
# Seconds another process's write transaction may hold the lock before an operation gives up with
# DatabaseError: bounded well below a client's deadline, so a held lock is a prompt, retryable refusal.
BUSY_TIMEOUT = 3.0
SQL = compile_for("sqlite")

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _translated(method: Callable[_P, _R]) -> Callable[_P, _R]:
    """Re-raise sqlite3's errors as DatabaseError, the driver's error as the cause."""

    @wraps(method)
    def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as exc:
            raise DatabaseError(str(exc)) from exc

    return call


@_translated
def connect(url: str, synchronous: str = "NORMAL") -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit), WAL, with the durability asked for."""
    level = synchronous.upper()
    if level not in SYNCHRONOUS:
        raise ValueError(f"sqlite_synchronous must be one of {', '.join(SYNCHRONOUS)}, got {synchronous!r}")
    path = sqlite_path(url)
    try:
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT)
        connection.execute("PRAGMA journal_mode=WAL")
    except sqlite3.OperationalError as exc:
        raise sqlite3.OperationalError(f"{exc}: {_unopenable(path)}") from exc
    connection.execute(f"PRAGMA synchronous={level}")
    return connection


def _unopenable(path: str) -> str:
    """The file SQLite could not open, and the likely reason (SQLite says only "unable to open")."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"{path} (the directory {folder} does not exist)"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{path} (no permission to write in {folder})"
    return path


def _identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``, None if there is none."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


@contextmanager
def immediate(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A write transaction holding SQLite's write lock from its first statement (BEGIN IMMEDIATE): committed
    when the block ends, rolled back when it raises."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


class SqliteRunner:
    """Runs compiled statements on one connection (``SyncRunner``); a write outside a transaction block
    is its own transaction."""

    sql = SQL

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    @_translated
    def read(self, statement: Sql, /, **values: Any) -> list[Any]:
        return self.connection.execute(statement.text, statement.args(**values)).fetchall()

    write = read

    @_translated
    def write_many(self, writes: Writes, /) -> None:
        """Every write in one transaction (as an append's): all of them or none."""
        with immediate(self.connection) as connection:
            for statement, values in writes:
                connection.executemany(statement.text, [statement.args(**each) for each in values])

    def one(self, statement: Sql, **values: Any) -> Any:
        return self.connection.execute(statement.text, statement.args(**values)).fetchone()


class SyncSqliteStore(SyncStreams):
    """The event store on one SQLite connection (not for concurrent use: the async store wraps it)."""

    runner: SqliteRunner

    def __init__(
        self, url: str, *, synchronous: str = "NORMAL", on_commit: Callable[[int], None] | None = None
    ) -> None:
        self._connection = connect(url, synchronous)
        self._path = sqlite_path(url)
        self._file = _identity(self._path)
        """The database file opened: appends check that the path still names it."""
        super().__init__(SqliteRunner(self._connection))
        self.committed: list[tuple[int, list[tuple[Any, ...]]]] | None = None
        """When a list, each committed append transaction adds the head it found and its events' rows (the
        async store's recent events)."""
        self.stats = CommitStats(on_commit=on_commit)
        try:
            self._check_schema()
        except BaseException:
            self._connection.close()
            raise

    @_translated
    def _check_schema(self) -> None:
        try:
            row = self._connection.execute(REVISION_QUERY).fetchone()
        except sqlite3.OperationalError:
            row = None
        check_revision(row[0] if row else None)

    def append_batch(self, batch: Sequence[AppendRequest]) -> list[AppendOutcome]:
        """Commit many appends in one transaction; each request gets its own Appended or error."""
        try:
            return self._commit(batch)
        except sqlite3.Error as exc:
            outcomes = after_failure(batch, exc)
            return [o for request in batch for o in self.append_batch([request])] if outcomes is None else outcomes

    def _commit(self, batch: Sequence[AppendRequest]) -> list[AppendOutcome]:
        with self._transaction() as connection:
            (position,) = self.runner.one(SQL.LOCK_HEAD)
            result = plan(batch, [self._known(request) for request in batch], position, now_micros())
            if result.event_rows:
                connection.executemany(SQL.INSERT_EVENT.text, result.event_rows)
                connection.executemany(SQL.INSERT_COMMAND.text, result.command_rows)
                connection.executemany(SQL.INSERT_SECRET.text, result.secret_rows)
                self.runner.one(SQL.SET_HEAD, position=result.position)
        if self.committed is not None:
            self.committed.append((position, result.event_rows))
        self.stats.count(result.outcomes)
        return result.outcomes

    def _known(self, request: AppendRequest) -> Known:
        last = self.runner.one(SQL.LAST_EVENT, stream_id=request.stream_id)
        if last is None:
            return Known()
        row = self.runner.one(SQL.ORIGINAL, stream_id=request.stream_id, command_id=request.command.command_id)
        original = original_outcome(request.stream_id, row) if row else None
        return Known(last[0], last[1], original, last[2])

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """An append's transaction, refused once the file it writes is gone (``_check_file``)."""
        with immediate(self._connection) as connection:
            self._check_file()
            yield connection

    def _check_file(self) -> None:
        """Refuse to write once the path no longer names the file opened: SQLite goes on writing to a deleted
        (or replaced) file, whose contents vanish when the process ends, so every write acknowledged from then
        on would be lost. A stat per transaction, not per append (group commit)."""
        if _identity(self._path) != self._file:
            raise sqlite3.OperationalError(
                f"the database file {self._path} was deleted or replaced while the server had it open; "
                "writes are refused: put the file back or restore it, then restart"
            )

    def close(self) -> None:
        """Close the connection."""
        self._connection.close()
