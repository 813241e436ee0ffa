"""``duelhall replay export|import|verify|show``: replay files in and out of the database."""

from __future__ import annotations

import argparse
import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from eventstore import migrate, open_store
from eventstore.urls import redacted
from replays import render, storage
from replays.format import decode_replay
from replays.verify import verify_bytes
from services import archive
from services.cli.common import add_database_option, database, err, out
from services.cli.progress import Bar
from services.manager import MatchManager
from services.readmodel import ENDED, ReadModel


def register(commands: Any) -> None:
    parser = commands.add_parser("replay", help="export, import, verify and show replay files")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    export = verbs.add_parser("export", help="write a match's replay file, or with --all every ended match's")
    export.add_argument("match_id", nargs="?", default=None)
    export.add_argument("-o", "--output", required=True, type=Path, help="the file; with --all, a folder")
    export.add_argument("--all", action="store_true", help="every ended match, one verified DIR/<match>.json each")
    export.add_argument("--since", type=since_date, default=None, metavar="DATE",
                        help="with --all: only matches that ended at or after DATE (ISO 8601, UTC if no zone)")
    add_database_option(export)
    export.set_defaults(run=run_export)
    imp = verbs.add_parser("import", help="verify a replay file, then store its match")
    imp.add_argument("file", type=Path, nargs="+")
    add_database_option(imp)
    imp.set_defaults(run=run_import)
    verify = verbs.add_parser("verify", help="check a replay: chain, fold, outcome, seed, re-execution")
    verify.add_argument("file", type=Path)
    verify.set_defaults(run=run_verify)
    show = verbs.add_parser("show", help="print a text board of the match at a step")
    show.add_argument("file", type=Path)
    show.add_argument("--as", dest="viewer", default="spectator", help="a seat number or 'spectator'")
    show.add_argument("--step", type=int, default=None, help="event version to show (default: the last)")
    show.set_defaults(run=run_show)


def since_date(text: str) -> datetime:
    """An ISO 8601 date or time; UTC when it names no zone."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def run_export(args: argparse.Namespace) -> int:
    if args.all == (args.match_id is not None) or (args.since and not args.all):
        raise ValueError("give either a MATCH_ID or --all (and --since only with --all)")
    if args.all:
        with Bar("exporting ended matches") as bar:
            written = asyncio.run(_export_all(database(args), args.output, args.since, bar))
        err.print(f"wrote and verified {len(written)} replay files in {args.output}")
        return 0
    data = asyncio.run(_export(database(args), args.match_id))
    args.output.write_bytes(data)
    err.print(f"wrote {args.output} ({len(data):,} bytes)")
    return 0


async def _export(url: str, match_id: str) -> bytes:
    store = await open_store(url)
    try:
        row = await ReadModel(store).get(match_id)
        if row is None:
            raise LookupError(f"no match {match_id!r} in {redacted(url)}")
        return await storage.export(store, match_id, include_seed=row.status == ENDED)
    finally:
        await store.close()


async def _export_all(url: str, folder: Path, since: datetime | None, bar: Bar) -> list[Path]:
    store = await open_store(url)
    try:
        return await archive.export_ended(store, folder, since, bar)
    finally:
        await store.close()


def run_import(args: argparse.Namespace) -> int:
    for match_id, imported in asyncio.run(_import(database(args), args.file)):
        out.print(f"{'imported' if imported else 'already stored'}: {match_id}")
    return 0


async def _import(url: str, files: list[Path]) -> list[tuple[str, bool]]:
    await asyncio.to_thread(migrate, url)
    store = await open_store(url)
    try:
        manager, results = MatchManager(store), []
        for file in files:
            match_id, imported = await storage.import_(store, file.read_bytes())
            await manager.reindex(match_id)
            results.append((match_id, imported))
        return results
    finally:
        await store.close()


def run_verify(args: argparse.Namespace) -> int:
    verdict = verify_bytes(args.file.read_bytes())
    for check in verdict.checks:
        out.print(f"ok    {check}")
    if verdict.failure is not None:
        failure = verdict.failure
        where = f" at version {failure.version}" if failure.version else ""
        out.print(f"FAIL  {failure.check}{where}: {failure.message}")
        return 1
    out.print("replay verified")
    return 0


def run_show(args: argparse.Namespace) -> int:
    replay = decode_replay(args.file.read_bytes())
    viewer = None if args.viewer == "spectator" else int(args.viewer)
    if viewer is not None and not 0 <= viewer < len(replay.seats):
        raise ValueError(f"--as takes a seat 0..{len(replay.seats) - 1} or 'spectator'")
    out.print(render.board(replay, args.step, viewer), markup=False)
    return 0
