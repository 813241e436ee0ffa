"""The match list is a projection of the events: rows the manager never wrote appear on catch-up."""

from __future__ import annotations

import asyncio
from collections.abc import Collection

import msgspec
import pytest

from engine.match import MATCH_CREATED
from eventstore import AsyncEventStore, CommandRecord, Page, RecordedEvent, StoreError
from services.matches.manager import MatchManager
from services.readmodels import lifecycle, matchlist
from services.readmodels.matchlist import CHECKPOINT, MatchList
from services.readmodels.matchrows import ENDED, NEWEST, RUNNING, RUNNING_INDEX, TABLE, TABLES, MatchRow, ReadModel
from services.readmodels.projector import Projector
from tests.services.test_manager import SEATS, play
from tests.services.test_readmodel import reading


async def _no_row(row: MatchRow) -> None:
    """A manager killed between its append and its row write."""


async def test_catch_up_lists_what_the_manager_never_wrote(
    store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    crashed = MatchManager(store)
    monkeypatch.setattr(crashed.read_model, "put", _no_row)
    ended = (await crashed.create("card_monsters", SEATS, {})).row.match_id
    await play(crashed, ended, 10_000)
    running = (await crashed.create("aq", SEATS, {})).row.match_id
    rows = ReadModel(store)
    assert await rows.get(ended) is None

    assert await MatchList(store).catch_up() == 2
    listed, more = await rows.page(None, 10)
    assert [row.match_id for row in listed] == [running, ended] and more is None
    final = await crashed.get(ended)
    assert [row.status for row in listed] == [RUNNING, ENDED] and listed[1].version == final.version
    assert await MatchList(store).catch_up() == 0


async def test_a_stale_running_row_is_brought_up_to_date(store: AsyncEventStore) -> None:
    manager = MatchManager(store)
    created = await manager.create("card_monsters", SEATS, {})
    await MatchList(store).catch_up()
    stale = created.row
    await play(manager, stale.match_id, 10_000)
    await ReadModel(store).put(stale)  # the end's row write was lost
    await MatchList(store).catch_up()
    row = await ReadModel(store).get(stale.match_id)
    assert row is not None and row.status == ENDED


async def test_rebuild_lists_every_match_from_the_events_without_loading_one(store: AsyncEventStore) -> None:
    manager = MatchManager(store)
    ended = (await manager.create("card_monsters", SEATS, {}, labels={"cup": "a"})).row.match_id
    await play(manager, ended, 10_000)
    running = (await manager.create("duel", SEATS, {})).row.match_id
    before = {row.match_id: row for row in (await ReadModel(store).page(None, 10))[0]}

    fresh = MatchManager(store)
    assert await fresh.match_list.rebuild() == 2
    assert fresh.loaded_count == 0
    after = {row.match_id: row for row in (await ReadModel(store).page(None, 10))[0]}
    assert after == before
    final = await manager.get(ended)
    row = after[ended]
    assert (row.status, row.version, row.outcome, row.labels) == (ENDED, final.version, final.outcome, {"cup": "a"})
    assert after[running].status == RUNNING and after[running].version == (await manager.get(running)).version


async def test_an_end_recorded_before_its_creation_was_listed_lists_the_match_ended(store: AsyncEventStore) -> None:
    manager = MatchManager(store)
    match_id = (await manager.create("card_monsters", SEATS, {})).row.match_id
    await play(manager, match_id, 10_000)
    await ReadModel(store).clear()
    listing = MatchList(store)
    hot = await manager.get(match_id)
    assert hot.outcome is not None
    ended = lifecycle.MatchEnded(match_id, "card_monsters", hot.match.created.seats, {}, hot.outcome, hot.version)
    await listing.ended(ended, hot.last_event_at)
    row = await ReadModel(store).get(match_id)
    assert row is not None and (row.status, row.version, row.outcome) == (ENDED, hot.version, hot.outcome)
    assert row.seed_commitment == hot.match.created.seed_commitment


async def test_an_end_listed_while_the_list_is_rebuilt_keeps_its_row(
    store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = MatchManager(store)
    match_id = (await manager.create("card_monsters", SEATS, {}, labels={"cup": "a"})).row.match_id
    await play(manager, match_id, 10_000)
    (recorded,) = await store.read_stream(f"{lifecycle.ENDED_STREAM_PREFIX}{match_id}")
    end = msgspec.json.decode(recorded.data, type=lifecycle.MatchEnded)
    match_list = MatchList(store)
    # The rebuild pauses where it has forgotten what it listed and has not yet cleared the rows; the manager
    # lists the end meanwhile, so the clearing takes that row away while the list remembers it as listed.
    paused, resume = asyncio.Event(), asyncio.Event()
    checkpoint = store.rows.get

    async def held(table: str, key: str) -> bytes | None:
        if table == CHECKPOINT and not resume.is_set():
            paused.set()
            await resume.wait()
        return await checkpoint(table, key)

    monkeypatch.setattr(store.rows, "get", held)
    rebuilding = asyncio.create_task(match_list.rebuild())
    await paused.wait()
    await match_list.ended(end, recorded.meta.recorded_at)
    resume.set()
    assert await rebuilding == 1
    row = await ReadModel(store).get(match_id)
    assert row is not None and (row.status, row.labels) == (ENDED, {"cup": "a"})


async def test_a_follower_of_ends_alone_reads_no_creation_command(
    store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = MatchManager(store)
    first = (await manager.create("card_monsters", SEATS, {}, labels={"cup": "a"})).row.match_id
    await play(manager, first, 10_000)
    await manager.create("duel", SEATS, {})
    reads: list[str] = []
    commands = store.read_commands

    async def counted(stream_id: str, limit: int | None = None) -> list[tuple[CommandRecord, int, int]]:
        reads.append(stream_id)
        return await commands(stream_id, limit)

    monkeypatch.setattr(store, "read_commands", counted)
    ends = Changes(store, (lifecycle.MATCH_ENDED,))
    await Projector(store, ends, 100).catch_up()
    (change,) = ends.seen
    assert (change.kind, change.match_id, change.labels) == (lifecycle.ENDED, first, {"cup": "a"})
    assert reads == []
    everything = lifecycle.changes(store, 1)
    assert [(await anext(everything)).kind for _ in range(3)] == [lifecycle.CREATED, lifecycle.ENDED, lifecycle.CREATED]
    assert len(reads) == 2
    await everything.aclose()


class Changes:
    """A projection of lifecycle changes, kept in memory."""

    name = "changes"
    checkpoint_table = "test_changes"

    def __init__(self, store: AsyncEventStore, types: tuple[str, ...]) -> None:
        self._store = store
        self.types = types
        self.seen: list[lifecycle.Change] = []

    async def project(self, recorded: RecordedEvent) -> bool:
        change = await lifecycle.change_of(self._store, recorded)
        if change is not None:
            self.seen.append(change)
        return False


async def test_a_projection_is_told_it_passed_the_events_the_store_skipped(store: AsyncEventStore) -> None:
    """A tournament's reads wait for its results projection to pass a position: a running match's last events
    are no change, yet the projection must be past them."""
    manager = MatchManager(store)
    await play(manager, (await manager.create("duel", SEATS, {})).row.match_id, 5)
    head = await store.head()
    changes = Changes(store, (MATCH_CREATED, lifecycle.MATCH_ENDED))
    projector = Projector(store, changes, 100)
    projector.start()
    try:
        assert await projector.caught_up(head, 30)
    finally:
        await projector.stop()
    assert [c.kind for c in changes.seen] == [lifecycle.CREATED] and head > 1
    assert await projector.checkpoint() == head  # saved where it stopped


async def test_the_command_that_ends_a_match_is_answered_before_its_end_is_listed(
    store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = MatchManager(store)
    match_id = (await manager.create("card_monsters", SEATS, {})).row.match_id
    release = asyncio.Event()
    put = manager.read_model.put

    async def held(row: MatchRow) -> None:
        await release.wait()
        await put(row)

    monkeypatch.setattr(manager.read_model, "put", held)
    hot = await manager.get(match_id)
    submitted = await manager.submit(match_id, hot.ruleset.to_act(hot.state)[0], b'{"type":"concede"}')
    assert submitted.to_act == () and hot.outcome is not None
    row = await ReadModel(store).get(match_id)
    assert row is not None and row.status == RUNNING  # answered while its end is still being listed
    release.set()
    await manager.ends.recorded()
    row = await ReadModel(store).get(match_id)
    assert row is not None and row.status == ENDED


async def test_a_list_without_its_running_table_is_indexed_once_at_catch_up(store: AsyncEventStore) -> None:
    manager = MatchManager(store)
    running = (await manager.create("aq", SEATS, {})).row.match_id
    await MatchList(store).catch_up()
    await store.rows.clear(RUNNING_INDEX)  # as a list written before the table existed
    await store.rows.delete(CHECKPOINT, "running_index")
    await MatchList(store).catch_up()
    listed, _ = await ReadModel(store).page(None, 10, status=RUNNING)
    assert [row.match_id for row in listed] == [running]


async def test_a_list_made_before_the_filter_indexes_is_indexed_once_at_catch_up(
    store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = MatchManager(store)
    labelled = (await manager.create("aq", SEATS, {}, labels={"cup": "a"})).row.match_id
    await play(manager, labelled, 10_000)
    await manager.create("duel", SEATS, {}, labels={"cup": "b"})
    await MatchList(store).catch_up()
    # As a list written before the ruleset and label indexes: its rows by id, newest first and running alone.
    kept = {table: await store.rows.list(table) for table in (TABLE, NEWEST, RUNNING_INDEX)}
    for table in TABLES:
        await store.rows.clear(table)
    for table, entries in kept.items():
        for key, value in entries:
            await store.rows.put(table, key, value)
    await store.rows.delete(CHECKPOINT, "filter_index")

    await MatchList(store).catch_up()
    read = reading(store, monkeypatch)
    for filters in ({"ruleset": "aq"}, {"labels": {"cup": "a"}}):
        listed, _ = await ReadModel(store).page(None, 10, **filters)  # type: ignore[arg-type]
        assert [(row.match_id, row.status) for row in listed] == [(labelled, ENDED)]
    assert read and {row.match_id for row in read} == {labelled}
    read.clear()
    await MatchList(store).catch_up()  # indexed once: the next start reads no row
    assert read == []


async def test_rebuild_rebuilds_the_filter_indexes(store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch) -> None:
    manager = MatchManager(store)
    labelled = (await manager.create("aq", SEATS, {}, labels={"cup": "a"})).row.match_id
    await play(manager, labelled, 10_000)
    await manager.create("duel", SEATS, {}, labels={"cup": "b"})
    ghost = msgspec.structs.replace(
        (await ReadModel(store).page(None, 1))[0][0],
        match_id="f" * 32,
        ruleset="aq",
        labels={"cup": "a"},
        position=10**6,
    )
    await ReadModel(store).put(ghost)  # a row of no stored match: the rebuild leaves it out of every index

    assert await MatchList(store).rebuild() == 2
    read = reading(store, monkeypatch)
    for filters in ({"ruleset": "aq"}, {"labels": {"cup": "a"}}, {"ruleset": "aq", "labels": {"cup": "a"}}):
        listed, _ = await ReadModel(store).page(None, 10, **filters)  # type: ignore[arg-type]
        assert [(row.match_id, row.status) for row in listed] == [(labelled, ENDED)]
    assert read and {row.match_id for row in read} == {labelled}


async def test_catch_up_saves_its_checkpoint_page_by_page(
    store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = MatchManager(store)
    for _ in range(3):
        await manager.create("aq", SEATS, {})
    monkeypatch.setattr(matchlist, "_PAGE", 2)
    read_all = store.read_all
    reads = 0

    async def failing(from_position: int = 1, limit: int = 1000, types: Collection[str] = ()) -> Page:
        nonlocal reads
        reads += 1
        if reads == 2:
            raise StoreError("the database went away")
        return await read_all(from_position, limit, types)

    monkeypatch.setattr(store, "read_all", failing)
    with pytest.raises(StoreError):
        await MatchList(store).catch_up()
    # The first page held the first two creations (a page is _PAGE events of each type): saved up to the second.
    second = [e.position for e in (await store.read_all()).events if e.type == "MatchCreated"][1]
    assert await store.rows.get(CHECKPOINT, "position") == str(second).encode()


async def test_a_long_catch_up_reports_its_progress(
    store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Page by page to its caller (the CLI's bar), and in the log past ``PROGRESS_EVENTS``: a first start on a
    long history answers only once it is done."""
    manager = MatchManager(store)
    for _ in range(3):
        await play(manager, (await manager.create("card_monsters", SEATS, {})).row.match_id, 10_000)
    head = await store.head()
    monkeypatch.setattr(matchlist, "_PAGE", 1)
    told: list[tuple[int, int]] = []
    with caplog.at_level("INFO", logger="services.readmodels.matchlist"):
        await MatchList(store).rebuild(progress=lambda done, total: told.append((done, total)))
        # A page stops at a creation or an end (one of each type at most): the store skips the games' events.
        done = [d for d, _ in told]
        assert done == sorted(set(done)) and done[-1] == head and {total for _, total in told} == {head}
        assert len(told) <= 2 * 6 + 1 < head
        assert not [r for r in caplog.records if "match list" in r.getMessage()]  # short: not logged
        # A line every page, so the last page (at the head, however long the games ran) is always in the test.
        monkeypatch.setattr(matchlist, "PROGRESS_EVENTS", 1)
        await MatchList(store).rebuild()
    lines = [r.getMessage() for r in caplog.records if r.name == "services.readmodels.matchlist"]
    assert lines[0] == f"catching up the match list: positions 1 to {head}"
    assert lines[1:-1] == [f"match list at position {p} of {head}" for p in done[:-1]]
    assert lines[-1] == f"match list caught up at position {head}: 3 matches listed"
