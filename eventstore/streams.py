"""The store's core calls, ``append`` and the reads, written once per face over a runner, as the parts are.

Each read is compiled statements run by the backend's runner (``parts.py``) and how the rows come back. What
stays with a backend is how an append is committed (``append_batch``, and on the async face ``_commit``:
SQLite's writer thread, PostgreSQL's write loop), the signal its commits raise (``subscription.py``) and what
it keeps in memory: the recent events (``recent.py``), PostgreSQL's last events (``_seen_last``). The
contracts are the protocols' in ``eventstore/store.py``.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping, Sequence
from operator import attrgetter
from typing import Any

from eventstore.batch import AppendOutcome
from eventstore.errors import StoreError
from eventstore.model import (
    Appended,
    AppendRequest,
    CommandRecord,
    NewEvent,
    Origin,
    Page,
    RecordedEvent,
    append_request,
)
from eventstore.parts import (
    AsyncRowsPart,
    AsyncRunner,
    AsyncSecretsPart,
    AsyncSnapshotsPart,
    SyncRowsPart,
    SyncRunner,
    SyncSecretsPart,
    SyncSnapshotsPart,
)
from eventstore.recent import RecentEvents
from eventstore.statements import MAX_VERSION, recorded
from eventstore.subscription import PAGE, HeadSignal, follow

Others = Callable[[int, int], Awaitable[list[RecordedEvent]]]
"""Reads the events from one position through another that this process does not hold (``ForeignReads.others``)."""

# -- statements and how the rows come back, shared by both faces -----------------------------------------


def _appended(outcome: AppendOutcome) -> Appended:
    if isinstance(outcome, StoreError):
        raise outcome
    return outcome


def _stream_range(stream_id: str, from_version: int, to_version: int | None) -> dict[str, Any]:
    last = MAX_VERSION if to_version is None else to_version
    return {"stream_id": stream_id, "from_version": from_version, "to_version": last}


def _type_reads(from_position: int, limit: int, types: Collection[str], head: int) -> list[dict[str, Any]]:
    """READ_TYPE's values for each type, up to ``head``: every position up to it is committed and visible. None
    past the head (an idle subscriber's poll on SQLite: one read of the head, not one more per type)."""
    if head < from_position:
        return []
    return [{"type": t, "from_position": from_position, "through": head, "limit": limit} for t in types]


def _limit(limit: int | None) -> int:
    return MAX_VERSION if limit is None else limit


def _page(events: list[RecordedEvent], from_position: int, limit: int) -> Page:
    """A read of every type: it covered up to its last event (nothing when empty)."""
    return Page(events, events[-1].position if events else from_position - 1, len(events) >= limit)


def _typed_page(pages: Sequence[Sequence[RecordedEvent]], limit: int, head: int, from_position: int) -> Page:
    """A read of some types from a READ_TYPE page per type, each read from ``from_position`` to ``head``: a full
    page covers its type only up to its last event, so the read covers every type only that far."""
    through = max(head, from_position - 1)
    for page in pages:
        if len(page) >= limit:
            through = min(through, page[-1].position)
    found = sorted((e for page in pages for e in page if e.position <= through), key=attrgetter("position"))
    return Page(found, through, through < head)


def _commands(rows: Sequence[Any]) -> list[tuple[CommandRecord, int, int]]:
    return [(CommandRecord(*row[:4]), row[4], row[5]) for row in rows]


class _Streams:
    """What both faces do with the rows of a stream read."""

    def _seen_last(self, event: RecordedEvent) -> None:
        """``event`` is a stream's last as far as a read showed (read to its end, or from the global order):
        PostgreSQL remembers it as the hint its next append is planned from."""

    def _stream(self, rows: Sequence[Any], to_version: int | None) -> list[RecordedEvent]:
        stream = list(map(recorded, rows))
        if stream and to_version is None:
            self._seen_last(stream[-1])
        return stream


# -- the blocking face -------------------------------------------------------------------------------------


class SyncStreams(_Streams, ABC):
    """``SyncEventStore`` over a runner; the backend commits (``append_batch``)."""

    def __init__(self, runner: SyncRunner) -> None:
        self.runner = runner
        self.secrets = SyncSecretsPart(runner)
        self.snapshots = SyncSnapshotsPart(runner)
        self.rows = SyncRowsPart(runner)

    @abstractmethod
    def append_batch(self, requests: Sequence[AppendRequest]) -> list[AppendOutcome]:
        """Commit many appends in one transaction; each request gets its own Appended or error."""

    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command: CommandRecord,
        secrets: Mapping[str, bytes] | None = None,
        origin: Origin | None = None,
    ) -> Appended:
        (outcome,) = self.append_batch([append_request(stream_id, expected_version, events, command, secrets, origin)])
        return _appended(outcome)

    def read_stream(self, stream_id: str, from_version: int = 1, to_version: int | None = None) -> list[RecordedEvent]:
        rows = self.runner.read(self.runner.sql.READ_STREAM, **_stream_range(stream_id, from_version, to_version))
        return self._stream(rows, to_version)

    def read_all(self, from_position: int = 1, limit: int = 1000, types: Collection[str] = ()) -> Page:
        sql = self.runner.sql
        if not types:
            rows = self.runner.read(sql.READ_ALL, from_position=from_position, limit=limit)
            return _page(list(map(recorded, rows)), from_position, limit)
        head = self.head()
        reads = _type_reads(from_position, limit, types, head)
        pages = [list(map(recorded, self.runner.read(sql.READ_TYPE, **values))) for values in reads]
        return _typed_page(pages, limit, head, from_position)

    def head(self) -> int:
        return int(self.runner.read(self.runner.sql.READ_HEAD)[0][0])

    def last_version(self, stream_id: str) -> int:
        return int(self.runner.read(self.runner.sql.LAST_VERSION, stream_id=stream_id)[0][0])

    def read_commands(self, stream_id: str, limit: int | None = None) -> list[tuple[CommandRecord, int, int]]:
        rows = self.runner.read(self.runner.sql.READ_COMMANDS, stream_id=stream_id, limit=_limit(limit))
        return _commands(rows)


