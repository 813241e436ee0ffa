"""Turn timers from ``deadline(state)``: on expiry the system submits the ruleset's timeout command.

A deadline is identified by its seat and timeout command; while a match keeps the same one, its expiry stays
put. A new one runs from the time of the last event, which is also how timers resume after a restart. A
deadline that ``pauses`` keeps what was left of its budget while another one runs, and resumes with it (in
this process: after a restart it starts from the last event again).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from engine.contract import SYSTEM
from engine.errors import Rejected
from engine.match import encode
from services.errors import ServiceError
from services.hot import HotMatch

log = logging.getLogger(__name__)


class Armed(msgspec.Struct, frozen=True):
    """The clock running for a match, as clients see it."""

    seat: int | None
    timeout: bytes
    """The timeout command's JSON."""
    expires_at: datetime
    seconds: float


class _Pending(msgspec.Struct, frozen=True):
    key: bytes
    handle: asyncio.TimerHandle
    pauses: bool
    armed: Armed


class Timers:
    """One pending timeout per running match."""

    def __init__(self, manager: Any) -> None:
        self._manager = manager
        self._pending: dict[str, _Pending] = {}
        self._paused: dict[str, dict[bytes, float]] = {}
        """Seconds left of paused deadlines, by match and deadline key."""
        self._tasks: set[asyncio.Task[None]] = set()
        manager.on_change.append(self.arm)

    def arm(self, hot: HotMatch) -> None:
        """(Re)schedules the match's timeout after it changed."""
        deadline = hot.ruleset.deadline(hot.state) if hot.outcome is None else None
        if deadline is None:
            self._cancel(hot.match_id)
            self._paused.pop(hot.match_id, None)
            return
        raw = encode(deadline.timeout)
        key = f"{deadline.seat}|".encode() + raw
        pending = self._pending.get(hot.match_id)
        if pending is not None and pending.key == key:
            return
        self._pause_or_cancel(hot.match_id)
        delay = self._paused.get(hot.match_id, {}).pop(key, None)
        if delay is None:
            delay = (hot.last_event_at - datetime.now(UTC)).total_seconds() + deadline.seconds
        loop = asyncio.get_running_loop()
        delay = max(0.0, delay)
        handle = loop.call_later(delay, self._fire, hot.match_id, hot.version, raw)
        armed = Armed(seat=deadline.seat, timeout=raw, expires_at=datetime.now(UTC) + timedelta(seconds=delay),
                      seconds=deadline.seconds)
        self._pending[hot.match_id] = _Pending(key, handle, deadline.pauses, armed)

    def due(self, match_id: str) -> float | None:
        """Seconds until the match's timeout fires, or None."""
        pending = self._pending.get(match_id)
        if pending is None:
            return None
        return max(0.0, pending.handle.when() - asyncio.get_running_loop().time())

    def armed(self, match_id: str) -> Armed | None:
        """The match's running clock, or None."""
        pending = self._pending.get(match_id)
        return None if pending is None else pending.armed

    def close(self) -> None:
        for match_id in list(self._pending):
            self._cancel(match_id)
        self._paused.clear()
        for task in self._tasks:
            task.cancel()

    def _cancel(self, match_id: str) -> None:
        pending = self._pending.pop(match_id, None)
        if pending is not None:
            pending.handle.cancel()

    def _pause_or_cancel(self, match_id: str) -> None:
        pending = self._pending.get(match_id)
        if pending is not None and pending.pauses:
            left = pending.handle.when() - asyncio.get_running_loop().time()
            self._paused.setdefault(match_id, {})[pending.key] = max(0.0, left)
        self._cancel(match_id)

    def _fire(self, match_id: str, version: int, raw: bytes) -> None:
        self._pending.pop(match_id, None)
        task = asyncio.create_task(self._expire(match_id, version, raw))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _expire(self, match_id: str, version: int, raw: bytes) -> None:
        try:
            # The id makes instances sharing a database append one timeout, not several.
            await self._manager.submit(match_id, SYSTEM, raw, command_id=f"timeout-{version}")
        except (Rejected, ServiceError) as exc:
            log.info("timeout for %s at version %d not applied: %s", match_id, version, exc)
