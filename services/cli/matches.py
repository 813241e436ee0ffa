"""``duelhall matches``: the stored matches as a table."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

import msgspec
from rich.table import Column, Table

from eventstore import open_store
from services.cli.common import add_database_option, database, err, out
from services.manager import MatchManager
from services.projection import MatchList
from services.readmodel import MatchRow, ReadModel


def register(commands: Any) -> None:
    parser = commands.add_parser("matches", help="list stored matches")
    add_database_option(parser)
    parser.add_argument("--ruleset", default="")
    parser.add_argument("--status", choices=("running", "ended"), default="")
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the match list from the events first")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rows = asyncio.run(_rows(database(args), args.limit, args.ruleset, args.status, args.rebuild))
    if args.json:
        print(msgspec.json.encode(rows).decode())
        return 0
    table = Table("ruleset", "seats", "status", "version", "outcome", "created")
    # Ids are what users copy into other commands: never cut or wrapped.
    table.columns.insert(0, Column("match", no_wrap=True, min_width=32))
    for row in rows:
        table.add_row(row.match_id, row.ruleset, ", ".join(row.seats), row.status, str(row.version),
                      _outcome(row), row.created_at.strftime("%m-%d %H:%M"))
    out.print(table)
    return 0


async def _rows(url: str, limit: int, ruleset: str, status: str, rebuild: bool) -> list[MatchRow]:
    store = await open_store(url)
    try:
        match_list = MatchList(store, MatchManager(store))
        if rebuild:
            err.print(f"rebuilt the match list from the events: {await match_list.rebuild()} matches")
        else:
            await match_list.catch_up()
        rows, _ = await ReadModel(store).page(None, limit, ruleset, status)
        return rows
    finally:
        await store.close()


def _outcome(row: MatchRow) -> str:
    if row.outcome is None:
        return ""
    if row.outcome.draw:
        return f"draw ({row.outcome.reason})"
    return f"seat {'+'.join(map(str, row.outcome.winners))} wins ({row.outcome.reason})"
