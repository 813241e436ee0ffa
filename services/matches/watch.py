"""Watching matches: the manager hands each event to the feed once, the feed hands it to every watcher.

An event is redacted once per distinct viewer of its match (and its view computed once per viewer that asked
for views), encoded once, and put in each watcher's mailbox. A watcher reads the store only to catch up a
watch resumed from an older version, or to fill a real gap: its mailbox overflowed because it reads slower
than the match moves. A watched match stays loaded (``HotMatch.watches``), so every change to it passes here.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

import msgspec

from engine.contract import Viewer
from engine.match import EventDecoder, Match, apply, encode, start, stored_type, to_act_of, view_of
from eventstore import AsyncSnapshots, RecordedEvent
from services.core.clock import Clock, LoopClock
from services.core.errors import Unavailable
from services.matches import snapshots
from services.matches.caster_watch import CasterWatch
from services.matches.hot import HotMatch, MatchEvent, seen
from services.matches.presence import Presence, Seats
from services.matches.replies import RedactedEvent
from services.matches.seating import started
from services.matches.timers import Armed

T = TypeVar("T")

MAILBOX = 1024
"""Updates a watcher may fall behind by before its mailbox is emptied and it catches up from the store."""


class Update(msgspec.Struct, frozen=True):
    """One event as a viewer may see it, optionally with the viewer's view after it; or, with no event, every
    seat's presence after it changed."""

    event: RedactedEvent | None
    view: bytes | None
    ended: bool
    """The last event of a match that has ended."""
    after: After | None = None
    """Set on the update of the match's latest version, as of when it was rendered."""
    presence: Seats = ()
    """Set on a presence update (no event)."""


class After(msgspec.Struct, frozen=True):
    """What follows the match's latest event: the seats it waits on and its running clock."""

    to_act: tuple[int, ...]
    clock: Armed | None


Clocks = Callable[[str], "Armed | None"]
"""The running clock of a match, by id (``Timers.armed``)."""


class Matches(Protocol):
    """The part of the match manager the feed needs."""

    async def at_least(self, match_id: str, min_version: int) -> HotMatch: ...


class History(Protocol):
    """The part of the store a watcher catches up from."""

    async def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]: ...
    @property
    def snapshots(self) -> AsyncSnapshots: ...


class _Delivery(msgspec.Struct, Generic[T], frozen=True):
    version: int
    item: T
    match: Match | None
    """The match after the event, for a watcher that asked for views (its base should it fall behind)."""
    ended: bool


class _Channel(Generic[T]):
    """The watches of one match, grouped by viewer and by whether they want views."""

    def __init__(self, hot: HotMatch) -> None:
        self.hot = hot
        self.match = hot.match
        """The match as of the last event handed to the watches."""
        self.groups: dict[tuple[Viewer, bool], set[Watch[T]]] = {}


