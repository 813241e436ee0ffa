"""Every statement the store runs, built once with SQLAlchemy Core and compiled once per dialect.

``compile_for(dialect)`` gives them all as one ``Compiled`` value (PostgreSQL adds its two append
statements in ``postgres_sql.py``). The hot path executes the compiled text straight on the driver (sqlite3,
asyncpg), which measured at twice the speed of executing through SQLAlchemy; the SQL itself is still Core's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, cast

from sqlalchemy import Insert, Integer, LargeBinary, Table, Text, and_, bindparam, func, insert, select, true
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql.asyncpg import PGDialect_asyncpg
from sqlalchemy.engine import Dialect
from sqlalchemy.sql import ClauseElement, ColumnElement, Select, delete, update
from sqlalchemy.sql.compiler import SQLCompiler

from eventstore.model import Appended, EventMeta, RecordedEvent, from_micros
from eventstore.schema import commands, events, head, projection_rows, secrets, snapshots

# Larger than any stream version (an INTEGER column): the open end of read_stream's range.
MAX_VERSION = 2**31 - 1


class Sql:
    """A statement compiled once for one driver: its text and the order of its positional parameters."""

    __slots__ = ("_fixed", "_names", "text")

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
        self.text = compiled.string
        self._names: tuple[str, ...] = tuple(compiled.positiontup or ())
        # Values Core fixed itself (a literal id, LIMIT 1, OFFSET 0); the named parameters must be given.
        self._fixed = {name: compiled.binds[name].value for name in self._names if not compiled.binds[name].required}

    def args(self, **values: Any) -> tuple[Any, ...]:
        """The parameters in the statement's order (KeyError if a named one is missing)."""
        return tuple(values[name] if name in values else self._fixed[name] for name in self._names)

    def takes_rows_of(self, table: Table) -> Sql:
        """Assert the parameters are the table's columns in order, so plain row tuples can be passed."""
        assert self._names == tuple(table.c.keys()), (self._names, table.c.keys())
        return self


EVENT_COLUMNS = (
    events.c.position,
    events.c.stream_id,
    events.c.version,
    events.c.type,
    events.c.data,
    events.c.command_id,
    events.c.actor,
    events.c.recorded_at,
    events.c.hash,
    events.c.chain,
)

READ_HEAD = select(head.c.position).where(head.c.id == 1)
LOCK_HEAD = READ_HEAD.with_for_update()
SET_HEAD = update(head).where(head.c.id == 1).values(position=bindparam("position"))
INSERT_EVENT = insert(events)
INSERT_COMMAND = insert(commands)
INSERT_SECRET = insert(secrets)


def last_event(stream_id: ColumnElement[Any]) -> Select[Any]:
    """The version, hash and time of the stream's last event (an index probe, whatever the stream's length)."""
    return (
        select(events.c.version, events.c.hash, events.c.recorded_at)
        .where(events.c.stream_id == stream_id)
        .order_by(events.c.version.desc())
        .limit(1)
    )


def original(stream_id: ColumnElement[Any], command_id: ColumnElement[Any]) -> Select[Any]:
    """What a recorded command appended: first and last version, their positions, the last hash and time."""
    first, last = events.alias("first_event"), events.alias("last_event")
    return (
        select(
            commands.c.first_version,
            commands.c.last_version,
            first.c.position,
            last.c.position,
            last.c.hash,
            last.c.recorded_at,
        )
        .select_from(
            commands.join(
                first, and_(first.c.stream_id == commands.c.stream_id, first.c.version == commands.c.first_version)
            ).join(last, and_(last.c.stream_id == commands.c.stream_id, last.c.version == commands.c.last_version))
        )
        .where(commands.c.stream_id == stream_id, commands.c.command_id == command_id)
    )


def original_outcome(stream_id: str, row: Sequence[Any]) -> Appended:
    """The first result of a recorded command, from a row of ``original``."""
    first_version, last_version, first_position, last_position, last_hash, recorded_at = row
    return Appended(
        stream_id,
        first_version,
        last_version,
        first_position,
        last_position,
        last_hash,
        from_micros(recorded_at),
        False,
    )


LAST_EVENT = last_event(bindparam("stream_id"))
ORIGINAL = original(bindparam("stream_id"), bindparam("command_id"))

