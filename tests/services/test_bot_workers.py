"""Bot decisions in worker processes: the same command as deciding in the server's own process, and a worker that
dies (killed, out of memory) is replaced, the decision taken by a fresh one; a bot that fails does not stall its
seat."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from datetime import UTC, datetime
from typing import Any

import pytest

from engine import registry
from engine.match import encode
from services.matches import bot_seats, bot_workers
from services.matches.bot_player import BotPlayer
from services.matches.bot_workers import BotWorkers, Thought, timed
from services.matches.creation import SeatEntry, created_match, creation
from tests.engine.contract_helpers import playout


async def test_a_decision_in_a_worker_is_the_one_taken_in_process_and_survives_a_dead_worker() -> None:
    ruleset = registry.get("duel")
    match = next(m for m, _ in playout(ruleset, 2, seed=4) if m.version > 20)
    seat = ruleset.to_act(match.state)[0]
    here = timed(ruleset, match.state, seat, "greedy", 11, 1.0).command
    workers = BotWorkers(workers=1)
    try:
        raw, took, failure = await workers.think(ruleset, match.state, seat, "greedy", 11, 1.0)
        assert raw == here and 0 < took < 1.0 and failure == ""
        (pid,) = workers.pids()
        assert pid != os.getpid()
        os.kill(pid, signal.SIGKILL)
        assert (await workers.think(ruleset, match.state, seat, "greedy", 11, 1.0)).command == here
        assert workers.pids() and pid not in workers.pids()
    finally:
        await workers.stop()


class Broken:
    def choose(self, view: Any, commands: Any) -> Any:
        raise AssertionError("a search playout met a state the rules refuse")


def test_a_bot_that_fails_plays_the_seats_first_legal_command_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    # A bot's defect used to leave its seat's decision unmade: the match waited on it for ever (or for its clock).
    monkeypatch.setattr(bot_workers, "make_bot", lambda *args: Broken())
    ruleset = registry.get("duel")
    match = next(m for m, _ in playout(ruleset, 2, seed=4) if m.version > 20)
    seat = ruleset.to_act(match.state)[0]
    thought = timed(ruleset, match.state, seat, "search", 11, 1.0)
    legal = [c for c in ruleset.legal_commands(match.state, seat) if encode(c) != b'{"type":"concede"}']
    assert thought.command == encode(legal[0])
    assert thought.failure == "AssertionError: a search playout met a state the rules refuse"


class Failing(BotWorkers):
    """Workers whose every bot fails: the stand-in command comes back with the failure."""

    def __init__(self) -> None:
        pass

    async def think(self, ruleset: Any, state: Any, seat: int, level: str, seed: int, seconds: float) -> Thought:
        return Thought(encode(ruleset.legal_commands(state, seat)[0]), 0.01, "AssertionError: refused")

    async def stop(self) -> None:
        pass


class Submits:
    def __init__(self) -> None:
        self.submitted: list[tuple[str, object, bytes]] = []
        self.done = asyncio.Event()

    async def submit(
        self, match_id: str, actor: object, raw: bytes, command_id: str = "", expected_version: int | None = None
    ) -> object:
        self.submitted.append((match_id, actor, raw))
        self.done.set()
        return None

    def loaded(self, match_id: str) -> None:
        return None


async def test_a_failed_bot_is_logged_as_an_error_and_its_seat_still_moves(caplog: pytest.LogCaptureFixture) -> None:
    players = [SeatEntry("ada", {}), SeatEntry("bob", {})]
    first = created_match(creation("duel", 0, players, {}, {}, bytes(32), (), "public", ""), datetime.now(UTC))
    (seat,) = first.ruleset.to_act(first.state)
    players[seat] = SeatEntry("hal", {}, kind=bot_seats.BOT, bot_level="search")  # the seat to act is the bot's
    hot = created_match(creation("duel", 0, players, {}, {}, bytes(32), (), "public", ""), datetime.now(UTC))
    manager = Submits()
    player = BotPlayer(manager, workers=Failing())
    player.play(hot)
    await asyncio.wait_for(manager.done.wait(), 30)
    await player.stop()
    assert [actor for _, actor, _ in manager.submitted] == [seat]
    (record,) = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert f"bot (search) of seat {seat} failed" in record.getMessage()
    assert "AssertionError: refused" in record.getMessage()
