"""Lifecycle benchmark: how fast a history of played matches is caught up by what follows creations and ends.

Bots play ``--games`` matches of the reference game (``engine.registry.REFERENCE``) in process into a new SQLite
file (``duelhall selfplay --database-url``); then it times, on that file: the creations and ends found by
``read_all`` of those types (the store skips the other events) beside every event read by ``read_all`` and
filtered here (what the followers did before reads by type), a rebuild of the match list (``duelhall matches
--rebuild``'s work, in this process) and a ``WatchLifecycle`` from position 1 through a real server (``duelhall
serve``) to its last change. It prints events covered and changes per second for each.

    python bench/lifecycle.py [--games 500] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.service import start
from engine.registry import REFERENCE
from eventstore import AsyncEventStore, open_store
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.readmodels.matchlist import TYPES, MatchList

DUELHALL = str(Path(sys.executable).parent / "duelhall")
PAGE = 500


async def timed(url: str, walk: Callable[[AsyncEventStore], Awaitable[int]]) -> tuple[int, float]:
    """(what ``walk`` counted, seconds it took) on a store opened on ``url``."""
    store = await open_store(url)
    try:
        started = time.perf_counter()
        counted = await walk(store)
        return counted, time.perf_counter() - started
    finally:
        await store.close()


async def scanned(store: AsyncEventStore) -> int:
    """Every creation and end, found with ``read_all`` of their types, page by page."""
    position, found = 1, 0
    while (page := await store.read_all(position, PAGE, TYPES)).through >= position:
        found += len(page.events)
        position = page.through + 1
    return found


async def read_every_event(store: AsyncEventStore) -> int:
    """Every creation and end, found by reading every event, page by page."""
    position, found = 1, 0
    while events := (await store.read_all(position, PAGE)).events:
        found += sum(1 for event in events if event.type in TYPES)
        position = events[-1].position + 1
    return found


async def rebuild(store: AsyncEventStore) -> int:
    """One rebuild of the match list; the head it reached."""
    await MatchList(store).rebuild()
    return await store.head()


async def watch(address: str, changes: int) -> float:
    """Seconds from the call to the ``changes``-th change of a lifecycle watch from position 1."""
    async with grpc.aio.insecure_channel(address) as channel:
        stub = pb_grpc.MatchServiceStub(channel)  # type: ignore[no-untyped-call]
        started = time.perf_counter()
        call = stub.WatchLifecycle(pb.WatchLifecycleRequest(from_position=1))
        seen = 0
        async for _ in call:
            seen += 1
            if seen == changes:
                break
        call.cancel()
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the median is shown")
    args = parser.parse_args()
    console = Console(width=120, stderr=True)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'history.db'}"
        with console.status(f"bots play {args.games:,} matches"):
            subprocess.run(
                [DUELHALL, "selfplay", REFERENCE, "--games", str(args.games), "--database-url", url],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        scans, reads, rebuilds = [], [], []
        for _ in range(args.repeat):  # alternating, so that drift hits each alike
            scans.append(asyncio.run(timed(url, scanned)))
            reads.append(asyncio.run(timed(url, read_every_event)))
            rebuilds.append(asyncio.run(timed(url, rebuild)))
        head = rebuilds[0][0]
        if len({found for found, _ in scans + reads}) != 1:  # a fast wrong answer is no figure
            raise SystemExit(f"reads by type and of every event found different events: {scans} and {reads}")
        proc, address = start([DUELHALL, "serve", "--database-url", url, "--listen", "127.0.0.1:0", "--http", "off"])
        try:
            watches = [asyncio.run(watch(address, 2 * args.games)) for _ in range(args.repeat)]
        finally:
            proc.terminate()
            proc.wait(10)
    table = Table("work", "events", "changes", "seconds (median)", "events/s", "changes/s", "runs (s)")
    for work, seconds in (
        ("creations and ends by type", [s for _, s in scans]),
        ("every event by read_all", [s for _, s in reads]),
        ("match list rebuild", [s for _, s in rebuilds]),
        ("WatchLifecycle from 1", watches),
    ):
        median = statistics.median(seconds)
        changes = 2 * args.games
        runs = " ".join(f"{s:.2f}" for s in seconds)
        table.add_row(
            work,
            f"{head:,}",
            f"{changes:,}",
            f"{median:.2f}",
            f"{head / median:,.0f}",
            f"{changes / median:,.0f}",
            runs,
        )
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
