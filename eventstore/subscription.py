"""Catch-up-then-live subscriptions in global order (docs/eventstore.md "Subscriptions").

Positions are gap-free and become visible in commit order, so a subscriber only ever asks for
``position >= next``: it cannot skip an event committed by a concurrent writer. Between reads it waits on
a ``HeadSignal``: raised by this process's own commits, by PostgreSQL notifications, and else by a timeout
(polling, for other processes' commits on SQLite).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Awaitable, Callable

from eventstore.errors import DatabaseError
from eventstore.model import Page

RETRY_FIRST, RETRY_LAST = 0.05, 2.0
"""Seconds before reading again after a failed read, doubling up to the last."""

PAGE = 500
"""Events a subscription reads at a time (of each type, with types)."""


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
            # Not asyncio.wait_for: on Python 3.11 it swallows a cancellation that arrives as the waiter is woken,
            # and a subscriber's task then never stops (a server's shutdown waited for it for ever).
            async with asyncio.timeout(timeout):
                await waiter
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
    read: Callable[[int], Awaitable[Page]],
    signal: HeadSignal,
    from_position: int,
    poll_interval: float,
    linger: float = 0.0,
) -> AsyncGenerator[Page, None]:
    """``subscribe``: every page ``read`` finds from ``from_position`` on, each read from where the last one
    ended, in order; a page that covered nothing new is not handed on. Ends when the signal closes.

    ``linger``: once caught up, wait for the next tick of this many seconds on the loop's clock before the next
    read, so that one read takes the commits of that interval (a follower that can afford the delay saves a query
    per commit), and the subscribers that linger as long wake in the same turn of the loop: their reads of other
    processes' commits are one (``streams.AsyncStreams``) and their work one wake-up.
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
            await asyncio.sleep(linger - asyncio.get_running_loop().time() % linger)
        await signal.wait_past(max(position - 1, heard), poll_interval)
