"""What an instance reads of the others' commits on PostgreSQL: only the streams it asks for, never its own."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest

from eventstore import AsyncEventStore, open_store
from eventstore.foreign import ForeignReads, foreign_of
from tests.eventstore.conftest import command, events, run_sql, store_hears

WAIT = 30.0  # seconds: a guard against a hang, never a measurement

pytestmark = pytest.mark.postgres


async def _stores(url: str) -> tuple[AsyncEventStore, AsyncEventStore, ForeignReads]:
    run_sql(url, "TRUNCATE events, commands, secrets, snapshots, projection_rows", "UPDATE head SET position = 0")
    this, other = await open_store(url, poll_interval=60.0), await open_store(url, poll_interval=60.0)
    foreign = foreign_of(this)
    assert foreign is not None
    return this, other, foreign


def _asked(foreign: ForeignReads) -> list[list[int]]:
    """The positions of the rows each of ``foreign``'s queries takes from the database from now on."""
    asked: list[list[int]] = []
    fetch = foreign._fetch

    async def recorded(text: str, *args: Any) -> list[asyncpg.Record]:
        rows = await fetch(text, *args)
        asked.append([row[0] for row in rows])
        return rows

    foreign._fetch = recorded
    return asked


async def test_a_read_takes_only_the_other_processes_events_of_the_streams_asked_for(postgres_url: str) -> None:
    this, other, foreign = await _stores(postgres_url)
    try:
        await other.append("theirs", 0, events("A", "B"), command("o1"))  # 1, 2
        await other.append("elsewhere", 0, events("A"), command("o2"))  # 3
        await this.append("theirs", 2, events("C"), command("t1"))  # 4: this process's own
        await other.append("theirs", 3, events("D"), command("o3"))  # 5
        await asyncio.wait_for(store_hears(this, 5), WAIT)
        wanted = ["theirs"]
        asked = _asked(foreign)
        first = await foreign.read(1, 100, lambda: wanted)
        # One query over the range, whatever this process's own commits interleave: never for their rows.
        assert [(e.position, e.type) for e in first.events] == [(1, "A"), (2, "B"), (5, "D")]
        assert (first.through, first.more) == (5, False)
        assert asked == [[1, 2, 5]]
        last = await foreign.read(5, 100, lambda: wanted)
        assert ([e.position for e in last.events], last.through, last.more) == ([5], 5, False)
        assert (await foreign.read(6, 100, lambda: wanted)).through == 5  # past the head: nothing covered
        nothing = await foreign.read(1, 100, list)
        assert (nothing.events, nothing.through) == ([], 5)
        full = await foreign.read(1, 1, lambda: wanted)
        assert ([e.position for e in full.events], full.through, full.more) == ([1], 1, True)
    finally:
        await this.close()
        await other.close()


async def test_a_subscription_follows_the_streams_it_is_told_as_they_change(postgres_url: str) -> None:
    this, other, foreign = await _stores(postgres_url)
    wanted: list[str] = []
    pages = foreign.subscribe(await foreign.head() + 1, 0.0, lambda: wanted)
    try:
        await other.append("later", 0, events("A"), command("o1"))  # 1: not followed when read
        await asyncio.wait_for(store_hears(this, 1), WAIT)
        async with asyncio.timeout(WAIT):
            skipped = await anext(pages)
        assert (skipped.events, skipped.through) == ([], 1)
        wanted.append("later")
        await other.append("later", 1, events("B"), command("o2"))  # 2
        async with asyncio.timeout(WAIT):
            found = await anext(pages)
        assert [(e.position, e.stream_id, e.type) for e in found.events] == [(2, "later", "B")]
    finally:
        await pages.aclose()  # type: ignore[attr-defined]
        await this.close()
        await other.close()


async def test_an_append_after_another_processs_one_read_here_is_planned_from_it(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a match's seats on two instances, every append follows the other instance's, which this one learnt of
    through this read: it tells the store where the stream stands, so the append is not checked by a read back."""
    this, other, foreign = await _stores(postgres_url)
    try:
        await this.append("split", 0, events("A"), command("t1"))  # 1
        await other.append("split", 1, events("B"), command("o1"))  # 2
        await asyncio.wait_for(store_hears(this, 2), WAIT)
        assert [e.type for e in (await foreign.read(1, 100, lambda: ["split"])).events] == ["B"]  # its own skipped

        async def checked(*args: object) -> object:
            raise AssertionError("the append read the stream's last event back")

        monkeypatch.setattr(this, "_append_checked", checked)
        assert (await this.append("split", 2, events("C"), command("t2"))).last_version == 3
    finally:
        await this.close()
        await other.close()


async def test_another_processs_commit_another_reader_read_first_is_still_handed_over(postgres_url: str) -> None:
    """A reader of the whole global order here (the projections' lead, a ``WatchLifecycle``) keeps what it read of
    the other processes' commits in memory: those are not this process's own, so the follower still gets them."""
    this, other, foreign = await _stores(postgres_url)
    try:
        await this.append("mine", 0, events("A"), command("t1"))  # 1: this process's own
        await other.append("split", 0, events("B", "C"), command("o1"))  # 2, 3
        await other.append("elsewhere", 0, events("D"), command("o2"))  # 4
        await asyncio.wait_for(store_hears(this, 4), WAIT)
        assert [e.position for e in (await this.read_all(2, 100)).events] == [2, 3, 4]  # read first, kept
        found = await foreign.read(1, 100, lambda: ["split", "mine"])
        assert ([(e.position, e.type) for e in found.events], found.through, found.more) == (
            [(2, "B"), (3, "C")],
            4,
            False,
        )
    finally:
        await this.close()
        await other.close()
