"""Bot strength benchmark: win rates between bot levels per ruleset over seeded matches, and decision times.

For each ruleset it plays ``--matches`` matches in process (the engine alone, ``engine.selfplay``) between one bot
of ``--bot`` (default ``search``) and bots of ``--against`` (default ``greedy``) in every other seat, the tested
seat moving one seat on with each match so that every seat is played equally. Match ``k`` has seed ``k``, the bots
seeds derived from it, so a run is reproducible up to the search's time budget. The search bot thinks for
``--budget`` seconds per decision on ``time.perf_counter`` (``--iterations`` fixes the iterations instead).

It prints per ruleset the tested bot's score (a win 1, a draw or a shared win its share, a loss 0), the Wilson 95 %
interval of that rate, its decision times (p50, p99 and the worst) beside the budget, and the search's median
iterations per decision; progress goes to stderr.

    python bench/bots.py [--matches 40] [--budget 0.5] [--rulesets aq,duel,...] [--players 4]
                         [--bot search] [--against greedy] [--iterations N]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
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


class Timed:
    """A bot whose every decision is timed (only decisions with a choice: a single legal command is no decision)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seconds: list[float] = []
        self.iterations: list[int] = []

    def choose(self, view: Any, commands: Sequence[Any]) -> Any:
        started = time.perf_counter()
        command = self.bot.choose(view, commands)
        if len(commands) > 1:
            self.seconds.append(time.perf_counter() - started)
            if isinstance(self.bot, SearchBot):
                self.iterations.append(self.bot.last_iterations)
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
    if kind == "search" and args.iterations is not None:
        return SearchBot(ruleset, seed, args.budget, iterations=args.iterations)
    return make_bot(kind, ruleset, seed, args.budget, time.perf_counter)


def run_ruleset(ruleset: Ruleset, args: argparse.Namespace, progress: Progress) -> list[str]:
    players = min(max(args.players or ruleset.min_seats, ruleset.min_seats), ruleset.max_seats)
    config = {"seats": [{} for _ in range(players)], "options": {}}
    names = [f"bot-{seat}" for seat in range(players)]
    task = progress.add_task(f"{ruleset.id} ({players} seats)", total=args.matches)
    score = 0.0
    times: list[float] = []
    iterations: list[int] = []
    started = time.perf_counter()
    for game in range(args.matches):
        tested = game % players
        bots = [
            make(args.bot if seat == tested else args.against, ruleset, game * 1_000 + seat, args)
            for seat in range(players)
        ]
        timed = Timed(bots[tested])
        bots[tested] = timed
        played = play(ruleset, config, names, game.to_bytes(32, "big"), bots)
        score += share(played.outcome, tested, players)
        times.extend(timed.seconds)
        iterations.extend(timed.iterations)
        progress.update(task, advance=1, description=f"{ruleset.id} ({players} seats) {score:g}/{game + 1}")
        if not progress.console.is_terminal:  # a log gets a line per match (rich draws bars on a terminal only)
            progress.console.print(f"{ruleset.id}: match {game + 1}/{args.matches}, score {score:g}")
    low, high = wilson(score, args.matches)
    return [
        ruleset.id,
        str(players),
        f"{score:g}/{args.matches}",
        f"{score / args.matches:.1%}",
        f"{low:.1%} – {high:.1%}",
        f"{1 / players:.0%}",
        f"{percentile(times, 0.5):.3f}",
        f"{percentile(times, 0.99):.3f}",
        f"{max(times, default=0.0):.3f}",
        f"{statistics.fmean(times) if times else 0.0:.3f}",
        f"{statistics.median(iterations):.0f}" if iterations else "-",
        f"{time.perf_counter() - started:.0f}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="matches per ruleset (default: 40)")
    parser.add_argument("--budget", type=float, default=0.5, help="seconds per search decision (default: 0.5)")
    parser.add_argument("--iterations", type=int, default=None, help="search iterations per decision instead")
    parser.add_argument("--rulesets", default=",".join(registry.RULESETS), help="comma-separated ids (default: all)")
    parser.add_argument("--players", type=int, default=None, help="seats per match (default: each game's minimum)")
    parser.add_argument("--bot", choices=BOT_KINDS, default="search", help="the level tested (default: search)")
    parser.add_argument("--against", choices=BOT_KINDS, default="greedy", help="every other seat (default: greedy)")
    args = parser.parse_args()
    rulesets = [registry.get(r) for r in args.rulesets.split(",")]
    budget = f"{args.iterations} iterations" if args.iterations is not None else f"{args.budget} s"
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
        "mean s",
        "iterations p50",
        "run s",
        title=f"{args.bot} vs {args.against}, {args.matches} matches per ruleset, budget {budget}",
    )
    with Progress(console=Console(stderr=True)) as progress:
        for ruleset in rulesets:
            table.add_row(*run_ruleset(ruleset, args, progress))
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
