"""Seat presence: a seat is connected while a Play or watch stream opened with its token is open, on any instance.

Presence is server state, never events. Each instance counts its own open seat streams and writes the counts to
the store's rows: table ``presence``, one row per match, seat and instance holding its open streams and when that
count last went from none to some or back; and, while it holds any, a heartbeat row of its own in
``presence_instances``. A seat's presence folds its rows (``folded``): connected while a row of a live instance
holds a stream. A row of an instance whose heartbeat is older than ``STALE`` counts as gone since that heartbeat
(the instance died with its streams open); on a database no other instance shares, every earlier instance's rows
are gone. The rows outlive a restart, and with them when a seat went away. A bot seat, which the server plays, is
connected since the match's creation and has no rows.

Whoever follows a match here (its watchers, and its disconnect grace) is told each change of its presence: at once
for a change made on this instance (after the rows are written), and, when instances share the database, within
``POLL`` seconds for one made on another instance (the rows of the followed matches are read again every ``POLL``
seconds). Timers run on the injectable clock. The rows are the one place a seat's streams are counted, whichever
instances hold them, so a match's owner (``services/matches/ownership.py``), which alone forfeits a seat whose grace
ran out, reads the same presence as every other instance, and a survivor that takes the match over reads it too.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Collection, Coroutine
from datetime import datetime
from typing import Any

import msgspec

from eventstore import AsyncRows, StoreError
from eventstore.parts import RowChange
from services.core.clock import Alarm, Clock, LoopClock
from services.core.tasks import keep

log = logging.getLogger(__name__)

TABLE = "presence"
INSTANCES = "presence_instances"
POLL = 0.5
"""Seconds between reads of the followed matches' rows, when other instances share the database."""
HEARTBEAT = 1.0
"""Seconds between an instance's heartbeats while it holds seat streams."""
STALE = 3.0
"""Seconds after its last heartbeat that an instance's streams no longer count."""
_MOST = 10_000
"""Rows read for one match: a row per seat and instance, far fewer than this."""


class SeatPresence(msgspec.Struct, frozen=True):
    """Whether a seat is connected, and since when it has been (or has been away)."""

    seat: int
    connected: bool
    since: datetime


Seats = tuple[SeatPresence, ...]
Listener = Callable[[str, Seats], None]
"""Told of a followed match's presence when it changed: its id and every seat's presence, by seat."""


class InstanceRow(msgspec.Struct, frozen=True):
    """One instance's open streams for one seat, and when their count last went from none to some or back."""

    streams: int
    since: datetime


_encode = msgspec.json.Encoder().encode
_row = msgspec.json.Decoder(InstanceRow).decode
_beat = msgspec.json.Decoder(datetime).decode


def _key(match_id: str, seat: int, instance: str) -> str:
    return f"{match_id}/{seat}/{instance}"


Located = tuple[int, str, InstanceRow]
"""A row with its seat and instance."""


def folded(
    seats: int,
    created_at: datetime,
    rows: list[Located],
    beats: dict[str, datetime],
    now: datetime,
    bots: Collection[int] = (),
    alone: str | None = None,
) -> Seats:
    """Every seat's presence from its rows (seat, instance, row) and the instances' heartbeats.

    Connected: since the earliest ``since`` of the live rows holding a stream. Away: since the latest time one
    of its rows went to none (a dead instance's: its last heartbeat), or the match's creation if never connected.
    A bot seat is connected since the creation: the server plays it. ``alone``: the one instance that can be
    alive (on a database no other instance shares), whose predecessors' rows are gone however fresh.
    """
    found: list[SeatPresence] = []
    for seat in range(seats):
        if seat in bots:
            found.append(SeatPresence(seat, True, created_at))
            continue
        live: list[datetime] = []
        gone: list[datetime] = [created_at]
        for _, instance, row in (r for r in rows if r[0] == seat):
            beat = beats.get(instance)
            if row.streams <= 0:
                gone.append(row.since)
            elif beat is not None and alone in (None, instance) and (now - beat).total_seconds() <= STALE:
                live.append(row.since)
            else:
                gone.append(max(row.since, beat) if beat is not None else row.since)
        found.append(SeatPresence(seat, True, min(live)) if live else SeatPresence(seat, False, max(gone)))
    return tuple(found)


class _Followed:
    """A match followed here: its size, creation time, bot seats, followers, and the presence last told."""

    def __init__(self, seats: int, created_at: datetime, bots: Collection[int]) -> None:
        self.seats, self.created_at, self.bots = seats, created_at, bots
        self.followers = 0
        self.told: Seats | None = None
        self.telling = asyncio.Lock()
        """One read of the match's presence at a time: a slow read ending after a later one would tell the past."""


