"""Following other processes' commits to a few streams (PostgreSQL): what a server instance reads of the others.

An instance needs the other instances' events only for the streams it holds (docs/operations.md, Running several
instances). A read covers a range of the global order, as every read does (positions are gap-free and visible in
commit order), but only the rows of the streams asked for leave the database, and never a row this process holds
in memory (``recent.py``): its own commits in the range are skipped there, the other processes' commits another of
its readers has read already are taken from there, and the database is read only over the rest, up to the head
this process has heard of.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection

from eventstore.leases import Fetch
from eventstore.model import Page, RecordedEvent
from eventstore.recent import RecentEvents
from eventstore.statements import recorded
from eventstore.subscription import PAGE, HeadSignal, follow

READ = """
SELECT position, stream_id, version, type, data, command_id, actor, recorded_at, hash, chain FROM events
WHERE position >= $1 AND position <= $2 AND stream_id = ANY($3::text[])
ORDER BY position LIMIT $4
"""
"""The events of some streams in a range of positions (the columns of ``statements.EVENT_COLUMNS``)."""

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
        position the read covered (this process's own commits included, skipped)."""
        head = self._signal.position  # committed, so every position up to it is visible
        if from_position > head:
            return Page([], from_position - 1, False)
        held = self._recent.others(from_position, limit)
        if held is not None:
            # This process's own commits, and other processes' that another reader here has read already.
            others, covered = held
            followed = set(streams())
            return Page([event for event in others if event.stream_id in followed], covered, covered < head)
        gap_end = self._recent.next_held(from_position)
        through = head if gap_end is None else min(head, gap_end - 1)
        wanted = sorted(set(streams()))
        if not wanted:
            return Page([], through, through < head)
        rows = await self._fetch(READ, from_position, through, wanted, limit)
        found = [recorded(row) for row in rows]
        for event in found:
            self._seen(event)
        if len(found) >= limit:
            return Page(found, found[-1].position, True)
        return Page(found, through, through < head)

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
