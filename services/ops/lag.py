"""How far this server's readers of the store's global order are behind its head: the match list's projection
(what ``ListMatches`` and the lifecycle show) and, on a shared database, the follower (what other instances
committed and this one has not yet handed to its watchers).

Sampled every ``LAG_SECONDS`` on the server's clock, one query for the head each time, not at each scrape: the
metrics listener collects on a thread of its own, away from the event loop the store is read on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping

from prometheus_client import Gauge

from eventstore import StoreError
from services.core.clock import Alarm, Clock
from services.core.tasks import cancel

LAG_SECONDS = 5.0


class LagSampler:
    """Sets ``gauge`` (label ``reader``) to the events between the store's head and each reader's position;
    a reader whose position is None (no follower) is not shown."""

    def __init__(
        self,
        head: Callable[[], Awaitable[int]],
        readers: Mapping[str, Callable[[], int | None]],
        gauge: Gauge,
        clock: Clock,
        interval: float = LAG_SECONDS,
    ) -> None:
        self._head, self._readers, self._gauge = head, readers, gauge
        self._clock, self._interval = clock, interval
        self._alarm: Alarm | None = None
        self._task: asyncio.Task[None] | None = None

    async def sample(self) -> None:
        """Reads the head once and sets each reader's lag."""
        try:
            head = await self._head()
        except StoreError:  # the store is down: the lags keep their last values, the store's faults are logged
            return
        for reader, position in self._readers.items():
            at = position()
            if at is not None:  # a reader may pass the head read a moment ago: it is not behind
                self._gauge.labels(reader).set(max(0, head - at))

    def start(self) -> None:
        self._alarm = self._clock.call_later(0, self._due)

    async def stop(self) -> None:
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        if self._task is not None:
            await cancel(self._task)
            self._task = None

    def _due(self) -> None:
        self._task = asyncio.ensure_future(self._next())

    async def _next(self) -> None:
        await self.sample()
        self._alarm = self._clock.call_later(self._interval, self._due)
