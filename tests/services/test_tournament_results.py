"""Tournaments on a real store: a store fault pauses the results projection, said as a warning, not a bug; a
decision runs off the event loop."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import cast

import pytest

from eventstore import AsyncEventStore, DatabaseError
from services.matches.creation import SeatEntry
from services.matches.manager import MatchManager
from services.tournament import results as results_module
from services.tournament.events import Event
from services.tournament.manager import TournamentManager
from services.tournament.results import Results
from services.tournament.state import Tournament

SEATS = [SeatEntry(name="a", config={}), SeatEntry(name="b", config={})]
LABELS = {"tournament": "t1", "round": "1", "table": "1", "game": "1", "pairing": "1"}


class ExportFails:
    """The store, whose first read of a match stream (the replay export) fails as a lost connection does."""

    def __init__(self, store: AsyncEventStore) -> None:
        self._store = store
        self.failed = asyncio.Event()

    def __getattr__(self, name: str) -> object:
        return getattr(self._store, name)

    async def read_stream(self, stream_id: str, *args: object, **kwargs: object) -> object:
        if not self.failed.is_set() and ":" not in stream_id:
            self.failed.set()
            raise DatabaseError("connection lost")
        return await self._store.read_stream(stream_id, *args, **kwargs)  # type: ignore[arg-type]


async def test_a_store_fault_while_counting_a_game_is_a_warning_and_the_game_is_counted_after(
    store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(results_module, "RETRY_SECONDS", 0.0)
    matches = MatchManager(store)
    match_id = (await matches.create("card_monsters", SEATS, {}, labels=LABELS)).row.match_id
    hot = matches.loaded(match_id)
    assert hot is not None
    await matches.submit(match_id, hot.ruleset.to_act(hot.state)[0], b'{"type": "concede"}')
    await matches.ends.recorded()
    failing = ExportFails(store)
    results = Results(cast(AsyncEventStore, failing), TournamentManager(cast(AsyncEventStore, failing), matches))
    with caplog.at_level(logging.WARNING):
        await results.start()
        await asyncio.wait_for(failing.failed.wait(), 10)
        assert await results.caught_up(await store.head(), 10)
        assert await results.checkpoint() > 0  # handled after the fault: t1 is no tournament, not counted
        await results.stop()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], caplog.text
    assert any("connection lost" in r.getMessage() for r in caplog.records)


async def test_the_checkpoint_moves_past_matches_of_no_tournament(
    store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restart reads again at most ``CHECKPOINT_EVERY`` events, not everything since the last tournament game."""
    monkeypatch.setattr(results_module, "CHECKPOINT_EVERY", 10)
    matches = MatchManager(store)
    for _ in range(3):
        await matches.create("card_monsters", SEATS, {})
    results = Results(store, TournamentManager(store, matches))
    await results.start()
    try:
        head = await store.head()
        assert await results.caught_up(head, 10)
        assert head - 10 < await results.checkpoint() <= head
    finally:
        await results.stop()
    assert not await Results(store, TournamentManager(store, matches)).caught_up(head, 0.01)  # not started: behind


async def test_a_decision_runs_off_the_event_loop(store: AsyncEventStore) -> None:
    """A long one (a Swiss pairing at the player cap) leaves the loop free for every match meanwhile: here the
    decision, once started, waits for the loop to answer it, which a decision run on the loop would block."""
    tournaments = TournamentManager(store, MatchManager(store))
    created = await tournaments.create("cup", "card_monsters", "swiss", 3, 0, 1, "mtg", 0, b"", {})
    tournament_id = created.created.tournament_id
    loop = asyncio.get_running_loop()
    started, answered = asyncio.Event(), threading.Event()

    def decision(state: Tournament) -> list[Event]:
        loop.call_soon_threadsafe(started.set)
        assert answered.wait(10), "the loop did not run while the decision did"
        return []

    deciding = asyncio.ensure_future(tournaments.execute(tournament_id, "noop", {}, decision))
    await started.wait()
    answered.set()
    assert (await deciding).created.tournament_id == tournament_id
