"""Event store benchmark: appends/s and stream loads on SQLite and PostgreSQL, beside the `eventsourcing` peer.

    .venv/bin/python bench/store.py [--backends sqlite postgresql] [--commands 2000] [--peer-commands 1000] [--runs 3]

Each append is one command of two events (~120 bytes of JSON each) to the writer's own stream, through the
async store the service uses; 16 writers are 16 asyncio tasks (the peer: 16 threads, one aggregate each).
Loading is read_stream of a 1,000-event stream plus msgspec decoding and a fold of every event (the peer:
``repository.get`` of a 1,000-event aggregate). Every figure comes from a throwaway database (a temporary
SQLite file; a database created and dropped on the PostgreSQL server at --postgres-url).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import msgspec
import psycopg
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate
from eventsourcing.domain import event as peer_event
from rich.console import Console
from rich.table import Table
from sqlalchemy.engine import make_url

from eventstore import CommandRecord, NewEvent, append_request, migrate, open_store
from eventstore.postgres import AsyncPostgresStore
from eventstore.sqlite_async import AsyncSqliteStore

DEFAULT_POSTGRES = os.environ.get("DUELHALL_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


class Played(msgspec.Struct, tag=True):
    """A stand-in event of realistic size."""

    seat: int
    card: str
    target: int
    note: str


def event(n: int) -> NewEvent:
    data = Played(n % 2, f"card-{n % 40:03d}", n % 3, "attack from the left lane with crystals spent")
    return NewEvent("Played", msgspec.json.encode(data))


TWO = [event(0), event(1)]
DECODE = msgspec.json.Decoder(Played)


# -- duelhall -----------------------------------------------------------------------------------------


async def appends_per_second(
    url: str, writers: int, group_commit: bool, commands: int, **options: Any
) -> tuple[float, float]:
    """Appends/s of 2-event commands by ``writers`` concurrent tasks, and commands per commit."""
    commits = 0

    def committed(appends: int) -> None:
        nonlocal commits
        commits += 1

    store = await open_store(url, group_commit=group_commit, on_commit=committed, **options)
    tag = secrets.token_hex(3)
    per_writer = commands // writers

    async def write(writer: int) -> None:
        stream_id = f"{tag}-{writer}"
        for n in range(per_writer):
            await store.append(stream_id, 2 * n, TWO, CommandRecord(f"{stream_id}-{n}", "0", "Play", b"{}"))

    try:
        before = commits
        started = time.perf_counter()
        await asyncio.gather(*(write(w) for w in range(writers)))
        elapsed = time.perf_counter() - started
        return per_writer * writers / elapsed, per_writer * writers / max(1, commits - before)
    finally:
        await store.close()


async def load_ms(url: str, repeat: int, **options: Any) -> float:
    """Median ms to read a 1,000-event stream and decode and fold every event."""
    store = await open_store(url, **options)
    assert isinstance(store, AsyncSqliteStore | AsyncPostgresStore)  # append_batch: the concrete stores' own
    try:
        await fill(store, "load", 1000)
        timings = []
        for _ in range(repeat):
            started = time.perf_counter()
            total = 0
            for recorded in await store.read_stream("load"):
                total += DECODE.decode(recorded.data).target
            timings.append(time.perf_counter() - started)
        return statistics.median(timings) * 1000
    finally:
        await store.close()


async def fill(store: AsyncSqliteStore | AsyncPostgresStore, stream_id: str, count: int) -> None:
    requests = [
        append_request(stream_id, v, [event(v), event(v + 1)], CommandRecord(f"fill-{v}", "0", "Play", b"{}"))
        for v in range(0, count, 2)
    ]
    for start in range(0, len(requests), 100):
        await store.append_batch(requests[start : start + 100])


# -- the peer -----------------------------------------------------------------------------------------


class PeerMatch(Aggregate):
    """The same workload as an eventsourcing aggregate."""

    @peer_event("Created")
    def __init__(self) -> None:
        self.total = 0

    @peer_event("Played")
    def play(self, seat: int, card: str, target: int, note: str) -> None:
        self.total += target


def peer_saves_per_second(env: dict[str, str], writers: int, commands: int) -> float:
    """Saves/s of 2 new events each by ``writers`` threads, one aggregate each."""
    app: Application[Any] = Application(env=env)
    aggregates = [PeerMatch() for _ in range(writers)]
    app.save(*aggregates)
    per_writer = commands // writers

    def write(aggregate: Any) -> None:
        for n in range(per_writer):
            aggregate.play(n % 2, "card-001", n % 3, "attack from the left lane with crystals spent")
            aggregate.play(n % 2, "card-002", n % 3, "attack from the left lane with crystals spent")
            app.save(aggregate)

    started = time.perf_counter()
    with ThreadPoolExecutor(writers) as pool:
        list(pool.map(write, aggregates))
    elapsed = time.perf_counter() - started
    app.close()
    return per_writer * writers / elapsed


def peer_load_ms(env: dict[str, str], repeat: int) -> float:
    """Median ms for ``repository.get`` of a 1,000-event aggregate."""
    app: Application[Any] = Application(env=env)
    aggregate = PeerMatch()
    for n in range(999):
        aggregate.play(n % 2, "card-001", n % 3, "attack from the left lane with crystals spent")
    app.save(aggregate)
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        app.repository.get(aggregate.id)
        timings.append(time.perf_counter() - started)
    app.close()
    return statistics.median(timings) * 1000


# -- databases ----------------------------------------------------------------------------------------


@contextlib.contextmanager
def throwaway(backend: str, postgres_url: str) -> Iterator[tuple[str, dict[str, str]]]:
    """A migrated duelhall database and an empty one for the peer: their URL and the peer's settings."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{Path(folder) / 'duelhall.db'}"
            migrate(url)
            yield url, {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(Path(folder) / "peer.db")}
        return
    ours, theirs = f"bench_duelhall_{secrets.token_hex(4)}", f"bench_peer_{secrets.token_hex(4)}"
    server = make_url(postgres_url)
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        for name in (ours, theirs):
            admin.execute(f'CREATE DATABASE "{name}"')
        try:
            url = server.set(database=ours).render_as_string(hide_password=False)
            migrate(url)
            yield (
                url,
                {
                    "PERSISTENCE_MODULE": "eventsourcing.postgres",
                    "POSTGRES_DBNAME": theirs,
                    "POSTGRES_HOST": server.host or "127.0.0.1",
                    "POSTGRES_PORT": str(server.port or 5432),
                    "POSTGRES_USER": server.username or "postgres",
                    "POSTGRES_PASSWORD": server.password or "",
                    "POSTGRES_POOL_SIZE": "20",
                },
            )
        finally:
            for name in (ours, theirs):
                admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


