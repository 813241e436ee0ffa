"""Where the search bot's decision-time overruns come from: per decision on the clock, the wall-clock time past the
budget, the longest gap between two reads of its clock (wall and processor seconds in it) and the garbage
collector's time.

A gap of many wall-clock milliseconds with next to no processor time is the process waiting for a core (the
machine's load); one with processor time is work the search does between two looks at the clock; the collector's
time is the GC's. It plays ``--matches`` matches of the search bot (seat alternated) against greedy bots and prints
the decision-time percentiles and the slowest decisions.

    python bench/search_overruns.py duel [--matches 2] [--budget 0.5] [--players 2] [--worst 8]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console
from rich.table import Table

from engine import registry
from engine.bots import Bot, GreedyBot
from engine.search.bot import SearchBot
from engine.selfplay import play


class Decision(NamedTuple):
    wall: float
    cpu: float
    gap_wall: float
    """The longest wall-clock gap between two reads of the search's clock."""
    gap_cpu: float
    """Processor seconds the process spent in that gap."""
    gc: float
    iterations: int
    commands: int


class Collector:
    """The garbage collector's seconds, from its callbacks."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started


class GapClock:
    """``time.perf_counter`` that remembers its longest gap between two reads."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.last: tuple[float, float] | None = None
        self.gap = (0.0, 0.0)

    def __call__(self) -> float:
        now = (time.perf_counter(), time.process_time())
        if self.last is not None and now[0] - self.last[0] > self.gap[0]:
            self.gap = (now[0] - self.last[0], now[1] - self.last[1])
        self.last = now
        return now[0]


class Probed:
    def __init__(self, bot: SearchBot, clock: GapClock, collector: Collector, out: list[Decision]) -> None:
        self.bot, self.clock, self.collector, self.out = bot, clock, collector, out

    def choose(self, view: Any, commands: Sequence[Any]) -> Any:
        self.clock.reset()
        self.collector.seconds = 0.0
        wall, cpu = time.perf_counter(), time.process_time()
        command = self.bot.choose(view, commands)
        if len(commands) > 1:
            self.out.append(
                Decision(
                    time.perf_counter() - wall,
                    time.process_time() - cpu,
                    *self.clock.gap,
                    self.collector.seconds,
                    self.bot.last_iterations,
                    len(commands),
                )
            )
        return command


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--worst", type=int, default=8, help="slowest decisions listed (default: 8)")
    args = parser.parse_args()
    ruleset = registry.get(args.ruleset)
    players = args.players or ruleset.min_seats
    collector = Collector()
    decisions: list[Decision] = []
    for game in range(args.matches):
        clock = GapClock()
        tested = game % players
        bots: list[Bot] = [GreedyBot(ruleset, game * 1_000 + seat) for seat in range(players)]
        search = SearchBot(ruleset, game * 1_000 + tested, args.budget, clock=clock)
        bots[tested] = Probed(search, clock, collector, decisions)
        config: dict[str, Any] = {"seats": [{} for _ in range(players)], "options": {}}
        play(ruleset, config, [f"bot-{seat}" for seat in range(players)], game.to_bytes(32, "big"), bots)
    decisions.sort()
    n = len(decisions)
    p50, p99 = decisions[(n - 1) // 2].wall, decisions[min(n - 1, -(-99 * n // 100) - 1)].wall
    table = Table(
        "wall s",
        "cpu s",
        "longest gap: wall s",
        "cpu s in it",
        "gc s",
        "iterations",
        "commands",
        title=f"{ruleset.id} ({players} seats), budget {args.budget} s: {n} decisions, p50 {p50:.3f} s, "
        f"p99 {p99:.3f} s; the slowest",
    )
    for d in decisions[-args.worst :]:
        table.add_row(*(f"{x:.3f}" for x in d[:5]), str(d.iterations), str(d.commands))
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
