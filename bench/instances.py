"""Scale-out benchmark: the same bot load on one duelhall instance and on two sharing one PostgreSQL.

    python bench/instances.py [--matches 64] [--seconds 10] [--repeat 3] [--rate COMMANDS_PER_SECOND]

Four layouts, each on a new database, alternating run by run:
- ``1 instance``: every call to one ``duelhall serve``;
- ``2 instances, seats split``: each match created on one instance (alternating), seat 0's calls sent to the
  instance that created it and seat 1's to the other, so every turn changes instance;
- ``2 instances, seats split, redirect``: the seats' clients start as in the split layout but ask to be sent to
  the match's owner (``duelhall-redirect: owner``): the one that starts on the other instance is refused
  ``NOT_OWNER`` once and calls the owner at the address the refusal names from then on;
- ``2 instances, owner``: each match's calls all sent to the instance that created it, its owner (where a client
  that follows the redirect ends up, without the refusal);
- ``2 instances, two databases``: as ``owner``, but each instance on a database of its own, so that they share
  nothing (no notifications, leases, followers or projections of the other's commits): two separate services,
  not a deployment, shown for what sharing one database costs beside what a second process costs;
- ``rules only, 1 instance`` and ``rules only, 2 instances``: the same, on the rules-only server of
  ``bench/service.py`` (``bench/bare_server.py --engine``: the rules and the store append, nothing else), each
  match on the instance that created it. What a second process costs a server that has nothing to share: the
  floor under every two-instance layout of duelhall.

Each run prints commands/s, p99 submit latency, the servers' CPU per command summed over the instances, and
conflicts per command (``duelhall_conflicts_total``, scraped from each instance's metrics listener, both causes).
The table shows each layout's median run (by commands/s, or with ``--rate`` by CPU per command), and each one's
commands/s and CPU per command as a share of the same server's single instance (compare ratios measured side by
side; absolute figures drift with the machine's load).

With ``--rate`` every layout is offered the same load, below what each serves flat out, on a fixed schedule
(as in ``bench/service.py``). Flat out, one instance takes more calls per wake-up of its event loop than each of
two sharing the load, and so spends less CPU per command whatever the layout's own work; at an equal offered
load the CPU per command compares the work alone.
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

from bench.service import CONCEDE, ROOT, Pace, cpu_seconds, database, drop, start
from engine.registry import REFERENCE
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.edge.routing import ADDRESS_KEY, NOT_OWNER, REDIRECT_KEY
from services.edge.routing import OWNER as OWNER_VALUE

ONE = "1 instance"
SPLIT = "2 instances, seats split"
REDIRECT = "2 instances, seats split, redirect"
OWNER = "2 instances, owner"
APART = "2 instances, two databases"
RULES_ONE = "rules only, 1 instance"
RULES_TWO = "rules only, 2 instances"
LAYOUTS = (ONE, SPLIT, REDIRECT, OWNER, APART, RULES_ONE, RULES_TWO)
SINGLE = {layout: RULES_ONE if layout.startswith("rules") else ONE for layout in LAYOUTS}
"""Each layout's single instance of the same server: what its ratios are to."""
ASKING = ((REDIRECT_KEY, OWNER_VALUE),)
"""The metadata of a client that asks to be sent to a match's owner."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def conflicts(metrics: str) -> float:
    """The sum of ``duelhall_conflicts_total`` on one instance's metrics listener (none: 0)."""
    if not metrics:
        return 0.0
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
    interval: float = 0.0,
) -> int:
    """Plays matches one after another until the deadline; which instance each seat calls follows ``layout``
    (``stubs`` by address); with an ``interval``, one command per interval (``Pace``). The redirects followed."""
    addresses, redirects = list(stubs), 0
    pace = Pace(rng, interval)
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
            await pace.next()
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


async def load(
    addresses: list[str], layout: str, matches: int, seconds: float, rate: float
) -> tuple[float, float, int, int]:
    """(commands/s, p99 ms, commands, redirects) for ``matches`` concurrent bot matches, as fast as the servers
    answer, or at ``rate`` commands/s in all."""
    interval = matches / rate if rate else 0.0
    latencies: list[float] = []
    channels = {address: grpc.aio.insecure_channel(address) for address in addresses}
    try:
        stubs = {address: pb_grpc.MatchServiceStub(channel) for address, channel in channels.items()}  # type: ignore[no-untyped-call]
        await bot_match(stubs, layout, 0, random.Random(0), [], time.perf_counter() + 0.5)
        started = time.perf_counter()
        deadline = started + seconds
        redirects = await asyncio.gather(
            *(bot_match(stubs, layout, i, random.Random(i), latencies, deadline, interval) for i in range(matches))
        )
        elapsed = time.perf_counter() - started
    finally:
        for channel in channels.values():
            await channel.close()
    p99 = statistics.quantiles(latencies, n=100)[98] * 1000
    return len(latencies) / elapsed, p99, len(latencies), sum(redirects)


_runs = itertools.count()
DUELHALL = Path(sys.executable).parent / "duelhall"
RULES = ROOT / "bench" / "bare_server.py"


def run(layout: str, matches: int, seconds: float, workdir: Path, offered: float = 0.0) -> Run:
    """One layout's run, flat out or at ``offered`` commands/s."""
    instances = 1 if layout in (ONE, RULES_ONE) else 2
    databases = instances if layout == APART else 1
    urls = [database("postgres", workdir, f"instances{next(_runs)}") for _ in range(databases)]
    servers = []
    try:
        for url in itertools.islice(itertools.cycle(urls), instances):
            if SINGLE[layout] == RULES_ONE:  # no metrics listener, and nothing to conflict over
                servers.append((*start([sys.executable, str(RULES), "--engine", "--database-url", url]), ""))
                continue
            metrics = f"127.0.0.1:{free_port()}"
            command = [str(DUELHALL), "serve", "--database-url", url, "--http", "off", "--listen", "127.0.0.1:0"]
            proc, address = start([*command, "--metrics", metrics])
            servers.append((proc, address, metrics))
        before = [cpu_seconds(proc.pid) for proc, _, _ in servers]
        conflicts_before = [conflicts(metrics) for _, _, metrics in servers]
        rate, p99, count, redirects = asyncio.run(
            load([address for _, address, _ in servers], layout, matches, seconds, offered)
        )
        cpu = sum(cpu_seconds(proc.pid) - b for (proc, _, _), b in zip(servers, before, strict=True))
        conflicted = sum(conflicts(m) - b for (_, _, m), b in zip(servers, conflicts_before, strict=True))
        return Run(rate, p99, count, cpu / count * 1e6, conflicted / count, redirects)
    finally:
        for proc, _, _ in servers:
            proc.terminate()
            proc.wait(10)
        for url in urls:
            drop(url)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each layout; the median is shown")
    parser.add_argument(
        "--rate", type=float, default=0.0, help="commands/s offered in all, on a fixed schedule (default: flat out)"
    )
    args = parser.parse_args()
    runs: dict[str, list[Run]] = {layout: [] for layout in LAYOUTS}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeat):
            for layout in LAYOUTS:
                runs[layout].append(run(layout, args.matches, args.seconds, Path(tmp), args.rate))
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
    # Paced, every run's commands/s is the rate offered: the median run is the one of median CPU.
    key = (lambda r: r.cpu) if args.rate else (lambda r: r.rate)
    medians = {layout: sorted(runs[layout], key=key)[len(runs[layout]) // 2] for layout in LAYOUTS}
    for layout in LAYOUTS:
        one = medians[SINGLE[layout]]
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
