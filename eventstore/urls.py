"""Database URLs: the default, the environment override, and the driver each backend uses.

One URL names the database for everything (``sqlite:///duelhall.db`` or ``postgresql://...``); the store
picks the driver: sqlite3 for SQLite, asyncpg for PostgreSQL's hot path, psycopg 3 for alembic.
"""

from __future__ import annotations

import os

from sqlalchemy.engine import URL, make_url

DEFAULT_DATABASE_URL = "sqlite:///duelhall.db"
DATABASE_URL_ENV = "DUELHALL_DATABASE_URL"


def database_url(explicit: str | None = None) -> str:
    """The explicit URL if given, else ``$DUELHALL_DATABASE_URL``, else ``sqlite:///duelhall.db``."""
    return explicit or os.environ.get(DATABASE_URL_ENV) or DEFAULT_DATABASE_URL


def backend_of(url: str) -> str:
    """``"sqlite"`` or ``"postgresql"``; ValueError for anything else."""
    name = parse(url).get_backend_name()
    if name not in ("sqlite", "postgresql"):
        raise ValueError(f"unsupported database URL {redacted(url)!r}: use sqlite:///FILE or postgresql://...")
    return name


def is_shared(url: str) -> bool:
    """Whether other server instances may write the same database: PostgreSQL is served to many; an
    embedded SQLite file belongs to the one server that opened it."""
    return backend_of(url) == "postgresql"


def parse(url: str) -> URL:
    """The SQLAlchemy URL (``postgres://`` accepted as ``postgresql://``)."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url.removeprefix("postgres://")
    return make_url(url)


def redacted(url: str) -> str:
    """The URL as it may be shown in logs, errors and output: the password replaced by ``***``."""
    try:
        return parse(url).render_as_string(hide_password=True)
    except Exception:
        return "(unparsable database URL)"


def sync_url(url: str) -> URL:
    """The URL with the synchronous driver SQLAlchemy and alembic use."""
    parsed = parse(url)
    driver = "sqlite+pysqlite" if backend_of(url) == "sqlite" else "postgresql+psycopg"
    return parsed.set(drivername=driver)


def sqlite_path(url: str) -> str:
    """The database file of a SQLite URL; in-memory databases are refused (readers need a shared file)."""
    database = parse(url).database
    if not database or database == ":memory:":
        raise ValueError(f"{redacted(url)!r}: the store needs a SQLite file, not an in-memory database")
    return database


def asyncpg_dsn(url: str) -> str:
    """The libpq-style DSN asyncpg takes, whatever driver the URL named."""
    return parse(url).set(drivername="postgresql").render_as_string(hide_password=False)
