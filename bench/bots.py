"""Bot strength benchmark: win rates between bot levels per ruleset over seeded matches, and decision times.

For each ruleset it plays ``--matches`` matches in process (the engine alone, ``engine.selfplay``) between one bot
of ``--bot`` (default ``search``) and bots of ``--against`` (default ``greedy``) in every other seat, the tested
seat moving one seat on with each match so that every seat is played equally. Match ``k`` has seed ``k``, the bots
seeds derived from it; ``--first`` starts at another match than 0 (to extend a run or split it).

By default the search bot's budget of ``--budget`` seconds per decision is a fixed iteration count, the budget
times the ruleset's ``SearchTuning.rate`` (what one idle core makes in that time; ``--iterations`` names the count
instead): the strength figures are then independent of the machine's load, a run is reproducible from its seeds,
and ``--jobs`` may play matches in parallel processes with the same result. ``--timed`` gives the search the
budget in seconds on ``time.perf_counter`` instead, as the service does: that run measures decision times
(play it with ``--jobs 1`` on a quiet machine, and note the load beside its figures).

It prints per ruleset the tested bot's score (a win 1, a draw or a shared win its share, a loss 0), the Wilson 95 %
interval of that rate, its decision times in wall-clock seconds (p50, p99 and the worst) beside the budget, the
mean processor time per decision and the number of decisions, the search's median iterations per decision and its
iterations per processor second (the figure a ruleset's ``SearchTuning.rate`` is calibrated from); progress goes
to stderr.

    python bench/bots.py [--matches 40] [--budget 0.5] [--rulesets aq,duel,...] [--players 4] [--jobs 2]
                         [--first 0]
                         [--bot search] [--against greedy] [--iterations N | --timed]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry
from engine.bots import BOT_KINDS, Bot, make_bot
from engine.contract import Outcome, Ruleset
from engine.search.bot import SearchBot
from engine.selfplay import play

Z = 1.959964
"""The normal quantile of a two-sided 95 % interval."""


@dataclass
class Measured:
    """The tested bot's figures over one match (or, added up, over many)."""

    score: float = 0.0
    seconds: list[float] = field(default_factory=list)
    """Wall-clock seconds per decision."""
    cpu: list[float] = field(default_factory=list)
    """Processor seconds per decision (the process's own, whatever else the machine runs)."""
    iterations: list[int] = field(default_factory=list)

    def add(self, other: Measured) -> None:
        self.score += other.score
        self.seconds.extend(other.seconds)
        self.cpu.extend(other.cpu)
        self.iterations.extend(other.iterations)


class Timed:
    """A bot whose every decision is timed (only decisions with a choice: a single legal command is no decision)."""

    def __init__(self, bot: Bot, measured: Measured) -> None:
        self.bot = bot
        self.measured = measured

    def choose(self, view: Any, commands: Sequence[Any]) -> Any:
        started, cpu = time.perf_counter(), time.process_time()
        command = self.bot.choose(view, commands)
        if len(commands) > 1:
            self.measured.seconds.append(time.perf_counter() - started)
            self.measured.cpu.append(time.process_time() - cpu)
            if isinstance(self.bot, SearchBot):
                self.measured.iterations.append(self.bot.last_iterations)
        return command


