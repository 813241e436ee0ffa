"""Alembic environment: runs the revisions on the connection for ``config.attributes["url"]``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from eventstore.schema import metadata


def run_offline() -> None:
    """Emit the SQL instead of running it (``alembic upgrade --sql``)."""
    context.configure(url=context.config.attributes["url"], target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Run the revisions in one transaction (transactional DDL on both backends)."""
    engine = create_engine(context.config.attributes["url"], poolclass=NullPool)
    try:
        with engine.connect() as connection:
            context.configure(connection=connection, target_metadata=metadata, transactional_ddl=True)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
