"""The mechanisms both backends share, each written once: the request-error test, the batch-split decision,
the schema revision check, the statements compiled per dialect, and the parts over a runner."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import asyncpg
import pytest

from eventstore import DatabaseError, Snapshot, StreamNotFound, append_request
from eventstore.batch import MAX_BATCH, after_failure, is_request_error
from eventstore.parts import AsyncRowsPart, AsyncSnapshotsPart, SyncRowsPart, SyncSecretsPart, SyncSnapshotsPart
from eventstore.schema import SCHEMA_REVISION, check_revision
from eventstore.statements import Compiled, Sql, compile_for
from tests.eventstore.conftest import command, events

REQUEST_ERRORS = [
    sqlite3.IntegrityError("UNIQUE constraint failed: secrets.stream_id, secrets.name"),
    sqlite3.DataError("string or blob too big"),
    asyncpg.exceptions.UniqueViolationError("duplicate key value violates unique constraint"),
    asyncpg.exceptions.NumericValueOutOfRangeError("integer out of range"),
    asyncpg.exceptions.RaiseError("injected failure"),
]
OTHER_ERRORS = [
    sqlite3.OperationalError("database is locked"),
    sqlite3.DatabaseError("database disk image is malformed"),
    asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
    asyncpg.exceptions.SerializationError("could not serialize access"),
    asyncpg.exceptions.DiskFullError("could not extend file"),
    asyncpg.InterfaceError("cannot perform operation: another operation is in progress"),
    ConnectionResetError("connection reset by peer"),
]


@pytest.mark.parametrize("exc", REQUEST_ERRORS, ids=lambda exc: type(exc).__name__)
def test_errors_from_one_requests_rows_are_request_errors_on_both_drivers(exc: Exception) -> None:
    assert is_request_error(exc)


@pytest.mark.parametrize("exc", OTHER_ERRORS, ids=lambda exc: type(exc).__name__)
def test_errors_of_the_database_or_connection_are_not(exc: Exception) -> None:
    assert not is_request_error(exc)


def test_a_request_error_in_a_shared_batch_retries_each_request_alone() -> None:
    batch = [append_request(f"s{n}", 0, events("A"), command(f"c{n}")) for n in range(3)]
    assert after_failure(batch, REQUEST_ERRORS[0]) is None


@pytest.mark.parametrize("exc", [REQUEST_ERRORS[0], OTHER_ERRORS[0]], ids=["alone", "connection"])
def test_a_request_alone_or_a_failed_connection_refuses_every_request(exc: Exception) -> None:
    batch = [append_request("s1", 0, events("A"), command("c1"))]
    if exc is OTHER_ERRORS[0]:
        batch.append(append_request("s2", 0, events("A"), command("c2")))
    outcomes = after_failure(batch, exc)
    assert outcomes is not None and len(outcomes) == len(batch)
    assert all(isinstance(o, DatabaseError) and o.__cause__ is exc for o in outcomes)
    assert "'s1'" in str(outcomes[0])


def test_max_batch_is_one_constant_for_both_backends() -> None:
    from eventstore import postgres, sqlite_async

    assert sqlite_async.MAX_BATCH is postgres.MAX_BATCH is MAX_BATCH


def test_check_revision_refuses_anything_but_the_schemas() -> None:
    check_revision(SCHEMA_REVISION)
    with pytest.raises(DatabaseError, match=r"revision is none, need \d+: run `duelhall migrate`"):
        check_revision(None)
    with pytest.raises(DatabaseError, match="revision is 0001"):
        check_revision("0001")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_every_statement_is_compiled_once_per_dialect(backend: str) -> None:
    compiled = compile_for(backend)
    assert all(isinstance(statement, Sql) for statement in compiled)
    placeholder = "?" if backend == "sqlite" else "$1"
    assert placeholder in compiled.READ_STREAM.text and "ORDER BY events.version" in compiled.READ_STREAM.text
    assert compiled.READ_HEAD.args() == (1,)  # the literal id Core fixed
    assert compiled.LIST_ROWS_AFTER.args(projection="t", after_key="k", limit=5)[:2] == ("t", "k")


class Recording:
    """A runner over canned rows that records what it was asked to run."""

    def __init__(self, rows: Sequence[Any] = ()) -> None:
        self.sql: Compiled = compile_for("sqlite")
        self.rows = list(rows)
        self.ran: list[tuple[str, Sql, dict[str, Any]]] = []

    def read(self, statement: Sql, /, **values: Any) -> list[Any]:
        self.ran.append(("read", statement, values))
        return self.rows

    def write(self, statement: Sql, /, **values: Any) -> list[Any]:
        self.ran.append(("write", statement, values))
        return self.rows

    def write_many(self, writes: Sequence[tuple[Sql, Sequence[dict[str, Any]]]], /) -> None:
        self.ran.append(("write_many", writes[0][0] if writes else None, {"writes": list(writes)}))


class AsyncRecording(Recording):
    async def read(self, statement: Sql, /, **values: Any) -> list[Any]:  # type: ignore[override]
        return super().read(statement, **values)

    async def write(self, statement: Sql, /, **values: Any) -> list[Any]:  # type: ignore[override]
        return super().write(statement, **values)

    async def write_many(self, writes: Sequence[tuple[Sql, Sequence[dict[str, Any]]]], /) -> None:  # type: ignore[override]
        super().write_many(writes)


def test_the_parts_run_their_statements_and_shape_the_rows() -> None:
    run = Recording([("seed", b"s"), ("token:0", b"t")])
    assert SyncSecretsPart(run).read("m1") == {"seed": b"s", "token:0": b"t"}
    rows = SyncRowsPart(run)
    assert rows.list("t", after_key="a", limit=2) == [("seed", b"s"), ("token:0", b"t")]
    rows.clear("t")
    assert [(kind, statement) for kind, statement, _ in run.ran] == [
        ("read", run.sql.READ_SECRETS),
        ("read", run.sql.LIST_ROWS_AFTER),
        ("write", run.sql.CLEAR_ROWS),
    ]
    assert run.ran[1][2] == {"projection": "t", "after_key": "a", "limit": 2}
    empty = Recording()
    assert SyncRowsPart(empty).get("t", "k") is None
    assert SyncSnapshotsPart(empty).load("m1", "s1") is None


def test_a_write_of_rows_is_one_call_of_the_runner_deletes_then_puts_the_last_change_of_each_key() -> None:
    run = Recording()
    rows = SyncRowsPart(run)
    rows.write([("t", "a", b"1"), ("t", "b", None), ("u", "a", b"2"), ("t", "a", None), ("t", "c", b"3")])
    sql = run.sql
    assert run.ran == [
        (
            "write_many",
            sql.DELETE_ROW,
            {
                "writes": [
                    (sql.DELETE_ROW, [{"projection": "t", "key": "a"}, {"projection": "t", "key": "b"}]),
                    (
                        sql.PUT_ROW,
                        [
                            {"projection": "u", "key": "a", "value": b"2"},
                            {"projection": "t", "key": "c", "value": b"3"},
                        ],
                    ),
                ]
            },
        )
    ]
    rows.write([])
    assert len(run.ran) == 1  # nothing to write: no transaction
    rows.list("t", after_key="p1", limit=3, prefix="p")
    assert run.ran[-1] == (
        "read",
        sql.LIST_PREFIX_AFTER,
        {"projection": "t", "after_key": "p1", "end_key": "q", "limit": 3},
    )
    rows.list("t", after_key="a", limit=3, prefix="p")  # before the prefix: from where it starts
    assert run.ran[-1] == ("read", sql.LIST_PREFIX, {"projection": "t", "prefix": "p", "end_key": "q", "limit": 3})


def test_a_snapshot_the_guarded_write_did_not_take_is_stream_not_found() -> None:
    with pytest.raises(StreamNotFound):
        SyncSnapshotsPart(Recording()).save(Snapshot("m1", 3, "s1", b"x"))
    taken = Recording([("m1",)])
    SyncSnapshotsPart(taken).save(Snapshot("m1", 3, "s1", b"x"))
    assert taken.ran == [
        ("write", taken.sql.SAVE_SNAPSHOT, {"stream_id": "m1", "version": 3, "schema": "s1", "data": b"x"})
    ]


async def test_the_async_parts_are_the_same_over_an_async_runner() -> None:
    run = AsyncRecording([(2, b"state")])
    assert await AsyncSnapshotsPart(run).load("m1", "s1") == Snapshot("m1", 2, "s1", b"state")
    assert await AsyncRowsPart(run).get("t", "k") == 2
    with pytest.raises(StreamNotFound):
        await AsyncSnapshotsPart(AsyncRecording()).save(Snapshot("m1", 3, "s1", b"x"))
