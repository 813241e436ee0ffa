"""Subscriptions and concurrent writers (issue #3 items 3-4 and its concurrency test)."""

from __future__ import annotations

import asyncio
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator

import pytest

from eventstore import (
    AsyncEventStore,
    Page,
    RecordedEvent,
    Snapshot,
    StoreError,
    WrongExpectedVersion,
    open_store,
    open_sync_store,
    verify_chain,
)
from eventstore.subscription import HeadSignal
from tests.eventstore.conftest import command, events, run_sql, store_hears

WAIT = 30.0  # seconds: a guard against a hang, never a measurement


async def collect(subscription: AsyncIterator[Page], count: int) -> list[RecordedEvent]:
    """The events of a subscription's next pages, until they hold ``count``."""
    seen: list[RecordedEvent] = []
    async for page in subscription:
        seen += page.events
        if len(seen) >= count:
            break
    return seen


async def test_catches_up_then_goes_live(store: AsyncEventStore) -> None:
    await store.append("m1", 0, events("A", "B"), command("c1"))
    await store.append("m2", 0, events("C"), command("c2"))
    subscription = store.subscribe(2)
    assert [e.position for e in await collect(subscription, 2)] == [2, 3]
    live = asyncio.create_task(collect(subscription, 2))
    await store.append("m1", 2, events("D", "E"), command("c3"))
    assert [(e.position, e.type) for e in await asyncio.wait_for(live, WAIT)] == [(4, "D"), (5, "E")]


async def test_a_subscription_ends_when_the_store_closes(database: str) -> None:
    store = await open_store(database, poll_interval=3600)
    waiting = asyncio.create_task(collect(store.subscribe(), 1))
    await store.append("m1", 0, events("A"), command("c1"))
    assert len(await asyncio.wait_for(waiting, WAIT)) == 1
    idle = asyncio.create_task(collect(store.subscribe(2), 1))
    await store.close()
    assert await asyncio.wait_for(idle, WAIT) == []


async def test_a_closed_store_refuses_the_core_and_every_part(database: str) -> None:
    store = await open_store(database)
    await store.append("m1", 0, events("A"), command("c1"))
    await store.close()
    calls = [
        store.append("m1", 1, events("B"), command("c2")),
        store.read_stream("m1"),
        store.head(),
        store.last_version("m1"),
        store.secrets.read("m1"),
        store.snapshots.save(Snapshot("m1", 1, "s1", b"x")),
        store.snapshots.load("m1", "s1"),
        store.rows.put("t", "k", b"v"),
        store.rows.list("t"),
    ]
    for call in calls:
        with pytest.raises(StoreError, match="closed"):
            await call


@pytest.mark.parametrize("group_commit", [True, False], ids=["group", "single"])
async def test_closing_finishes_the_appends_already_made(database: str, group_commit: bool) -> None:
    store = await open_store(database, group_commit=group_commit)
    appended, _ = await asyncio.wait_for(
        asyncio.gather(store.append("m1", 0, events("A"), command("c1")), store.close()), WAIT
    )
    assert appended.last_position == 1
    reopened = await open_store(database)
    try:
        assert await reopened.last_version("m1") == 1
    finally:
        await reopened.close()


async def test_a_commit_by_another_process_wakes_the_subscriber(database: str) -> None:
    # No polling to fall back on for PostgreSQL: only the notification can wake the subscriber in time.
    interval = 0.05 if database.startswith("sqlite") else 3600
    store = await open_store(database, poll_interval=interval)
    other = open_sync_store(database)
    try:
        waiting = asyncio.create_task(collect(store.subscribe(), 2))
        await asyncio.to_thread(other.append, "m1", 0, events("A", "B"), command("c1"))
        seen = await asyncio.wait_for(waiting, WAIT)
        assert [(e.position, e.stream_id) for e in seen] == [(1, "m1"), (2, "m1")]
    finally:
        other.close()
        await store.close()


async def write(store: AsyncEventStore, writer: int, rounds: int, shared: str) -> int:
    """Alternate appends to the writer's own stream and a shared one; retry lost races. Events written."""
    for n in range(rounds):
        stream = f"own-{writer}" if n % 2 == 0 else shared
        while True:
            version = await store.last_version(stream)
            try:
                await store.append(stream, version, events(f"w{writer}", f"n{n}"), command(f"{writer}:{n}"))
                break
            except WrongExpectedVersion:
                continue
    return 2 * rounds


