"""The read model on its own: rows by id, pages newest first with filters, and the keys that continue them."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest

from eventstore import AsyncEventStore, DatabaseError, migrate, open_store
from eventstore.prune import delete_streams
from services.ops import archive
from services.readmodels import matchrows
from services.readmodels.matchrows import (
    ENDED,
    NEWEST,
    RUNNING,
    RUNNING_INDEX,
    TABLES,
    MatchRow,
    ReadModel,
    has_labels,
    is_order_key,
    order_key,
)
from tests.eventstore.conftest import run_sql

AT = datetime(2026, 12, 1, tzinfo=UTC)


@contextlib.asynccontextmanager
async def read_model(url: str) -> AsyncIterator[ReadModel]:
    migrate(url)
    store: AsyncEventStore = await open_store(url)
    try:
        yield ReadModel(store)
    finally:
        await store.close()


@pytest.fixture
async def rows(tmp_path: Path) -> AsyncIterator[ReadModel]:
    async with read_model(f"sqlite:///{tmp_path / 'rows.db'}") as found:
        yield found


@pytest.fixture
async def model(database_url: str) -> AsyncIterator[ReadModel]:
    """A read model on each backend (SQLite and PostgreSQL)."""
    async with read_model(database_url) as found:
        yield found


def reading(store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch) -> list[MatchRow]:
    """Every row ``store.rows.list`` returns from now on, decoded: what the read model read."""
    listed = store.rows.list
    read: list[MatchRow] = []

    async def counted(table: str, after_key: str | None = None, limit: int = 100, **options: str) -> Any:
        batch = await listed(table, after_key, limit, **options)
        read.extend(msgspec.json.decode(data, type=MatchRow) for _, data in batch)
        return batch

    monkeypatch.setattr(store.rows, "list", counted)
    return read


async def every_page(rows: ReadModel, size: int, **filters: Any) -> list[int]:
    """The positions of every listed match, a page of ``size`` at a time; each key to go on is an order key."""
    seen: list[int] = []
    after = None
    while True:
        page, after = await rows.page(after, size, **filters)
        seen += [r.position for r in page]
        if after is None:
            return seen
        assert is_order_key(after)


def refuse_writes(url: str, projection: str) -> None:
    """Make the database refuse every write of a row of ``projection`` (a trigger raises)."""
    if url.startswith("sqlite"):
        run_sql(
            url,
            f"CREATE TRIGGER refuse BEFORE INSERT ON projection_rows WHEN NEW.projection = '{projection}' "
            "BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
        )
        return
    run_sql(
        url,
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'injected failure'; END $$",
        "CREATE TRIGGER refuse BEFORE INSERT ON projection_rows FOR EACH ROW "
        f"WHEN (NEW.projection = '{projection}') EXECUTE FUNCTION refuse()",
    )


def row(position: int, ruleset: str = "duel", status: str = RUNNING, **labels: str) -> MatchRow:
    return MatchRow(
        match_id=f"{position:032x}",
        ruleset=ruleset,
        ruleset_version=1,
        seats=("a", "b"),
        status=status,
        version=position,
        outcome=None,
        created_at=AT,
        updated_at=AT,
        seed_commitment="00",
        labels=labels,
        position=position,
    )


def test_order_keys_sort_newest_first_in_fixed_width() -> None:
    keys = [order_key(p) for p in (1, 9, 10, 123_456_789)]
    assert sorted(keys) == keys[::-1] and all(is_order_key(k) for k in keys)
    assert not is_order_key("12") and not is_order_key("x" * 18)


def test_labels_match_when_every_wanted_one_is_there() -> None:
    assert has_labels({"cup": "a", "round": "1"}, {"cup": "a"})
    assert has_labels({"cup": "a"}, None) and has_labels({}, {})
    assert not has_labels({"cup": "a"}, {"cup": "b"}) and not has_labels({}, {"cup": "a"})


async def test_a_row_is_found_by_id_and_rewritten_in_place(rows: ReadModel) -> None:
    await rows.put(row(5))
    await rows.put(row(5, status=ENDED))
    found = await rows.get(f"{5:032x}")
    assert found is not None and found.status == ENDED
    listed, after = await rows.page(None, 10)
    assert [r.status for r in listed] == [ENDED] and after is None
    assert await rows.get(f"{6:032x}") is None


async def test_pages_run_newest_first_through_the_filters_and_continue_after_their_key(rows: ReadModel) -> None:
    for position in range(1, 301):
        await rows.put(
            row(
                position,
                "aq" if position % 3 == 0 else "duel",
                ENDED if position % 2 else RUNNING,
                cup=str(position % 5),
            )
        )
    seen: list[int] = []
    after = None
    while True:
        page, after = await rows.page(after, 7, ruleset="aq", status=RUNNING, labels={"cup": "0"})
        seen += [r.position for r in page]
        if after is None:
            break
    assert seen == [p for p in range(300, 0, -1) if p % 3 == 0 and p % 2 == 0 and p % 5 == 0]
    everything, more = await rows.page(None, 500)
    assert [r.position for r in everything] == list(range(300, 0, -1)) and more is None
    await rows.clear()
    assert await rows.page(None, 10) == ([], None)


async def test_listing_the_running_matches_reads_no_ended_one(rows: ReadModel, monkeypatch: pytest.MonkeyPatch) -> None:
    for position in range(1, 1001):
        await rows.put(row(position, status=RUNNING if position % 250 == 0 else ENDED))
    await rows.put(row(1000, status=ENDED))  # ended since: it leaves the running ones
    store = rows._store
    listed = store.rows.list
    tables: list[str] = []

    async def counted(
        table: str, after_key: str | None = None, limit: int = 100, **options: str
    ) -> list[tuple[str, bytes]]:
        tables.append(table)
        return await listed(table, after_key, limit, **options)

    monkeypatch.setattr(store.rows, "list", counted)
    page, after = await rows.page(None, 10, status=RUNNING)
    assert [r.position for r in page] == [750, 500, 250] and after is None
    assert tables == [RUNNING_INDEX]
    # With a ruleset too: the running ones are what is in play, where a ruleset's index holds its every match.
    page, after = await rows.page(None, 10, ruleset="duel", status=RUNNING, labels={})
    assert [r.position for r in page] == [750, 500, 250] and tables == [RUNNING_INDEX] * 2


async def test_a_list_made_before_the_running_table_is_indexed_from_its_rows(rows: ReadModel) -> None:
    store = rows._store
    for position in range(1, 11):
        await store.rows.put(
            NEWEST, order_key(position), msgspec.json.encode(row(position, status=ENDED if position % 2 else RUNNING))
        )
    assert await rows.page(None, 10, status=RUNNING) == ([], None)
    assert await rows.index_running() == 5
    page, _ = await rows.page(None, 10, status=RUNNING)
    assert [r.position for r in page] == [10, 8, 6, 4, 2]


async def test_the_ended_matches_are_exported_a_page_of_the_list_at_a_time(
    rows: ReadModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    for position in range(1, 2001):
        await rows.put(row(position, status=ENDED))
    store = rows._store
    listed = store.rows.list
    pages = 0

    async def counted(
        table: str, after_key: str | None = None, limit: int = 100, **options: str
    ) -> list[tuple[str, bytes]]:
        nonlocal pages
        pages += 1
        return await listed(table, after_key, limit, **options)

    monkeypatch.setattr(store.rows, "list", counted)
    ended = archive.ended_since(store, None)
    assert (await anext(ended)).position == 2000 and pages == 1  # not the whole list read first
    assert len([r async for r in ended]) == 1999


async def test_a_ruleset_filter_reads_the_rows_of_that_ruleset_alone(
    model: ReadModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    for position in range(1, 601):
        # Other rulesets' names start with the one listed: a key prefix must not take them for it.
        ruleset = "duel" if position % 100 == 0 else "duel2" if position % 2 else "duel_"
        await model.put(row(position, ruleset, RUNNING if position % 200 == 0 else ENDED))
    read = reading(model._store, monkeypatch)
    assert await every_page(model, 2, ruleset="duel") == [600, 500, 400, 300, 200, 100]
    assert await every_page(model, 2, ruleset="duel", status=ENDED) == [500, 300, 100]
    assert read and {r.ruleset for r in read} == {"duel"}
    assert await every_page(model, 2, ruleset="duel3") == []


async def test_a_label_filter_reads_the_rows_with_that_label_alone(
    model: ReadModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Labels that a key made by joining key and value could take for v=1.
    confusable: list[dict[str, str]] = [{"v": "10"}, {"v1": ""}, {"v": "1:"}, {"v:1": ""}, {"v": ""}, {"w": "1"}]
    for position in range(1, 301):
        labels = {"v": "1", "tournament": "cup-2026"} if position % 50 == 0 else confusable[position % 6]
        await model.put(row(position, status=RUNNING if position % 100 == 0 else ENDED, round="1", **labels))
    read = reading(model._store, monkeypatch)
    assert await every_page(model, 2, labels={"v": "1"}) == [300, 250, 200, 150, 100, 50]
    assert await every_page(model, 2, labels={"v": "1"}, status=ENDED) == [250, 150, 50]
    assert await every_page(model, 2, labels={"v": "1"}, ruleset="aq") == []
    assert read and all(r.labels.get("v") == "1" for r in read)
    read.clear()
    # Of several labels the one with the longest value is read (a tournament's id, not a round's number).
    assert await every_page(model, 4, labels={"round": "1", "tournament": "cup-2026"}) == [300, 250, 200, 150, 100, 50]
    assert read and all(r.labels.get("tournament") == "cup-2026" for r in read)
    assert await every_page(model, 2, labels={"v": "2"}) == []


async def test_a_row_and_all_its_index_entries_are_one_write(model: ReadModel, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = model._store.rows
    calls: list[str] = []

    def counted(name: str, method: Any) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return await method(*args, **kwargs)

        return call

    for name in ("put", "delete", "write"):
        if (method := getattr(rows, name, None)) is not None:
            monkeypatch.setattr(rows, name, counted(name, method))
    await model.put(row(5, "aq", RUNNING, cup="a", round="1"))
    await model.put(row(5, "aq", ENDED, cup="a", round="1"))
    assert calls == ["write", "write"]


async def test_a_row_whose_write_fails_leaves_the_list_as_it_was(model: ReadModel, database_url: str) -> None:
    await model.put(row(5, "aq", RUNNING, cup="a"))
    refuse_writes(database_url, matchrows.TABLE)  # the row by id is refused, its index entries would not be
    with pytest.raises(DatabaseError):
        await model.put(row(5, "aq", ENDED, cup="a"))
    with pytest.raises(DatabaseError):
        await model.put(row(6, "aq", RUNNING, cup="a"))
    for filters in ({}, {"status": RUNNING}, {"ruleset": "aq"}, {"labels": {"cup": "a"}}):
        listed, _ = await model.page(None, 10, **filters)  # type: ignore[arg-type]
        assert [(r.position, r.status) for r in listed] == [(5, RUNNING)], filters


async def test_pruning_a_match_by_its_index_keys_leaves_no_entry_of_it(model: ReadModel, database_url: str) -> None:
    kept, pruned = row(4, "aq", ENDED, cup="a"), row(5, "aq", RUNNING, cup="a", round="1")
    for listed in (kept, pruned):
        await model.put(listed)
    keys = {pruned.match_id: matchrows.index_keys(pruned)}
    await asyncio.to_thread(delete_streams, database_url, [pruned.match_id], TABLES, keys)
    for table in TABLES:
        assert [msgspec.json.decode(data, type=MatchRow) for _, data in await model._store.rows.list(table)] in (
            [kept],
            [],
        ), table
    assert (await model.page(None, 10, labels={"cup": "a"}, ruleset="aq"))[0] == [kept]
    assert (await model.page(None, 10, labels={"round": "1"}))[0] == []