# -- the async face ----------------------------------------------------------------------------------------


class AsyncStreams(_Streams, ABC):
    """``AsyncEventStore`` over a runner; the backend commits (``_commit``) and raises ``signal``. Reads of the
    global order come from this store's recent commits while they hold the positions asked for."""

    def __init__(self, runner: AsyncRunner, signal: HeadSignal, poll_interval: float) -> None:
        self.runner = runner
        self.secrets = AsyncSecretsPart(runner)
        self.snapshots = AsyncSnapshotsPart(runner)
        self.rows = AsyncRowsPart(runner)
        self._signal, self._poll_interval = signal, poll_interval
        self._recent = RecentEvents()
        self._others: Others | None = None
        """How this process reads the other processes' commits that it does not hold, where ``signal`` hears every
        process's commits (PostgreSQL's NOTIFY; ``ForeignReads.others``). Then a read of the whole global order
        over another process's commits stops where this one's own held events begin, and the subscription, which
        knows the head, reads on; a read of some types takes the other processes' commits up to the head into
        memory, once for every such reader. Without it (SQLite's other processes, seen by polling) the read runs
        on in the database, so that a subscriber does not wait for a poll to learn what follows."""
        self._gathering: asyncio.Future[None] | None = None
        """The read of other processes' commits into memory under way, shared by every reader that needs it."""

    @abstractmethod
    async def _commit(self, request: AppendRequest) -> AppendOutcome:
        """One append's outcome, committed as the backend commits (with others when it groups commits)."""

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command: CommandRecord,
        secrets: Mapping[str, bytes] | None = None,
        origin: Origin | None = None,
    ) -> Appended:
        return _appended(
            await self._commit(append_request(stream_id, expected_version, events, command, secrets, origin))
        )

    async def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]:
        rows = await self.runner.read(self.runner.sql.READ_STREAM, **_stream_range(stream_id, from_version, to_version))
        return self._stream(rows, to_version)

    async def read_all(self, from_position: int = 1, limit: int = 1000, types: Collection[str] = ()) -> Page:
        if not types:
            if not self._signal.closed:
                if (recent := self._recent.read(from_position, limit)) is not None:
                    return _page(recent, from_position, limit)
                # Another process's commits before this one's own: read only them (a full page: read on).
                if self._others is not None and (gap_end := self._recent.next_held(from_position)) is not None:
                    limit = min(limit, gap_end - from_position)
            rows = await self.runner.read(self.runner.sql.READ_ALL, from_position=from_position, limit=limit)
            found = list(map(recorded, rows))
            if self._others is not None:
                self._held(found)
            return _page(found, from_position, limit)
        if not self._signal.closed:
            if self._others is not None:
                await self._gathered(self._others, from_position)
            if (held := self._recent.scan(from_position, types, limit)) is not None:
                return held
        head = await self.head()
        reads = _type_reads(from_position, limit, types, head)
        pages = [list(map(recorded, await self.runner.read(self.runner.sql.READ_TYPE, **values))) for values in reads]
        return _typed_page(pages, limit, head, from_position)

    def _held(self, found: Sequence[RecordedEvent]) -> None:
        """Keeps events read from the global order (any process's) for the other readers, and each stream's last
        one read as a hint for the next append to it (another instance appended it: an append on this one then
        skips reading it back)."""
        self._recent.fill(found)
        for event in found:
            self._seen_last(event)

    async def _gathered(self, others: Others, from_position: int) -> None:
        """Reads into memory the other processes' commits from ``from_position`` up to the head heard of, in one
        query however they interleave with this process's own, unless memory holds them all or the reader is
        further behind than a page (catching up, it reads its types only). One read for every reader: those that
        linger wake in the same turn of the loop (``subscription.follow``), and the first one's read serves all."""
        for _ in range(2):  # another reader's read under way (perhaps of less), then this reader's own
            head = self._signal.position
            if not from_position <= head < from_position + PAGE or self._recent.holds(from_position, head):
                return
            if self._gathering is None:
                self._gathering = asyncio.ensure_future(self._gather(others, from_position, head))
                self._gathering.add_done_callback(self._gathered_done)
            await asyncio.shield(self._gathering)

    async def _gather(self, others: Others, from_position: int, through: int) -> None:
        self._held(await others(from_position, through))

    def _gathered_done(self, gathering: asyncio.Future[None]) -> None:
        self._gathering = None
        if not gathering.cancelled():
            gathering.exception()  # raised to every reader awaiting it; retrieved here should none be left

    def subscribe(
        self, from_position: int = 1, linger: float = 0.0, types: Collection[str] = ()
    ) -> AsyncIterator[Page]:
        return follow(
            lambda position: self.read_all(position, PAGE, types),
            self._signal,
            from_position,
            self._poll_interval,
            linger,
        )

    async def head(self) -> int:
        (row,) = await self.runner.read(self.runner.sql.READ_HEAD)
        return int(row[0])

    async def last_version(self, stream_id: str) -> int:
        (row,) = await self.runner.read(self.runner.sql.LAST_VERSION, stream_id=stream_id)
        return int(row[0])

    async def read_commands(self, stream_id: str, limit: int | None = None) -> list[tuple[CommandRecord, int, int]]:
        rows = await self.runner.read(self.runner.sql.READ_COMMANDS, stream_id=stream_id, limit=_limit(limit))
        return _commands(rows)
