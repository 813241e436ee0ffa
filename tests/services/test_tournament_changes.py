"""The tournament feed's waker follows the store only while a watch is open, and misses no append made as it
starts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Collection

from eventstore import AsyncEventStore, CommandRecord, NewEvent, Page
from services.tournament.feed import Changes
from services.tournament.manager import stream_id

WAIT = 10.0  # seconds: a guard against a hang, never a measurement


class Watched:
    """The store, counting subscriptions; its head is read only once ``release`` is set."""

    def __init__(self, store: AsyncEventStore) -> None:
        self._store = store
        self.subscriptions = 0
        self.release = asyncio.Event()

    async def head(self) -> int:
        await self.release.wait()
        return await self._store.head()

    def subscribe(
        self, from_position: int = 1, linger: float = 0.0, types: Collection[str] = ()
    ) -> AsyncIterator[Page]:
        self.subscriptions += 1
        return self._store.subscribe(from_position, linger, types)


async def append(store: AsyncEventStore, tournament_id: str, version: int) -> None:
    command = CommandRecord(command_id=f"c{version}", actor="admin", type="x", payload=b"{}")
    await store.append(stream_id(tournament_id), version, [NewEvent(type="PlayerCheckedIn", data=b"{}")], command)


async def test_an_append_made_before_the_subscription_read_the_head_wakes_the_waiter(store: AsyncEventStore) -> None:
    watched = Watched(store)
    changes = Changes(watched)  # type: ignore[arg-type]
    try:
        with changes.watching():
            waiter = changes.waiter("t1")
            await append(store, "t1", 0)  # committed while the subscription waits for the head
            watched.release.set()
            await asyncio.wait_for(waiter, WAIT)
            later = changes.waiter("t1")
            await append(store, "t1", 1)
            await asyncio.wait_for(later, WAIT)
    finally:
        await changes.stop()


async def test_nothing_is_followed_without_a_watch(store: AsyncEventStore) -> None:
    watched = Watched(store)
    watched.release.set()
    changes = Changes(watched)  # type: ignore[arg-type]
    try:
        await append(store, "t1", 0)
        await asyncio.sleep(0)
        assert watched.subscriptions == 0
        with changes.watching():
            waiter = changes.waiter("t1")
            await append(store, "t1", 1)
            await asyncio.wait_for(waiter, WAIT)
        assert watched.subscriptions == 1
    finally:
        await changes.stop()
