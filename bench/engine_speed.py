"""Engine benchmark: self-play commands/s and fold events/s per ruleset and seat count, on one core.

Self-play counts decide + evolve + legal_commands + the bot's choice (random bots, views included).
Fold replays the recorded events of those games through evolve alone.

    python bench/engine_speed.py [--games N] [--ruleset ID ...]
"""

from __future__ import annotations

import argparse
import gc
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from engine.bots import RandomBot
from engine.match import fold
from engine.registry import RULESETS
from engine.selfplay import play


def measure(ruleset_id: str, players: int, games: int) -> tuple[float, float, int]:
    ruleset = RULESETS[ruleset_id]
    config: dict[str, Any] = {"seats": [{} for _ in range(players)], "options": {}}
    names = [f"p{i}" for i in range(players)]
    played = []
    commands = 0
    started = time.perf_counter()
    for game in range(games):
        bots = [RandomBot(game * 10 + seat) for seat in range(players)]
        result = play(ruleset, config, names, game.to_bytes(32, "big"), bots)
        commands += result.commands
        played.append(result.events)
    play_seconds = time.perf_counter() - started
    events = sum(len(e) for e in played)
    gc.disable()
    started = time.perf_counter()
    for recorded in played:
        fold(ruleset, recorded)
    fold_seconds = time.perf_counter() - started
    gc.enable()
    return commands / play_seconds, events / fold_seconds, commands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--ruleset", action="append", default=None)
    args = parser.parse_args()
    table = Table("ruleset", "players", "games", "commands", "self-play commands/s", "fold events/s", "targets")
    for key in args.ruleset or sorted(RULESETS):
        ruleset = RULESETS[key]
        counts = sorted({ruleset.min_seats, ruleset.max_seats})
        for players in counts:
            rate, fold_rate, commands = measure(key, players, args.games)
            wanted = " / ".join(f">= {t:,}" for t in ruleset.speed_target if t) or "-"
            table.add_row(
                key, str(players), str(args.games), f"{commands:,}", f"{rate:,.0f}", f"{fold_rate:,.0f}", wanted
            )
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
