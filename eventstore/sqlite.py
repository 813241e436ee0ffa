"""The SQLite store, blocking: the sync API, and the core the async store runs in its writer thread.

WAL mode; every write transaction starts with ``BEGIN IMMEDIATE``, so it holds SQLite's single write lock
from the head-counter read to its commit: that lock is what keeps positions gap-free and in commit order,
across processes too (docs/eventstore.md). Statements are Core's, compiled once for sqlite3.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import wraps
from typing import Any, ParamSpec, TypeVar

import msgspec
from sqlalchemy.dialects import sqlite as sqlite_dialect

from eventstore import statements as st
from eventstore.batch import AppendOutcome, CommitStats, Known, plan, refused
from eventstore.errors import DatabaseError, StoreError, StreamNotFound
from eventstore.model import (
    Appended,
    AppendRequest,
    CommandRecord,
    NewEvent,
    RecordedEvent,
    Snapshot,
    append_request,
    now_micros,
)
from eventstore.schema import SCHEMA_REVISION, commands, events, secrets
from eventstore.urls import sqlite_path

SYNCHRONOUS = ("NORMAL", "FULL", "EXTRA")
# Seconds another process's write transaction may hold the lock before an operation gives up with
# DatabaseError: bounded well below a client's deadline, so a held lock is a prompt, retryable refusal.
BUSY_TIMEOUT = 3.0

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _compile(statement: Any) -> st.Sql:
    return st.Sql(statement, sqlite_dialect.pysqlite.dialect())


LOCK_HEAD = _compile(st.LOCK_HEAD)
READ_HEAD = _compile(st.READ_HEAD)
SET_HEAD = _compile(st.SET_HEAD)
INSERT_EVENT = _compile(st.INSERT_EVENT).takes_rows_of(events)
INSERT_COMMAND = _compile(st.INSERT_COMMAND).takes_rows_of(commands)
INSERT_SECRET = _compile(st.INSERT_SECRET).takes_rows_of(secrets)
STREAM_HEAD = _compile(st.STREAM_HEAD)
ORIGINAL = _compile(st.ORIGINAL)
READ_STREAM = _compile(st.READ_STREAM)
READ_ALL = _compile(st.READ_ALL)
STREAM_VERSION = _compile(st.STREAM_VERSION)
HAS_VERSION = _compile(st.HAS_VERSION)
READ_COMMANDS = _compile(st.READ_COMMANDS)
READ_SECRET = _compile(st.READ_SECRET)
READ_SECRETS = _compile(st.READ_SECRETS)
LOAD_SNAPSHOT = _compile(st.LOAD_SNAPSHOT)
GET_ROW = _compile(st.GET_ROW)
LIST_ROWS = _compile(st.LIST_ROWS)
LIST_ROWS_AFTER = _compile(st.LIST_ROWS_AFTER)
CLEAR_ROWS = _compile(st.CLEAR_ROWS)
PUT_SNAPSHOT, PUT_ROW = (_compile(s) for s in st.upserts(sqlite_dialect.insert))


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
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute(f"PRAGMA synchronous={level}")
    return connection


def is_request_error(exc: sqlite3.Error) -> bool:
    """Whether the error came from one request's rows (then the others may still commit without it)."""
    return isinstance(exc, sqlite3.IntegrityError | sqlite3.DataError)


