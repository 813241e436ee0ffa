"""The store's named parts, ``store.secrets``, ``store.snapshots`` and ``store.rows``, written once per face.

Each part is what it reads or writes, as compiled statements, and how the rows come back; a runner runs
the statements: a sqlite3 connection, the async SQLite store's threads, an asyncpg pool, or the PostgreSQL
pool driven from the blocking store's loop thread. A write is one statement, its own transaction. The
contracts are the protocols' in ``eventstore/store.py``.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from eventstore.errors import StreamNotFound
from eventstore.model import Snapshot
from eventstore.statements import Compiled, Sql


class SyncRunner(Protocol):
    """Runs one compiled statement, blocking, and returns its rows (a write: its own transaction)."""

    sql: Compiled

    def read(self, statement: Sql, /, **values: Any) -> Sequence[Any]: ...
    def write(self, statement: Sql, /, **values: Any) -> Sequence[Any]: ...


class AsyncRunner(Protocol):
    """``SyncRunner`` for asyncio code."""

    sql: Compiled

    async def read(self, statement: Sql, /, **values: Any) -> Sequence[Any]: ...
    async def write(self, statement: Sql, /, **values: Any) -> Sequence[Any]: ...


# -- how rows come back, shared by both faces ------------------------------------------------------------


def _value(rows: Sequence[Any]) -> bytes | None:
    return rows[0][0] if rows else None


def _saved(snapshot: Snapshot, rows: Sequence[Any]) -> None:
    if not rows:  # SAVE_SNAPSHOT writes only when the stream has an event at the snapshot's version
        raise StreamNotFound(snapshot.stream_id, snapshot.version)


def _snapshot(stream_id: str, schema: str, rows: Sequence[Any]) -> Snapshot | None:
    return Snapshot(stream_id, rows[0][0], schema, rows[0][1]) if rows else None


def _listing(sql: Compiled, table: str, after_key: str | None, limit: int) -> tuple[Sql, dict[str, Any]]:
    if after_key is None:
        return sql.LIST_ROWS, {"projection": table, "limit": limit}
    return sql.LIST_ROWS_AFTER, {"projection": table, "after_key": after_key, "limit": limit}


def _pairs(rows: Sequence[Any]) -> builtins.list[tuple[str, bytes]]:
    return [(row[0], row[1]) for row in rows]


# -- the blocking face -------------------------------------------------------------------------------------


class SyncSecretsPart:
    """``SyncSecrets`` over a runner."""

    def __init__(self, run: SyncRunner) -> None:
        self._run = run

    def read(self, stream_id: str) -> dict[str, bytes]:
        return dict(self._run.read(self._run.sql.READ_SECRETS, stream_id=stream_id))


class SyncSnapshotsPart:
    """``SyncSnapshots`` over a runner."""

    def __init__(self, run: SyncRunner) -> None:
        self._run = run

    def save(self, snapshot: Snapshot) -> None:
        _saved(snapshot, self._run.write(self._run.sql.SAVE_SNAPSHOT, **msgspec.structs.asdict(snapshot)))

    def load(self, stream_id: str, schema: str) -> Snapshot | None:
        rows = self._run.read(self._run.sql.LOAD_SNAPSHOT, stream_id=stream_id, schema=schema)
        return _snapshot(stream_id, schema, rows)


class SyncRowsPart:
    """``SyncRows`` over a runner."""

    def __init__(self, run: SyncRunner) -> None:
        self._run = run

    def put(self, table: str, key: str, value: bytes) -> None:
        self._run.write(self._run.sql.PUT_ROW, projection=table, key=key, value=value)

    def get(self, table: str, key: str) -> bytes | None:
        return _value(self._run.read(self._run.sql.GET_ROW, projection=table, key=key))

    def list(self, table: str, after_key: str | None = None, limit: int = 100) -> builtins.list[tuple[str, bytes]]:
        statement, values = _listing(self._run.sql, table, after_key, limit)
        return _pairs(self._run.read(statement, **values))

    def delete(self, table: str, key: str) -> None:
        self._run.write(self._run.sql.DELETE_ROW, projection=table, key=key)

    def clear(self, table: str) -> None:
        self._run.write(self._run.sql.CLEAR_ROWS, projection=table)


# -- the async face ----------------------------------------------------------------------------------------


class AsyncSecretsPart:
    """``AsyncSecrets`` over a runner."""

    def __init__(self, run: AsyncRunner) -> None:
        self._run = run

    async def read(self, stream_id: str) -> dict[str, bytes]:
        return dict(await self._run.read(self._run.sql.READ_SECRETS, stream_id=stream_id))


class AsyncSnapshotsPart:
    """``AsyncSnapshots`` over a runner."""

    def __init__(self, run: AsyncRunner) -> None:
        self._run = run

    async def save(self, snapshot: Snapshot) -> None:
        _saved(snapshot, await self._run.write(self._run.sql.SAVE_SNAPSHOT, **msgspec.structs.asdict(snapshot)))

    async def load(self, stream_id: str, schema: str) -> Snapshot | None:
        rows = await self._run.read(self._run.sql.LOAD_SNAPSHOT, stream_id=stream_id, schema=schema)
        return _snapshot(stream_id, schema, rows)


class AsyncRowsPart:
    """``AsyncRows`` over a runner."""

    def __init__(self, run: AsyncRunner) -> None:
        self._run = run

    async def put(self, table: str, key: str, value: bytes) -> None:
        await self._run.write(self._run.sql.PUT_ROW, projection=table, key=key, value=value)

    async def get(self, table: str, key: str) -> bytes | None:
        return _value(await self._run.read(self._run.sql.GET_ROW, projection=table, key=key))

    async def list(
        self, table: str, after_key: str | None = None, limit: int = 100
    ) -> builtins.list[tuple[str, bytes]]:
        statement, values = _listing(self._run.sql, table, after_key, limit)
        return _pairs(await self._run.read(statement, **values))

    async def delete(self, table: str, key: str) -> None:
        await self._run.write(self._run.sql.DELETE_ROW, projection=table, key=key)

    async def clear(self, table: str) -> None:
        await self._run.write(self._run.sql.CLEAR_ROWS, projection=table)
