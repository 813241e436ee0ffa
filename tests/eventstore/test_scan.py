"""Reads of the global order for a few event types: ``read_all`` and ``subscribe`` with ``types`` (on both
backends, from this process's recent commits and from the database)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventstore import AsyncEventStore, Page, open_store
from tests.eventstore.conftest import command, events, run_sql

WAIT = 30.0  # seconds: a guard against a hang, never a measurement
WANTED = ("Created", "Ended")


async def fill(store: AsyncEventStore, streams: list[list[str]]) -> None:
    for n, types in enumerate(streams):
        await store.append(f"m{n}", 0, events(*types), command(f"c{n}"))


async def scanned_all(store: AsyncEventStore, limit: int) -> list[Page]:
    """Every scan from position 1 to the head, each from where the last ended."""
    scans, position, head = [], 1, await store.head()
    while position <= head:
        found = await store.read_all(position, limit, WANTED)
        assert found.through >= position  # every scan moves on
        scans.append(found)
        position = found.through + 1
    return scans


async def test_a_scan_returns_only_the_types_asked_for_in_order_up_to_the_head(
    store: AsyncEventStore, database: str
) -> None:
    await fill(store, [["Created", "Play", "Play"], ["Play", "Ended", "Created"], ["Play"]])
    fresh = await open_store(database)  # nothing in memory: the database answers
    try:
        for reader in (store, fresh):
            found = await reader.read_all(1, types=WANTED)
            assert [(e.position, e.type) for e in found.events] == [(1, "Created"), (5, "Ended"), (6, "Created")]
            assert (found.through, found.more) == (7, False)
            assert (await reader.read_all(6, types=("Ended",))) == Page([], 7, False)
            assert (await reader.read_all(8, types=WANTED)) == Page([], 7, False)  # past the head: nothing covered
    finally:
        await fresh.close()


async def test_a_full_page_stops_the_scan_at_its_last_event(store: AsyncEventStore, database: str) -> None:
    await fill(store, [["Created", "Created", "Ended", "Created", "Play", "Ended"]])
    fresh = await open_store(database)
    try:
        for reader in (store, fresh):
            found = await reader.read_all(1, 2, WANTED)
            # Two creations fill their page at position 2: an end after it may come after a third creation.
            assert [e.position for e in found.events] == [1, 2]
            assert (found.through, found.more) == (2, True)
    finally:
        await fresh.close()


STREAMS = st.lists(st.lists(st.sampled_from(("Created", "Ended", "Play")), min_size=1, max_size=6), max_size=8)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(streams=STREAMS, limit=st.integers(1, 4))
async def test_scans_from_where_each_ended_miss_and_repeat_nothing(
    database: str, streams: list[list[str]], limit: int
) -> None:
    """Whatever the events and the page size, from memory and from the database alike."""
    run_sql(database, "DELETE FROM events", "DELETE FROM commands", "UPDATE head SET position = 0")
    store = await open_store(database)
    fresh = await open_store(database)
    try:
        await fill(store, streams)
        wanted = [e for e in (await store.read_all(1, 10_000)).events if e.type in WANTED]
        for reader in (store, fresh):
            scans = await scanned_all(reader, limit)
            assert [e for found in scans for e in found.events] == wanted
            assert all(found.more for found in scans[:-1]) and not (scans and scans[-1].more)
    finally:
        await store.close()
        await fresh.close()


async def collect(subscription: AsyncIterator[Page], through: int) -> list[Page]:
    """A subscription's scans until one covers ``through``."""
    seen: list[Page] = []
    async for found in subscription:
        seen.append(found)
        if found.through >= through:
            break
    return seen


async def test_a_types_subscription_catches_up_then_goes_live_past_the_events_it_skips(
    store: AsyncEventStore,
) -> None:
    await fill(store, [["Created", "Play"]])
    subscription = store.subscribe(1, types=WANTED)
    caught_up = await asyncio.wait_for(collect(subscription, 2), WAIT)
    assert [e.position for found in caught_up for e in found.events] == [1]
    await store.append("m0", 2, events("Play", "Play"), command("c1"))  # skipped, yet covered
    assert (await asyncio.wait_for(collect(subscription, 4), WAIT))[-1] == Page([], 4, False)
    await store.append("m0", 4, events("Play", "Ended"), command("c2"))
    live = await asyncio.wait_for(collect(subscription, 6), WAIT)
    assert [(e.position, e.type) for found in live for e in found.events] == [(6, "Ended")]
    await subscription.aclose()  # type: ignore[attr-defined]


async def test_a_types_subscription_reads_another_processs_commits_from_the_database(database: str) -> None:
    """This process's commits come from memory up to the first another process made: read on at once."""
    stores = [await open_store(database, poll_interval=3600) for _ in range(2)]
    try:
        for n in range(6):
            await stores[n % 2].append(f"m{n}", 0, events("Created", "Play"), command(f"c{n}"))
        await stores[0].head()  # the other process's commits are known to have happened
        seen = await asyncio.wait_for(collect(stores[0].subscribe(1, types=WANTED), 12), 5)
        assert [e.position for found in seen for e in found.events] == list(range(1, 12, 2))
    finally:
        for store in stores:
            await store.close()
