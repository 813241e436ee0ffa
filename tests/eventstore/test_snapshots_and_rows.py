"""Snapshots as a cache (issue #3 item 5) and the projection rows read models are kept in."""

from __future__ import annotations

import pytest

from eventstore import AsyncEventStore, Snapshot, StreamNotFound
from tests.eventstore.conftest import command, events


async def test_a_snapshot_loads_under_its_own_schema_only(store: AsyncEventStore) -> None:
    await store.append("m1", 0, events("A", "B", "C"), command("c1"))
    await store.snapshots.save(Snapshot("m1", 2, "duel@3", b"state-at-2"))
    assert await store.snapshots.load("m1", "duel@3") == Snapshot("m1", 2, "duel@3", b"state-at-2")
    assert await store.snapshots.load("m1", "duel@4") is None
    assert await store.snapshots.load("m2", "duel@3") is None


async def test_a_newer_snapshot_replaces_the_old_one_whatever_its_schema(store: AsyncEventStore) -> None:
    await store.append("m1", 0, events("A", "B", "C"), command("c1"))
    await store.snapshots.save(Snapshot("m1", 2, "duel@3", b"old"))
    await store.snapshots.save(Snapshot("m1", 3, "duel@4", b"new"))
    assert await store.snapshots.load("m1", "duel@4") == Snapshot("m1", 3, "duel@4", b"new")
    assert await store.snapshots.load("m1", "duel@3") is None


@pytest.mark.parametrize(("stream_id", "version"), [("m1", 4), ("absent", 1)])
async def test_a_snapshot_of_a_version_the_stream_lacks_is_refused(
    store: AsyncEventStore, stream_id: str, version: int
) -> None:
    await store.append("m1", 0, events("A", "B", "C"), command("c1"))
    with pytest.raises(StreamNotFound) as raised:
        await store.snapshots.save(Snapshot(stream_id, version, "duel@3", b"x"))
    assert (raised.value.stream_id, raised.value.version) == (stream_id, version)
    assert await store.snapshots.load(stream_id, "duel@3") is None


async def test_rows_are_set_read_and_replaced(store: AsyncEventStore) -> None:
    await store.rows.put("matches", "m1", b"one")
    await store.rows.put("matches", "m1", b"uno")
    await store.rows.put("standings", "m1", b"other table")
    assert await store.rows.get("matches", "m1") == b"uno"
    assert await store.rows.get("standings", "m1") == b"other table"
    assert await store.rows.get("matches", "m2") is None


async def test_rows_list_in_key_order_page_by_page(store: AsyncEventStore) -> None:
    for key in ["c", "a", "e", "b", "d"]:
        await store.rows.put("matches", key, key.encode())
    await store.rows.put("standings", "a0", b"elsewhere")
    assert await store.rows.list("matches", limit=2) == [("a", b"a"), ("b", b"b")]
    assert await store.rows.list("matches", after_key="b", limit=2) == [("c", b"c"), ("d", b"d")]
    assert await store.rows.list("matches", after_key="d") == [("e", b"e")]
    assert await store.rows.list("matches", after_key="e") == []


async def test_row_keys_sort_by_code_point_on_every_backend(store: AsyncEventStore) -> None:
    for key in ["b", "B", "_", "a", "Z", "é"]:
        await store.rows.put("matches", key, b"")
    assert [key for key, _ in await store.rows.list("matches")] == ["B", "Z", "_", "a", "b", "é"]


async def test_clearing_a_table_leaves_the_others(store: AsyncEventStore) -> None:
    await store.rows.put("matches", "m1", b"x")
    await store.rows.put("standings", "t1", b"y")
    await store.rows.clear("matches")
    assert await store.rows.list("matches") == []
    assert await store.rows.list("standings") == [("t1", b"y")]


async def test_deleting_a_row_leaves_the_others(store: AsyncEventStore) -> None:
    await store.rows.put("matches", "m1", b"x")
    await store.rows.put("matches", "m2", b"y")
    await store.rows.put("standings", "m1", b"z")
    await store.rows.delete("matches", "m1")
    await store.rows.delete("matches", "absent")
    assert await store.rows.list("matches") == [("m2", b"y")]
    assert await store.rows.list("standings") == [("m1", b"z")]