class Feed(Generic[T]):
    """Routes the events the manager publishes to the mailboxes of their match's watchers."""

    def __init__(
        self,
        matches: Matches,
        history: History,
        encode_update: Callable[[Update], T],
        clocks: Clocks,
        clock: Clock | None = None,
        presence: Presence | None = None,
    ) -> None:
        self._matches = matches
        self._history = history
        self._encode = encode_update
        self._clocks = clocks
        self._clock: Clock = clock or LoopClock()
        """What caster delays are measured on."""
        self._channels: dict[str, _Channel[T]] = {}
        self._casters: dict[str, set[CasterWatch[T]]] = {}
        self._ending = False
        self._presence = presence
        """Told of each seat's watches, it tells the feed when a watched match's presence changed."""
        if presence is not None:
            presence.listeners.append(self.publish_presence)

    def end_watches(self) -> None:
        """Ends every open watch with ``Unavailable`` and refuses new ones (the server is shutting down)."""
        self._ending = True
        for channel in list(self._channels.values()):
            for group in list(channel.groups.values()):
                for watch in list(group):
                    watch.end()
        for casters in self._casters.values():
            for caster in casters:
                caster.end()

    def publish(self, hot: HotMatch, events: Sequence[MatchEvent]) -> None:
        """The manager's listener: ``events`` are the match's latest, ``hot`` already holds them."""
        casters = self._casters.get(hot.match_id)
        if casters:
            for caster in casters:
                caster.poke(hot)
        channel = self._channels.get(hot.match_id)
        if channel is None or not events:
            return
        channel.hot = hot
        if events[0].version != channel.match.version + 1:
            # Not a continuation of what the watchers have (cannot happen while the match stays loaded):
            # every watcher catches up from the store.
            channel.match = hot.match
            for group in channel.groups.values():
                for watch in group:
                    watch.poke()
            return
        viewers = sorted({viewer for viewer, _ in channel.groups}, key=lambda v: -1 if v is None else v)
        views = any(wants for _, wants in channel.groups)
        ruleset, match = hot.ruleset, channel.match
        final = hot.version if hot.outcome is not None else None
        latest = self.after(hot)
        for happened in events:
            match = _advance(hot, match, happened.event) if views else match
            ended = happened.version == final
            after = latest if happened.version == hot.version else None
            shown = stored_type(ruleset, happened.event)  # today's schema, as seen() shows the data
            for viewer in viewers:
                data = seen(ruleset, viewer, happened.type, happened.event, happened.data)
                redacted = RedactedEvent(happened.version, shown, data, happened.actor, happened.recorded_at)
                plain = channel.groups.get((viewer, False))
                if plain:
                    delivery = _Delivery(
                        happened.version, self._encode(Update(redacted, None, ended, after)), None, ended
                    )
                    for watch in plain:
                        watch.put(delivery)
                viewing = channel.groups.get((viewer, True))
                if viewing:
                    view = encode(view_of(ruleset, match, viewer))
                    delivery = _Delivery(
                        happened.version, self._encode(Update(redacted, view, ended, after)), match, ended
                    )
                    for watch in viewing:
                        watch.put(delivery)
        channel.match = hot.match

    def publish_presence(self, match_id: str, seats: Seats) -> None:
        """The presence's listener: every watch of the match gets the seats' presence, as one update."""
        channel = self._channels.get(match_id)
        if channel is None:
            return
        item = self._encode(Update(None, None, False, presence=seats))
        for group in channel.groups.values():
            for watch in group:
                watch.put_presence(item)

    def after(self, hot: HotMatch) -> After:
        """Who acts and the clock after the match's latest event: computed once per event, for every watcher."""
        return After(to_act_of(hot.ruleset, hot.match), self._clocks(hot.match_id))

    async def open(
        self,
        match_id: str,
        viewer_of: Callable[[HotMatch], Viewer],
        from_version: int,
        include_view: bool,
    ) -> Watch[T]:
        """A watch of the events after ``from_version``; ``viewer_of`` authenticates the watcher on the match."""
        if self._ending:
            raise Unavailable("the server is shutting down; watch on another instance")
        hot = await self._matches.at_least(match_id, from_version)
        viewer = viewer_of(hot)
        started(match_id, hot.match)
        if self._presence is not None:
            # Before the watch is in place: a change after this point is told to it.
            await self._presence.follow(match_id, len(hot.match.created.seats), hot.created_at, hot.bots)
        channel = self._channels.get(match_id)
        if channel is None:
            channel = self._channels[match_id] = _Channel(hot)
        watch: Watch[T] = Watch(self, channel, viewer, include_view, from_version)
        channel.groups.setdefault((viewer, include_view), set()).add(watch)
        hot.watches += 1
        if self._presence is not None and viewer is not None:
            self._presence.opened(match_id, viewer)
        return watch

    async def open_caster(
        self, match_id: str, admit: Callable[[HotMatch], None], from_version: int, include_view: bool
    ) -> CasterWatch[T]:
        """A caster's watch of the events after ``from_version``; ``admit`` refuses a watcher who may not cast."""
        if self._ending:
            raise Unavailable("the server is shutting down; watch on another instance")
        hot = await self._matches.at_least(match_id, from_version)
        admit(hot)
        started(match_id, hot.match)
        encode_update = self._encode

        def render(event: RedactedEvent, views: bytes | None, ended: bool) -> T:
            return encode_update(Update(event, views, ended))

        caster = CasterWatch(hot, self._history, self._clock, render, from_version, include_view, self._uncast)
        self._casters.setdefault(match_id, set()).add(caster)
        hot.watches += 1
        return caster

    def _uncast(self, caster: CasterWatch[T]) -> None:
        casters = self._casters.get(caster.hot.match_id)
        if casters is not None and caster in casters:
            casters.discard(caster)
            caster.hot.watches -= 1
            if not casters:
                del self._casters[caster.hot.match_id]

    def _close(self, watch: Watch[T]) -> None:
        channel = watch.channel
        key = (watch.viewer, watch.include_view)
        group = channel.groups.get(key)
        if group is not None and watch in group:
            group.discard(watch)
            channel.hot.watches -= 1
            if not group:
                del channel.groups[key]
            if self._presence is not None:
                self._presence.unfollow(channel.hot.match_id)
                if watch.viewer is not None:
                    self._presence.closed(channel.hot.match_id, watch.viewer)
        if not channel.groups and self._channels.get(channel.hot.match_id) is channel:
            del self._channels[channel.hot.match_id]


