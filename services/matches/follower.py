"""Following the other instances' appends to the matches this one holds, for a server that shares its database.

One subscription per process, over the store's global order, asks the database only for the events other
instances appended to the streams ``streams`` names when it reads (the matches loaded, being loaded or owned:
``eventstore/foreign.py``); they are folded into the loaded matches (``MatchManager.apply_foreign``), which
hands them to their watchers. The events of
one command (one transaction, consecutive in the global order) are handed over together, as the instance that
appended them hands them to its own watchers: the states between them are no state a seat can act on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Protocol

from eventstore import Page, RecordedEvent, StoreError
from eventstore.foreign import Streams
from services.core.tasks import cancel

log = logging.getLogger(__name__)

LINGER = 0.02
"""Seconds the follower lets commits gather between reads: one query per interval instead of one per commit."""
RETRY = 1.0
"""Seconds before the follower reads the store again after it failed."""
AHEAD = 4096
"""Events the reader may get ahead of the folding."""


class GlobalOrder(Protocol):
    """The part of the store a follower reads (``eventstore.foreign.ForeignReads``)."""

    async def head(self) -> int: ...
    def subscribe(self, from_position: int, linger: float, streams: Streams) -> AsyncIterator[Page]: ...


_End = StoreError | None
"""What ends a subscription: a store fault, or the store closing."""


class Follower:
    """Hands every event of ``streams`` another instance commits from now on, in global order, to ``fold``: a
    command's events at once."""

    def __init__(
        self, source: GlobalOrder, fold: Callable[[Sequence[RecordedEvent]], Awaitable[None]], streams: Streams
    ) -> None:
        self._source = source
        self._fold = fold
        self._streams = streams
        self._task: asyncio.Task[None] | None = None
        self.lag = 0.0
        """Seconds between the commit of the last command folded and its folding here (metrics)."""
        self.position = 0
        """The last position read past (its events handed over), or the head when it started (the lag metric)."""

    async def start(self) -> None:
        if self._task is None:
            head = self.position = await self._source.head()
            self._task = asyncio.create_task(self._run(head + 1), name="duelhall-follower")

    async def stop(self) -> None:
        if self._task is not None:
            await cancel(self._task)
            self._task = None

    async def _run(self, from_position: int) -> None:
        """Until the store closes; a store fault pauses it, and it resumes after the last event it folded."""
        position = from_position
        while True:
            # The subscription hands over what one read returned without pausing in between: a reader task
            # queues it whole, and what is queued when the folding looks is folded command by command.
            queue: asyncio.Queue[RecordedEvent | int | _End] = asyncio.Queue(AHEAD)
            reader = asyncio.create_task(self._read(position, queue), name="duelhall-follower-read")
            try:
                while True:
                    taken = [await queue.get()]
                    while isinstance(taken[-1], RecordedEvent | int) and not queue.empty():
                        taken.append(queue.get_nowait())
                    events = [item for item in taken if isinstance(item, RecordedEvent)]
                    for command in commands(events):
                        await self._fold(command)
                        self.position = command[-1].position
                        position = self.position + 1
                        self.lag = max(0.0, time.time() - command[-1].meta.recorded_at.timestamp())
                    # A read covers more than the events it found: the other streams' and this instance's own.
                    covered = max((item for item in taken if type(item) is int), default=0)
                    if covered > self.position:
                        self.position = covered
                        position = covered + 1
                    end = taken[-1]
                    if end is None:
                        return
                    if isinstance(end, StoreError):
                        raise end
            except StoreError as exc:
                log.warning("following paused at position %d: %s; retrying in %.0f s", position, exc, RETRY)
                await asyncio.sleep(RETRY)
            finally:
                await cancel(reader)

    async def _read(self, position: int, queue: asyncio.Queue[RecordedEvent | int | _End]) -> None:
        try:
            async for page in self._source.subscribe(position, LINGER, self._streams):
                for recorded in page.events:
                    await queue.put(recorded)
                await queue.put(page.through)
        except StoreError as exc:
            await queue.put(exc)
        else:
            await queue.put(None)


def commands(events: Sequence[RecordedEvent]) -> list[list[RecordedEvent]]:
    """Consecutive events of one stream and one command, grouped, in order."""
    grouped: list[list[RecordedEvent]] = []
    for recorded in events:
        previous = grouped[-1][-1] if grouped else None
        if (
            previous is not None
            and previous.stream_id == recorded.stream_id
            and previous.meta.command_id == recorded.meta.command_id
            and previous.version + 1 == recorded.version
        ):
            grouped[-1].append(recorded)
        else:
            grouped.append([recorded])
    return grouped
