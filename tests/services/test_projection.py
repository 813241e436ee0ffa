"""The match list is a projection of the events: rows the manager never wrote appear on catch-up."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from eventstore import AsyncEventStore, migrate, open_store
from services.manager import MatchManager
from services.projection import MatchList
from services.readmodel import ENDED, RUNNING, MatchRow, ReadModel
from tests.services.test_manager import SEATS, play


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[AsyncEventStore]:
    url = f"sqlite:///{tmp_path / 'projection.db'}"
    migrate(url)
    opened = await open_store(url)
    try:
        yield opened
    finally:
        await opened.close()


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
