"""Alembic environment: runs the revisions on one connection, under a lock on PostgreSQL.

The URL is ``config.attributes["url"]`` when ``eventstore.migrate`` calls (an object, so that ini
%-interpolation never touches a password), else ``alembic -x url=...``, else ``$DUELHALL_DATABASE_URL``, else
the default SQLite file: ``alembic`` run from the repository (``alembic.ini``) works on the same database as
``duelhall``. On PostgreSQL the revisions run holding a transaction-level advisory lock, so replicas that
start together migrate one after the other: the first migrates, the others wait, then find nothing to do.
"""

from __future__ import annotations

import logging
from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import URL
from sqlalchemy.pool import NullPool

from eventstore.migrations import LOCK_KEY
from eventstore.schema import metadata
from eventstore.urls import database_url, redacted, sync_url

log = logging.getLogger("eventstore.migrations")


def _given() -> str:
    """The URL as the operator wrote it (``alembic -x url=...`` or the environment's)."""
    return database_url(context.get_x_argument(as_dictionary=True).get("url"))


def _url() -> URL:
    given = context.config.attributes.get("url")
    if given is not None:
        return given  # type: ignore[no-any-return]
    return sync_url(_given())


def _lock(connection: Connection) -> None:
    """Take the migration lock for this transaction, saying so when another instance holds it."""
    if connection.execute(text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": LOCK_KEY}).scalar():
        return
    shown = context.config.attributes.get("shown") or redacted(_given())
    log.warning("waiting for another instance to finish migrating %s (advisory lock %d)", shown, LOCK_KEY)
    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
    log.info("the other instance's migration is done; checking the revision")


def run_offline() -> None:
    """Emit the SQL instead of running it (``alembic upgrade head --sql``)."""
    context.configure(url=_url(), target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Run the revisions in one transaction (transactional DDL on both backends)."""
    url = _url()
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            context.configure(connection=connection, target_metadata=metadata, transactional_ddl=True)
            with context.begin_transaction():
                if connection.dialect.name == "postgresql":
                    _lock(connection)
                context.run_migrations()
    finally:
        engine.dispose()


if context.config.config_file_name is not None and context.config.attributes.get("url") is None:
    fileConfig(context.config.config_file_name, disable_existing_loggers=False)
if context.is_offline_mode():
    run_offline()
else:
    run_online()