def wilson(score: float, n: int) -> tuple[float, float]:
    """The Wilson score interval (95 %) of a rate of ``score`` successes in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def share(outcome: Outcome | None, seat: int, players: int) -> float:
    """The seat's score in one match: 1 for a win (split among joint winners), 0 for a loss; a draw (or a match
    cut off) scores the even share."""
    if outcome is None or outcome.draw or not outcome.winners:
        return 1 / players
    return 1 / len(outcome.winners) if seat in outcome.winners else 0.0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def make(kind: str, ruleset: Ruleset, seed: int, args: argparse.Namespace) -> Bot:
    if kind == "search" and not args.timed:
        return SearchBot(ruleset, seed, args.budget, iterations=args.iterations)
    return make_bot(kind, ruleset, seed, args.budget, time.perf_counter)


def seats_of(ruleset: Ruleset, args: argparse.Namespace) -> int:
    return min(max(args.players or ruleset.min_seats, ruleset.min_seats), ruleset.max_seats)


def play_match(ruleset_id: str, game: int, args: argparse.Namespace) -> Measured:
    """Match ``game`` of a ruleset: the tested bot in seat ``game`` modulo the seats, every bot seeded from it."""
    ruleset = registry.get(ruleset_id)
    players = seats_of(ruleset, args)
    config: dict[str, Any] = {"seats": [{} for _ in range(players)], "options": {}}
    names = [f"bot-{seat}" for seat in range(players)]
    tested = game % players
    measured = Measured()
    bots = [
        make(args.bot if seat == tested else args.against, ruleset, game * 1_000 + seat, args)
        for seat in range(players)
    ]
    bots[tested] = Timed(bots[tested], measured)
    played = play(ruleset, config, names, game.to_bytes(32, "big"), bots)
    measured.score = share(played.outcome, tested, players)
    return measured


class InProcess(Executor):
    """Runs each submitted call at once, here (``--jobs 1``): decision times then come from the one process."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def run_ruleset(ruleset: Ruleset, args: argparse.Namespace, pool: Executor, progress: Progress) -> list[str]:
    players = seats_of(ruleset, args)
    task = progress.add_task(f"{ruleset.id} ({players} seats)", total=args.matches)
    started = time.perf_counter()
    games = range(args.first, args.first + args.matches)
    futures = {pool.submit(play_match, ruleset.id, game, args): game for game in games}
    results: dict[int, Measured] = {}
    for future in as_completed(futures):
        results[futures[future]] = future.result()
        score = sum(m.score for m in results.values())
        progress.update(task, advance=1, description=f"{ruleset.id} ({players} seats) {score:g}/{len(results)}")
        if not progress.console.is_terminal:  # a log gets a line per match (rich draws bars on a terminal only)
            progress.console.print(f"{ruleset.id}: match {len(results)}/{args.matches}, score {score:g}")
    total = Measured()
    for game in games:  # in match order, so the figures do not depend on which process ended first
        total.add(results[game])
    low, high = wilson(total.score, args.matches)
    times, cpu, iterations = total.seconds, total.cpu, total.iterations
    return [
        ruleset.id,
        str(players),
        f"{total.score:g}/{args.matches}",
        f"{total.score / args.matches:.1%}",
        f"{low:.1%} – {high:.1%}",
        f"{1 / players:.0%}",
        f"{percentile(times, 0.5):.3f}",
        f"{percentile(times, 0.99):.3f}",
        f"{max(times, default=0.0):.3f}",
        f"{statistics.fmean(cpu) if cpu else 0.0:.3f}",
        str(len(cpu)),
        f"{statistics.median(iterations):.0f}" if iterations else "-",
        f"{sum(iterations) / sum(cpu):.0f}" if iterations and sum(cpu) > 0 else "-",
        f"{time.perf_counter() - started:.0f}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="matches per ruleset (default: 40)")
    parser.add_argument("--first", type=int, default=0, help="the first match's number (default: 0)")
    parser.add_argument("--budget", type=float, default=0.5, help="seconds per search decision (default: 0.5)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, default=None, help="search iterations per decision instead")
    budget.add_argument("--timed", action="store_true", help="search for the budget in seconds, on the clock")
    parser.add_argument("--rulesets", default=",".join(registry.RULESETS), help="comma-separated ids (default: all)")
    parser.add_argument("--players", type=int, default=None, help="seats per match (default: each game's minimum)")
    parser.add_argument("--bot", choices=BOT_KINDS, default="search", help="the level tested (default: search)")
    parser.add_argument("--against", choices=BOT_KINDS, default="greedy", help="every other seat (default: greedy)")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing matches (default: 1)")
    args = parser.parse_args()
    rulesets = [registry.get(r) for r in args.rulesets.split(",")]
    games = range(args.first, args.first + args.matches)
    if args.timed:
        spent = f"{args.budget} s on the clock"
    elif args.iterations is not None:
        spent = f"{args.iterations} iterations"
    else:
        spent = f"{args.budget} s as iterations (the ruleset's rate x budget)"
    table = Table(
        "ruleset",
        "seats",
        "score",
        "rate",
        "95 % interval",
        "even share",
        "p50 s",
        "p99 s",
        "max s",
        "cpu mean s",
        "decisions",
        "iterations p50",
        "iterations / cpu s",
        "run s",
        title=f"{args.bot} vs {args.against}, matches {games[0]}-{games[-1]}, budget {spent}, {args.jobs} jobs",
    )
    pool: Executor = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else InProcess()
    with pool, Progress(console=Console(stderr=True)) as progress:
        for ruleset in rulesets:
            table.add_row(*run_ruleset(ruleset, args, pool, progress))
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
