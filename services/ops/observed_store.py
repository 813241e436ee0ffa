"""The server's event store, with each append timed and each lost race with another instance logged.

A ``WrongExpectedVersion`` (another writer appended to the stream first) or a duplicate the manager did not
know of (another instance recorded the same command id, e.g. both fired one timeout) is what a conflict
between instances looks like from here; the manager reloads and decides again. Everything but ``append`` is
the wrapped store's own: its parts and its bound methods, taken as they are (no layer added to a call).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence

from eventstore import Appended, AsyncEventStore, CommandRecord, NewEvent, Origin, WrongExpectedVersion
from services.core.logs import fields

log = logging.getLogger(__name__)

VERSION = "version"
DUPLICATE = "duplicate"


class ObservedStore:
    """An ``AsyncEventStore`` over ``store``; reports append latency to ``append_listeners`` and conflicts to
    ``conflict_listeners`` (with ``VERSION`` or ``DUPLICATE``)."""

    def __init__(self, store: AsyncEventStore) -> None:
        self.wrapped = store
        self.append_listeners: list[Callable[[float], None]] = []
        self.conflict_listeners: list[Callable[[str], None]] = []
        self.secrets, self.snapshots, self.rows = store.secrets, store.snapshots, store.rows
        self.read_stream, self.read_all, self.subscribe = store.read_stream, store.read_all, store.subscribe
        self.head, self.last_version, self.read_commands = store.head, store.last_version, store.read_commands
        self.close = store.close

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command: CommandRecord,
        secrets: Mapping[str, bytes] | None = None,
        origin: Origin | None = None,
    ) -> Appended:
        started = time.perf_counter()
        try:
            appended = await self.wrapped.append(stream_id, expected_version, events, command, secrets, origin)
        except WrongExpectedVersion as exc:
            self._conflict(VERSION, stream_id, expected_version, exc.actual, command.command_id)
            raise
        finally:
            seconds = time.perf_counter() - started
            for listener in self.append_listeners:
                listener(seconds)
        if appended.duplicate:
            self._conflict(DUPLICATE, stream_id, expected_version, appended.last_version, command.command_id)
        return appended

    def _conflict(self, kind: str, stream_id: str, expected: int, actual: int, command_id: str) -> None:
        log.info(
            "another instance wrote the match first; reloading",
            extra=fields(
                conflict=kind,
                match_id=stream_id,
                expected_version=expected,
                actual_version=actual,
                command_id=command_id,
            ),
        )
        for listener in self.conflict_listeners:
            listener(kind)
