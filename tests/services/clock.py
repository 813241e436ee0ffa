"""A clock the test moves by hand: timers fire when it is advanced past them, never on their own."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta


class ManualAlarm:
    def __init__(self, at: float, callback: Callable[[], None]) -> None:
        self.at, self.callback, self.cancelled = at, callback, False

    def cancel(self) -> None:
        self.cancelled = True

    def when(self) -> float:
        return self.at


class ManualClock:
    def __init__(self, now: datetime | None = None) -> None:
        self._now = now or datetime.now(UTC)
        self._monotonic = 0.0
        self._alarms: list[ManualAlarm] = []

    def now(self) -> datetime:
        return self._now

    def monotonic(self) -> float:
        return self._monotonic

    def call_later(self, delay: float, callback: Callable[[], None]) -> ManualAlarm:
        alarm = ManualAlarm(self._monotonic + delay, callback)
        self._alarms.append(alarm)
        return alarm

    def advance(self, seconds: float) -> None:
        """Moves time on, firing every alarm that falls due on the way, in order."""
        end = self._monotonic + seconds
        while due := sorted((a for a in self._alarms if not a.cancelled and a.at <= end), key=lambda a: a.at):
            alarm = due[0]
            self._alarms.remove(alarm)
            self._now += timedelta(seconds=alarm.at - self._monotonic)
            self._monotonic = alarm.at
            alarm.callback()
        self._now += timedelta(seconds=end - self._monotonic)
        self._monotonic = end
