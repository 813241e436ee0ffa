"""Time for the turn timers, injectable: the event loop's clock in the server, a hand-moved one in tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol


class Alarm(Protocol):
    """A scheduled call: cancellable, and when it fires on its clock's ``monotonic`` scale."""

    def cancel(self) -> None: ...
    def when(self) -> float: ...


class Clock(Protocol):
    def now(self) -> datetime:
        """Wall time, UTC: deadlines run from the time the store recorded the last event."""
        ...

    def monotonic(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Alarm: ...


class LoopClock:
    """The running event loop's timers and the system's wall clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Alarm:
        return asyncio.get_running_loop().call_later(delay, callback)