class Presence:
    """This instance's seat streams, written to the rows; the presence of the followed matches, told on change."""

    def __init__(self, rows: AsyncRows, shared: bool, clock: Clock | None = None) -> None:
        self._rows = rows
        self._shared = shared
        self._clock: Clock = clock or LoopClock()
        self.instance = uuid.uuid4().hex
        """This process's id in the rows: a restarted server is a new instance, and its old rows go stale."""
        self._streams: dict[tuple[str, int], int] = {}
        self._since: dict[tuple[str, int], datetime] = {}
        self._followed: dict[str, _Followed] = {}
        self._lock = asyncio.Lock()
        """Serialises the writes, each of the state at its time: the last one written is the latest."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._alarms: list[Alarm] = []
        self._closing = False
        self.listeners: list[Listener] = []

    @property
    def connected(self) -> int:
        """Seats with a stream open on this instance (metrics)."""
        return sum(1 for streams in self._streams.values() if streams > 0)

    def start(self) -> None:
        """Heartbeats, and polls of the followed matches when other instances may change them."""
        self._every(HEARTBEAT, self._heartbeat)
        if self._shared:
            self._every(POLL, self._poll)

    async def close(self) -> None:
        """Stops the timers and waits for the writes under way: the streams that closed last are recorded as
        gone, so that a restarted server knows since when."""
        self._closing = True
        for alarm in self._alarms:
            alarm.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def of(self, match_id: str, seats: int, created_at: datetime, bots: Collection[int] = ()) -> Seats:
        """The match's presence as the rows say now, whichever instance holds its streams (``bots``: its bot
        seats, connected)."""
        parsed = []
        for key, value in await self._rows.list(TABLE, prefix=f"{match_id}/", limit=_MOST):
            _, seat, instance = key.split("/")
            parsed.append((int(seat), instance, _row(value)))
        now = self._clock.now()
        beats = {self.instance: now}
        for instance in {instance for _, instance, _ in parsed} - {self.instance}:
            beat = await self._rows.get(INSTANCES, instance)
            if beat is not None:
                beats[instance] = _beat(beat)
        # Unshared, this process claimed the database (services/ops/claim.py): an earlier instance's rows are gone.
        return folded(seats, created_at, parsed, beats, now, bots, None if self._shared else self.instance)

    async def follow(self, match_id: str, seats: int, created_at: datetime, bots: Collection[int] = ()) -> Seats | None:
        """Before a watch of the match opens (or its disconnect grace runs): what its presence is, so that the next
        change is told; that presence, or None when the store could not be read."""
        followed = self._followed.get(match_id)
        if followed is None:
            followed = self._followed[match_id] = _Followed(seats, created_at, bots)
        followed.followers += 1  # before the read: a watch closing meanwhile must not drop the match
        if followed.told is None:
            async with followed.telling:
                if followed.told is None:
                    try:
                        followed.told = await self.of(match_id, seats, created_at, bots)
                    except StoreError as exc:  # the watch opens all the same; its first change is told
                        log.warning("presence of %s not read (%s)", match_id, exc)
        return followed.told

    def unfollow(self, match_id: str) -> None:
        followed = self._followed.get(match_id)
        if followed is not None:
            followed.followers -= 1
            if followed.followers <= 0:
                del self._followed[match_id]

    def opened(self, match_id: str, seat: int) -> None:
        """A stream of the seat opened here."""
        self._count(match_id, seat, 1)

    def closed(self, match_id: str, seat: int) -> None:
        """A stream of the seat closed here."""
        self._count(match_id, seat, -1)

    def _count(self, match_id: str, seat: int, change: int) -> None:
        key = (match_id, seat)
        before = self._streams.get(key, 0)
        after = before + change
        if after > 0:
            self._streams[key] = after
        else:
            self._streams.pop(key, None)
        if (before > 0) != (after > 0):
            self._since[key] = self._clock.now()
            keep(self._tasks, self._write(match_id, seat), f"duelhall-presence-{match_id}")

    async def _write(self, match_id: str, seat: int) -> None:
        key = (match_id, seat)
        async with self._lock:
            since = self._since.get(key)
            if since is None:  # a later write already wrote this seat's state
                return
            streams = self._streams.get(key, 0)
            changes: list[RowChange] = [
                (TABLE, _key(match_id, seat, self.instance), _encode(InstanceRow(streams, since))),
                (INSTANCES, self.instance, _encode(self._clock.now())),
            ]
            try:
                await self._rows.write(changes)
            except StoreError as exc:
                log.warning("presence of %s seat %d not written (%s); retrying in %.1f s", match_id, seat, exc, POLL)
                self._clock.call_later(POLL, lambda: self._again_later(match_id, seat))
                return
            if self._since.get(key) == since and streams == self._streams.get(key, 0):
                del self._since[key]
        await self._tell(match_id)

    def _again_later(self, match_id: str, seat: int) -> None:
        if self._closing:  # close() waited for the writes under way; a retry after it would outlive the server
            return
        keep(self._tasks, self._write(match_id, seat), f"duelhall-presence-{match_id}")

    async def _tell(self, match_id: str) -> None:
        followed = self._followed.get(match_id)
        if followed is None:
            return
        async with followed.telling:
            try:
                now = await self.of(match_id, followed.seats, followed.created_at, followed.bots)
            except StoreError as exc:
                log.warning("presence of %s not read (%s)", match_id, exc)
                return
            if followed.told != now and self._followed.get(match_id) is followed:
                followed.told = now
                for listener in self.listeners:
                    listener(match_id, now)

    def _every(self, seconds: float, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        if self._closing:
            return

        def fire() -> None:
            self._alarms.remove(alarm)
            keep(self._tasks, self._again(seconds, work), "duelhall-presence")

        alarm = self._clock.call_later(seconds, fire)
        self._alarms.append(alarm)

    async def _again(self, seconds: float, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        try:
            await work()
        finally:
            self._every(seconds, work)

    async def _heartbeat(self) -> None:
        if not self._streams:
            return
        try:
            await self._rows.put(INSTANCES, self.instance, _encode(self._clock.now()))
        except StoreError as exc:
            log.warning("presence heartbeat not written (%s)", exc)

    async def _poll(self) -> None:
        for match_id in list(self._followed):
            await self._tell(match_id)
