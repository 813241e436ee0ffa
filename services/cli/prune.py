"""``duelhall prune --archive DIR``: delete from the store the ended matches archived and verified in DIR."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from rich.table import Table

from eventstore import open_store
from services.cli.common import add_database_option, database, out
from services.cli.progress import Bar
from services.ops import archive


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--archive",
        required=True,
        type=Path,
        metavar="DIR",
        help="the folder written by 'duelhall replay export --all -o DIR'",
    )
    parser.add_argument("--dry-run", action="store_true", help="only say what would be deleted")
    add_database_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not args.archive.is_dir():
        raise FileNotFoundError(f"no archive folder {args.archive}")
    with Bar("checking the archive") as bar:
        verdicts = asyncio.run(_prune(database(args), args.archive, args.dry_run, bar))
    table = Table("file", "match", "decision", "why")
    for verdict in verdicts:
        decision = ("would delete" if args.dry_run else "deleted") if verdict.pruned else "kept"
        table.add_row(verdict.file, verdict.match_id, decision, verdict.reason)
    out.print(table)
    pruned = sum(v.pruned for v in verdicts)
    out.print(f"{'would delete' if args.dry_run else 'deleted'} {pruned} matches, kept {len(verdicts) - pruned}")
    return 0


async def _prune(url: str, folder: Path, dry_run: bool, bar: Bar) -> list[archive.Verdict]:
    store = await open_store(url)
    try:
        return await archive.prune(store, url, folder, dry_run, bar)
    finally:
        await store.close()
