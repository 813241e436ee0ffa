"""The events this process committed last, kept so that reading them back costs no query.

Every subscriber (the match list, the lifecycle consumers, a follower) reads what was just committed; on
the embedded SQLite store that was almost always this process's own commit. The writer hands each committed
transaction's events here, in commit order; a read from a position this buffer holds is answered from it as
far as its positions run on without a gap (a gap is another process's commit, read from the database only as
far as the gap runs: the process never reads back from the database an event it holds).

Where the database tells every process of every commit (PostgreSQL), another process's events read from the
database are kept here too (``fill``): each of the process's subscribers (the follower, the match list, the
tournament feed, its clocks, ...) reads another instance's commit then once in all, not once each (and once per
event type for those that read some types only). Such a read asks the database for the positions of a range
this buffer does not hold (``within``), in one query.
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Collection, Iterable, Iterator

from eventstore.model import Page, RecordedEvent

CAPACITY = 8192
"""Events kept: a few seconds of commits at full speed, enough for every subscriber that keeps up."""


class RecentEvents:
    """The last ``capacity`` events committed here, in position order."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._events: deque[RecordedEvent] = deque(maxlen=capacity)
        self._own: deque[bool] = deque(maxlen=capacity)
        """Beside each held event: whether this process committed it (``add``) or read it (``fill``)."""

    def add(self, found: int, events: Iterable[RecordedEvent]) -> None:
        """Events of one committed transaction, after every earlier one's (call in commit order). ``found`` is
        the head the transaction found: held events above it are no longer in the database (it was restored
        or emptied under the running store), so they go."""
        held, own = self._events, self._own
        while held and held[-1].position > found:
            held.pop()
            own.pop()
        for event in events:
            held.append(event)
            own.append(True)

    def fill(self, events: Iterable[RecordedEvent]) -> None:
        """Events read from the database (committed by any process, in position order), kept among the held ones
        where they belong; those held already, or older than every held one when the buffer is full, are not."""
        held, own = self._events, self._own
        for event in events:
            if not held or event.position > held[-1].position:
                held.append(event)
                own.append(False)
                continue
            index = bisect.bisect_left(held, event.position, key=_position)
            if held[index].position == event.position:
                continue
            if len(held) == held.maxlen:
                if index == 0:
                    continue
                held.popleft()
                own.popleft()
                index -= 1
            held.insert(index, event)
            own.insert(index, False)

    def read(self, from_position: int, limit: int) -> list[RecordedEvent] | None:
        """Up to ``limit`` events from ``from_position`` while their positions run on without a gap; None when
        ``from_position`` is not held (the caller reads the database)."""
        found: list[RecordedEvent] = []
        for event in self._run(from_position):
            found.append(event)
            if len(found) == limit:
                break
        return found or None

    def scan(self, from_position: int, types: Collection[str], limit: int) -> Page | None:
        """The events of ``types`` from ``from_position`` as far as positions run on without a gap, up to
        ``limit`` of each type (``Page``: ``more`` when held events follow the one that filled its type); None
        when ``from_position`` is not held."""
        found: list[RecordedEvent] = []
        counts = dict.fromkeys(types, 0)
        through = from_position - 1
        run = self._run(from_position)
        for event in run:
            through = event.position
            if event.type in counts:
                found.append(event)
                counts[event.type] += 1
                if counts[event.type] == limit:
                    return Page(found, through, next(run, None) is not None)
        return Page(found, through, False) if through >= from_position else None

    def holds(self, from_position: int, through: int) -> bool:
        """Whether every position from ``from_position`` through ``through`` is held."""
        events = self._events
        if not events or from_position < events[0].position or through > events[-1].position:
            return False
        first = bisect.bisect_left(events, from_position, key=_position)
        last = first + through - from_position  # positions are unique and rising: no gap puts it there
        return events[first].position == from_position and last < len(events) and events[last].position == through

    def within(self, from_position: int, through: int) -> tuple[list[int], list[RecordedEvent]]:
        """The positions held from ``from_position`` through ``through``, and the other processes' events among
        them: what a read of that range takes from memory, and which positions it need not ask the database for."""
        events, own = self._events, self._own
        positions: list[int] = []
        others: list[RecordedEvent] = []
        if not events or from_position > events[-1].position:
            return positions, others
        for index in range(bisect.bisect_left(events, from_position, key=_position), len(events)):
            event = events[index]
            if event.position > through:
                break
            positions.append(event.position)
            if not own[index]:
                others.append(event)
        return positions, others

    def next_held(self, from_position: int) -> int | None:
        """The first position after ``from_position`` this buffer holds, if ``from_position`` is not held but a
        later one is: where another process's commits that a read must take from the database end."""
        events = self._events
        if not events or from_position > events[-1].position:
            return None
        index = bisect.bisect_left(events, from_position, key=_position)
        found = events[index].position
        return found if found != from_position else None

    def _run(self, from_position: int) -> Iterator[RecordedEvent]:
        """The held events from ``from_position`` on, up to the first gap; none when it is not held."""
        for index in self._indices(from_position):
            yield self._events[index]

    def _indices(self, from_position: int) -> Iterator[int]:
        """Where the held events from ``from_position`` on lie, up to the first gap; nowhere when it is not held."""
        events = self._events
        if not events or not events[0].position <= from_position <= events[-1].position:
            return
        # Positions only grow, so the event sits at most (position - first) places in; a gap puts it nearer.
        index = min(from_position - events[0].position, len(events) - 1)
        while events[index].position > from_position:
            index -= 1
        expected = from_position
        for later in range(index, len(events)):
            if events[later].position != expected:
                return
            yield later
            expected += 1


def _position(event: RecordedEvent) -> int:
    return event.position
