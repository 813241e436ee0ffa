"""Database faults: a held SQLite lock is a bounded wait then DatabaseError; PostgreSQL errors are translated,
connections recover, and a subscription keeps hearing of commits after its listening connection is killed."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import psycopg
import pytest

from eventstore import DatabaseError, open_store
from eventstore import sqlite as sqlite_store
from tests.eventstore.conftest import POSTGRES_URL, command, events


async def test_a_held_sqlite_lock_fails_the_append_then_it_goes_through(
    sqlite_template: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "locked.db"
    path.write_bytes(sqlite_template.read_bytes())
    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT", 0.2)
    store = await open_store(f"sqlite:///{path}")
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseError, match="locked"):
            await store.append("s", 0, events("A"), command("c0"))
        with pytest.raises(DatabaseError, match="locked"):
            await store.rows.put("rows", "k", b"v")
        holder.execute("ROLLBACK")
        appended = await store.append("s", 0, events("A"), command("c0"))
        assert (appended.last_version, appended.duplicate) == (1, False)
    finally:
        holder.close()
        await store.close()


def _terminate(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        )


@pytest.mark.postgres
async def test_postgres_connections_killed_give_database_errors_then_recover(postgres_url: str) -> None:
    store = await open_store(postgres_url, poll_interval=60.0)
    other = await open_store(postgres_url)  # another process's store: its commits reach us only by NOTIFY
    try:
        await store.append("pg-fault", 0, events("A"), command("c0"))
        heard = store.subscribe(await store.head() + 1)
        next_event = asyncio.ensure_future(anext(heard))
        await store.read_all(1, 1)  # the subscription has read and now waits for a notification
        _terminate(postgres_url)
        outcomes = []
        for _ in range(12):  # every pooled connection is dead once; each failure is a DatabaseError
            try:
                outcomes.append(await store.last_version("pg-fault"))
            except DatabaseError:
                outcomes.append(-1)
        assert outcomes[-1] == 1 and set(outcomes) <= {-1, 1}
        for attempt in range(12):
            try:
                await other.append("pg-fault", 1, events("B"), command("c1"))
                break
            except DatabaseError:
                assert attempt < 11
        # The subscription hears of it through a new listening connection, not the 60 s poll.
        event = (await asyncio.wait_for(next_event, 10)).events[0]
        assert (event.stream_id, event.version) == ("pg-fault", 2)
        await heard.aclose()  # type: ignore[attr-defined]
    finally:
        await store.close()
        await other.close()
