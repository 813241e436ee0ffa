"""Migrations up and down on both backends (issue #3 item 1)."""

from __future__ import annotations

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect

from eventstore import DatabaseError, downgrade, migrate, open_store
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
