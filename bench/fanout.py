"""Fan-out benchmark: matches played by bots at a fixed rate while many watchers follow them.

A real server (`duelhall serve`) runs as a subprocess; the bots play from this process, the watchers from
separate processes, by default one per core beyond the server's (on a machine this small the watchers' decoding
shares the CPU with the server it measures, and more runnable processes than cores take the server's turn on a
core: on 2 cores, 4 watcher processes raised every scenario's p99, on both servers, up to 2.7 times that with 1).
It reports, per scenario, the server's CPU time per delivered update (from /proc), how late watchers see each
event (receipt time minus the event's recorded time, same machine clock), and on PostgreSQL the database
transactions per event (pg_stat_database: it stays flat when watchers do not read the store).

    python bench/fanout.py [--backend sqlite|postgres] [--spectators 300,1000] [--matches 50 --watchers 20]
                           [--rate 10] [--seconds 8] [--processes N] [--bare] [--batched] [--split]

Scenarios: one match at ``--rate`` commands/s with each spectator count, then ``--matches`` matches with
``--watchers`` watchers each, every match at ``--rate`` / 10 commands/s. With ``--bare`` each scenario runs
first against the bare server (bench/bare_server.py: trivial commands, each event encoded once and written to
every watcher), the ceiling this machine allows, in the same run. ``--batched``: the watchers use
``WatchMatchBatched`` (the updates ready at each write in one message), on both servers. ``--split``: each
scenario is also played with one watcher per match, and the CPU the other watchers add, per delivery they add,
is the watch path's own cost (the per-delivery figure includes the bots' commands).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import grpc
import psycopg
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.service import CONCEDE, POSTGRES, cpu_seconds, database, drop, start
from engine.registry import REFERENCE
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc

CHANNELS_PER_PROCESS = 8


def transactions(url: str) -> int | None:
    if not url.startswith("postgresql"):
        return None
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        row = admin.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s", (url.rsplit("/", 1)[1],)
        ).fetchone()
    return int(row[0]) if row else 0


def spectate(
    address: str, watches: list[tuple[str, int]], deadline: float, ready: Any, results: Any, batched: bool
) -> None:
    """A watcher process: one WatchMatch per entry, spread over a few channels; reports latencies."""

    async def run() -> tuple[int, list[float]]:
        channels = [grpc.aio.insecure_channel(address) for _ in range(CHANNELS_PER_PROCESS)]
        latencies: list[float] = []
        streams = []
        for index, (match_id, after) in enumerate(watches):
            stub = pb_grpc.MatchServiceStub(channels[index % len(channels)])  # type: ignore[no-untyped-call]
            watch = stub.WatchMatchBatched if batched else stub.WatchMatch
            streams.append(watch(pb.WatchMatchRequest(match_id=match_id, from_version=after)))
        for stream in streams:
            await stream.wait_for_connection()
        ready.put(len(streams))

        async def follow(stream: Any) -> int:
            count = 0
            async for message in stream:
                now = time.time()
                for update in message.updates if batched else [message]:
                    if not update.HasField("event"):
                        continue  # a presence update: a seat connected or left
                    at = datetime.fromisoformat(update.event.recorded_at.replace("Z", "+00:00")).timestamp()
                    latencies.append(now - at)
                    count += 1
                    if update.match_ended:
                        return count
            return count

        try:
            counts = await asyncio.wait_for(asyncio.gather(*(follow(s) for s in streams)), deadline - time.time())
        except TimeoutError:
            counts = [0]
        for channel in channels:
            await channel.close()
        return sum(counts), latencies

    _delivered, latencies = asyncio.run(run())
    results.put((len(latencies), latencies))


async def play(
    stub: pb_grpc.MatchServiceStub, match_id: str, tokens: dict[int, str], rate: float, deadline: float, seed: int
) -> int:
    """Bot commands at ``rate`` per second until the match ends or the deadline passes."""
    rng = random.Random(seed)
    to_act = list((await stub.GetView(pb.GetViewRequest(match_id=match_id))).to_act)
    commands = 0
    next_at = time.perf_counter()
    while to_act and time.perf_counter() < deadline:
        next_at += 1 / rate
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        seat = to_act[0]
        legal = await stub.ListLegalCommands(pb.ListLegalCommandsRequest(match_id=match_id, token=tokens[seat]))
        options = [c for c in legal.commands_json if CONCEDE not in c]
        reply = await stub.SubmitCommand(
            pb.SubmitCommandRequest(
                match_id=match_id, token=tokens[seat], command_json=rng.choice(options), command_id=f"c{commands}"
            )
        )
        to_act = list(reply.to_act)
        commands += 1
    return commands


def scenario(
    address: str,
    pid: int,
    url: str,
    matches: int,
    watchers: int,
    rate: float,
    seconds: float,
    processes: int,
    batched: bool,
) -> dict[str, Any]:
    async def create() -> list[tuple[str, dict[int, str], int]]:
        async with grpc.aio.insecure_channel(address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)  # type: ignore[no-untyped-call]
            made = []
            for _ in range(matches):
                created = await stub.CreateMatch(
                    pb.CreateMatchRequest(
                        ruleset=REFERENCE,
                        seats=[pb.SeatSpec(name="a"), pb.SeatSpec(name="b")],
                        options_json='{"max_turns": 200}',
                    )
                )
                made.append((created.match.match_id, {t.seat: t.token for t in created.tokens}, created.match.version))
            return made

    made = asyncio.run(create())
    watches = [(match_id, version) for match_id, _, version in made for _ in range(watchers)]
    context = multiprocessing.get_context("spawn")
    ready, results = context.Queue(), context.Queue()
    deadline = time.time() + seconds + 30
    share = [watches[i::processes] for i in range(processes)]
    workers = [
        context.Process(target=spectate, args=(address, part, deadline, ready, results, batched))
        for part in share
        if part
    ]
    for worker in workers:
        worker.start()
    for _ in workers:
        ready.get(timeout=120)

    async def drive() -> int:
        async with grpc.aio.insecure_channel(address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)  # type: ignore[no-untyped-call]
            end = time.perf_counter() + seconds
            played = await asyncio.gather(
                *(play(stub, m, tokens, rate, end, i) for i, (m, tokens, _) in enumerate(made))
            )
            # Watchers of a match still running at the deadline stop once it ends: concede it.
            for match_id, tokens, _ in made:
                view = await stub.GetView(pb.GetViewRequest(match_id=match_id))
                if view.to_act:
                    seat = view.to_act[0]
                    await stub.SubmitCommand(
                        pb.SubmitCommandRequest(
                            match_id=match_id, token=tokens[seat], command_json='{"type":"concede"}'
                        )
                    )
            return sum(played)

    cpu_before, xact_before = cpu_seconds(pid), transactions(url)
    commands = asyncio.run(drive())
    received = [results.get(timeout=120) for _ in workers]
    cpu = cpu_seconds(pid) - cpu_before
    time.sleep(1.2)  # PostgreSQL publishes its statistics at most once a second
    xact_after = transactions(url)
    for worker in workers:
        worker.join(30)
    latencies = sorted(x for _, sample in received for x in sample)
    deliveries = len(latencies)
    events = deliveries / max(1, matches * watchers)
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    return {
        "matches": matches,
        "watchers": matches * watchers,
        "commands": commands,
        "events": events,
        "deliveries": deliveries,
        "cpu_us": cpu / max(1, deliveries) * 1e6,
        "cpu": cpu,
        "p50": cuts[49] * 1000,
        "p99": cuts[98] * 1000,
        "xact_per_event": None
        if xact_before is None or xact_after is None or not events
        else (xact_after - xact_before) / (events * matches),
    }


def served(
    command: list[str], args: argparse.Namespace, tmp: Path, label: str, matches: int, watchers: int, rate: float
) -> dict[str, Any]:
    """One scenario against a server started by ``command`` on a database of its own."""
    url = database(args.backend, tmp, f"fanout{matches}x{watchers}{label}")
    proc, address = start([*command, url])
    try:
        return scenario(address, proc.pid, url, matches, watchers, rate, args.seconds, args.processes, args.batched)
    finally:
        proc.terminate()
        proc.wait(10)
        drop(url)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--spectators", default="300,1000", help="spectator counts of the one-match scenario")
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--watchers", type=int, default=20)
    parser.add_argument("--rate", type=float, default=10.0, help="commands/s of the one match")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument(
        "--processes", type=int, default=max(1, (os.cpu_count() or 2) - 1), help="watcher processes (cores - 1)"
    )
    parser.add_argument("--bare", action="store_true", help="run each scenario against the bare server first")
    parser.add_argument("--batched", action="store_true", help="watch with WatchMatchBatched instead of WatchMatch")
    parser.add_argument(
        "--split",
        action="store_true",
        help="also run each scenario with one watcher per match, to show the watch path's own CPU per delivery",
    )
    args = parser.parse_args()
    runs = [(1, int(n), args.rate) for n in args.spectators.split(",") if n]
    if args.matches:
        runs.append((args.matches, args.watchers, args.rate / 10))
    table = Table(
        "server",
        "matches",
        "watchers",
        "commands",
        "events/match",
        "deliveries",
        "server CPU us/delivery",
        "p50 ms",
        "p99 ms",
        "db transactions/event",
        *(["watch path us/delivery"] if args.split else []),
    )
    duelhall = [
        *(str(Path(sys.executable).parent / "duelhall"), "serve", "--listen", "127.0.0.1:0", "--http", "off"),
        "--database-url",
    ]
    bare = [sys.executable, str(Path(__file__).resolve().parent / "bare_server.py"), "--database-url"]
    servers = [("bare (ceiling)", bare), ("duelhall", duelhall)] if args.bare else [("duelhall", duelhall)]
    with tempfile.TemporaryDirectory() as tmp:
        for matches, watchers, rate in runs:
            for name, command in servers:
                row = served(command, args, Path(tmp), f"{len(name)}", matches, watchers, rate)
                split = []
                if args.split:
                    # The same play with one watcher per match: what the rest add is the watch path alone,
                    # without the commands' own CPU that the per-delivery figure above spreads over deliveries.
                    base = served(command, args, Path(tmp), f"{len(name)}", matches, 1, rate)
                    extra = row["deliveries"] - base["deliveries"]
                    split = [f"{(row['cpu'] - base['cpu']) / extra * 1e6:.1f}" if extra > 0 else "-"]
                xact = row["xact_per_event"]
                table.add_row(
                    name,
                    str(row["matches"]),
                    f"{row['watchers']:,}",
                    f"{row['commands']:,}",
                    f"{row['events']:.0f}",
                    f"{row['deliveries']:,}",
                    f"{row['cpu_us']:.1f}",
                    f"{row['p50']:.1f}",
                    f"{row['p99']:.1f}",
                    "-" if xact is None else f"{xact:.2f}",
                    *split,
                )
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