READ_STREAM = (
    select(*EVENT_COLUMNS)
    .where(
        events.c.stream_id == bindparam("stream_id"),
        events.c.version >= bindparam("from_version"),
        events.c.version <= bindparam("to_version"),
    )
    .order_by(events.c.version)
)
READ_ALL = (
    select(*EVENT_COLUMNS)
    .where(events.c.position >= bindparam("from_position"))
    .order_by(events.c.position)
    .limit(bindparam("limit"))
)
READ_TYPE = (
    select(*EVENT_COLUMNS)
    .where(
        events.c.position >= bindparam("from_position"),
        events.c.position <= bindparam("through"),
        events.c.type == bindparam("type"),
    )
    .order_by(events.c.position)
    .limit(bindparam("limit"))
)
"""A type's events in a range of positions: the range is scanned in the database, only its matches come back."""
LAST_VERSION = select(func.coalesce(func.max(events.c.version), 0)).where(events.c.stream_id == bindparam("stream_id"))
READ_COMMANDS = (
    select(
        commands.c.command_id,
        commands.c.actor,
        commands.c.type,
        commands.c.payload,
        commands.c.first_version,
        commands.c.last_version,
    )
    .where(commands.c.stream_id == bindparam("stream_id"))
    .order_by(commands.c.first_version)
    .limit(bindparam("limit"))
)
READ_SECRETS = select(secrets.c.name, secrets.c.value).where(secrets.c.stream_id == bindparam("stream_id"))
LOAD_SNAPSHOT = select(snapshots.c.version, snapshots.c.data).where(
    snapshots.c.stream_id == bindparam("stream_id"), snapshots.c.schema == bindparam("schema")
)
GET_ROW = select(projection_rows.c.value).where(
    projection_rows.c.projection == bindparam("projection"), projection_rows.c.key == bindparam("key")
)
LIST_ROWS = (
    select(projection_rows.c.key, projection_rows.c.value)
    .where(projection_rows.c.projection == bindparam("projection"))
    .order_by(projection_rows.c.key)
    .limit(bindparam("limit"))
)
LIST_ROWS_AFTER = LIST_ROWS.where(projection_rows.c.key > bindparam("after_key"))
# A key prefix is the range [prefix, end_key): the scan ends where the prefix ends (parts.prefix_end). Not as
# (projection, key) row values: PostgreSQL 15 stops no index scan at a row comparison. It plans the range from
# the table's statistics (docs/operations.md, "The match list").
LIST_PREFIX = LIST_ROWS.where(
    projection_rows.c.key >= bindparam("prefix"), projection_rows.c.key < bindparam("end_key")
)
LIST_PREFIX_AFTER = LIST_ROWS_AFTER.where(projection_rows.c.key < bindparam("end_key"))
LIST_FROM = LIST_ROWS.where(projection_rows.c.key >= bindparam("prefix"))
"""A prefix no key sorts after (made of U+10FFFF only): every key from it on starts with it."""
DELETE_ROW = delete(projection_rows).where(
    projection_rows.c.projection == bindparam("projection"), projection_rows.c.key == bindparam("key")
)
CLEAR_ROWS = delete(projection_rows).where(projection_rows.c.projection == bindparam("projection"))


def upserts(insert_of: Callable[[Table], Any]) -> tuple[Insert, Insert]:
    """SAVE_SNAPSHOT and PUT_ROW as ``INSERT .. ON CONFLICT DO UPDATE`` with the dialect's insert construct.

    SAVE_SNAPSHOT inserts only if the stream has an event at the snapshot's version and returns the stream
    id when it wrote: no row back means StreamNotFound, decided in the same statement as the write.
    """
    has_version = select(true()).where(
        events.c.stream_id == bindparam("stream_id"), events.c.version == bindparam("version")
    )
    values = select(
        bindparam("stream_id", type_=Text),
        bindparam("version", type_=Integer),
        bindparam("schema", type_=Text),
        bindparam("data", type_=LargeBinary),
    ).where(has_version.exists())
    snapshot = insert_of(snapshots).from_select(["stream_id", "version", "schema", "data"], values)
    save_snapshot = snapshot.on_conflict_do_update(
        index_elements=[snapshots.c.stream_id],
        set_={"version": snapshot.excluded.version, "schema": snapshot.excluded.schema, "data": snapshot.excluded.data},
    ).returning(snapshots.c.stream_id)
    row = insert_of(projection_rows)
    put_row = row.on_conflict_do_update(
        index_elements=[projection_rows.c.projection, projection_rows.c.key], set_={"value": row.excluded.value}
    )
    return save_snapshot, put_row


class Compiled(NamedTuple):
    """Every shared statement compiled for one dialect (``compile_for``)."""

    LOCK_HEAD: Sql
    READ_HEAD: Sql
    SET_HEAD: Sql
    INSERT_EVENT: Sql
    INSERT_COMMAND: Sql
    INSERT_SECRET: Sql
    LAST_EVENT: Sql
    ORIGINAL: Sql
    READ_STREAM: Sql
    READ_ALL: Sql
    READ_TYPE: Sql
    LAST_VERSION: Sql
    READ_COMMANDS: Sql
    READ_SECRETS: Sql
    LOAD_SNAPSHOT: Sql
    SAVE_SNAPSHOT: Sql
    GET_ROW: Sql
    PUT_ROW: Sql
    LIST_ROWS: Sql
    LIST_ROWS_AFTER: Sql
    LIST_PREFIX: Sql
    LIST_PREFIX_AFTER: Sql
    LIST_FROM: Sql
    DELETE_ROW: Sql
    CLEAR_ROWS: Sql


def dialect(backend: str) -> Dialect:
    """The dialect statements are compiled for on ``"sqlite"`` (sqlite3) or ``"postgresql"`` (asyncpg)."""
    if backend == "sqlite":
        return sqlite.pysqlite.dialect()
    return PGDialect_asyncpg()  # type: ignore[no-untyped-call]


def compile_for(backend: str) -> Compiled:
    """Every shared statement compiled for ``"sqlite"`` or ``"postgresql"``, once."""
    compiler = dialect(backend)
    save_snapshot, put_row = upserts(sqlite.insert if backend == "sqlite" else postgresql.insert)
    statements = {**globals(), "SAVE_SNAPSHOT": save_snapshot, "PUT_ROW": put_row}
    compiled = Compiled(*(Sql(statements[name], compiler) for name in Compiled._fields))
    compiled.INSERT_EVENT.takes_rows_of(events)
    compiled.INSERT_COMMAND.takes_rows_of(commands)
    compiled.INSERT_SECRET.takes_rows_of(secrets)
    return compiled


def recorded(row: Sequence[Any]) -> RecordedEvent:
    """A RecordedEvent from a row of EVENT_COLUMNS."""
    position, stream_id, version, type_, data, command_id, actor, recorded_at, hash_, chain = row
    meta = EventMeta(command_id, actor, from_micros(recorded_at))
    return RecordedEvent(position, stream_id, version, type_, data, meta, hash_, chain)
