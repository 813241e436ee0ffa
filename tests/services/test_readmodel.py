"""The read model on its own: rows by id, pages newest first with filters, and the keys that continue them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest

from eventstore import AsyncEventStore, DatabaseError, migrate, open_store
from services import archive, readmodel
from services.readmodel import (
    ENDED,
    NEWEST,
    RUNNING,
    RUNNING_INDEX,
    MatchRow,
    ReadModel,
    has_labels,
    is_order_key,
    order_key,
)
from tests.eventstore.conftest import run_sql

AT = datetime(2026, 12, 1, tzinfo=UTC)


@pytest.fixture
async def rows(tmp_path: Path) -> AsyncIterator[ReadModel]:
    url = f"sqlite:///{tmp_path / 'rows.db'}"
    migrate(url)
    store: AsyncEventStore = await open_store(url)
    try:
        yield ReadModel(store)
    finally:
        await store.close()


@pytest.fixture
async def model(database_url: str) -> AsyncIterator[ReadModel]:
    """A read model on each backend (SQLite and PostgreSQL)."""
    migrate(database_url)
    store: AsyncEventStore = await open_store(database_url)
    try:
        yield ReadModel(store)
    finally:
        await store.close()


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

    async def counted(table: str, after_key: str | None = None, limit: int = 100) -> list[tuple[str, bytes]]:
        tables.append(table)
        return await listed(table, after_key, limit)

    monkeypatch.setattr(store.rows, "list", counted)
    page, after = await rows.page(None, 10, status=RUNNING)
    assert [r.position for r in page] == [750, 500, 250] and after is None
    assert tables == [RUNNING_INDEX]


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

    async def counted(table: str, after_key: str | None = None, limit: int = 100) -> list[tuple[str, bytes]]:
        nonlocal pages
        pages += 1
        return await listed(table, after_key, limit)

    monkeypatch.setattr(store.rows, "list", counted)
    ended = archive.ended_since(store, None)
    assert (await anext(ended)).position == 2000 and pages == 1  # not the whole list read first
    assert len([r async for r in ended]) == 1999


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
    refuse_writes(database_url, readmodel.TABLE)  # the row by id is refused, its index entries would not be
    with pytest.raises(DatabaseError):
        await model.put(row(5, "aq", ENDED, cup="a"))
    with pytest.raises(DatabaseError):
        await model.put(row(6, "aq", RUNNING, cup="a"))
    for filters in ({}, {"status": RUNNING}, {"ruleset": "aq"}, {"labels": {"cup": "a"}}):
        listed, _ = await model.page(None, 10, **filters)  # type: ignore[arg-type]
        assert [(r.position, r.status) for r in listed] == [(5, RUNNING)], filters
