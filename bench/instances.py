"""Scale-out benchmark: the same bot load on one duelhall instance and on two sharing one PostgreSQL.

    python bench/instances.py [--matches 64] [--seconds 10] [--repeat 3]

Four layouts, each on a new database, alternating run by run:
- ``1 instance``: every call to one ``duelhall serve``;
- ``2 instances, seats split``: each match created on one instance (alternating), seat 0's calls sent to the
  instance that created it and seat 1's to the other, so every turn changes instance;
- ``2 instances, seats split, redirect``: the seats' clients start as in the split layout but ask to be sent to
  the match's owner (``duelhall-redirect: owner``): the one that starts on the other instance is refused
  ``NOT_OWNER`` once and calls the owner at the address the refusal names from then on;
- ``2 instances, owner``: each match's calls all sent to the instance that created it, its owner (where a client
  that follows the redirect ends up, without the refusal).

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
from google.rpc import error_details_pb2, status_pb2
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.service import CONCEDE, cpu_seconds, database, drop, start
from engine.registry import REFERENCE
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.edge.routing import ADDRESS_KEY, NOT_OWNER, REDIRECT_KEY
from services.edge.routing import OWNER as OWNER_VALUE

ONE = "1 instance"
SPLIT = "2 instances, seats split"
REDIRECT = "2 instances, seats split, redirect"
OWNER = "2 instances, owner"
LAYOUTS = (ONE, SPLIT, REDIRECT, OWNER)
ASKING = ((REDIRECT_KEY, OWNER_VALUE),)
"""The metadata of a client that asks to be sent to a match's owner."""


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
    stubs: dict[str, pb_grpc.MatchServiceStub],
    layout: str,
    index: int,
    rng: random.Random,
    latencies: list[float],
    deadline: float,
) -> int:
    """Plays matches one after another until the deadline; which instance each seat calls follows ``layout``
    (``stubs`` by address). The redirects followed."""
    addresses, redirects = list(stubs), 0
    metadata = ASKING if layout == REDIRECT else None
    for number in itertools.count():
        if time.perf_counter() >= deadline:
            return redirects
        home = (index + number) % len(addresses)
        created = await stubs[addresses[home]].CreateMatch(
            pb.CreateMatchRequest(ruleset=REFERENCE, seats=[pb.SeatSpec(name="a"), pb.SeatSpec(name="b")])
        )
        match_id = created.match.match_id
        tokens = {t.seat: t.token for t in created.tokens}
        split = layout in (SPLIT, REDIRECT)
        seat_stub = {seat: addresses[(home + seat) % len(addresses)] if split else addresses[home] for seat in (0, 1)}
        reply_version = created.match.version
        to_act = list((await stubs[addresses[home]].GetView(pb.GetViewRequest(match_id=match_id))).to_act)
        count = 0
        while to_act and time.perf_counter() < deadline:
            seat = to_act[0]
            stub = stubs[seat_stub[seat]]
            # At the version last seen: the other instance may not have folded it yet (read your writes).
            try:
                legal = await stub.ListLegalCommands(
                    pb.ListLegalCommandsRequest(match_id=match_id, token=tokens[seat], min_version=reply_version),
                    metadata=metadata,
                )
            except grpc.aio.AioRpcError as error:
                owner = owner_address(error)
                if owner is None:
                    raise
                seat_stub[seat] = owner  # this seat calls the owner from now on
                redirects += 1
                continue
            options = [c for c in legal.commands_json if CONCEDE not in c]
            started = time.perf_counter()
            reply = await stub.SubmitCommand(
                pb.SubmitCommandRequest(
                    match_id=match_id, token=tokens[seat], command_json=rng.choice(options), command_id=f"c{count}"
                ),
                metadata=metadata,
            )
            latencies.append(time.perf_counter() - started)
            to_act, reply_version = list(reply.to_act), reply.version
            count += 1
    return redirects


def owner_address(error: grpc.aio.AioRpcError) -> str | None:
    """The owner's address of a ``NOT_OWNER`` refusal (ErrorInfo in the rich status trailer); None for another."""
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info) and info.reason == NOT_OWNER:
                    return str(info.metadata[ADDRESS_KEY])
    return None


class Run(NamedTuple):
    rate: float
    p99: float
    commands: int
    cpu: float
    """Server CPU per command, summed over the instances, in us."""
    conflicts: float
    """Conflicts per command."""
    redirects: int
    """``NOT_OWNER`` refusals the clients followed."""


async def load(addresses: list[str], layout: str, matches: int, seconds: float) -> tuple[float, float, int, int]:
    latencies: list[float] = []
    channels = {address: grpc.aio.insecure_channel(address) for address in addresses}
    try:
        stubs = {address: pb_grpc.MatchServiceStub(channel) for address, channel in channels.items()}  # type: ignore[no-untyped-call]
        await bot_match(stubs, layout, 0, random.Random(0), [], time.perf_counter() + 0.5)
        started = time.perf_counter()
        deadline = started + seconds
        redirects = await asyncio.gather(
            *(bot_match(stubs, layout, i, random.Random(i), latencies, deadline) for i in range(matches))
        )
        elapsed = time.perf_counter() - started
    finally:
        for channel in channels.values():
            await channel.close()
    p99 = statistics.quantiles(latencies, n=100)[98] * 1000
    return len(latencies) / elapsed, p99, len(latencies), sum(redirects)


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
        rate, p99, count, redirects = asyncio.run(
            load([address for _, address, _ in servers], layout, matches, seconds)
        )
        cpu = sum(cpu_seconds(proc.pid) - b for (proc, _, _), b in zip(servers, before, strict=True))
        conflicted = sum(conflicts(m) - b for (_, _, m), b in zip(servers, conflicts_before, strict=True))
        return Run(rate, p99, count, cpu / count * 1e6, conflicted / count, redirects)
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
        "redirects",
        "commands/s of 1",
        "CPU/command of 1",
    )
    medians = {layout: sorted(runs[layout])[len(runs[layout]) // 2] for layout in LAYOUTS}
    one = medians[ONE]
    for layout in LAYOUTS:
        rate, p99, count, cpu, conflicted, redirects = medians[layout]
        spread = " ".join(f"{r.rate:,.0f}" for r in runs[layout])
        table.add_row(
            layout,
            f"{count:,}",
            f"{rate:,.0f}",
            spread,
            f"{p99:.1f}",
            f"{cpu:,.0f}",
            f"{conflicted:.2%}",
            f"{redirects:,}",
            f"{rate / one.rate:.2f}x",
            f"{cpu / one.cpu:.2f}x",
        )
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