# -- the run ------------------------------------------------------------------------------------------

Row = tuple[str, str, str, str, str]
SQLITE_SETTINGS = ("NORMAL", "FULL")


def bench_backend(backend: str, args: argparse.Namespace, progress: Callable[[str], None]) -> list[Row]:
    """Every row of one backend: appends per configuration, then loads; the peer beside each."""
    rows: list[Row] = []
    with throwaway(backend, args.postgres_url) as (url, peer_env):
        peer = {}
        for writers in (1, 16):
            progress(f"{backend}: eventsourcing, {writers} writer(s)")
            peer[writers] = median(args.runs, partial(peer_saves_per_second, peer_env, writers, args.peer_commands))
        options: list[dict[str, Any]] = [{}]
        if backend == "sqlite":
            options = [{"sqlite_synchronous": level} for level in SQLITE_SETTINGS]
        for option in options:
            label = " ".join([backend, *option.values()])
            for writers in (1, 16):
                for group_commit in (False, True):
                    progress(f"{label}: {writers} writer(s), group commit {group_commit}")
                    measure = partial(run_appends, url, writers, group_commit, args.commands, option)
                    rate, per_commit = median_pair(args.runs, measure)
                    mode = "group commit" if group_commit else "one commit each"
                    ours = f"{rate:,.0f} ({per_commit:.1f}/commit)"
                    rows.append(
                        (
                            label,
                            f"appends/s, {writers:>2} writers, {mode}",
                            ours,
                            f"{peer[writers]:,.0f}",
                            f"{rate / peer[writers]:.1f}x",
                        )
                    )
        progress(f"{backend}: loading 1,000 events")
        ours_ms = asyncio.run(load_ms(url, args.repeat))
        theirs_ms = peer_load_ms(peer_env, args.repeat)
        rows.append(
            (
                backend,
                "ms to load + decode 1,000 events",
                f"{ours_ms:.2f}",
                f"{theirs_ms:.2f}",
                f"{theirs_ms / ours_ms:.1f}x",
            )
        )
    return rows


def run_appends(
    url: str, writers: int, group_commit: bool, commands: int, option: dict[str, Any]
) -> tuple[float, float]:
    return asyncio.run(appends_per_second(url, writers, group_commit, commands, **option))


def median(runs: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(runs))


def median_pair(runs: int, measure: Callable[[], tuple[float, float]]) -> tuple[float, float]:
    """The run with the median first figure."""
    results = sorted(measure() for _ in range(runs))
    return results[len(results) // 2]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgresql"], choices=["sqlite", "postgresql"])
    parser.add_argument("--commands", type=int, default=2000, help="appends per duelhall configuration and run")
    parser.add_argument("--peer-commands", type=int, default=1000, help="saves per eventsourcing configuration and run")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (the median is shown)")
    parser.add_argument("--repeat", type=int, default=20, help="timed loads of the 1,000-event stream")
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES, help="server where throwaway databases go")
    args = parser.parse_args(argv)
    err = Console(stderr=True)
    rows = [row for backend in args.backends for row in bench_backend(backend, args, lambda text: err.log(text))]
    table = Table(title="duelhall event store vs eventsourcing (same machine, same run)")
    for column in ("backend", "workload", "duelhall", "eventsourcing", "ratio"):
        table.add_column(column, justify="right" if column in ("duelhall", "eventsourcing", "ratio") else "left")
    for row in rows:
        table.add_row(*row)
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
