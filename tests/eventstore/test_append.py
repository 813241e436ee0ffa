"""append and the reads, on both backends (docs/eventstore.md)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import msgspec
import pytest

from eventstore import (
    AsyncEventStore,
    CommandRecord,
    DatabaseError,
    NewEvent,
    Origin,
    WrongExpectedVersion,
    open_store,
    verify_chain,
)
from tests.eventstore.conftest import command, events, run_sql


async def test_append_numbers_versions_and_positions(store: AsyncEventStore) -> None:
    first = await store.append("m1", 0, events("A", "B"), command("c1"))
    second = await store.append("m2", 0, events("C"), command("c2"))
    third = await store.append("m1", 2, events("D"), command("c3"))
    assert (first.first_version, first.last_version, first.first_position, first.last_position) == (1, 2, 1, 2)
    assert (second.first_version, second.last_version, second.first_position, second.last_position) == (1, 1, 3, 3)
    assert (third.first_version, third.last_version, third.first_position, third.last_position) == (3, 3, 4, 4)
    assert not (first.duplicate or second.duplicate or third.duplicate)
    recorded = await store.read_stream("m1")
    assert [(e.position, e.version, e.type, e.data) for e in recorded] == [
        (1, 1, "A", events("A")[0].data),
        (2, 2, "B", events("A", "B")[1].data),
        (4, 3, "D", events("D")[0].data),
    ]
    assert await store.last_version("m1") == 3
    assert await store.head() == 4


async def test_events_carry_their_command_and_time(store: AsyncEventStore) -> None:
    before = datetime.now(UTC)
    appended = await store.append("m1", 0, events("A", "B"), command("c1", actor="system"))
    after = datetime.now(UTC)
    for event in await store.read_stream("m1"):
        assert event.meta.recorded_at == appended.recorded_at
        assert (event.meta.command_id, event.meta.actor) == ("c1", "system")
        assert event.meta.recorded_at.tzinfo is not None
        assert before - timedelta(milliseconds=1) <= event.meta.recorded_at <= after + timedelta(milliseconds=1)


def _digest(record: CommandRecord) -> bytes:
    fields = (record.command_id, record.actor, record.type)
    return hashlib.sha256(b"".join(len(f).to_bytes(4, "big") + f.encode() for f in fields) + record.payload).digest()


async def test_hashes_chain_over_the_stream_with_times_and_command_records(store: AsyncEventStore) -> None:
    """Chain 2, recomputed here from docs/eventstore.md: each link covers the event's time and its command."""
    await store.append("m1", 0, events("A", "B"), command("c1"))
    await store.append("other", 0, events("X"), command("c2"))
    appended = await store.append("m1", 2, events("C"), command("c3"))
    prev = bytes(32)
    records = {record.command_id: record for record, _, _ in await store.read_commands("m1")}
    for event in await store.read_stream("m1"):
        micros = (event.meta.recorded_at - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)
        body = (
            b"duelhall-chain-2\x00"
            + prev
            + event.version.to_bytes(8, "big")
            + micros.to_bytes(8, "big", signed=True)
            + _digest(records[event.meta.command_id])
            + event.type.encode()
            + b"\x00"
            + event.data
        )
        prev = hashlib.sha256(body).digest()
        assert (event.hash, event.chain) == (prev, 2)
    assert appended.last_hash == prev


async def test_an_import_keeps_its_times_and_chain_and_times_never_run_backwards(store: AsyncEventStore) -> None:
    """An imported append keeps the time and chain it was first recorded with (the hashes stay the file's); a
    live append after a time later than the store's clock is recorded at that time, never before it."""
    ahead = datetime.now(UTC) + timedelta(days=1)
    micros = (ahead - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)
    await store.append("m1", 0, events("A"), command("c1"), origin=Origin(0, 1))
    imported = await store.append("m1", 1, events("B"), command("c2"), origin=Origin(micros, 2))
    live = await store.append("m1", 2, events("C"), command("c3"))
    stream = await store.read_stream("m1")
    assert [(e.chain, e.meta.recorded_at) for e in stream[:2]] == [
        (1, datetime(1970, 1, 1, tzinfo=UTC)),
        (2, imported.recorded_at),
    ]
    assert imported.recorded_at == ahead.replace(microsecond=ahead.microsecond)
    assert stream[2].meta.recorded_at == live.recorded_at == imported.recorded_at
    assert stream[0].hash == hashlib.sha256(bytes(32) + (1).to_bytes(8, "big") + b"A\x00" + stream[0].data).digest()
    assert verify_chain(stream, await store.read_commands("m1")) == live.last_hash


