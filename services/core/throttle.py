"""A log line that repeats at most once a minute: for failures that may come once per request."""

from __future__ import annotations

import logging
import time

EVERY = 60.0
"""Seconds between lines of one throttled log."""


class ThrottledLog:
    """Logs the first occurrence, then at most one line per ``EVERY`` seconds with the count in between."""

    def __init__(self, logger: logging.Logger, level: int = logging.WARNING) -> None:
        self._logger, self._level = logger, level
        self._next = 0.0
        self._unlogged = 0

    def note(self, message: str) -> None:
        now = time.monotonic()
        if now < self._next:
            self._unlogged += 1
            return
        more = f" (and {self._unlogged} more like it since the last report)" if self._unlogged else ""
        self._logger.log(self._level, "%s%s", message[:300], more)
        self._next, self._unlogged = now + EVERY, 0
