"""The store's named parts, ``store.secrets``, ``store.snapshots`` and ``store.rows``, written once per face.

Each part is what it reads or writes, as compiled statements, and how the rows come back; a runner runs
the statements: a sqlite3 connection, the async SQLite store's threads, an asyncpg pool, or the PostgreSQL
pool driven from the blocking store's loop thread. A write is one statement, its own transaction, or
(``write_many``) several statements, each run for many sets of values, in one transaction. The contracts
are the protocols' in ``eventstore/store.py``.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import msgspec

from eventstore.errors import StreamNotFound
from eventstore.model import Snapshot
from eventstore.statements import Compiled, Sql

Writes = Sequence[tuple[Sql, Sequence[Mapping[str, Any]]]]
"""Statements each to run once per set of values, in order, all in one transaction (``write_many``)."""

RowChange = tuple[str, str, bytes | None]
"""(table, key, value) to put a projection row, (table, key, None) to delete it."""


class SyncRunner(Protocol):
    """Runs one compiled statement, blocking, and returns its rows (a write: its own transaction);
    ``write_many`` runs several writes in one transaction (all of them or none)."""

    sql: Compiled

    def read(self, statement: Sql, /, **values: Any) -> Sequence[Any]: ...
    def write(self, statement: Sql, /, **values: Any) -> Sequence[Any]: ...
    def write_many(self, writes: Writes, /) -> None: ...


class AsyncRunner(Protocol):
    """``SyncRunner`` for asyncio code."""

    sql: Compiled

    async def read(self, statement: Sql, /, **values: Any) -> Sequence[Any]: ...
    async def write(self, statement: Sql, /, **values: Any) -> Sequence[Any]: ...
    async def write_many(self, writes: Writes, /) -> None: ...


# -- how rows come back, shared by both faces ------------------------------------------------------------


def _value(rows: Sequence[Any]) -> bytes | None:
    return rows[0][0] if rows else None


def _saved(snapshot: Snapshot, rows: Sequence[Any]) -> None:
    if not rows:  # SAVE_SNAPSHOT writes only when the stream has an event at the snapshot's version
        raise StreamNotFound(snapshot.stream_id, snapshot.version)


def _snapshot(stream_id: str, schema: str, rows: Sequence[Any]) -> Snapshot | None:
    return Snapshot(stream_id, rows[0][0], schema, rows[0][1]) if rows else None


_LAST_CODE_POINT = 0x10FFFF
_SURROGATES = range(0xD800, 0xE000)
"""Code points no stored text holds (UTF-8 cannot encode them): the one after U+D7FF is U+E000."""


def prefix_end(prefix: str) -> str | None:
    """The first key, in code-point order, after every key that starts with ``prefix``; None if there is
    none (a prefix of U+10FFFF alone: every key from it on starts with it)."""
    stem = prefix.rstrip(chr(_LAST_CODE_POINT))
    if not stem:
        return None
    following = ord(stem[-1]) + 1
    if following in _SURROGATES:
        following = _SURROGATES.stop
    return stem[:-1] + chr(following)


def _listing(sql: Compiled, table: str, after_key: str | None, limit: int, prefix: str) -> tuple[Sql, dict[str, Any]]:
    if after_key is not None and after_key < prefix:
        after_key = None  # a key before the prefix: the listing starts where the prefix does
    if not prefix:
        if after_key is None:
            return sql.LIST_ROWS, {"projection": table, "limit": limit}
        return sql.LIST_ROWS_AFTER, {"projection": table, "after_key": after_key, "limit": limit}
    end = prefix_end(prefix)
    if end is None:
        if after_key is None:
            return sql.LIST_FROM, {"projection": table, "prefix": prefix, "limit": limit}
        return sql.LIST_ROWS_AFTER, {"projection": table, "after_key": after_key, "limit": limit}
    if after_key is None:
        return sql.LIST_PREFIX, {"projection": table, "prefix": prefix, "end_key": end, "limit": limit}
    return sql.LIST_PREFIX_AFTER, {"projection": table, "after_key": after_key, "end_key": end, "limit": limit}


def _changes(sql: Compiled, changes: Iterable[RowChange]) -> Writes:
    """The writes of ``changes``: the last change of each row counts, deletes first, then puts (after taking
    the last change of each row the two touch different rows, so their order does not matter)."""
    last: dict[tuple[str, str], bytes | None] = {}
    for table, key, value in changes:
        last[(table, key)] = value
    deletes = [{"projection": table, "key": key} for (table, key), value in last.items() if value is None]
    puts = [
        {"projection": table, "key": key, "value": value} for (table, key), value in last.items() if value is not None
    ]
    return [(statement, values) for statement, values in ((sql.DELETE_ROW, deletes), (sql.PUT_ROW, puts)) if values]


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

    def list(
        self, table: str, after_key: str | None = None, limit: int = 100, prefix: str = ""
    ) -> builtins.list[tuple[str, bytes]]:
        statement, values = _listing(self._run.sql, table, after_key, limit, prefix)
        return _pairs(self._run.read(statement, **values))

    def delete(self, table: str, key: str) -> None:
        self._run.write(self._run.sql.DELETE_ROW, projection=table, key=key)

    def write(self, changes: Iterable[RowChange]) -> None:
        if writes := _changes(self._run.sql, changes):
            self._run.write_many(writes)

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
        self, table: str, after_key: str | None = None, limit: int = 100, prefix: str = ""
    ) -> builtins.list[tuple[str, bytes]]:
        statement, values = _listing(self._run.sql, table, after_key, limit, prefix)
        return _pairs(await self._run.read(statement, **values))

    async def delete(self, table: str, key: str) -> None:
        await self._run.write(self._run.sql.DELETE_ROW, projection=table, key=key)

    async def write(self, changes: Iterable[RowChange]) -> None:
        if writes := _changes(self._run.sql, changes):
            await self._run.write_many(writes)

    async def clear(self, table: str) -> None:
        await self._run.write(self._run.sql.CLEAR_ROWS, projection=table)
