"""The stream heads a store has seen committed: what lets PostgreSQL appends skip the read of them.

Only a hint. An append planned from it is written with a guard (the predecessor event must be stored
with the remembered hash) and under the unique (stream, version) key, so a stale entry costs one retry
on the checked path, never a wrong event (docs/eventstore.md "Appends on PostgreSQL").
"""

from __future__ import annotations

from collections import OrderedDict

from eventstore.batch import Known
from eventstore.model import AppendRequest

CAPACITY = 10_000


class StreamHeads:
    """The last (version, hash) seen committed per stream, the most recently used ``capacity`` of them."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._capacity = capacity
        self._heads: OrderedDict[str, tuple[int, bytes]] = OrderedDict()

    def known(self, request: AppendRequest) -> Known | None:
        """The request's facts as remembered; None when its stream's head is unknown."""
        head = self._heads.get(request.stream_id)
        if head is not None:
            self._heads.move_to_end(request.stream_id)
            return Known(*head)
        # A new stream needs no memory: the unique key refuses version 1 if the stream exists after all.
        return Known() if request.expected_version == 0 else None

    def learn(self, stream_id: str, version: int, hash_: bytes) -> None:
        """Remember a committed head (an older one than remembered is ignored)."""
        head = self._heads.get(stream_id)
        if head is None or head[0] < version:
            self._heads[stream_id] = (version, hash_)
        self._heads.move_to_end(stream_id)
        if len(self._heads) > self._capacity:
            self._heads.popitem(last=False)