class SqliteStore:
    """The event store on one SQLite connection (not for concurrent use: the async store wraps it)."""

    def __init__(self, url: str, *, synchronous: str = "NORMAL") -> None:
        self._connection = connect(url, synchronous)
        self.stats = CommitStats()
        try:
            self._check_schema()
        except BaseException:
            self._connection.close()
            raise

    @_translated
    def _check_schema(self) -> None:
        try:
            row = self._connection.execute("SELECT version_num FROM alembic_version").fetchone()
        except sqlite3.OperationalError:
            row = None
        if row is None or row[0] != SCHEMA_REVISION:
            found = row[0] if row else "none"
            raise DatabaseError(f"schema revision is {found}, need {SCHEMA_REVISION}: run `duelhall migrate`")

    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command: CommandRecord,
        secrets: Mapping[str, bytes] | None = None,
    ) -> Appended:
        """Append events and their command in one transaction; see ``AsyncEventStore.append``."""
        (outcome,) = self.append_batch([append_request(stream_id, expected_version, events, command, secrets)])
        if isinstance(outcome, StoreError):
            raise outcome
        return outcome

    def append_batch(self, batch: Sequence[AppendRequest]) -> list[AppendOutcome]:
        """Commit many appends in one transaction; each request gets its own Appended or error."""
        try:
            return self._commit(batch)
        except sqlite3.Error as exc:
            if len(batch) > 1 and is_request_error(exc):
                # One request's rows broke the shared transaction: give each its own.
                return [outcome for request in batch for outcome in self.append_batch([request])]
            return [refused(request, exc) for request in batch]

    def _commit(self, batch: Sequence[AppendRequest]) -> list[AppendOutcome]:
        with self._transaction() as connection:
            (position,) = self._row(LOCK_HEAD)
            result = plan(batch, [self._known(request) for request in batch], position, now_micros())
            if result.event_rows:
                connection.executemany(INSERT_EVENT.text, result.event_rows)
                connection.executemany(INSERT_COMMAND.text, result.command_rows)
                connection.executemany(INSERT_SECRET.text, result.secret_rows)
                self._execute(SET_HEAD, position=result.position)
        self.stats.count(result.outcomes)
        return result.outcomes

    def _known(self, request: AppendRequest) -> Known:
        head = self._row(STREAM_HEAD, stream_id=request.stream_id)
        if head is None:
            return Known()
        row = self._row(ORIGINAL, stream_id=request.stream_id, command_id=request.command.command_id)
        original = st.original_outcome(request.stream_id, row) if row else None
        return Known(head[0], head[1], original)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction holding SQLite's write lock from its first statement (BEGIN IMMEDIATE)."""
        connection = self._connection
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield connection
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise

    def _rows(self, sql: st.Sql, **values: Any) -> list[Any]:
        return self._connection.execute(sql.text, sql.args(**values)).fetchall()

    def _row(self, sql: st.Sql, **values: Any) -> Any:
        return self._connection.execute(sql.text, sql.args(**values)).fetchone()

    def _execute(self, sql: st.Sql, **values: Any) -> None:
        self._connection.execute(sql.text, sql.args(**values))

    @_translated
    def read_stream(self, stream_id: str, from_version: int = 1, to_version: int | None = None) -> list[RecordedEvent]:
        """The stream's events from ``from_version`` to ``to_version`` (both inclusive), in order."""
        last = st.MAX_VERSION if to_version is None else to_version
        rows = self._rows(READ_STREAM, stream_id=stream_id, from_version=from_version, to_version=last)
        return list(map(st.recorded, rows))

    @_translated
    def read_all(self, from_position: int = 1, limit: int = 1000) -> list[RecordedEvent]:
        """Up to ``limit`` events of every stream from ``from_position`` (inclusive), in global order."""
        return list(map(st.recorded, self._rows(READ_ALL, from_position=from_position, limit=limit)))

    @_translated
    def stream_version(self, stream_id: str) -> int:
        """The stream's last version; 0 when it does not exist."""
        return int(self._row(STREAM_VERSION, stream_id=stream_id)[0])

    @_translated
    def head_position(self) -> int:
        """The last position committed."""
        return int(self._row(READ_HEAD)[0])

    @_translated
    def read_commands(self, stream_id: str) -> list[tuple[CommandRecord, int, int]]:
        """The stream's command log in order: each command with the first and last version it appended."""
        return [(CommandRecord(*row[:4]), row[4], row[5]) for row in self._rows(READ_COMMANDS, stream_id=stream_id)]

    @_translated
    def read_secret(self, stream_id: str, name: str) -> bytes | None:
        """A secret stored with an append (e.g. the match seed), or None."""
        row = self._row(READ_SECRET, stream_id=stream_id, name=name)
        return None if row is None else row[0]

    @_translated
    def read_secrets(self, stream_id: str) -> dict[str, bytes]:
        """Every secret of the stream by name."""
        return dict(self._rows(READ_SECRETS, stream_id=stream_id))

    @_translated
    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Replace the stream's snapshot; StreamNotFound if the stream has no event at its version."""
        with self._transaction():
            if self._row(HAS_VERSION, stream_id=snapshot.stream_id, version=snapshot.version) is None:
                raise StreamNotFound(snapshot.stream_id, snapshot.version)
            self._execute(PUT_SNAPSHOT, **msgspec.structs.asdict(snapshot))

    @_translated
    def load_snapshot(self, stream_id: str, schema: str) -> Snapshot | None:
        """The stream's snapshot if one was saved under ``schema``; a snapshot of another schema is ignored."""
        row = self._row(LOAD_SNAPSHOT, stream_id=stream_id, schema=schema)
        return None if row is None else Snapshot(stream_id, row[0], schema, row[1])

    @_translated
    def put_row(self, table: str, key: str, value: bytes) -> None:
        """Set a projection row (insert or replace)."""
        with self._transaction():
            self._execute(PUT_ROW, projection=table, key=key, value=value)

    @_translated
    def get_row(self, table: str, key: str) -> bytes | None:
        """A projection row's value, or None."""
        row = self._row(GET_ROW, projection=table, key=key)
        return None if row is None else row[0]

    @_translated
    def list_rows(self, table: str, after_key: str | None = None, limit: int = 100) -> list[tuple[str, bytes]]:
        """Up to ``limit`` rows of a projection in key order, starting after ``after_key`` (exclusive)."""
        if after_key is None:
            return self._rows(LIST_ROWS, projection=table, limit=limit)
        return self._rows(LIST_ROWS_AFTER, projection=table, after_key=after_key, limit=limit)

    @_translated
    def clear_rows(self, table: str) -> None:
        """Delete every row of a projection (before rebuilding it)."""
        with self._transaction():
            self._execute(CLEAR_ROWS, projection=table)

    def close(self) -> None:
        """Close the connection."""
        self._connection.close()
