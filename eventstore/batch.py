"""Group commit's arithmetic: decide a batch of appends against what the database holds.

Pure: the backends lock the head counter, read each request's ``Known`` facts, call ``plan`` and write
its rows in the same transaction. Because every writer holds the head lock from those reads to its
commit, the facts cannot go stale, so version checks and duplicates are decided here, request by request,
and a conflicting request never touches the database (docs/eventstore.md "Group commit"). PostgreSQL may
also plan from remembered last events; its write statement then verifies them (``postgres_sql.WRITE``).
What a failed transaction comes to (``after_failure``) is decided here too, for both backends.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from eventstore.errors import DatabaseError, StoreError, WrongExpectedVersion
from eventstore.hashing import GENESIS_HASH, chain2_hash, chain_hash, command_digest
from eventstore.model import CHAIN_VERSION, Appended, AppendRequest, from_micros

MAX_BATCH = 256
"""The most appends one transaction carries."""

AppendOutcome = Appended | StoreError
"""What one request of a batch came to: its Appended, or its error (returned, never raised)."""


class Known(msgspec.Struct, frozen=True):
    """What the database holds for one request: its stream's last event (version, hash, time), and the
    command's first result if any."""

    version: int = 0
    hash: bytes = GENESIS_HASH
    original: Appended | None = None
    recorded_at: int = 0


class Plan(msgspec.Struct):
    """The outcome of every request, the rows to insert, and the head counter after them."""

    outcomes: list[AppendOutcome]
    event_rows: list[tuple[Any, ...]]
    command_rows: list[tuple[Any, ...]]
    secret_rows: list[tuple[Any, ...]]
    position: int


def plan(batch: Sequence[AppendRequest], known: Sequence[Known], position: int, now: int) -> Plan:
    """Decide each request in order; later requests see the streams as the earlier ones left them.

    A live append is recorded at ``now``, or at its stream's last time if that is later (another process's
    clock ran ahead), so times never run backwards along a stream; an import keeps its ``origin``'s time."""
    result = Plan([], [], [], [], position)
    last: dict[str, tuple[int, bytes, int]] = {}
    done: dict[tuple[str, str], Appended] = {}
    for request, facts in zip(batch, known, strict=True):
        key = (request.stream_id, request.command.command_id)
        original = done.get(key) or facts.original
        if original is not None:
            result.outcomes.append(msgspec.structs.replace(original, duplicate=True))
            continue
        version, prev, latest = last.get(request.stream_id, (facts.version, facts.hash, facts.recorded_at))
        if request.expected_version != version:
            result.outcomes.append(WrongExpectedVersion(request.stream_id, request.expected_version, version))
            continue
        kept = request.origin.recorded_at if request.origin else None
        recorded_at = max(now, latest) if kept is None else kept
        appended = _add(result, request, prev, recorded_at)
        last[request.stream_id] = (appended.last_version, appended.last_hash, recorded_at)
        done[key] = appended
        result.outcomes.append(appended)
    return result


def _add(result: Plan, request: AppendRequest, prev: bytes, recorded_at: int) -> Appended:
    """Append one request's rows to the plan, chaining hashes from ``prev``."""
    stream_id, command = request.stream_id, request.command
    first_version, first_position = request.expected_version + 1, result.position + 1
    chain = request.origin.chain if request.origin else CHAIN_VERSION
    digest = command_digest(command) if chain == 2 else b""
    for offset, event in enumerate(request.events):
        version, position = first_version + offset, first_position + offset
        if chain == 2:
            prev = chain2_hash(prev, version, event.type, event.data, recorded_at, digest)
        else:
            prev = chain_hash(prev, version, event.type, event.data)
        result.event_rows.append(
            (
                position,
                stream_id,
                version,
                event.type,
                event.data,
                command.command_id,
                command.actor,
                recorded_at,
                prev,
                chain,
            )
        )
    last_version = first_version + len(request.events) - 1
    result.position += len(request.events)
    result.command_rows.append(
        (stream_id, command.command_id, command.actor, command.type, command.payload, first_version, last_version)
    )
    result.secret_rows.extend((stream_id, name, value) for name, value in request.secrets)
    at = from_micros(recorded_at)
    return Appended(stream_id, first_version, last_version, first_position, result.position, prev, at, False)


class CommitStats(msgspec.Struct):
    """Counters of a store's writer: appends committed and the transactions that carried them (internal:
    the benchmark and the tests read them on the concrete stores; the server passes ``on_commit``)."""

    appends: int = 0
    commits: int = 0
    on_commit: Callable[[int], None] | None = None
    """Called with the number of new appends of each committed transaction (from the writer's thread)."""

    def count(self, outcomes: Sequence[AppendOutcome]) -> None:
        """Count one committed transaction and the new appends it carried."""
        new = sum(1 for outcome in outcomes if isinstance(outcome, Appended) and not outcome.duplicate)
        if new:
            self.appends += new
            self.commits += 1
            if self.on_commit is not None:
                self.on_commit(new)


def is_request_error(exc: BaseException) -> bool:
    """Whether the driver's error came from one request's rows rather than from the database or the
    connection: sqlite3's integrity and data errors; PostgreSQL's data (22), integrity (23) and raised
    (P0, a trigger's RAISE) sqlstates. Other requests of a batch may then still commit without it."""
    if isinstance(exc, sqlite3.Error):
        return isinstance(exc, sqlite3.IntegrityError | sqlite3.DataError)
    return str(getattr(exc, "sqlstate", "") or "")[:2] in ("22", "23", "P0")


def after_failure(batch: Sequence[AppendRequest], exc: BaseException) -> list[AppendOutcome] | None:
    """What a batch whose transaction failed with the driver's ``exc`` comes to: every request refused, or
    None when one request's rows broke the shared transaction, so each must be retried in its own."""
    if len(batch) > 1 and is_request_error(exc):
        return None
    return [refused(request, exc) for request in batch]


def refused(request: AppendRequest, exc: BaseException) -> DatabaseError:
    """The outcome of a request the database refused or could not take (the driver's error as cause)."""
    error = DatabaseError(f"append to {request.stream_id!r} failed: {exc}")
    error.__cause__ = exc
    return error


def broken(exc: BaseException) -> StoreError:
    """The outcome handed to every caller of a batch that failed on a bug, so none waits forever."""
    error = StoreError(f"append failed: {exc!r}")
    error.__cause__ = exc
    return error