async def test_read_stream_cursors_are_inclusive(store: AsyncEventStore) -> None:
    await store.append("m1", 0, events("A", "B", "C", "D"), command("c1"))
    assert [e.version for e in await store.read_stream("m1", 2)] == [2, 3, 4]
    assert [e.version for e in await store.read_stream("m1", 2, 3)] == [2, 3]
    assert [e.version for e in await store.read_stream("m1", 4, 4)] == [4]
    assert await store.read_stream("m1", 5) == []
    assert await store.read_stream("absent") == []


async def test_read_all_in_global_order_from_an_inclusive_position(store: AsyncEventStore) -> None:
    await store.append("a", 0, events("A1", "A2"), command("c1"))
    await store.append("b", 0, events("B1"), command("c2"))
    await store.append("a", 2, events("A3"), command("c3"))
    everything = (await store.read_all()).events
    assert [(e.position, e.stream_id, e.type) for e in everything] == [
        (1, "a", "A1"),
        (2, "a", "A2"),
        (3, "b", "B1"),
        (4, "a", "A3"),
    ]
    assert [e.position for e in (await store.read_all(2, limit=2)).events] == [2, 3]
    assert (await store.read_all(5)).events == []


@pytest.mark.parametrize(("expected", "actual"), [(0, 2), (1, 2), (3, 2)])
async def test_wrong_expected_version_carries_the_actual_one(
    store: AsyncEventStore, expected: int, actual: int
) -> None:
    await store.append("m1", 0, events("A", "B"), command("c1"))
    with pytest.raises(WrongExpectedVersion) as raised:
        await store.append("m1", expected, events("C"), command("c2"))
    assert (raised.value.stream_id, raised.value.expected, raised.value.actual) == ("m1", expected, actual)
    assert await store.head() == 2
    assert [c.command_id for c, _, _ in await store.read_commands("m1")] == ["c1"]


async def test_expecting_a_stream_that_does_not_exist(store: AsyncEventStore) -> None:
    with pytest.raises(WrongExpectedVersion) as raised:
        await store.append("absent", 1, events("A"), command("c1"))
    assert raised.value.actual == 0
    assert await store.last_version("absent") == 0


async def test_a_repeated_command_returns_the_first_result(store: AsyncEventStore) -> None:
    original = await store.append("m1", 0, events("A", "B"), command("c1"))
    await store.append("m1", 2, events("C"), command("c2"))
    retried = await store.append("m1", 0, events("A", "B"), command("c1"))
    assert retried.duplicate
    assert retried == msgspec.structs.replace(original, duplicate=True)
    # Same answer whatever the retry expects: the command id decides before the version does.
    assert (await store.append("m1", 3, events("Z"), command("c1"))).duplicate
    assert await store.head() == 3
    assert [c.command_id for c, _, _ in await store.read_commands("m1")] == ["c1", "c2"]


async def test_the_command_log_can_be_read_from_its_start_up_to_a_limit(store: AsyncEventStore) -> None:
    for version, name in enumerate(("c1", "c2", "c3")):
        await store.append("m1", version, events(name.upper()), command(name))
    assert [(c.command_id, first, last) for c, first, last in await store.read_commands("m1", limit=2)] == [
        ("c1", 1, 1),
        ("c2", 2, 2),
    ]
    assert await store.read_commands("m1", limit=0) == []


