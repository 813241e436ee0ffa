"""``duelhall selfplay RULESET``: bots play each other in process, on a store, or through a server."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from rich.table import Table

from engine import registry
from engine.bots import BOT_KINDS
from eventstore import migrate, open_store
from services.cli import games
from services.cli.common import add_tls_options, channel, out, positive
from services.cli.progress import Bar
from services.core.secrets import hide_url_password
from services.matches.manager import MatchManager


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", help="the ruleset to play (duelhall rulesets lists them)")
    parser.add_argument("--games", type=positive, default=10, help="matches to play (default: 10)")
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the bots (and in process, of the matches) (default: 0)"
    )
    parser.add_argument("--bot", choices=BOT_KINDS, default="random", help="the bots' level (default: random)")
    parser.add_argument("--players", type=positive, default=None, help="seats per match (default: the minimum)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--server", default=None, metavar="HOST:PORT", help="play through a running server")
    where.add_argument("--database-url", default=None, help="play in process through the store at this URL")
    parser.add_argument("--concurrency", type=positive, default=8, help="matches in flight with --server (default: 8)")
    add_tls_options(parser)
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    try:
        ruleset = registry.get(args.ruleset)
        games.seat_count(ruleset, args.players)
    except KeyError as exc:
        args.parser.error(str(exc.args[0]))
    except ValueError as exc:
        args.parser.error(str(exc))
    with Bar(f"{ruleset.id} games", args.games) as bar:
        advance = bar.advance
        if args.server:
            summary = asyncio.run(_through_server(args, ruleset, advance))
        elif args.database_url:
            summary = asyncio.run(_with_store(args, ruleset, advance))
        else:
            summary = games.play_in_process(ruleset, args.games, args.seed, args.bot, args.players, advance)
    print_summary(summary)
    if args.server or args.database_url:  # stored matches: their ids are what the next command takes
        print_matches(summary)
    return 0 if summary.finished == len(summary.games) else 1


async def _through_server(args: argparse.Namespace, ruleset: Any, advance: Any) -> games.Summary:
    async with channel(args, args.server) as connected:
        return await games.play_through_server(
            connected, ruleset, args.games, args.seed, args.bot, args.players, advance, args.concurrency
        )


async def _with_store(args: argparse.Namespace, ruleset: Any, advance: Any) -> games.Summary:
    hide_url_password(args.database_url)
    await asyncio.to_thread(migrate, args.database_url)
    store = await open_store(args.database_url)
    try:
        return await games.play_with_store(
            MatchManager(store), ruleset, args.games, args.seed, args.bot, args.players, advance
        )
    finally:
        await store.close()


def print_summary(summary: games.Summary) -> None:
    games = len(summary.games)
    table = Table(title=f"selfplay {summary.ruleset}", show_header=False)
    table.add_row("games", f"{games} ({summary.finished} finished)")
    for outcome, count in sorted(summary.outcomes().items()):
        table.add_row("  " + outcome, str(count))
    seconds = max(summary.seconds, 1e-9)
    table.add_row("commands per game", f"{summary.commands / max(games, 1):.1f}")
    table.add_row("commands/s", f"{summary.commands / seconds:,.0f}")
    table.add_row("events/s", f"{summary.events / seconds:,.0f}")
    table.add_row("seconds", f"{summary.seconds:.2f}")
    out.print(table)


def print_matches(summary: games.Summary) -> None:
    table = Table("match", "commands", "outcome", title="matches played")
    table.columns[0].no_wrap = True  # ids are copied into other commands: never cut or wrapped
    for game in summary.games:
        table.add_row(game.match_id, str(game.commands), games.described(game.outcome))
    out.print(table)
