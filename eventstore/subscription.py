"""Catch-up-then-live subscriptions in global order (docs/eventstore.md "Subscriptions").

Positions are gap-free and become visible in commit order, so a subscriber only ever asks for
``position >= next``: it cannot skip an event committed by a concurrent writer. Between reads it waits on
a ``HeadSignal``: raised by this process's own commits, by PostgreSQL notifications, and else by a timeout
(polling, for other processes' commits on SQLite).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Collection

from eventstore.errors import DatabaseError
from eventstore.model import RecordedEvent, Scan

RETRY_FIRST, RETRY_LAST = 0.05, 2.0
"""Seconds before reading again after a failed read, doubling up to the last."""

PAGE = 500


class HeadSignal:
    """The highest committed position this process has heard of; subscribers wait for it to pass theirs."""

    def __init__(self, position: int = 0) -> None:
        self.position = position
        self.closed = False
        self._waiters: set[asyncio.Future[None]] = set()

    def advance(self, position: int) -> None:
        """Record that ``position`` is committed and wake the waiters (call on the event loop)."""
        if position > self.position:
            self.position = position
            self._wake()

    def close(self) -> None:
        """End every subscription waiting on this signal."""
        self.closed = True
        self._wake()

    async def wait_past(self, position: int, timeout: float) -> None:
        """Return once the head is past ``position``, the signal closed, or ``timeout`` seconds passed."""
        if self.position > position or self.closed:
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.add(waiter)
        try:
            await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            pass
        finally:
            self._waiters.discard(waiter)

    def _wake(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()


async def follow(
    read: Callable[[int], Awaitable[Scan]],
    signal: HeadSignal,
    from_position: int,
    poll_interval: float,
    linger: float = 0.0,
) -> AsyncGenerator[Scan, None]:
    """Every scan ``read`` makes from ``from_position`` on, each from where the last one ended, in order; ends
    when the signal closes.

    ``linger``: once caught up, wait at least this long before the next read, so that one read takes the
    commits of that whole interval (a follower that can afford the delay saves a query per commit).
    """
    position = from_position
    delay = RETRY_FIRST
    while not signal.closed:
        # Taken before the read: a commit announced after this line wakes the wait below at once.
        heard = signal.position
        try:
            found = await read(position)
        except DatabaseError:
            # The database is down or a pooled connection died: read the same position again once it is
            # back, so the subscriber neither misses an event nor has to resubscribe.
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_LAST)
            continue
        delay = RETRY_FIRST
        if found.through >= position:
            yield found
            position = found.through + 1
            # Short of what was heard of before the read: a read from this process's recent commits stops at
            # another process's (a gap in memory, not in the database). Read on at once, as after a full page.
            if found.more or position <= heard:
                continue
        if linger:
            await asyncio.sleep(linger)
        await signal.wait_past(max(position - 1, heard), poll_interval)


def every_event(
    read_all: Callable[[int, int], Awaitable[list[RecordedEvent]]],
    signal: HeadSignal,
    from_position: int,
    poll_interval: float,
    linger: float = 0.0,
) -> AsyncIterator[RecordedEvent]:
    """``subscribe``: every event from ``from_position`` on, in order, each exactly once."""

    async def page(position: int) -> Scan:
        events = await read_all(position, PAGE)
        return Scan(events, events[-1].position if events else position - 1, len(events) >= PAGE)

    return _events(follow(page, signal, from_position, poll_interval, linger))


def of_types(
    scan: Callable[[int, Collection[str], int], Awaitable[Scan]],
    types: Collection[str],
    signal: HeadSignal,
    from_position: int,
    poll_interval: float,
    linger: float = 0.0,
) -> AsyncIterator[Scan]:
    """``subscribe_types``: every ``scan`` of ``types`` from ``from_position`` on, each from where the last
    ended."""
    return follow(lambda position: scan(position, types, PAGE), signal, from_position, poll_interval, linger)


async def _events(scans: AsyncGenerator[Scan, None]) -> AsyncIterator[RecordedEvent]:
    async with contextlib.aclosing(scans):
        async for found in scans:
            for event in found.events:
                yield event
