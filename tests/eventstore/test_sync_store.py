"""The blocking store: the same contract through ``open_sync_store`` (CLI tools, tests)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from eventstore import (
    Appended,
    Snapshot,
    SyncEventStore,
    WrongExpectedVersion,
    append_request,
    open_sync_store,
    verify_chain,
)
from tests.eventstore.conftest import command, events


@pytest.fixture
def sync_store(database: str) -> Iterator[SyncEventStore]:
    store = open_sync_store(database)
    yield store
    store.close()


def test_append_read_and_conflict(sync_store: SyncEventStore) -> None:
    appended = sync_store.append("m1", 0, events("A", "B"), command("c1"), {"seed": b"s"})
    assert (appended.last_version, appended.last_position) == (2, 2)
    assert sync_store.append("m1", 0, events("A", "B"), command("c1")).duplicate
    with pytest.raises(WrongExpectedVersion) as raised:
        sync_store.append("m1", 1, events("C"), command("c2"))
    assert raised.value.actual == 2
    stream = sync_store.read_stream("m1")
    assert verify_chain(stream, sync_store.read_commands("m1")) == appended.last_hash
    assert sync_store.read_all(2).events == stream[1:]
    assert (sync_store.last_version("m1"), sync_store.head()) == (2, 2)
    assert [c.command_id for c, _, _ in sync_store.read_commands("m1")] == ["c1"]
    assert sync_store.secrets.read("m1") == {"seed": b"s"}


def test_batches_snapshots_and_rows(sync_store: SyncEventStore) -> None:
    outcomes = sync_store.append_batch(
        [
            append_request("a", 0, events("A"), command("c1")),
            append_request("b", 1, events("B"), command("c2")),
        ]
    )
    assert isinstance(outcomes[0], Appended) and isinstance(outcomes[1], WrongExpectedVersion)
    sync_store.snapshots.save(Snapshot("a", 1, "s1", b"x"))
    assert sync_store.snapshots.load("a", "s1") == Snapshot("a", 1, "s1", b"x")
    sync_store.rows.put("t", "k", b"v")
    assert (sync_store.rows.get("t", "k"), sync_store.rows.list("t")) == (b"v", [("k", b"v")])
    sync_store.rows.write([("t", "k", None), ("t", "p1", b"1"), ("t", "p2", b"2"), ("t", "q", b"3")])
    assert sync_store.rows.list("t", prefix="p") == [("p1", b"1"), ("p2", b"2")]
    assert sync_store.rows.list("t", after_key="p1", prefix="p") == [("p2", b"2")]
    sync_store.rows.clear("t")
    assert sync_store.rows.list("t") == []
