"""The events this process committed last, kept so that reading them back costs no query.

Every subscriber (the match list, the lifecycle consumers, a follower) reads what was just committed; on
the embedded SQLite store that was almost always this process's own commit. The writer hands each committed
transaction's events here, in commit order; a read from a position this buffer holds is answered from it as
far as its positions run on without a gap (a gap is another process's commit, read from the database).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from eventstore.model import RecordedEvent

CAPACITY = 8192
"""Events kept: a few seconds of commits at full speed, enough for every subscriber that keeps up."""


class RecentEvents:
    """The last ``capacity`` events committed here, in position order."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._events: deque[RecordedEvent] = deque(maxlen=capacity)

    def add(self, found: int, events: Iterable[RecordedEvent]) -> None:
        """Events of one committed transaction, after every earlier one's (call in commit order). ``found`` is
        the head the transaction found: held events above it are no longer in the database (it was restored
        or emptied under the running store), so they go."""
        held = self._events
        while held and held[-1].position > found:
            held.pop()
        held.extend(events)

    def read(self, from_position: int, limit: int) -> list[RecordedEvent] | None:
        """Up to ``limit`` events from ``from_position`` while their positions run on without a gap; None when
        ``from_position`` is not held (the caller reads the database)."""
        events = self._events
        if not events or not events[0].position <= from_position <= events[-1].position:
            return None
        # Positions only grow, so the event sits at most (position - first) places in; a gap puts it nearer.
        index = min(from_position - events[0].position, len(events) - 1)
        while events[index].position > from_position:
            index -= 1
        if events[index].position != from_position:
            return None
        found = [events[index]]
        for later in range(index + 1, min(index + limit, len(events))):
            event = events[later]
            if event.position != found[-1].position + 1:
                break
            found.append(event)
        return found
