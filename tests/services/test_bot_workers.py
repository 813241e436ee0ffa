"""Bot decisions in worker processes: the same command as deciding in the server's own process, and a worker that
dies (killed, out of memory) is replaced, the decision taken by a fresh one."""

from __future__ import annotations

import os
import signal

from engine import registry
from services.matches.bot_workers import BotWorkers, timed
from tests.engine.contract_helpers import playout


async def test_a_decision_in_a_worker_is_the_one_taken_in_process_and_survives_a_dead_worker() -> None:
    ruleset = registry.get("duel")
    match = next(m for m, _ in playout(ruleset, 2, seed=4) if m.version > 20)
    seat = ruleset.to_act(match.state)[0]
    here, _ = timed(ruleset, match.state, seat, "greedy", 11, 1.0)
    workers = BotWorkers(workers=1)
    try:
        raw, took = await workers.think(ruleset, match.state, seat, "greedy", 11, 1.0)
        assert raw == here and 0 < took < 1.0
        (pid,) = workers.pids()
        assert pid != os.getpid()
        os.kill(pid, signal.SIGKILL)
        raw, _ = await workers.think(ruleset, match.state, seat, "greedy", 11, 1.0)
        assert raw == here
        assert workers.pids() and pid not in workers.pids()
    finally:
        await workers.stop()
