"""Disconnect grace: a seat the match waits on that has had no stream for the match's grace is forfeited.

For a running match created with ``disconnect_grace_seconds`` (``services/matches/grace.py``), the timer follows
the match's presence (``services/matches/presence.py``) and, while a seat the ruleset waits on (``to_act``; bot
seats aside) is away, sets an alarm on the injectable clock for the grace after the later of when it went away and
the match's last event: the seat has then been away that long while the match waited on it. On expiry the
system submits the ruleset's forfeit of that seat (``Ruleset.forfeit``, reason ``disconnected``), as the turn
timers submit timeouts. A stream of the seat opening first cancels the alarm; so does the match moving on.

When the seat went away is the presence rows' durable time, and the last event's time is recorded, so a restarted
server, or another instance, arms the same expiry (and submits at once a forfeit already due). The command id
``disconnected-<seat>-<version>`` and the expected version make instances that fire together append one forfeit,
never fork the match. The timers (``timers.Timers.arm``) hand every change of a match here, so the grace runs
wherever turn timers run.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Protocol

from engine.contract import DISCONNECTED, SYSTEM, Actor
from engine.errors import Rejected
from engine.match import encode
from eventstore import StoreError
from services.core.clock import Alarm, Clock, LoopClock
from services.core.errors import ServiceError, VersionMismatch
from services.core.logs import fields
from services.core.tasks import keep
from services.matches.hot import HotMatch
from services.matches.presence import Presence, Seats

log = logging.getLogger(__name__)

RETRY = 1.0
"""Seconds before a forfeit the store could not take, or a presence it could not read, is tried again."""

Due = tuple[int, int, datetime]
"""A forfeit to submit: the seat, the match's version and when."""


class Forfeits(Protocol):
    """The part of the match manager the grace needs."""

    async def submit(
        self, match_id: str, actor: Actor, raw: bytes, command_id: str = "", expected_version: int | None = None
    ) -> object: ...


def due(hot: HotMatch, seats: Seats) -> Due | None:
    """The first forfeit the match's presence leads to: for the seat it waits on that went away first, the grace
    after the later of its going away and the match's last event (since which the match has waited on it)."""
    waits_on = [seat for seat in hot.ruleset.to_act(hot.state) if seat not in hot.bots]
    away = [(max(p.since, hot.last_event_at), p.seat) for p in seats if p.seat in waits_on and not p.connected]
    if not away:
        return None
    since, seat = min(away)
    return seat, hot.version, since + timedelta(seconds=hot.grace)