@pytest.mark.parametrize("linger", [0.0, 0.01], ids=["eager", "lingering"])
@pytest.mark.parametrize("group_commit", [True, False], ids=["group", "single"])
async def test_sixteen_writers_and_a_live_subscriber(database: str, group_commit: bool, linger: float) -> None:
    """Two store instances (as two service processes), eight writers each, on distinct and shared streams."""
    stores = [await open_store(database, group_commit=group_commit, poll_interval=0.02) for _ in range(2)]
    try:
        subscriber = asyncio.create_task(collect(stores[0].subscribe(linger=linger), 16 * 12 * 2))
        written = await asyncio.gather(*(write(stores[w % 2], w, 12, f"shared-{w % 3}") for w in range(16)))
        seen = await asyncio.wait_for(subscriber, WAIT)
        assert sum(written) == len(seen) == await stores[1].head()
        assert [e.position for e in seen] == list(range(1, len(seen) + 1))
        by_stream: dict[str, list[RecordedEvent]] = defaultdict(list)
        for event in seen:
            by_stream[event.stream_id].append(event)
        for stream_id, stream in by_stream.items():
            assert [e.version for e in stream] == list(range(1, len(stream) + 1)), stream_id
            verify_chain(stream, await stores[1].read_commands(stream_id))
            assert stream == await stores[1].read_stream(stream_id)
        commands = {e.meta.command_id for e in seen}
        assert commands == {f"{w}:{n}" for w in range(16) for n in range(12)}
    finally:
        for store in stores:
            await store.close()


async def test_this_processs_own_commits_are_read_back_from_memory_and_anothers_from_the_database(
    store: AsyncEventStore, database: str
) -> None:
    other = await open_store(database)  # another process's store on the same database
    try:
        await store.append("m1", 0, events("A", "B"), command("c1"))
        await other.append("m2", 0, events("X"), command("c2"))
        await store.append("m1", 2, events("C"), command("c3"))
        # Behind the stores' backs: what is still read comes from memory, what is gone came from the database.
        run_sql(database, "DELETE FROM events")
        assert [e.type for e in (await store.read_all(1)).events] == ["A", "B"]  # up to the other store's commit
        assert (await store.read_all(3)).events == []
        assert [e.type for e in (await store.read_all(4)).events] == ["C"]
        assert (await other.read_all(1)).events == []
        assert [e.type for e in (await other.read_all(3)).events] == ["X"]
    finally:
        await other.close()


@pytest.mark.postgres
async def test_a_read_over_another_processs_commits_stops_where_this_ones_own_begin(postgres_url: str) -> None:
    """An instance never reads back from the database an event it appended and still holds: a follower on a shared
    database read every instance's events, its own included, at every gap another instance's commit left."""
    store, other = await open_store(postgres_url), await open_store(postgres_url)
    mine, theirs = f"own-{uuid.uuid4().hex}", f"other-{uuid.uuid4().hex}"
    try:
        first = (await store.append(mine, 0, events("A"), command("c1"))).first_position
        await other.append(theirs, 0, events("X", "Y"), command("c2"))
        own = (await store.append(mine, 1, events("C"), command("c3"))).first_position
        assert own == first + 3
        run_sql(postgres_url, f"UPDATE events SET type = 'changed' WHERE position = {own}")  # the database's copy
        page = await store.read_all(first + 1)
        assert ([e.type for e in page.events], page.more) == (["X", "Y"], True)
        assert [e.type for e in await collect(store.subscribe(first), 4)] == ["A", "X", "Y", "C"]
    finally:
        await other.close()
        await store.close()


