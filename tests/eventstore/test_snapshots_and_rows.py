"""Snapshots as a cache (issue #3 item 5) and the projection rows read models are kept in."""

from __future__ import annotations

import pytest

from eventstore import AsyncEventStore, DatabaseError, Snapshot, StreamNotFound
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


async def test_rows_list_stops_where_a_key_prefix_ends(store: AsyncEventStore) -> None:
    top = "\U0010ffff"  # the last code point: no string sorts after every key that starts with it
    keys = [
        "a",
        "ab",
        "ab0",
        "abz",
        f"ab{top}",
        f"ab{top}z",
        "ac",
        "b",
        "x\ud7ff",
        "x\ud7ffy",
        "x\ue000",
        top,
        f"{top}a",
    ]
    for key in keys:
        await store.rows.put("matches", key, key.encode())
    await store.rows.put("standings", "ab1", b"elsewhere")

    async def listed(prefix: str, after_key: str | None = None, limit: int = 100) -> list[str]:
        return [key for key, _ in await store.rows.list("matches", after_key, limit, prefix=prefix)]

    assert await listed("ab") == ["ab", "ab0", "abz", f"ab{top}", f"ab{top}z"]
    assert await listed("ab", limit=2) == ["ab", "ab0"]
    assert await listed("ab", after_key="ab0", limit=2) == ["abz", f"ab{top}"]
    assert await listed("ab", after_key="a") == await listed("ab")  # a key before the prefix: from its start
    assert await listed("ab", after_key=f"ab{top}z") == [] and await listed("ab", after_key="b") == []
    assert await listed(f"ab{top}") == [f"ab{top}", f"ab{top}z"]
    assert await listed("x\ud7ff") == ["x\ud7ff", "x\ud7ffy"]  # the next code point is past the surrogates
    assert await listed(top) == [top, f"{top}a"] and await listed(top, after_key=top) == [f"{top}a"]
    assert await listed("abc") == [] and await listed("zz") == []
    assert await listed("") == sorted(keys)


async def test_a_write_of_several_rows_commits_them_all_in_order(store: AsyncEventStore) -> None:
    await store.rows.put("matches", "old", b"x")
    await store.rows.write(
        [
            ("matches", "m1", b"one"),
            ("matches", "old", None),
            ("standings", "m1", b"other table"),
            ("matches", "m1", b"uno"),  # the last change of a key is the one that stays
            ("matches", "m2", b"gone"),
            ("matches", "m2", None),
            ("matches", "absent", None),
        ]
    )
    assert await store.rows.list("matches") == [("m1", b"uno")]
    assert await store.rows.list("standings") == [("m1", b"other table")]
    await store.rows.write([])


async def test_a_write_of_several_rows_that_fails_changes_none_of_them(
    store: AsyncEventStore, failing_row_key: str
) -> None:
    await store.rows.put("matches", "m1", b"one")
    with pytest.raises(DatabaseError):
        await store.rows.write(
            [("matches", "m2", b"two"), ("matches", "m1", None), ("matches", failing_row_key, b"refused")]
        )
    assert await store.rows.list("matches") == [("m1", b"one")]