class GraceTimers:
    """One pending forfeit per running match with a grace; fed each change by ``Timers.arm`` and each change of
    presence by its listener."""

    def __init__(
        self,
        manager: Forfeits,
        presence: Presence,
        clock: Clock | None = None,
        owns: Callable[[str], bool] | None = None,
    ) -> None:
        self._manager = manager
        self._presence = presence
        self._clock: Clock = clock or LoopClock()
        self._owns = owns or (lambda match_id: True)
        """Whether this instance runs the match's clocks (``services/matches/ownership.py``), as the turn timers."""
        self._matches: dict[str, HotMatch] = {}
        """The running matches with a grace, as last changed."""
        self._seats: dict[str, Seats] = {}
        """Their presence as last told (none yet: the follow's read is under way)."""
        self._following: set[str] = set()
        """The matches this timer follows in the presence (each once, once its follow returned)."""
        self._pending: dict[str, tuple[Due, Alarm]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False
        presence.listeners.append(self.presence_changed)

    def arm(self, hot: HotMatch) -> None:
        """(Re)schedules the match's forfeit after it changed."""
        if not hot.grace or self._closing or hot.match.seating:
            return
        match_id = hot.match_id
        if hot.outcome is not None:
            self._matches.pop(match_id, None)
            self._seats.pop(match_id, None)
            self._cancel(match_id)
            if match_id in self._following:
                self._following.discard(match_id)
                self._presence.unfollow(match_id)
            return
        followed = match_id in self._matches
        self._matches[match_id] = hot
        if followed:
            self._rearm(match_id)
        else:
            keep(self._tasks, self._follow(hot), f"duelhall-grace-{match_id}")

    def presence_changed(self, match_id: str, seats: Seats) -> None:
        """The presence's listener."""
        if match_id in self._matches:
            self._seats[match_id] = seats
            self._rearm(match_id)

    def pending(self, match_id: str) -> Due | None:
        """The forfeit the match's alarm is set for, or None."""
        pending = self._pending.get(match_id)
        return None if pending is None else pending[0]

    def close(self) -> None:
        self._closing = True
        for match_id in list(self._pending):
            self._cancel(match_id)
        for task in self._tasks:
            task.cancel()

    async def _follow(self, hot: HotMatch) -> None:
        seats = await self._presence.follow(hot.match_id, len(hot.match.created.seats), hot.created_at, hot.bots)
        if seats is None or hot.match_id not in self._matches:
            self._presence.unfollow(hot.match_id)
            if seats is None:  # the store could not be read (logged): follow afresh
                self._clock.call_later(RETRY, functools.partial(self._refollow, hot.match_id))
            return
        self._following.add(hot.match_id)
        # A change told while the read was under way is newer than the read.
        self._seats.setdefault(hot.match_id, seats)
        self._rearm(hot.match_id)

    def _refollow(self, match_id: str) -> None:
        hot = self._matches.get(match_id)
        if hot is not None and not self._closing:
            keep(self._tasks, self._follow(hot), f"duelhall-grace-{match_id}")

    def _rearm(self, match_id: str) -> None:
        hot, seats = self._matches.get(match_id), self._seats.get(match_id)
        if hot is None or seats is None or self._closing:
            return
        next_due = due(hot, seats)
        pending = self._pending.get(match_id)
        if pending is not None and pending[0] == next_due:
            return
        self._cancel(match_id)
        if next_due is None:
            return
        delay = (next_due[2] - self._clock.now()).total_seconds()
        if delay <= 0:
            # Already due (a restart, or a presence read that returned late): submit now, not at the clock's next
            # tick, which a clock moved by hand may never make.
            self._fire(hot, next_due)
            return
        alarm = self._clock.call_later(delay, functools.partial(self._fire, hot, next_due))
        self._pending[match_id] = (next_due, alarm)

    def _cancel(self, match_id: str) -> None:
        pending = self._pending.pop(match_id, None)
        if pending is not None:
            pending[1].cancel()

    def _fire(self, hot: HotMatch, fired: Due) -> None:
        self._pending.pop(hot.match_id, None)
        if not self._owns(hot.match_id):  # its owner forfeits; taking the match over arms it here again
            return
        seat, version, _ = fired
        log.info("disconnect grace ran out", extra=fields(match_id=hot.match_id, version=version, seat=seat))
        keep(self._tasks, self._forfeit(hot, seat, version), f"duelhall-grace-{hot.match_id}")

    async def _forfeit(self, hot: HotMatch, seat: int, version: int) -> None:
        raw = encode(hot.ruleset.forfeit(seat, DISCONNECTED))
        try:
            await self._manager.submit(
                hot.match_id, SYSTEM, raw, command_id=f"disconnected-{seat}-{version}", expected_version=version
            )
        except VersionMismatch:
            pass  # the match moved on meanwhile; the change that moved it re-armed the grace
        except (Rejected, ServiceError) as exc:
            log.info("forfeit of seat %d at version %d not applied: %s", seat, version, exc)
        except StoreError as exc:
            # The id makes a retry safe whether or not the failed attempt was stored.
            log.warning("forfeit of seat %d not stored (%s); retrying in %.0f s", seat, exc, RETRY)
            self._clock.call_later(RETRY, functools.partial(self._rearm, hot.match_id))
