"""A timer clock the test moves on by hand: the server's timers fire when it says, not after real waiting."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta


class _Handle:
    def __init__(self, due: float, callback: Callable[[], None]) -> None:
        self.due, self.callback, self.cancelled = due, callback, False

    def when(self) -> float:
        return self.due

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """Wall time starts at the real time of construction and moves only with ``advance``."""

    def __init__(self) -> None:
        self._start = datetime.now(UTC)
        self._elapsed = 0.0
        self._handles: list[_Handle] = []

    def now(self) -> datetime:
        return self._start + timedelta(seconds=self._elapsed)

    def time(self) -> float:
        return self._elapsed

    def call_later(self, delay: float, callback: Callable[[], None]) -> _Handle:
        handle = _Handle(self._elapsed + delay, callback)
        self._handles.append(handle)
        return handle

    def advance(self, seconds: float) -> int:
        """Moves time on and runs every callback that fell due, in due order; returns how many ran."""
        self._elapsed += seconds
        due = sorted((h for h in self._handles if not h.cancelled and h.due <= self._elapsed), key=lambda h: h.due)
        self._handles = [h for h in self._handles if h not in due and not h.cancelled]
        for handle in due:
            handle.callback()
        return len(due)
