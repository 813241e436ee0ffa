"""The server's event store, with each append timed and each lost race reported with its cause.

A ``WrongExpectedVersion`` (another writer appended to the stream first) or a duplicate the caller did not
know of (the command id is stored already, e.g. two instances both fired one timeout) is a conflict; the manager
reloads and decides again. Its cause is this instance when the write that won was its own (two of its calls
racing on a stream no lock serialises, a retry of its own command), else another instance: the store remembers
the last version and the command ids it appended to recent streams. Each conflict is also told what was being
appended (``appending``): a seat's command, a bot's, a timer's, a match's end, a join, a creation. Everything
but ``append`` is the wrapped store's own: its parts and its bound methods, taken as they are (no layer added to
a call).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from engine.contract import ADMIN, SYSTEM
from engine.seating import JOIN_COMMAND
from eventstore import Appended, AsyncEventStore, CommandRecord, NewEvent, Origin, WrongExpectedVersion
from eventstore.foreign import foreign_of
from services.core.logs import fields
from services.matches.bot_player import BOT_COMMAND_PREFIX
from services.matches.create_requests import REQUEST_STREAM_PREFIX
from services.matches.creation import CREATE_COMMAND
from services.readmodels.lifecycle import ENDED_STREAM_PREFIX

log = logging.getLogger(__name__)

_K = TypeVar("_K")
_V = TypeVar("_V")

VERSION = "version"
DUPLICATE = "duplicate"
THIS_INSTANCE = "this_instance"
OTHER_INSTANCE = "other_instance"
SEAT, BOT, TIMER, ADMIN_RULING = "seat", "bot", "timer", "admin"
END, JOIN, CREATION, OTHER = "end", "join", "creation", "other"
"""What a conflicting append was: a seat's command, a bot seat's, the system's (a turn timeout, a disconnect
forfeit), an admin's ruling, a match's end record, a join, a creation (or its request record), anything else (a
tournament's events: a stream whose id has a ``kind:`` prefix)."""
REMEMBERED = 65_536
"""Streams (and as many command ids) whose last own append is remembered to tell the causes of conflicts apart."""


class ObservedStore:
    """An ``AsyncEventStore`` over ``store``; reports append latency to ``append_listeners`` and conflicts to
    ``conflict_listeners`` (with ``VERSION`` or ``DUPLICATE``)."""

    def __init__(self, store: AsyncEventStore) -> None:
        self.wrapped = store
        self.append_listeners: list[Callable[[float], None]] = []
        self.conflict_listeners: list[Callable[[str, str, str], None]] = []
        """Told each conflict's kind (``VERSION``, ``DUPLICATE``), cause (``THIS_INSTANCE``, ``OTHER_INSTANCE``) and
        what was being appended (``appending``)."""
        self._versions: OrderedDict[str, int] = OrderedDict()
        """The last version this instance appended to each recent stream."""
        self._commands: OrderedDict[tuple[str, str], None] = OrderedDict()
        """The (stream, command id) pairs this instance appended lately."""
        self.secrets, self.snapshots, self.rows = store.secrets, store.snapshots, store.rows
        self.read_stream, self.read_all, self.subscribe = store.read_stream, store.read_all, store.subscribe
        self.head, self.last_version, self.read_commands = store.head, store.last_version, store.read_commands
        self.close = store.close
        self.foreign = foreign_of(store)

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
            own = self._versions.get(stream_id) == exc.actual
            self._conflict(VERSION, own, stream_id, expected_version, exc.actual, command)
            raise
        finally:
            seconds = time.perf_counter() - started
            for listener in self.append_listeners:
                listener(seconds)
        if appended.duplicate:
            own = (stream_id, command.command_id) in self._commands
            self._conflict(DUPLICATE, own, stream_id, expected_version, appended.last_version, command)
        else:
            _remember(self._versions, stream_id, appended.last_version)
            _remember(self._commands, (stream_id, command.command_id), None)
        return appended

    def _conflict(
        self, kind: str, own: bool, stream_id: str, expected: int, actual: int, command: CommandRecord
    ) -> None:
        message = (
            "a concurrent call on this instance wrote the stream first"
            if own
            else "another instance wrote the match first; reloading"
        )
        log.log(
            logging.DEBUG if own else logging.INFO,
            message,
            extra=fields(
                conflict=kind,
                match_id=stream_id,
                expected_version=expected,
                actual_version=actual,
                command_id=command.command_id,
                appending=(what := appending(stream_id, command)),
            ),
        )
        for listener in self.conflict_listeners:
            listener(kind, THIS_INSTANCE if own else OTHER_INSTANCE, what)


def appending(stream_id: str, command: CommandRecord) -> str:
    """What an append was, for the conflicts' ``appending`` label (a few values, whatever the ruleset)."""
    if stream_id.startswith(ENDED_STREAM_PREFIX):
        return END
    if command.type == CREATE_COMMAND or stream_id.startswith(REQUEST_STREAM_PREFIX):
        return CREATION
    if ":" in stream_id:  # match ids are hex; other streams are named ``<kind>:<id>``
        return OTHER
    if command.type == JOIN_COMMAND:
        return JOIN
    if command.actor == SYSTEM:
        return TIMER
    if command.actor == ADMIN:
        return ADMIN_RULING
    if command.actor.isdigit():
        return BOT if command.command_id.startswith(BOT_COMMAND_PREFIX) else SEAT
    return OTHER


def _remember(recent: OrderedDict[_K, _V], key: _K, value: _V) -> None:
    recent[key] = value
    recent.move_to_end(key)
    if len(recent) > REMEMBERED:
        recent.popitem(last=False)
