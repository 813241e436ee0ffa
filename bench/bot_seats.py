"""Bot seats benchmark: matches of bot seats only, played by a real server to their end, every replay verified,
and the server's event loop's longest stall while its bots think.

For each ruleset it creates ``--matches`` matches whose every seat is a bot (levels alternating from ``--levels``,
seats at the ruleset's minimum) on a server started in this process (``services.server.create_server``), so that a
probe on the same event loop measures the server's loop (from the first match's creation on, once the ruleset's
card data is loaded): it asks to wake every 5 ms and records how late it woke.
The client does nothing while the bots play but wait for the matches' ends on one ``WatchLifecycle`` stream; once
they all ended it stops the probe and verifies every replay (``ExportReplay`` then ``VerifyReplay``). It prints per
ruleset the matches ended and verified, commands, seconds, and the loop's lateness (p99 and the longest stall)
and the longest CPU its thread spent between two wake-ups (the stall its own work made, whatever else runs).

    python bench/bot_seats.py [--matches 50] [--rulesets aq,duel,...] [--levels greedy,random]
                              [--database-url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from pathlib import Path

import grpc
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry
from replays.format import decode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.cli.serve import YOUNG_COLLECTION
from services.server import ServerConfig, create_server

TICK = 0.005
"""How often the probe asks to wake, in seconds."""


class Probe:
    """How late the event loop wakes a task that sleeps ``TICK`` at a time: a stall shows as lateness. Beside it,
    the CPU the loop's thread spent between two wake-ups (``busy``): on a machine whose other processes take the
    cores, a wake-up is late also while the thread waits for a core, and the CPU it spent is what stalled the loop
    itself."""

    def __init__(self) -> None:
        self.late: list[float] = []
        self.busy: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            asked, spent = time.perf_counter(), time.thread_time()
            await asyncio.sleep(TICK)
            self.late.append(time.perf_counter() - asked - TICK)
            self.busy.append(time.thread_time() - spent)


async def ruleset_run(
    stub: pb_grpc.MatchServiceStub, ruleset: str, matches: int, levels: list[str], position: int
) -> tuple[int, int, int, float, Probe]:
    """(ended, verified, commands, seconds, the loop's probe while the bots played) for one ruleset."""
    seats = registry.get(ruleset).min_seats
    probe = Probe()
    watch = stub.WatchLifecycle(pb.WatchLifecycleRequest(from_position=position))
    started = time.perf_counter()
    created = []
    for game in range(matches):
        specs = [
            pb.SeatSpec(kind=pb.SEAT_KIND_BOT, bot_level=levels[(game + seat) % len(levels)]) for seat in range(seats)
        ]
        reply = await stub.CreateMatch(pb.CreateMatchRequest(ruleset=ruleset, seats=specs))
        created.append(reply.match.match_id)
        if game == 0:  # after the ruleset's first creation, which loads its card data once per process (~60 ms)
            probe.start()
    waiting = set(created)
    async for change in watch:
        if change.kind == pb.LIFECYCLE_KIND_ENDED:
            waiting.discard(change.match_id)
            if not waiting:
                break
    watch.cancel()
    seconds = time.perf_counter() - started
    await probe.stop()
    verified, commands = 0, 0
    for match_id in created:
        replay = (await stub.ExportReplay(pb.ExportReplayRequest(match_id=match_id))).replay
        verdict = await stub.VerifyReplay(pb.VerifyReplayRequest(replay=replay))
        verified += verdict.ok
        commands += len(decode_replay(replay).commands) - 1  # the creating command is not a bot's
    return len(created) - len(waiting), verified, commands, seconds, probe


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


async def bench(url: str, rulesets: list[str], matches: int, levels: list[str]) -> Table:
    table = Table(
        "ruleset",
        "matches",
        "ended",
        "verified",
        "commands",
        "seconds",
        "loop late p99 ms",
        "longest stall ms",
        "longest busy ms",
    )
    # The collector as ``duelhall serve`` sets it: its young collections less often, what start-up loaded frozen.
    gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])
    running = await create_server(ServerConfig(database_url=url, listen="127.0.0.1:0"))
    gc.freeze()
    worst, busiest = 0.0, 0.0
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)  # type: ignore[no-untyped-call]
            for ruleset in rulesets:
                position = await running.store.head() + 1
                ended, verified, commands, seconds, probe = await ruleset_run(stub, ruleset, matches, levels, position)
                stall, busy = max(probe.late, default=0.0), max(probe.busy, default=0.0)
                worst, busiest = max(worst, stall), max(busiest, busy)
                table.add_row(
                    ruleset,
                    str(matches),
                    str(ended),
                    str(verified),
                    f"{commands:,}",
                    f"{seconds:.1f}",
                    f"{percentile(probe.late, 0.99) * 1e3:.1f}",
                    f"{stall * 1e3:.1f}",
                    f"{busy * 1e3:.1f}",
                )
    finally:
        await running.stop(0)
    table.caption = (
        f"while bots played, the event loop's longest stall: {worst * 1e3:.1f} ms, of which its own work at most "
        f"{busiest * 1e3:.1f} ms (target under 50 ms)"
    )
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50, help="matches per ruleset")
    parser.add_argument("--rulesets", default=",".join(sorted(registry.RULESETS)))
    parser.add_argument("--levels", default="greedy,random", help="bot levels, alternated over the seats")
    parser.add_argument("--database-url", default=None, help="the server's database (default: a new SQLite file)")
    args = parser.parse_args()
    rulesets, levels = args.rulesets.split(","), args.levels.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'bots.db'}"
        table = asyncio.run(bench(url, rulesets, args.matches, levels))
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
