"""The last event of each stream a store has seen committed: what lets PostgreSQL appends skip reading it.

Only a hint. An append planned from it is written with a guard (the predecessor event must be stored
with the remembered hash) and under the unique (stream, version) key, so a stale entry costs one retry
on the checked path, never a wrong event (docs/eventstore.md "Appends on PostgreSQL").
"""

from __future__ import annotations

from collections import OrderedDict

from eventstore.batch import Known
from eventstore.model import AppendRequest

CAPACITY = 10_000


class LastEvents:
    """The (version, hash, time) of the last event seen committed per stream, the most recently used
    ``capacity``."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._capacity = capacity
        self._last: OrderedDict[str, tuple[int, bytes, int]] = OrderedDict()

    def known(self, request: AppendRequest) -> Known | None:
        """The request's facts as remembered; None when its stream's last event is unknown."""
        last = self._last.get(request.stream_id)
        if last is not None:
            self._last.move_to_end(request.stream_id)
            version, hash_, recorded_at = last
            return Known(version, hash_, None, recorded_at)
        # A new stream needs no memory: the unique key refuses version 1 if the stream exists after all.
        return Known() if request.expected_version == 0 else None

    def learn(self, stream_id: str, version: int, hash_: bytes, recorded_at: int) -> None:
        """Remember a committed last event (an older one than remembered is ignored); ``recorded_at`` in
        microseconds, as stored."""
        last = self._last.get(stream_id)
        if last is None or last[0] < version:
            self._last[stream_id] = (version, hash_, recorded_at)
        self._last.move_to_end(stream_id)
        if len(self._last) > self._capacity:
            self._last.popitem(last=False)
