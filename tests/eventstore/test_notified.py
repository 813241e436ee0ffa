"""On PostgreSQL a commit's notification may reach the store before the commit's reply: subscribers still take
this process's own commits from memory, never from the database."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest

from eventstore import AsyncEventStore, open_store
from eventstore.postgres import AsyncPostgresStore
from eventstore.statements import Sql
from tests.eventstore.conftest import command, events, run_sql

WAIT = 30.0  # seconds: a guard against a hang, never a measurement
COMMANDS = 100
REPLY_DELAY = 0.01
"""Seconds between an append's reply coming and the store taking it."""
APPEND_FUNCTION = "duelhall_append"

pytestmark = pytest.mark.postgres


async def test_subscribers_never_read_back_this_stores_own_commits(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_sql(
        postgres_url, "TRUNCATE events, commands, secrets, snapshots, projection_rows", "UPDATE head SET position = 0"
    )
    store = await open_store(postgres_url, poll_interval=60.0)
    assert isinstance(store, AsyncPostgresStore)
    reads = _count_global_reads(store)
    _slow_replies(monkeypatch)
    try:
        # A first command before the subscriptions: their first read is of this store's commits too (a read of an
        # empty store could run in the database after the first commits landed).
        await store.append("m", 0, events("Created", "Play", "Ended"), command("c"))
        typed = asyncio.create_task(_follow(store, ("Created", "Ended")))
        every = asyncio.create_task(_follow(store, ()))
        # Concurrent commands, as a server's: the writer batches them while notifications arrive.
        await asyncio.gather(
            *(store.append(f"m{n}", 0, events("Created", "Play", "Ended"), command(f"c{n}")) for n in range(COMMANDS))
        )
        async with asyncio.timeout(WAIT):
            assert await typed == 2 * (COMMANDS + 1)
            assert await every == 3 * (COMMANDS + 1)
        assert reads == [], "events read back from the database"
    finally:
        await store.close()


async def _follow(store: AsyncEventStore, types: tuple[str, ...]) -> int:
    """How many events a subscription from the start hands over, until it has seen every command's last event."""
    seen = ended = 0
    async for page in store.subscribe(1, types=types):
        seen += len(page.events)
        ended += sum(e.type == "Ended" for e in page.events)
        if ended == COMMANDS + 1:
            return seen
    raise AssertionError("the store closed")


def _slow_replies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each append's reply is taken in a moment after it came: its commit's notification is heard first (as it
    often is on a busy server, where both arrive in one turn of the loop)."""
    fetchval = asyncpg.Connection.fetchval

    async def late(self: asyncpg.Connection, query: str, *args: Any, **kwargs: Any) -> Any:
        value = await fetchval(self, query, *args, **kwargs)
        if query.lstrip().startswith(f"SELECT {APPEND_FUNCTION}"):
            await asyncio.sleep(REPLY_DELAY)
        return value

    monkeypatch.setattr(asyncpg.Connection, "fetchval", late)


def _count_global_reads(store: AsyncPostgresStore) -> list[int]:
    """The positions of the events the store's reads of the global order take from the database from now on."""
    runner: Any = store.runner
    read, sql, found = runner.read, runner.sql, []
    global_reads = (sql.READ_ALL, sql.READ_TYPE)

    async def counted(statement: Sql, /, **values: Any) -> Any:
        rows = await read(statement, **values)
        if any(statement is each for each in global_reads):
            found.extend(row[0] for row in rows)
        return rows

    runner.read = counted
    return found
