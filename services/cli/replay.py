"""``duelhall replay export|import|verify|show``: replay files in and out of the database or a server."""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import msgspec
from rich.table import Table

from engine import jsonbounds
from eventstore import migrate, open_store
from eventstore.urls import redacted
from replays import render, storage
from replays.format import Replay, decode_replay, encode_replay
from replays.verify import MAX_FILE_BYTES, Failure, Verdict, verify_bytes
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.cli.common import (
    add_database_option,
    add_server_option,
    add_tls_options,
    add_verb,
    channel,
    database,
    err,
    out,
)
from services.cli.errors import describe, reason
from services.cli.progress import Bar
from services.matches.manager import MatchManager
from services.ops import archive


def arguments(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    export = add_verb(verbs, "export", "write a match's replay file, or with --all every ended match's")
    export.add_argument("match_id", nargs="?", default=None, help="the match (duelhall matches lists them)")
    export.add_argument("-o", "--output", required=True, type=Path, help="the file; with --all, a folder")
    export.add_argument("--all", action="store_true", help="every ended match, one verified DIR/<match>.json each")
    export.add_argument(
        "--since",
        type=since_date,
        default=None,
        metavar="DATE",
        help="with --all: only matches that ended at or after DATE (ISO 8601, UTC if no zone)",
    )
    where = export.add_mutually_exclusive_group()
    add_database_option(where)
    add_server_option(where)
    export.add_argument("--token", default="", help="with --server: the admin token, to export a running match")
    add_tls_options(export)
    export.set_defaults(run=run_export, parser=export)
    imp = add_verb(verbs, "import", "verify replay files, then store their matches")
    imp.add_argument(
        "files", nargs="+", type=Path, metavar="FILE", help="a replay file, or a folder: every *.json in it"
    )
    add_database_option(imp)
    imp.set_defaults(run=run_import)
    verify = add_verb(verbs, "verify", "check replays: chain, times, fold, outcome, seed, re-execution")
    verify.add_argument("files", nargs="+", type=Path, metavar="FILE", help="replay files")
    verify.add_argument(
        "--json", action="store_true", help="print each file's checks, failure and uncovered parts as JSON"
    )
    verify.set_defaults(run=run_verify)
    show = add_verb(verbs, "show", "print a text board of the match at a step")
    show.add_argument("file", type=Path, help="a replay file")
    show.add_argument(
        "--as", dest="viewer", default="spectator", help="a seat number or 'spectator' (default: spectator)"
    )
    show.add_argument("--step", type=int, default=None, help="event version to show (default: the last)")
    show.set_defaults(run=run_show, parser=show)


def since_date(text: str) -> datetime:
    """An ISO 8601 date or time; UTC when it names no zone."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def run_export(args: argparse.Namespace) -> int:
    if args.all == (args.match_id is not None) or (args.since and not args.all) or (args.all and args.server):
        args.parser.error("give either a MATCH_ID or --all (--since only with --all, --all not with --server)")
    if args.all:
        with Bar("exporting ended matches") as bar:
            written = asyncio.run(_export_all(database(args), args.output, args.since, bar))
        err.print(f"wrote and verified {written} replay files in {args.output}")
        return 0
    folder = args.output.parent
    if not folder.is_dir():  # said before the match is read, not as "no such file" after
        raise NotADirectoryError(f"the directory {folder} does not exist: create it, or write elsewhere")
    if args.server:
        data = asyncio.run(_export_from_server(args, args.match_id, args.token))
        source = f"the server at {args.server}"
    else:
        url = database(args)
        data = asyncio.run(_export(url, args.match_id))
        source = redacted(url)
    # Whole or not at all: a file cut short (a full disk, an interrupt) would not verify.
    partial = args.output.with_name(args.output.name + ".partial")
    try:
        partial.write_bytes(data)
        os.replace(partial, args.output)
    finally:
        partial.unlink(missing_ok=True)
    err.print(f"wrote {args.output} ({len(data):,} bytes) from {source}")
    return 0


async def _export(url: str, match_id: str) -> bytes:
    store = await open_store(url)
    try:
        replay = await storage.stored(store, match_id)
        if replay is None:
            raise LookupError(f"no match {match_id!r} in {redacted(url)}")
        return encode_replay(replay)
    finally:
        await store.close()


async def _export_all(url: str, folder: Path, since: datetime | None, bar: Bar) -> int:
    store = await open_store(url)
    try:
        return await archive.export_ended(store, folder, since, bar)
    finally:
        await store.close()


async def _export_from_server(args: argparse.Namespace, match_id: str, token: str) -> bytes:
    import grpc

    async with channel(args, args.server) as connected:
        stub = pb_grpc.MatchServiceStub(connected)  # type: ignore[no-untyped-call]  # generated, untyped
        try:
            reply = await stub.ExportReplay(pb.ExportReplayRequest(match_id=match_id, token=token), timeout=60)
        except grpc.aio.AioRpcError as refused:
            # The server asks for the admin token only for a match that has not ended (docs/api.md).
            if reason(refused) in _ADMIN_ONLY:
                raise PermissionError(_running(match_id, bool(token))) from None
            raise
        return bytes(reply.replay)


_ADMIN_ONLY = ("TOKEN_MISSING", "ADMIN_REQUIRED")
"""What ``ExportReplay`` answers for a running match without the admin token, or with another token."""


def _running(match_id: str, token_given: bool) -> str:
    needs = "and --token is not the server's admin token, which" if token_given else "and only its admin token"
    return (
        f"match {match_id} is still running, {needs} exports a running match (without its seed): "
        "export it once it has ended, or pass --token with the token `duelhall serve --admin-token` was given"
    )


def _each(files: Sequence[Path], what: str, check: Callable[[Path], tuple[bool, str]]) -> tuple[int, Table]:
    """Runs ``check`` on every file under a progress bar; (failures, the summary table)."""
    table = Table("file", "result", "detail", title=f"replay {what}")
    failures = 0
    with Bar(what, len(files)) as bar:
        for path in files:
            try:
                ok, detail = check(path)
            except Exception as exc:
                ok, detail = False, describe(exc)
            failures += not ok
            table.add_row(str(path), "ok" if ok else "FAIL", detail)
            bar.advance()
    return failures, table


def run_import(args: argparse.Namespace) -> int:
    url = database(args)
    migrate(url)
    # A folder stands for its files: an archive of many matches exceeds what a shell passes as arguments.
    files = [file for path in args.files for file in (sorted(path.glob("*.json")) if path.is_dir() else [path])]
    failures, table = asyncio.run(_import_all(url, files))
    out.print(table)
    out.print(
        f"{len(files) - failures} of {len(files)} replay files stored in {redacted(url)}"
        + (f"; {failures} refused" if failures else "")
    )
    return 1 if failures else 0


async def _import_all(url: str, files: Sequence[Path]) -> tuple[int, Table]:
    """Imports the files through one store, each under the progress bar; (failures, the summary table)."""
    table = Table("file", "result", "detail", title="replay import")
    failures = 0
    store = await open_store(url)
    try:
        manager = MatchManager(store, capacity=16)
        with Bar("import", len(files)) as bar:
            for path in files:
                try:
                    done = await storage.import_(store, path.read_bytes())
                    await manager.reindex(done.match_id)
                    ok, detail = True, f"{'imported' if done.imported else 'already stored'}: {done.match_id}"
                    detail += "".join(f"\nnot covered: {part}" for part in done.uncovered)
                except Exception as exc:
                    ok, detail = False, describe(exc)
                failures += not ok
                table.add_row(str(path), "ok" if ok else "FAIL", detail)
                bar.advance()
    finally:
        await store.close()
    return failures, table


class Checked(msgspec.Struct, frozen=True):
    """One file's verification as ``replay verify --json`` prints it."""

    file: str
    ok: bool
    checks: list[str]
    """The checks that passed, in order."""
    failure: Failure | None
    uncovered: list[str]
    """What of the file no check covers (the times and command records of chain-1 events)."""


def run_verify(args: argparse.Namespace) -> int:
    checked: list[Checked] = []

    def one(path: Path) -> tuple[bool, str]:
        try:
            data = path.read_bytes()
        except OSError as exc:
            checked.append(Checked(str(path), False, [], Failure("read", 0, describe(exc)), []))
            raise
        verdict = verify_bytes(data)
        checked.append(Checked(str(path), verdict.ok, verdict.checks, verdict.failure, verdict.uncovered))
        uncovered = "".join(f"\nnot covered: {part}" for part in verdict.uncovered)
        if verdict.failure is None:
            return True, f"{len(verdict.checks)} checks passed: {', '.join(verdict.checks)}{uncovered}"
        return False, f"{verdict.failure}{uncovered}"

    failures, table = _each(args.files, "verify", one)
    if args.json:
        print(msgspec.json.encode(checked).decode())
        return 1 if failures else 0
    out.print(table)
    files = len(args.files)
    partly = sum(1 for one in checked if one.ok and one.uncovered)
    out.print(
        (
            f"{failures} of {files} replay files failed"
            if failures
            else "replay verified"
            if files == 1
            else f"all {files} replays verified"
        )
        + (f"; {partly} with parts no check covers (written before hash chain 2)" if partly else "")
    )
    return 1 if failures else 0


def run_show(args: argparse.Namespace) -> int:
    replay = _read_replay(args.file)
    refused(args.file, verify_bytes(args.file.read_bytes()))  # a board of an edited file would be believed
    viewer = None if args.viewer == "spectator" else _seat(args.viewer)
    if viewer is not None and not 0 <= viewer < len(replay.seats):
        args.parser.error(f"--as takes a seat 0..{len(replay.seats) - 1} or 'spectator', not {args.viewer}")
    if args.step is not None and not 1 <= args.step <= len(replay.events):
        args.parser.error(
            f"--step takes 1..{len(replay.events)} (the replay has {len(replay.events)} events), not {args.step}"
        )
    out.print(render.board(replay, args.step, viewer), markup=False)
    return 0


def refused(path: Path, verdict: Verdict) -> None:
    """Raises, naming the failed check, unless the replay verified: nothing of a file that does not is shown."""
    if verdict.failure is not None:
        raise ValueError(f"{path} does not verify, so it is not shown: {verdict.failure}")


def _seat(text: str) -> int:
    return int(text) if text.isdigit() else -1


def _read_replay(path: Path) -> Replay:
    data = path.read_bytes()
    try:
        jsonbounds.decode(data, MAX_FILE_BYTES)
        return decode_replay(data)
    except (jsonbounds.OutOfBounds, msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ValueError(f"{path} is not a replay file: {exc}") from None
