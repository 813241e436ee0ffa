"""Deleting whole streams (eventstore/prune.py) in chunks: any number of them, each whole or not at all."""

from __future__ import annotations

from eventstore import AsyncEventStore
from eventstore.prune import CHUNK, delete_streams
from tests.eventstore.conftest import command, events


async def test_more_streams_than_a_statement_takes_parameters_are_deleted(
    database: str, store: AsyncEventStore
) -> None:
    kept = ["keep-1"]
    doomed = [f"gone-{n}" for n in range(3)]
    for stream_id in [*kept, *doomed]:
        await store.append(stream_id, 0, events("A", "B"), command(f"c-{stream_id}"))
        await store.rows.put("matches", stream_id, b"row")
        await store.rows.put("listing", f"key-{stream_id}", b"row")
    # 40,000 ids, each with a row key: one DELETE of them all passes 80,000 parameters (PostgreSQL takes 65,535).
    absent = [f"absent-{n}" for n in range(40_000)]
    ids = [*absent[:20_000], *doomed, *absent[20_000:]]
    keys = {stream_id: [f"key-{stream_id}"] for stream_id in ids}
    assert delete_streams(database, ids, ("matches", "listing"), keys) == 6
    assert len(ids) > 2 * CHUNK
    for stream_id in doomed:
        assert await store.read_stream(stream_id) == []
    assert [event.type for event in await store.read_stream("keep-1")] == ["A", "B"]
    assert await store.rows.list("matches") == [("keep-1", b"row")]
    assert await store.rows.list("listing") == [("key-keep-1", b"row")]
