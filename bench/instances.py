"""Scale-out benchmark: the same bot load on one duelhall instance and on two sharing one PostgreSQL.

    python bench/instances.py [--matches 64] [--seconds 10] [--repeat 3]

Three layouts, each on a new database, alternating run by run:
- ``1 instance``: every call to one ``duelhall serve``;
- ``2 instances, seats split``: each match created on one instance (alternating), seat 0's calls sent to the
  instance that created it and seat 1's to the other, so every turn changes instance;
- ``2 instances, owner``: each match's calls all sent to the instance that created it, its owner (what a client
  that follows an owner-address redirect does once it has reconnected).

Each run prints commands/s, p99 submit latency, the servers' CPU per command summed over the instances, and
conflicts per command (``duelhall_conflicts_total``, scraped from each instance's metrics listener, both causes).
The table shows each layout's median run, and each one's commands/s and CPU per command as a share of the
single instance's (compare ratios measured side by side; absolute figures drift with the machine's load).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import socket
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import NamedTuple

import grpc
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.service import CONCEDE, cpu_seconds, database, drop, start
from engine.registry import REFERENCE
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc

ONE = "1 instance"
SPLIT = "2 instances, seats split"
OWNER = "2 instances, owner"
LAYOUTS = (ONE, SPLIT, OWNER)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def conflicts(metrics: str) -> float:
    """The sum of ``duelhall_conflicts_total`` on one instance's metrics listener."""
    with urllib.request.urlopen(f"http://{metrics}/metrics", timeout=10) as reply:
        text = reply.read().decode()
    return sum(
        float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith("duelhall_conflicts_total{")
    )


async def bot_match(
    stubs: list[pb_grpc.MatchServiceStub],
    layout: str,
    index: int,
    rng: random.Random,
    latencies: list[float],
    deadline: float,
) -> None:
    """Plays matches one after another until the deadline; which instance each seat calls follows ``layout``."""
    for number in itertools.count():
        if time.perf_counter() >= deadline:
            return
        home = (index + number) % len(stubs)
        created = await stubs[home].CreateMatch(
            pb.CreateMatchRequest(ruleset=REFERENCE, seats=[pb.SeatSpec(name="a"), pb.SeatSpec(name="b")])
        )
        match_id = created.match.match_id
        tokens = {t.seat: t.token for t in created.tokens}
        seat_stub = {seat: stubs[(home + seat) % len(stubs)] if layout == SPLIT else stubs[home] for seat in (0, 1)}
        reply_version = created.match.version
        to_act = list((await stubs[home].GetView(pb.GetViewRequest(match_id=match_id))).to_act)
        count = 0
        while to_act and time.perf_counter() < deadline:
            seat = to_act[0]
            stub = seat_stub[seat]
            # At the version last seen: the other instance may not have folded it yet (read your writes).
            legal = await stub.ListLegalCommands(
                pb.ListLegalCommandsRequest(match_id=match_id, token=tokens[seat], min_version=reply_version)
            )
            options = [c for c in legal.commands_json if CONCEDE not in c]
            started = time.perf_counter()
            reply = await stub.SubmitCommand(
                pb.SubmitCommandRequest(
                    match_id=match_id, token=tokens[seat], command_json=rng.choice(options), command_id=f"c{count}"
                )
            )
            latencies.append(time.perf_counter() - started)
            to_act, reply_version = list(reply.to_act), reply.version
            count += 1


class Run(NamedTuple):
    rate: float
    p99: float
    count: int
    cpu: float
    """Server CPU per command, summed over the instances, in us."""
    conflicts: float
    """Conflicts per command."""


async def load(addresses: list[str], layout: str, matches: int, seconds: float) -> tuple[float, float, int]:
    latencies: list[float] = []
    channels = [grpc.aio.insecure_channel(address) for address in addresses]
    try:
        stubs = [pb_grpc.MatchServiceStub(channel) for channel in channels]
        await bot_match(stubs, layout, 0, random.Random(0), [], time.perf_counter() + 0.5)
        started = time.perf_counter()
        deadline = started + seconds
        await asyncio.gather(
            *(bot_match(stubs, layout, i, random.Random(i), latencies, deadline) for i in range(matches))
        )
        elapsed = time.perf_counter() - started
    finally:
        for channel in channels:
            await channel.close()
    return len(latencies) / elapsed, statistics.quantiles(latencies, n=100)[98] * 1000, len(latencies)


_runs = itertools.count()


def run(layout: str, matches: int, seconds: float, workdir: Path) -> Run:
    url = database("postgres", workdir, f"instances{next(_runs)}")
    duelhall = str(Path(sys.executable).parent / "duelhall")
    servers = []
    try:
        for _ in range(1 if layout == ONE else 2):
            metrics = f"127.0.0.1:{free_port()}"
            command = [duelhall, "serve", "--database-url", url, "--listen", "127.0.0.1:0", "--http", "off"]
            proc, address = start([*command, "--metrics", metrics])
            servers.append((proc, address, metrics))
        before = [cpu_seconds(proc.pid) for proc, _, _ in servers]
        conflicts_before = [conflicts(metrics) for _, _, metrics in servers]
        rate, p99, count = asyncio.run(load([address for _, address, _ in servers], layout, matches, seconds))
        cpu = sum(cpu_seconds(proc.pid) - b for (proc, _, _), b in zip(servers, before, strict=True))
        conflicted = sum(conflicts(m) - b for (_, _, m), b in zip(servers, conflicts_before, strict=True))
        return Run(rate, p99, count, cpu / count * 1e6, conflicted / count)
    finally:
        for proc, _, _ in servers:
            proc.terminate()
            proc.wait(10)
        drop(url)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each layout; the median is shown")
    args = parser.parse_args()
    runs: dict[str, list[Run]] = {layout: [] for layout in LAYOUTS}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeat):
            for layout in LAYOUTS:
                runs[layout].append(run(layout, args.matches, args.seconds, Path(tmp)))
    table = Table(
        "layout",
        "commands",
        "commands/s",
        "runs",
        "p99 ms",
        "server CPU us/command (summed)",
        "conflicts/command",
        "commands/s of 1",
        "CPU/command of 1",
    )
    medians = {layout: sorted(runs[layout])[len(runs[layout]) // 2] for layout in LAYOUTS}
    one = medians[ONE]
    for layout in LAYOUTS:
        rate, p99, count, cpu, conflicted = medians[layout]
        spread = " ".join(f"{r.rate:,.0f}" for r in runs[layout])
        table.add_row(
            layout,
            f"{count:,}",
            f"{rate:,.0f}",
            spread,
            f"{p99:.1f}",
            f"{cpu:,.0f}",
            f"{conflicted:.2%}",
            f"{rate / one.rate:.2f}x",
            f"{cpu / one.cpu:.2f}x",
        )
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