@pytest.mark.postgres
async def test_another_processs_commits_are_read_once_for_every_subscriber_and_type(postgres_url: str) -> None:
    """Each subscriber of a few types read each of another instance's commits again, once per type: on the second
    of two instances most of its CPU per command. Read once, they are kept with this process's own commits."""
    store, other = await open_store(postgres_url), await open_store(postgres_url)
    mine, theirs = f"own-{uuid.uuid4().hex}", f"other-{uuid.uuid4().hex}"
    try:
        first = (await store.append(mine, 0, events("A"), command("c1"))).first_position
        await other.append(theirs, 0, events("X", "Y"), command("c2"))
        await store.append(mine, 1, events("C"), command("c3"))
        later = (await other.append(theirs, 2, events("Z"), command("c4"))).first_position
        await asyncio.wait_for(store_hears(store, later), WAIT)
        found = await store.read_all(first + 1, types=("X",))  # up to the head, past this store's own commit
        assert ([e.type for e in found.events], found.through) == (["X"], later)
        found = await store.read_all(first + 4, types=("Z",))
        assert ([e.type for e in found.events], found.through) == (["Z"], later)
        run_sql(postgres_url, f"DELETE FROM events WHERE position > {first}")  # behind the stores' backs
        assert [e.type for e in (await store.read_all(first + 1, types=("Y", "C"))).events] == ["Y", "C"]
        assert [e.type for e in (await store.read_all(first)).events] == ["A", "X", "Y", "C", "Z"]
    finally:
        await other.close()
        await store.close()


@pytest.mark.postgres
async def test_an_append_after_another_processs_one_read_in_the_global_order_is_planned_from_it(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a match's seats on two instances every append followed the other instance's: planned from a stale
    memory of the stream, it failed its guard and went the checked way (a transaction reading the stream's last
    event). The follower's read of the other's commit now tells the store where the stream stands."""
    store, other = await open_store(postgres_url), await open_store(postgres_url)
    stream = f"m-{uuid.uuid4().hex}"
    try:
        await store.append(stream, 0, events("A"), command("c1"))
        theirs = (await other.append(stream, 1, events("B"), command("c2"))).first_position
        await asyncio.wait_for(store_hears(store, theirs), WAIT)
        assert [e.type for e in (await store.read_all(theirs)).events] == ["B"]  # as the follower reads

        async def checked(*args: object) -> object:
            raise AssertionError("the append read the stream's last event back")

        monkeypatch.setattr(store, "_append_checked", checked)
        assert (await store.append(stream, 2, events("C"), command("c3"))).last_version == 3
    finally:
        await other.close()
        await store.close()


async def test_catching_up_over_another_process_commits_does_not_wait_for_the_next_commit(database: str) -> None:
    """This process's recent commits are read back from memory up to the first position another process
    committed; the subscriber must read on at once, not wait for a commit (or a poll) per such gap: a
    ``WatchLifecycle`` resumed on an instance that shares its database crawled through the missed changes."""
    stores = [await open_store(database, poll_interval=3600) for _ in range(2)]
    try:
        for n in range(6):
            await stores[n % 2].append(f"m{n}", 0, events("A"), command(f"c{n}"))
        await stores[0].head()  # the other process's commits are known to have happened
        seen = await asyncio.wait_for(collect(stores[0].subscribe(1), 6), 5)
        assert [e.position for e in seen] == list(range(1, 7))
    finally:
        for store in stores:
            await store.close()


async def test_a_wait_cancelled_as_a_commit_wakes_it_stops() -> None:
    """A subscriber's task cancelled in the same turn of the loop as a commit wakes its wait must stop: a wait
    that swallowed the cancellation kept a server's shutdown waiting for ever."""
    signal = HeadSignal(1)
    waiting = asyncio.ensure_future(signal.wait_past(1, 3600))
    await asyncio.sleep(0)  # the task is now waiting on the signal
    signal.advance(2)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting


async def test_a_read_of_some_types_past_the_head_reads_the_head_only(
    store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What an idle subscriber's poll costs (every 0.2 s on SQLite): one read, not one more per type."""
    head = (await store.append("m1", 0, events("A", "B"), command("c1"))).last_position
    runner = store.runner  # type: ignore[attr-defined]
    reads = []
    read = runner.read

    async def counted(statement: object, /, **values: object) -> object:
        reads.append(statement)
        return await read(statement, **values)

    monkeypatch.setattr(runner, "read", counted)
    found = await store.read_all(head + 1, types=("A", "B", "C"))
    assert (found.events, found.through, found.more) == ([], head, False)
    assert reads == [runner.sql.READ_HEAD]
