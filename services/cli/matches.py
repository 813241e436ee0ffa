"""``duelhall matches``: the stored matches as a table, newest first, from the database or a running server."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime

import msgspec
from rich.table import Column, Table

from engine.contract import Outcome
from engine.registry import RULESETS
from eventstore import open_store
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.cli.common import (
    add_database_option,
    add_server_option,
    add_tls_options,
    channel,
    database,
    err,
    out,
    positive,
)
from services.cli.progress import Bar
from services.readmodels.matchlist import MatchList
from services.readmodels.matchrows import ENDED, RUNNING, MatchRow, ReadModel

_STATUS_TO_PB = {"": pb.MATCH_STATUS_UNSPECIFIED, RUNNING: pb.MATCH_STATUS_RUNNING, ENDED: pb.MATCH_STATUS_ENDED}
_STATUS_FROM_PB = {value: key for key, value in _STATUS_TO_PB.items()}
_PAGE = 500


def arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    add_database_option(where)
    add_server_option(where)
    # Refused here on the database as the server refuses it: a misspelt id would list nothing, silently.
    parser.add_argument("--ruleset", choices=sorted(RULESETS), default="", help="only this ruleset's matches")
    parser.add_argument("--status", choices=(RUNNING, ENDED), default="", help="only running or only ended matches")
    parser.add_argument("--limit", type=positive, default=100, help="show at most this many (default: 100)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the match list from the events first")
    add_tls_options(parser)
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    if args.server and args.rebuild:
        args.parser.error("--rebuild works on a database, not with --server")
    if args.server:
        rows, cut = asyncio.run(_rows_from_server(args, args.limit, args.ruleset, args.status))
    else:
        rows, cut = asyncio.run(_rows(database(args), args.limit, args.ruleset, args.status, args.rebuild))
    if args.json:
        print(msgspec.json.encode(rows).decode())
    else:
        table = Table("ruleset", "seats", "status", "version", "outcome", "created")
        # Ids are what users copy into other commands: never cut or wrapped.
        table.columns.insert(0, Column("match", no_wrap=True, min_width=32))
        for row in rows:
            table.add_row(
                row.match_id,
                row.ruleset,
                ", ".join(row.seats),
                row.status,
                str(row.version),
                _outcome(row),
                row.created_at.strftime("%m-%d %H:%M"),
            )
        out.print(table)
    if cut:
        err.print(f"showing the newest {len(rows)} matches; there are more (raise --limit to see them)")
    return 0


async def _rows(url: str, limit: int, ruleset: str, status: str, rebuild: bool) -> tuple[list[MatchRow], bool]:
    store = await open_store(url)
    try:
        match_list = MatchList(store)
        with Bar("match list: events") as bar:
            if rebuild:
                created = await match_list.rebuild(progress=bar.reached)
                err.print(f"rebuilt the match list from the events: {created} matches")
            else:
                await match_list.catch_up(progress=bar.reached)
        rows, more = await ReadModel(store).page(None, limit, ruleset, status)
        return [await _now(row, store.last_version) for row in rows], more is not None
    finally:
        await store.close()


async def _rows_from_server(
    args: argparse.Namespace, limit: int, ruleset: str, status: str
) -> tuple[list[MatchRow], bool]:
    rows: list[MatchRow] = []
    token = ""
    async with channel(args, args.server) as connected:
        stub = pb_grpc.MatchServiceStub(connected)  # type: ignore[no-untyped-call]  # generated, untyped
        while len(rows) < limit:
            page = await stub.ListMatches(
                pb.ListMatchesRequest(
                    ruleset=ruleset,
                    status=_STATUS_TO_PB[status],
                    page_size=min(_PAGE, limit - len(rows)),
                    page_token=token,
                ),
                timeout=30,
            )
            for match in page.matches:
                rows.append(await _now(_row(match), lambda match_id: _version(stub, match_id)))
            token = page.next_page_token
            if not token:
                return rows, False
    return rows, True


async def _now(row: MatchRow, version: Callable[[str], Awaitable[int]]) -> MatchRow:
    """The row with a running match's version now: the list keeps the version its creation left it at."""
    if row.status != RUNNING:
        return row
    return msgspec.structs.replace(row, version=await version(row.match_id))


async def _version(stub: pb_grpc.MatchServiceStub, match_id: str) -> int:
    match = await stub.GetMatch(pb.GetMatchRequest(match_id=match_id), timeout=30)
    return int(match.version)


def _row(match: pb.Match) -> MatchRow:
    return MatchRow(
        match_id=match.match_id,
        ruleset=match.ruleset,
        ruleset_version=match.ruleset_version,
        seats=tuple(match.seats),
        status=_STATUS_FROM_PB.get(match.status, ""),
        version=match.version,
        outcome=msgspec.json.decode(match.outcome_json, type=Outcome) if match.outcome_json else None,
        created_at=datetime.fromisoformat(match.created_at),
        updated_at=datetime.fromisoformat(match.updated_at),
        seed_commitment=match.seed_commitment,
    )


def _outcome(row: MatchRow) -> str:
    if row.outcome is None:
        return ""
    if row.outcome.draw:
        return f"draw ({row.outcome.reason})"
    return f"seat {'+'.join(map(str, row.outcome.winners))} wins ({row.outcome.reason})"
