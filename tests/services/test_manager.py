"""The match manager on a real store: LRU eviction, reload from snapshot plus tail, timers re-armed on load."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.bots import RandomBot
from engine.match import encode
from engine.selfplay import next_move
from eventstore import migrate, open_store
from services.manager import MatchManager, SeatEntry
from services.timers import Timers

SEATS = [SeatEntry(name="a", config={}), SeatEntry(name="b", config={})]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[object]:
    url = f"sqlite:///{tmp_path / 'manager.db'}"
    migrate(url)
    opened = await open_store(url)
    try:
        yield opened
    finally:
        await opened.close()


async def play(manager: MatchManager, match_id: str, commands: int) -> None:
    hot = await manager.get(match_id)
    bots = [RandomBot(1), RandomBot(2)]
    for _ in range(commands):
        if hot.outcome is not None:
            return
        actor, command = next_move(hot.ruleset, hot.state, bots)
        await manager.submit(match_id, actor, encode(command))


async def test_evicted_matches_reload_from_snapshot_and_tail_unchanged(store: object) -> None:
    manager = MatchManager(store, capacity=1, snapshot_every=5)
    first = (await manager.create("card_monsters", SEATS, {})).row.match_id
    await play(manager, first, 12)
    before = manager.loaded(first)
    assert before is not None
    state, version = before.state, before.version
    second = (await manager.create("card_monsters", SEATS, {})).row.match_id
    assert manager.loaded(first) is None and manager.loaded(second) is not None
    snapshot = await store.load_snapshot(first, "card_monsters:1")  # type: ignore[attr-defined]
    assert snapshot is not None and 1 < snapshot.version <= version
    reloaded = await manager.get(first)
    assert (reloaded.state, reloaded.version) == (state, version)
    await play(manager, first, 5)
    assert reloaded.version > version


async def test_a_reloaded_running_match_gets_its_timer_back(store: object) -> None:
    manager = MatchManager(store, capacity=1)
    timers = Timers(manager)
    manager.on_change(timers.arm)
    first = (await manager.create("card_monsters", SEATS, {"turn_seconds": 30})).row.match_id
    assert 0 < (timers.due(first) or 0) <= 30
    fresh = MatchManager(store)
    fresh_timers = Timers(fresh)
    fresh.on_change(fresh_timers.arm)
    assert fresh_timers.due(first) is None
    await fresh.get(first)
    assert 0 < (fresh_timers.due(first) or 0) <= 30
    timers.close()
    fresh_timers.close()
