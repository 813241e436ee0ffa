"""Migrations up and down on both backends (issue #3 item 1)."""

from __future__ import annotations

import logging
import threading

import psycopg
import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect

from eventstore import DatabaseError, downgrade, migrate, open_store
from eventstore.migrations import LOCK_KEY
from eventstore.schema import SCHEMA_REVISION, metadata
from eventstore.urls import sync_url
from tests.eventstore.conftest import command, events

TABLES = {"head", "events", "commands", "secrets", "snapshots", "projection_rows"}


def tables(url: str) -> set[str]:
    engine = create_engine(sync_url(url))
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def test_schema_revision_is_the_head_of_the_migrations() -> None:
    config = Config()
    config.set_main_option("script_location", "eventstore:migrations")
    assert ScriptDirectory.from_config(config).get_current_head() == SCHEMA_REVISION
    assert set(metadata.tables) == TABLES


async def test_down_to_base_and_up_to_head(database: str) -> None:
    downgrade(database, "base")
    assert tables(database) == set()
    with pytest.raises(DatabaseError, match="duelhall migrate"):
        await open_store(database)
    migrate(database)
    assert tables(database) == TABLES
    store = await open_store(database)
    try:
        appended = await store.append("m1", 0, events("A"), command("c1"))
        assert appended.first_position == 1
    finally:
        await store.close()


def test_migrating_twice_changes_nothing(database: str) -> None:
    migrate(database)
    assert tables(database) == TABLES


@pytest.mark.postgres
def test_a_migration_waiting_for_another_says_so_with_the_url_as_given(postgres_url: str) -> None:
    """Another instance holds the migration lock: the wait is logged, naming the database as the operator wrote
    it (not the driver URL alembic runs on), and the migration goes on once the lock is released."""
    warned = threading.Event()
    lines: list[str] = []

    class Heard(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())
            warned.set()

    heard = Heard(logging.WARNING)
    logging.getLogger("eventstore.migrations").addHandler(heard)
    try:
        with psycopg.connect(postgres_url) as holder:
            holder.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
            migrating = threading.Thread(target=migrate, args=(postgres_url,))
            migrating.start()
            assert warned.wait(30), "no warning while the lock was held"
            holder.rollback()
        migrating.join(30)
        assert not migrating.is_alive()
    finally:
        logging.getLogger("eventstore.migrations").removeHandler(heard)
    assert len(lines) == 1 and "postgresql://" in lines[0] and "+psycopg" not in lines[0], lines
