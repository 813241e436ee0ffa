"""Following the store's global order, for a server that shares its database with other instances.

One subscription per process: each event is read once, and those another instance appended are folded
into the loaded matches (``MatchManager.apply_foreign``), which hands them to their watchers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Protocol

from eventstore import RecordedEvent, StoreError
from services.tasks import cancel

log = logging.getLogger(__name__)

LINGER = 0.02
"""Seconds the follower lets commits gather between reads: one query per interval instead of one per commit."""
RETRY = 1.0
"""Seconds before the follower reads the store again after it failed."""


class GlobalOrder(Protocol):
    """The part of the store a follower reads."""

    async def head(self) -> int: ...
    def subscribe(self, from_position: int = 1, linger: float = 0.0) -> AsyncIterator[RecordedEvent]: ...


class Follower:
    """Hands every event committed from now on, in global order, to ``fold``."""

    def __init__(self, source: GlobalOrder, fold: Callable[[RecordedEvent], Awaitable[None]]) -> None:
        self._source = source
        self._fold = fold
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self._task is None:
            head = await self._source.head()
            self._task = asyncio.create_task(self._run(head + 1), name="duelhall-follower")

    async def stop(self) -> None:
        if self._task is not None:
            await cancel(self._task)
            self._task = None

    async def _run(self, from_position: int) -> None:
        """Until the store closes; a store fault pauses it, and it resumes after the last event it folded."""
        position = from_position
        while True:
            try:
                async for recorded in self._source.subscribe(position, linger=LINGER):
                    await self._fold(recorded)
                    position = recorded.position + 1
                return
            except StoreError as exc:
                log.warning("following paused at position %d: %s; retrying in %.0f s", position, exc, RETRY)
                await asyncio.sleep(RETRY)