async def test_two_stores_on_one_database_keep_each_stream_consistent(database: str) -> None:
    """Two service instances: each learns of the other's appends from the database, never from memory."""
    first, second = await open_store(database), await open_store(database)
    try:
        await first.append("m1", 0, events("A", "B"), command("c1"))
        await second.append("m1", 2, events("C"), command("c2"))
        with pytest.raises(WrongExpectedVersion) as raised:
            await first.append("m1", 2, events("D"), command("c3"))
        assert raised.value.actual == 3
        appended = await first.append("m1", 3, events("D"), command("c3"))
        assert (appended.first_version, appended.first_position) == (4, 4)
        assert (await second.append("m1", 2, events("C"), command("c2"))).duplicate
        assert verify_chain(await second.read_stream("m1"), await second.read_commands("m1")) == appended.last_hash
    finally:
        await first.close()
        await second.close()


async def test_an_append_never_chains_from_an_event_the_database_lost(store: AsyncEventStore, database: str) -> None:
    await store.append("m1", 0, events("A", "B"), command("c1"))
    run_sql(database, "DELETE FROM events", "DELETE FROM commands", "UPDATE head SET position = 0")
    with pytest.raises(WrongExpectedVersion) as raised:
        await store.append("m1", 2, events("C"), command("c2"))
    assert raised.value.actual == 0
    assert (await store.read_all()).events == []


async def test_a_command_id_is_per_stream(store: AsyncEventStore) -> None:
    await store.append("m1", 0, events("A"), command("same"))
    other = await store.append("m2", 0, events("A"), command("same"))
    assert not other.duplicate
    assert await store.last_version("m2") == 1


async def test_a_failure_midway_leaves_nothing(store: AsyncEventStore, failing_type: str) -> None:
    with pytest.raises(DatabaseError):
        await store.append("m1", 0, events("A", failing_type, "C"), command("c1"), {"seed": b"s" * 32})
    assert await store.last_version("m1") == 0
    assert (await store.read_all()).events == []
    assert await store.read_commands("m1") == []
    assert await store.secrets.read("m1") == {}
    assert await store.head() == 0
    appended = await store.append("m1", 0, events("A"), command("c1"))
    assert (appended.first_position, appended.first_version) == (1, 1)  # no gap left behind


async def test_secrets_are_stored_with_the_append_but_never_in_events(store: AsyncEventStore) -> None:
    seed = bytes(range(32))
    await store.append("m1", 0, events("A"), command("c1"), {"seed": seed, "token:0": b"hash0"})
    assert await store.secrets.read("m1") == {"seed": seed, "token:0": b"hash0"}
    assert await store.secrets.read("m2") == {}
    assert all(seed not in e.data for e in (await store.read_all()).events)


async def test_a_secret_is_written_once(store: AsyncEventStore) -> None:
    await store.append("m1", 0, events("A"), command("c1"), {"seed": b"first"})
    with pytest.raises(DatabaseError):
        await store.append("m1", 1, events("B"), command("c2"), {"seed": b"second"})
    assert await store.secrets.read("m1") == {"seed": b"first"}
    assert await store.last_version("m1") == 1


async def test_the_command_log_in_order(store: AsyncEventStore) -> None:
    await store.append("m1", 0, events("A", "B"), command("c1", actor="system"))
    await store.append("m1", 2, events("C"), command("c2", actor="1"))
    await store.append("m1", 3, events("D", "E", "F"), command("c3", actor="admin"))
    log = await store.read_commands("m1")
    assert [(c.command_id, c.actor, first, last) for c, first, last in log] == [
        ("c1", "system", 1, 2),
        ("c2", "1", 3, 3),
        ("c3", "admin", 4, 6),
    ]
    assert log[0][0] == command("c1", actor="system")
    assert await store.read_commands("absent") == []


async def test_bad_arguments_are_refused_before_the_database(store: AsyncEventStore) -> None:
    with pytest.raises(ValueError, match="at least one event"):
        await store.append("m1", 0, [], command("c1"))
    with pytest.raises(ValueError, match="expected_version"):
        await store.append("m1", -1, events("A"), command("c1"))
    with pytest.raises(TypeError):
        await store.append("m1", 0, [NewEvent("A", "not bytes")], command("c1"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        await store.append("m1", 0, events("A"), CommandRecord("c1", "0", "Play", "{}"))  # type: ignore[arg-type]
    assert await store.head() == 0
