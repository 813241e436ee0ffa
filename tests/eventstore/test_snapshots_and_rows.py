"""Snapshots as a cache (issue #3 item 5) and the projection rows read models are kept in."""

from __future__ import annotations

import pytest

from eventstore import AsyncEventStore, Snapshot, StreamNotFound
from tests.eventstore.conftest import command, events


async def test_a_snapshot_loads_under_its_own_schema_only(store: AsyncEventStore) -> None:
    await store.append("m1", 0, events("A", "B", "C"), command("c1"))
    await store.save_snapshot(Snapshot("m1", 2, "duel@3", b"state-at-2"))
    assert await store.load_snapshot("m1", "duel@3") == Snapshot("m1", 2, "duel@3", b"state-at-2")
    assert await store.load_snapshot("m1", "duel@4") is None
    assert await store.load_snapshot("m2", "duel@3") is None


async def test_a_newer_snapshot_replaces_the_old_one_whatever_its_schema(store: AsyncEventStore) -> None:
    await store.append("m1", 0, events("A", "B", "C"), command("c1"))
    await store.save_snapshot(Snapshot("m1", 2, "duel@3", b"old"))
    await store.save_snapshot(Snapshot("m1", 3, "duel@4", b"new"))
    assert await store.load_snapshot("m1", "duel@4") == Snapshot("m1", 3, "duel@4", b"new")
    assert await store.load_snapshot("m1", "duel@3") is None


@pytest.mark.parametrize(("stream_id", "version"), [("m1", 4), ("absent", 1)])
async def test_a_snapshot_of_a_version_the_stream_lacks_is_refused(
    store: AsyncEventStore, stream_id: str, version: int
) -> None:
    await store.append("m1", 0, events("A", "B", "C"), command("c1"))
    with pytest.raises(StreamNotFound) as raised:
        await store.save_snapshot(Snapshot(stream_id, version, "duel@3", b"x"))
    assert (raised.value.stream_id, raised.value.version) == (stream_id, version)
    assert await store.load_snapshot(stream_id, "duel@3") is None


async def test_rows_are_set_read_and_replaced(store: AsyncEventStore) -> None:
    await store.put_row("matches", "m1", b"one")
    await store.put_row("matches", "m1", b"uno")
    await store.put_row("standings", "m1", b"other table")
    assert await store.get_row("matches", "m1") == b"uno"
    assert await store.get_row("standings", "m1") == b"other table"
    assert await store.get_row("matches", "m2") is None


async def test_rows_list_in_key_order_page_by_page(store: AsyncEventStore) -> None:
    for key in ["c", "a", "e", "b", "d"]:
        await store.put_row("matches", key, key.encode())
    await store.put_row("standings", "a0", b"elsewhere")
    assert await store.list_rows("matches", limit=2) == [("a", b"a"), ("b", b"b")]
    assert await store.list_rows("matches", after_key="b", limit=2) == [("c", b"c"), ("d", b"d")]
    assert await store.list_rows("matches", after_key="d") == [("e", b"e")]
    assert await store.list_rows("matches", after_key="e") == []


async def test_row_keys_sort_by_code_point_on_every_backend(store: AsyncEventStore) -> None:
    for key in ["b", "B", "_", "a", "Z", "é"]:
        await store.put_row("matches", key, b"")
    assert [key for key, _ in await store.list_rows("matches")] == ["B", "Z", "_", "a", "b", "é"]


async def test_clearing_a_table_leaves_the_others(store: AsyncEventStore) -> None:
    await store.put_row("matches", "m1", b"x")
    await store.put_row("standings", "t1", b"y")
    await store.clear_rows("matches")
    assert await store.list_rows("matches") == []
    assert await store.list_rows("standings") == [("t1", b"y")]
