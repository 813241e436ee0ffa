"""Following other processes' commits to a few streams (PostgreSQL): what a server instance reads of the others.

An instance needs the other instances' events only for the streams it holds (docs/operations.md, Running several
instances). A read covers a range of the global order, as every read does (positions are gap-free and visible in
commit order), but only the rows of the streams asked for leave the database, and never a row this process holds
in memory (``recent.py``): its own commits in the range are skipped there, the other processes' commits another of
its readers has read already are taken from there, and one query takes the rest, up to the head this process has
heard of, leaving out by position the rows it holds. One query, not one per run of the others' commits between
this process's own: with a match's seats on two instances the two instances' commands alternate.
"""

from __future__ import annotations

import heapq
from collections.abc import AsyncIterator, Callable, Collection
from operator import attrgetter

from eventstore.leases import Fetch
from eventstore.model import Page, RecordedEvent
from eventstore.recent import RecentEvents
from eventstore.statements import EVENT_COLUMNS, recorded
from eventstore.subscription import PAGE, HeadSignal, follow

COLUMNS = ", ".join(column.name for column in EVENT_COLUMNS)
"""The columns ``recorded`` reads a row of."""
OTHERS = f"""
SELECT {COLUMNS} FROM events
WHERE position >= $1 AND position <= $2 AND position <> ALL($3::bigint[])
ORDER BY position LIMIT $4
"""
"""The events in a range of positions but those at the positions given (held in memory)."""
READ = f"""
SELECT {COLUMNS} FROM events
WHERE position >= $1 AND position <= $2 AND position <> ALL($3::bigint[]) AND stream_id = ANY($4::text[])
ORDER BY position LIMIT $5
"""
"""The same, of some streams only."""
SPAN = PAGE
"""Positions one read covers at most: the positions held in memory it leaves out are sent along with it."""

Streams = Callable[[], Collection[str]]
"""The streams to follow, asked again before each read (they change as the follower's owner loads and drops)."""


class ForeignReads:
    """Reads of other processes' commits to chosen streams; ``subscribe`` follows them live."""

    def __init__(
        self,
        fetch: Fetch,
        recent: RecentEvents,
        signal: HeadSignal,
        poll_interval: float,
        seen: Callable[[RecordedEvent], None],
    ) -> None:
        self._fetch, self._recent, self._signal, self._poll_interval = fetch, recent, signal, poll_interval
        self._seen = seen
        """Told of each event read: a stream's last one read is the hint its next append here is planned from."""

    async def head(self) -> int:
        """The highest position this process knows committed (its own commits and those it was notified of): at
        most the database's head, so a follower that starts from it misses nothing."""
        return self._signal.position

    async def read(self, from_position: int, limit: int, streams: Streams) -> Page:
        """Other processes' events of ``streams`` from ``from_position``, up to ``limit``; ``through`` is the last
        position the read covered (this process's own commits included, skipped). One query at most, however this
        process's own commits and the other processes' interleave in the range (with a match's seats on two
        instances, every other command is the other instance's)."""
        head = self._signal.position  # committed, so every position up to it is visible
        if from_position > head:
            return Page([], from_position - 1, False)
        through = min(head, from_position + SPAN - 1)
        held, kept = self._recent.within(from_position, through)
        followed = set(streams())
        found = [event for event in kept if event.stream_id in followed]
        if followed and len(held) < through - from_position + 1:
            rows = await self._fetch(READ, from_position, through, held, sorted(followed), limit)
            read = [recorded(row) for row in rows]
            for event in read:
                self._seen(event)
            if len(read) >= limit:  # a full page: the range may hold more past its last event
                through = read[-1].position
            found = [e for e in heapq.merge(found, read, key=attrgetter("position")) if e.position <= through]
        if len(found) > limit:
            found = found[:limit]
            through = found[-1].position
        return Page(found, through, through < head)

    async def others(self, from_position: int, through: int) -> list[RecordedEvent]:
        """Every event from ``from_position`` through ``through`` that this process does not hold (read in one
        query, never a row it holds); at most ``SPAN`` positions."""
        held, _ = self._recent.within(from_position, through)
        rows = await self._fetch(OTHERS, from_position, through, held, through - from_position + 1)
        return [recorded(row) for row in rows]

    def subscribe(self, from_position: int, linger: float, streams: Streams) -> AsyncIterator[Page]:
        """``read`` after ``read`` from ``from_position`` on, as ``AsyncEventStore.subscribe``; ends when the store
        closes."""
        return follow(
            lambda position: self.read(position, PAGE, streams),
            self._signal,
            from_position,
            self._poll_interval,
            linger,
        )


def foreign_of(store: object) -> ForeignReads | None:
    """The foreign reads of a store shared with other processes (PostgreSQL); None for one that is not."""
    found = getattr(store, "foreign", None)
    return found if isinstance(found, ForeignReads) else None