class Watch(Generic[T]):
    """One watcher's mailbox and position: ``next`` returns what is ready, in version order."""

    def __init__(self, feed: Feed[T], channel: _Channel[T], viewer: Viewer, include_view: bool, after: int) -> None:
        self.channel = channel
        self.viewer = viewer
        self.include_view = include_view
        self.last = after
        """The version of the last event handed out (or the one the watch resumes after)."""
        self.ended = False
        self._feed = feed
        self._match: Match | None = channel.match if after == channel.match.version else None
        self._mailbox: deque[_Delivery[T]] = deque()
        self._presence: T | None = None
        """The latest presence update not yet handed out: only the latest one matters."""
        self._ready = asyncio.Event()
        self._ending = False
        hot = channel.hot
        if hot.outcome is not None and after >= hot.version:
            self.ended = True

    def put(self, delivery: _Delivery[T]) -> None:
        if len(self._mailbox) >= MAILBOX:
            self._mailbox.clear()  # the watcher catches up from the store, from its last version
        self._mailbox.append(delivery)
        self._ready.set()

    def put_presence(self, item: T) -> None:
        self._presence = item
        self._ready.set()

    def end(self) -> None:
        """The server is shutting down: the next wait or take raises ``Unavailable``."""
        self._ending = True
        self._ready.set()

    def _check(self) -> None:
        if self._ending:
            raise Unavailable(
                f"the server is shutting down; resume from version {self.last} on another instance",
                version=str(self.last),
            )

    def poke(self) -> None:
        self._mailbox.clear()
        self._ready.set()

    def wake(self) -> None:
        """Ends a ``wait`` without an update (the owner has something else to do)."""
        self._ready.set()

    @property
    def caught_up(self) -> bool:
        """Whether every event the match has is handed out."""
        return self.last >= self.channel.match.version

    async def next(self) -> list[T]:
        """The updates ready now, waiting for at least one; empty once the match has ended."""
        while not self.ended:
            items = await self.take()
            if items:
                return items
            await self._ready.wait()
        return []

    async def wait(self) -> None:
        """Returns once ``take`` has something, the match ended, or ``wake`` was called since ``take``."""
        self._check()
        if not self.ended and not self._mailbox and self.caught_up and self._presence is None:
            await self._ready.wait()

    async def take(self) -> list[T]:
        """The updates ready now, without waiting for new events (reading the store to catch up)."""
        self._check()
        items: list[T] = []
        self._ready.clear()
        while not self.ended:
            if self._mailbox:
                delivery = self._mailbox.popleft()
                if delivery.version <= self.last:
                    continue
                if delivery.version > self.last + 1:
                    items += await self._catch_up(delivery.version - 1)
                self._deliver(delivery)
                items.append(delivery.item)
            elif self.last < self.channel.match.version:
                items += await self._catch_up(self.channel.match.version)
            else:
                break
        if self._presence is not None and not self.ended:
            # After the events ready now: a presence update carries no version to order it by.
            items.append(self._presence)
        self._presence = None
        return items

    def close(self) -> None:
        self._feed._close(self)

    def __enter__(self) -> Watch[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _deliver(self, delivery: _Delivery[T]) -> None:
        self.last = delivery.version
        self._match = delivery.match
        self.ended = delivery.ended

    async def _catch_up(self, to_version: int) -> list[T]:
        """Stored events after ``last`` up to ``to_version``, rendered for this watcher."""
        hot = self.channel.hot
        history = self._feed._history
        base = self._match
        read_from = self.last + 1
        if self.include_view and base is None:
            base, read_from = await self._base(history, hot)
        items: list[T] = []
        decoder = EventDecoder(hot.ruleset)
        final = hot.version if hot.outcome is not None else None
        for recorded in await history.read_stream(hot.match_id, read_from, to_version):
            event = decoder.decode(recorded.type, recorded.data)
            if self.include_view:
                base = _advance(hot, base, event)
            if recorded.version <= self.last:
                continue
            data = seen(hot.ruleset, self.viewer, recorded.type, event, recorded.data)
            redacted = RedactedEvent(
                recorded.version, stored_type(hot.ruleset, event), data, recorded.meta.actor, recorded.meta.recorded_at
            )
            view = encode(view_of(hot.ruleset, base, self.viewer)) if base is not None and self.include_view else None
            ended = recorded.version == final
            after = self._feed.after(hot) if recorded.version == hot.version else None
            update = Update(redacted, view, ended, after)
            delivery = _Delivery(recorded.version, self._feed._encode(update), base, ended)
            self._deliver(delivery)
            items.append(delivery.item)
            if ended:
                break
        return items

    async def _base(self, history: History, hot: HotMatch) -> tuple[Match | None, int]:
        """A match at or before ``last`` to fold views from: the snapshot if it is not past it, else nothing."""
        if self.last > 1:
            found = await history.snapshots.load(hot.match_id, snapshots.schema(hot.ruleset))
            if found is not None and found.version <= self.last:
                restored = snapshots.restored(hot.ruleset, hot.match.created, found.data)
                if restored is not None:
                    return restored[0], restored[0].version + 1
        return None, 1


def _advance(hot: HotMatch, match: Match | None, event: object) -> Match:
    if match is None:
        return start(hot.ruleset, event)  # type: ignore[arg-type]
    return apply(hot.ruleset, match, [event])
