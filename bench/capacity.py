"""Capacity benchmark: memory of many hot matches in one process, and the cold load of a long match.

1. ``--hot`` matches of the reference game (``engine.registry.REFERENCE``) created through the match manager
   and kept loaded: the process's RSS before and after (from /proc/self/status).
2. The cold load of a ``--events``-event match from its snapshot plus tail: no ruleset plays 10,000 events
   within its rules, so the stream is built for the purpose. A real bot match is played; its first events
   (MatchCreated and setup) open the stream, copies of its events with one command record per three events
   fill it up to the snapshot's version, then the snapshot holds the real state at the start of its last
   ``--tail`` events, which close the stream. A load never decodes what the snapshot covers, so every row
   it reads (first event, secrets, the whole command log, snapshot, tail) is as a real match of that length
   would have it. The median of ``--loads`` loads (each by a fresh manager) is reported.

    python bench/capacity.py [--backend sqlite|postgres] [--hot 10000] [--events 10000] [--tail 150]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

import msgspec
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.service import database, drop
from engine import registry
from engine.bots import RandomBot
from engine.match import apply, create, decide_command, encode, fold, stored_type, type_tag
from engine.selfplay import next_move
from eventstore import (
    AppendRequest,
    AsyncEventStore,
    CommandRecord,
    NewEvent,
    migrate,
    open_store,
)
from eventstore.postgres import AsyncPostgresStore
from eventstore.sqlite_async import AsyncSqliteStore
from replays.format import match_id_for
from replays.storage import SEED_SECRET
from services.matches import snapshots
from services.matches.creation import SeatEntry
from services.matches.deadlines import NONE
from services.matches.manager import MatchManager
from services.matches.tokens import TOKEN_SECRET_PREFIX, token_hash

SEATS = [SeatEntry(name="a", config={}), SeatEntry(name="b", config={})]


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


async def hot_matches(store: AsyncEventStore, count: int) -> tuple[float, float, float]:
    """(RSS before MiB, RSS after MiB, seconds) for ``count`` matches created and kept loaded."""
    manager = MatchManager(store, capacity=count)
    gc.collect()
    before = rss_mib()
    started = time.perf_counter()
    for first in range(0, count, 200):
        await asyncio.gather(*(manager.create(registry.REFERENCE, SEATS, {}) for _ in range(min(200, count - first))))
    elapsed = time.perf_counter() - started
    gc.collect()
    return before, rss_mib(), elapsed


async def long_match(store: AsyncSqliteStore | AsyncPostgresStore, events: int, tail: int) -> str:
    """The stream of a ``events``-event match as described in the module docstring; returns its id."""
    ruleset = registry.get(registry.REFERENCE)
    seed = bytes(range(32))
    played = create(ruleset, {"seats": [{}, {}], "options": {}}, ["a", "b"], seed)
    setup = len(played)
    match = fold(ruleset, played)
    bots = [RandomBot(1), RandomBot(2)]
    while ruleset.outcome(match.state) is None and len(played) < setup + tail + 10:
        actor, command = next_move(ruleset, match.state, bots)
        decided = decide_command(ruleset, match, actor, command, seed)
        played += decided.events
        match = decided.match
    real_tail = played[-tail:]
    before_tail = apply(ruleset, fold(ruleset, played[:setup]), played[setup:-tail])
    match_id = match_id_for(played[0].seed_commitment)
    hidden = {SEED_SECRET: seed} | {f"{TOKEN_SECRET_PREFIX}{i}": token_hash(f"t{i}") for i in range(2)}

    def new(batch: list[object]) -> tuple[NewEvent, ...]:
        return tuple(NewEvent(stored_type(ruleset, e), encode(e)) for e in batch)

    requests = [
        AppendRequest(
            match_id,
            0,
            new(played[:setup]),
            CommandRecord(f"create-{match_id}", "system", "create_match", b"{}"),
            tuple(sorted(hidden.items())),
        )
    ]
    snapshot_at = events - tail
    filler = played[setup:]
    before_snapshot = [filler[version % len(filler)] for version in range(setup, snapshot_at)]
    version = setup
    for part in (before_snapshot, real_tail):
        for index in range(0, len(part), 3):
            chunk = part[index : index + 3]
            requests.append(
                AppendRequest(
                    match_id,
                    version,
                    new(chunk),
                    CommandRecord(f"c{version}", "0", type_tag(chunk[0]), b'{"type":"engage"}'),
                )
            )
            version += len(chunk)
    for first in range(0, len(requests), 200):
        outcomes = await store.append_batch(requests[first : first + 200])
        assert all(not isinstance(o, Exception) for o in outcomes), outcomes
    state = msgspec.structs.replace(before_tail, version=snapshot_at)
    await store.snapshots.save(snapshots.saved(match_id, ruleset, state, NONE))
    return match_id


async def cold_loads(store: AsyncEventStore, match_id: str, loads: int) -> tuple[int, float]:
    """(version, median milliseconds) of ``loads`` cold loads, each by a fresh manager."""
    times = []
    version = 0
    for _ in range(loads):
        manager = MatchManager(store)
        started = time.perf_counter()
        hot = await manager.get(match_id)
        times.append((time.perf_counter() - started) * 1000)
        version = hot.version
    return version, statistics.median(times)


async def bench(url: str, hot: int, events: int, tail: int, loads: int) -> list[tuple[str, str]]:
    migrate(url)
    store = await open_store(url)
    assert isinstance(store, AsyncSqliteStore | AsyncPostgresStore)  # append_batch: the concrete stores' own
    try:
        before, after, seconds = await hot_matches(store, hot)
        match_id = await long_match(store, events, tail)
        version, median = await cold_loads(store, match_id, loads)
    finally:
        await store.close()
    return [
        (f"{hot:,} hot matches: RSS before / after", f"{before:,.0f} MiB / {after:,.0f} MiB"),
        ("memory per hot match", f"{(after - before) * 1024 / hot:,.1f} KiB"),
        ("creating them", f"{seconds:.1f} s ({hot / seconds:,.0f} matches/s)"),
        (
            f"cold load of a {version:,}-event match (snapshot + {tail}-event tail), median of {loads}",
            f"{median:.1f} ms",
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--hot", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--tail", type=int, default=150)
    parser.add_argument("--loads", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = database(args.backend, Path(tmp), "capacity")
        try:
            rows = asyncio.run(bench(url, args.hot, args.events, args.tail, args.loads))
        finally:
            drop(url)
    table = Table("measure", "figure", title=f"capacity ({args.backend})")
    for row in rows:
        table.add_row(*row)
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
