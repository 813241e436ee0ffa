"""A caster's watch: every event as recorded (every seat's hidden cards) and, with views, every seat's view, each
once it is the match's caster delay old on the server's clock (``services/matches/caster.py``).

It reads the store, not the watch feed's fan-out: its events are old by design, and the watchers that are not
casters pay nothing for it; the feed only wakes a caster when its match moves.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from engine.match import EventDecoder, Match, apply, encode, start, stored_type, view_of
from eventstore import RecordedEvent
from services.core.clock import Alarm, Clock
from services.core.errors import Unavailable
from services.matches.hot import HotMatch
from services.matches.replies import RedactedEvent

T = TypeVar("T")


class History(Protocol):
    """The part of the store a caster reads."""

    async def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]: ...


Render = Callable[[RedactedEvent, "bytes | None", bool], T]
"""An update from an event, every seat's views (or None) and whether it ends the match."""


class CasterWatch(Generic[T]):
    """One caster's position: ``next`` returns the events after it that are old enough, in version order."""

    def __init__(
        self,
        hot: HotMatch,
        history: History,
        clock: Clock,
        render: Render[T],
        after: int,
        include_view: bool,
        closed: Callable[[CasterWatch[T]], None],
    ) -> None:
        self.hot = hot
        self.last = after
        """The version of the last event handed out (or the one the watch resumes after)."""
        self.include_view = include_view
        self._history = history
        self._clock = clock
        self._render = render
        self._closed = closed
        self._read = after if not include_view else 0
        """The last version read from the store (views fold from the first event)."""
        self._pending: deque[RecordedEvent] = deque()
        self._match: Match | None = None
        self._ready = asyncio.Event()
        self._alarm: Alarm | None = None
        self._ending = False
        self.ended = hot.outcome is not None and after >= hot.version

    def poke(self, hot: HotMatch) -> None:
        """The match moved (``hot`` holds its latest events)."""
        self.hot = hot
        self._ready.set()

    def end(self) -> None:
        """The server is shutting down: the next ``next`` raises ``Unavailable``."""
        self._ending = True
        self._ready.set()

    async def next(self) -> list[T]:
        """The updates due now, waiting for at least one; empty once the match's last event is handed out."""
        while not self.ended:
            if self._ending:
                raise Unavailable(
                    f"the server is shutting down; resume from version {self.last} on another instance",
                    version=str(self.last),
                )
            self._ready.clear()
            items = await self._due()
            if items:
                return items
            await self._ready.wait()
        return []

    async def _due(self) -> list[T]:
        hot = self.hot
        head = hot.version  # before the read: the match may move on while it runs
        if self._read < head:
            self._pending.extend(await self._history.read_stream(hot.match_id, self._read + 1, head))
            self._read = head
        final = hot.version if hot.outcome is not None else None
        decoder = EventDecoder(hot.ruleset)
        items: list[T] = []
        while self._pending and not self.ended:
            recorded = self._pending[0]
            wait = (recorded.meta.recorded_at - self._clock.now()).total_seconds() + hot.caster.delay
            if wait > 0 and recorded.version > self.last:
                self._arm(wait)
                break
            self._pending.popleft()
            view = None
            current = decoder.is_current(recorded.type)
            event: Any = decoder.decode(recorded.type, recorded.data) if self.include_view or not current else None
            if self.include_view:
                self._match = (
                    start(hot.ruleset, event) if self._match is None else apply(hot.ruleset, self._match, [event])
                )
                seats = range(len(self._match.created.seats))
                view = encode([view_of(hot.ruleset, self._match, seat) for seat in seats])
            if recorded.version <= self.last:
                continue
            # Unredacted, as recorded; one stored at an older schema of its type goes out upcast, as to other watchers.
            kind, data = (recorded.type, recorded.data) if current else (stored_type(hot.ruleset, event), encode(event))
            shown = RedactedEvent(recorded.version, kind, data, recorded.meta.actor, recorded.meta.recorded_at)
            self.last = recorded.version
            self.ended = recorded.version == final
            items.append(self._render(shown, view, self.ended))
        return items

    def _arm(self, wait: float) -> None:
        if self._alarm is not None:
            self._alarm.cancel()
        self._alarm = self._clock.call_later(wait, self._ready.set)

    def close(self) -> None:
        if self._alarm is not None:
            self._alarm.cancel()
        self._closed(self)

    def __enter__(self) -> CasterWatch[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
