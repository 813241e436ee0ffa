"""Turn timers from ``deadline(state)``: on expiry the system submits the ruleset's timeout command.

The expiry comes from the match's deadlines (``services/matches/deadlines.py``), folded from the times its commands
were recorded: a deadline kept over several commands keeps its expiry, a paused one resumes with what was
left, and a restarted server, or another instance, arms the same expiry. Each change also reaches the match's
disconnect grace (``services/matches/grace_timers.py``), which runs wherever the turn timers do.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Protocol

import msgspec

from engine.contract import SYSTEM, Actor
from engine.errors import Rejected
from eventstore import StoreError
from services.core.clock import Alarm, Clock, LoopClock
from services.core.errors import ServiceError
from services.core.logs import fields
from services.core.tasks import keep
from services.matches.grace_timers import GraceTimers
from services.matches.hot import HotMatch

log = logging.getLogger(__name__)

RETRY = 1.0
"""Seconds before a timeout the store could not take is submitted again."""
ARMED = "armed"
FIRED = "fired"


class Submits(Protocol):
    """The part of the match manager the timers need."""

    async def submit(self, match_id: str, actor: Actor, raw: bytes, command_id: str = "") -> object: ...


class Armed(msgspec.Struct, frozen=True):
    """The clock running for a match, as clients see it."""

    seat: int | None
    timeout: bytes
    """The timeout command's JSON."""
    expires_at: datetime
    seconds: float


class Timers:
    """One pending timeout per running match; the manager's change listener (``arm``)."""

    def __init__(
        self,
        manager: Submits,
        clock: Clock | None = None,
        grace: GraceTimers | None = None,
        owns: Callable[[str], bool] | None = None,
    ) -> None:
        self._manager = manager
        self._clock: Clock = clock or LoopClock()
        self.grace = grace
        """The matches' disconnect grace, handed each change."""
        self._owns = owns or (lambda match_id: True)
        """Whether this instance runs a match's clock (``services/matches/ownership.py``): another's owner fires it."""
        self._pending: dict[str, tuple[datetime, Alarm]] = {}
        """The expiry each match's alarm is set for."""
        self._armed: dict[str, Armed] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.listeners: list[Callable[[str], None]] = []
        """Called with ``ARMED`` when a timeout is scheduled and ``FIRED`` when one expires (metrics)."""

    def arm(self, hot: HotMatch) -> None:
        """(Re)schedules the match's timeout after it changed, for the expiry its deadlines hold, and its
        disconnect grace."""
        if self.grace is not None:
            self.grace.arm(hot)
        deadlines = hot.deadlines
        if deadlines.expires_at is None:
            self._cancel(hot.match_id)
            return
        pending = self._pending.get(hot.match_id)
        if pending is not None and pending[0] == deadlines.expires_at:
            return
        self._cancel(hot.match_id)
        delay = max(0.0, (deadlines.expires_at - self._clock.now()).total_seconds())
        fire = functools.partial(self._fire, hot.match_id, hot.version, deadlines.timeout)
        self._pending[hot.match_id] = (deadlines.expires_at, self._clock.call_later(delay, fire))
        self._armed[hot.match_id] = Armed(
            seat=deadlines.seat, timeout=deadlines.timeout, seconds=deadlines.seconds, expires_at=deadlines.expires_at
        )
        self._tell(ARMED)

    def due(self, match_id: str) -> float | None:
        """Seconds until the match's timeout fires, or None."""
        pending = self._pending.get(match_id)
        if pending is None:
            return None
        return max(0.0, pending[1].when() - self._clock.monotonic())

    def armed(self, match_id: str) -> Armed | None:
        """The match's running clock, or None."""
        return self._armed.get(match_id)

    def close(self) -> None:
        if self.grace is not None:
            self.grace.close()
        for match_id in list(self._pending):
            self._cancel(match_id)
        for task in self._tasks:
            task.cancel()

    def _cancel(self, match_id: str) -> None:
        self._armed.pop(match_id, None)
        pending = self._pending.pop(match_id, None)
        if pending is not None:
            pending[1].cancel()

    def _tell(self, what: str) -> None:
        for listener in self.listeners:
            listener(what)

    def _fire(self, match_id: str, version: int, raw: bytes) -> None:
        if not self._owns(match_id):  # its owner fires it; taking the match over arms it here again
            self._pending.pop(match_id, None)
            return
        self._pending.pop(match_id, None)
        self._armed.pop(match_id, None)
        log.info("turn timer fired", extra=fields(match_id=match_id, version=version))
        self._tell(FIRED)
        keep(self._tasks, self._expire(match_id, version, raw), f"duelhall-timeout-{match_id}")

    async def _expire(self, match_id: str, version: int, raw: bytes) -> None:
        try:
            # The id makes instances sharing a database append one timeout, not several.
            await self._manager.submit(match_id, SYSTEM, raw, command_id=f"timeout-{version}")
        except (Rejected, ServiceError) as exc:
            log.info("timeout for %s at version %d not applied: %s", match_id, version, exc)
        except StoreError as exc:
            # The id makes a retry safe whether or not the failed attempt was stored.
            log.warning(
                "timeout for %s at version %d not stored (%s); retrying in %.0f s", match_id, version, exc, RETRY
            )
            self._clock.call_later(RETRY, functools.partial(self._fire, match_id, version, raw))
