"""The store's tables, declared once with SQLAlchemy Core; docs/eventstore.md explains them.

Dialect differences are column variants only. Migrations in ``eventstore/migrations`` create exactly these
tables; ``SCHEMA_REVISION`` is the alembic revision they correspond to (a test keeps the two in step), and
``check_revision`` is how both backends refuse a database at another one.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    SmallInteger,
    Table,
    Text,
    UniqueConstraint,
)

from eventstore.errors import DatabaseError

SCHEMA_REVISION = "0005"
REVISION_QUERY = "SELECT version_num FROM alembic_version"
"""The database's alembic revision (the table is absent before the first migration)."""

# On SQLite an INTEGER PRIMARY KEY is the rowid: the events table is then clustered by position.
Position = BigInteger().with_variant(Integer(), "sqlite")
# Row keys sort by code point on both backends (SQLite's BINARY; PostgreSQL's default collation may not).
RowKey = Text().with_variant(Text(collation="C"), "postgresql")

metadata = MetaData()

# The one-row head counter: the last position handed out. Every append locks and advances it in its
# transaction, so positions are gap-free and in commit order (docs/eventstore.md "Positions").
head = Table(
    "head",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("position", BigInteger, nullable=False),
)

events = Table(
    "events",
    metadata,
    Column("position", Position, primary_key=True, autoincrement=False),
    Column("stream_id", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("type", Text, nullable=False),
    Column("data", LargeBinary, nullable=False),
    Column("command_id", Text, nullable=False),
    Column("actor", Text, nullable=False),
    Column("recorded_at", BigInteger, nullable=False, comment="microseconds since the Unix epoch, UTC"),
    Column("hash", LargeBinary, nullable=False),
    Column("chain", SmallInteger, nullable=False, comment="the hash chain the event is linked with: 1 or 2"),
    # The optimistic-concurrency backstop: two writers can never both store a stream's version n.
    UniqueConstraint("stream_id", "version", name="events_stream_version"),
)

commands = Table(
    "commands",
    metadata,
    Column("stream_id", Text, nullable=False),
    Column("command_id", Text, nullable=False),
    Column("actor", Text, nullable=False),
    Column("type", Text, nullable=False),
    Column("payload", LargeBinary, nullable=False),
    Column("first_version", Integer, nullable=False),
    Column("last_version", Integer, nullable=False),
    PrimaryKeyConstraint("stream_id", "command_id", name="commands_pkey"),
)

secrets = Table(
    "secrets",
    metadata,
    Column("stream_id", Text, nullable=False),
    Column("name", Text, nullable=False),
    Column("value", LargeBinary, nullable=False),
    PrimaryKeyConstraint("stream_id", "name", name="secrets_pkey"),
)

# One snapshot per stream: a newer one replaces it, whatever its schema (it is only a cache).
snapshots = Table(
    "snapshots",
    metadata,
    Column("stream_id", Text, primary_key=True),
    Column("version", Integer, nullable=False),
    Column("schema", Text, nullable=False),
    Column("data", LargeBinary, nullable=False),
)

projection_rows = Table(
    "projection_rows",
    metadata,
    Column("projection", Text, nullable=False),
    Column("key", RowKey, nullable=False),
    Column("value", LargeBinary, nullable=False),
    PrimaryKeyConstraint("projection", "key", name="projection_rows_pkey"),
)

# Which instance owns a running match until when (PostgreSQL only: ``eventstore/leases.py``).
leases = Table(
    "leases",
    metadata,
    Column("stream_id", Text, primary_key=True),
    Column("owner", Text, nullable=False),
    Column(
        "expires_at", BigInteger, nullable=False, comment="microseconds since the Unix epoch, on the database's clock"
    ),
    Column("address", Text, nullable=False, server_default=""),
    Index("leases_owner", "owner"),
    Index("leases_expires_at", "expires_at"),
)


def check_revision(found: str | None) -> None:
    """Refuse a database not at ``SCHEMA_REVISION``: ``found`` is its revision, None if never migrated."""
    if found == SCHEMA_REVISION:
        return
    if found is not None and is_newer(found):
        raise newer_schema(found)
    raise DatabaseError(f"schema revision is {found or 'none'}, need {SCHEMA_REVISION}: run `duelhall migrate`")


def is_newer(revision: str) -> bool:
    """Whether ``revision`` comes after ``SCHEMA_REVISION`` (revisions are numbered 0001, 0002, ...)."""
    return revision.isdigit() and int(revision) > int(SCHEMA_REVISION)


def newer_schema(found: str) -> DatabaseError:
    """The refusal of a database a newer duelhall migrated: ``duelhall migrate`` cannot take it back."""
    return DatabaseError(
        f"schema revision is {found}, newer than this duelhall's {SCHEMA_REVISION}: "
        "the database was migrated by a newer duelhall; run that version"
    )
