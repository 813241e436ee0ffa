"""Migrations up and down on both backends (issue #3 item 1)."""

from __future__ import annotations

import logging
import threading

import psycopg
import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text

from eventstore import GENESIS_HASH, DatabaseError, chain_hash, downgrade, migrate, open_store, verify_chain
from eventstore.migrations import LOCK_KEY
from eventstore.schema import SCHEMA_REVISION, metadata
from eventstore.urls import sync_url
from tests.eventstore.conftest import command, events

TABLES = {"head", "events", "commands", "secrets", "snapshots", "projection_rows", "leases"}


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


async def test_a_stream_stored_before_chain_2_stays_verifiable_and_goes_on_in_chain_2(database: str) -> None:
    """Revision 0003 marks every stored event chain 1; a live append after the upgrade links chain 2 to it."""
    downgrade(database, "0002")
    payload = b'{"id":"c1"}'
    hash_ = chain_hash(GENESIS_HASH, 1, "A", b"{}")
    engine = create_engine(sync_url(database))
    try:
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO events (position, stream_id, version, type, data, command_id, actor, recorded_at,"
                    " hash) VALUES (1, 'm1', 1, 'A', :data, 'c1', '0', 5, :hash)"
                ),
                {"data": b"{}", "hash": hash_},
            )
            connection.execute(
                text("INSERT INTO commands VALUES ('m1', 'c1', '0', 'Play', :payload, 1, 1)"), {"payload": payload}
            )
            connection.execute(text("UPDATE head SET position = 1"))
    finally:
        engine.dispose()
    migrate(database)
    store = await open_store(database)
    try:
        appended = await store.append("m1", 1, events("B"), command("c2"))
        stream = await store.read_stream("m1")
        assert [(e.chain, e.hash) for e in stream] == [(1, hash_), (2, appended.last_hash)]
        assert verify_chain(stream, await store.read_commands("m1")) == appended.last_hash
    finally:
        await store.close()
