"""Group commit: many appends in one transaction, each with its own check (issue #3 item 6)."""

from __future__ import annotations

import asyncio

import pytest

from eventstore import (
    Appended,
    AppendRequest,
    DatabaseError,
    WrongExpectedVersion,
    append_request,
    open_store,
    verify_chain,
)
from tests.eventstore.conftest import Internal, command, events


def request(stream_id: str, expected: int, command_id: str, *types: str) -> AppendRequest:
    return append_request(stream_id, expected, events(*(types or ("A", "B"))), command(command_id))


async def test_one_conflict_does_not_fail_the_others(store: Internal) -> None:
    await store.append("busy", 0, events("A"), command("c0"))
    commits = store.stats.commits
    outcomes = await store.append_batch(
        [
            request("s1", 0, "c1"),
            request("busy", 5, "c2"),
            request("s3", 0, "c3"),
            request("busy", 0, "c0"),
        ]
    )
    first, conflict, third, duplicate = outcomes
    assert isinstance(first, Appended) and (first.first_position, first.last_position) == (2, 3)
    assert isinstance(conflict, WrongExpectedVersion) and (conflict.expected, conflict.actual) == (5, 1)
    assert isinstance(third, Appended) and (third.first_position, third.last_position) == (4, 5)
    assert isinstance(duplicate, Appended) and duplicate.duplicate and duplicate.last_position == 1
    assert store.stats.commits == commits + 1
    assert [e.position for e in (await store.read_all()).events] == [1, 2, 3, 4, 5]
    assert await store.last_version("busy") == 1


async def test_later_requests_see_what_earlier_ones_appended(store: Internal) -> None:
    outcomes = await store.append_batch(
        [
            request("m1", 0, "c1"),
            request("m1", 2, "c2", "C"),
            request("m1", 2, "c3", "D"),
            request("m1", 0, "c1"),
        ]
    )
    assert [type(o).__name__ for o in outcomes] == ["Appended", "Appended", "WrongExpectedVersion", "Appended"]
    assert isinstance(outcomes[2], WrongExpectedVersion) and outcomes[2].actual == 3
    assert isinstance(outcomes[3], Appended) and outcomes[3].duplicate
    stream = await store.read_stream("m1")
    assert [e.type for e in stream] == ["A", "B", "C"]
    assert verify_chain(stream, await store.read_commands("m1")) == stream[-1].hash


async def test_a_request_the_database_refuses_does_not_fail_the_others(store: Internal, failing_type: str) -> None:
    outcomes = await store.append_batch(
        [
            request("s1", 0, "c1"),
            request("s2", 0, "c2", "A", failing_type),
            request("s3", 0, "c3"),
        ]
    )
    assert isinstance(outcomes[0], Appended) and isinstance(outcomes[2], Appended)
    assert isinstance(outcomes[1], DatabaseError)
    assert [(e.position, e.stream_id) for e in (await store.read_all()).events] == [
        (1, "s1"),
        (2, "s1"),
        (3, "s3"),
        (4, "s3"),
    ]
    assert await store.read_commands("s2") == []


async def test_concurrent_appends_share_commits_and_keep_their_own_checks(store: Internal) -> None:
    await store.append("busy", 0, events("A"), command("c0"))
    appends = [store.append(f"s{i}", 0, events("A", "B"), command(f"c{i}")) for i in range(1, 16)]
    appends.insert(7, store.append("busy", 3, events("C"), command("late")))
    outcomes = await asyncio.gather(*appends, return_exceptions=True)
    conflicts = [o for o in outcomes if isinstance(o, WrongExpectedVersion)]
    assert len(conflicts) == 1 and conflicts[0].actual == 1
    assert sum(isinstance(o, Appended) for o in outcomes) == 15
    assert [e.position for e in (await store.read_all()).events] == list(range(1, 32))
    assert store.stats.appends == 16
    assert store.stats.commits < 16


@pytest.mark.parametrize(("group_commit", "commits"), [(True, 1), (False, 8)], ids=["group", "single"])
async def test_appends_made_together_share_one_commit_only_with_group_commit(
    database: str, group_commit: bool, commits: int
) -> None:
    batches: list[int] = []  # on_commit: the new appends of each committed transaction
    store = await open_store(database, group_commit=group_commit, on_commit=batches.append)
    try:
        await asyncio.gather(*(store.append(f"s{i}", 0, events("A"), command(f"c{i}")) for i in range(8)))
        assert (sum(batches), len(batches)) == (8, commits)
    finally:
        await store.close()
