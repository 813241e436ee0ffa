"""Service benchmark: 64 concurrent bot matches through a real server, from this (separate) client process.

For each backend it runs the real server (`duelhall serve`) and the bare server (bench/bare_server.py: same proto,
trivial validation, same store append) as subprocesses, drives both with the same loop (ListLegalCommands, then
SubmitCommand of a random legal command; a new match when one ends) and prints commands/s and submit latency.

    python bench/service.py [--matches 64] [--seconds 10] [--repeat 3] [--backend sqlite|postgres|both]

Runs alternate bare and real servers and the table shows the median run of each (compare
ratios measured side by side; absolute figures drift with the machine's load).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc
import psycopg
from rich.console import Console
from rich.table import Table

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc

ROOT = Path(__file__).resolve().parent.parent
CONCEDE = '"type":"concede"'
POSTGRES = os.environ.get("DUELHALL_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def start(command: list[str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "listening on" not in line:
        proc.kill()
        raise RuntimeError(f"{command[0]} did not start: {line!r}")
    return proc, line.strip().rsplit(" ", 1)[-1]


async def bot_match(stub: pb_grpc.MatchServiceStub, rng: random.Random, latencies: list[float],
                    deadline: float) -> None:
    """Plays matches one after another until the deadline, recording each submit's latency."""
    while time.perf_counter() < deadline:
        created = await stub.CreateMatch(pb.CreateMatchRequest(
            ruleset="card_monsters", seats=[pb.SeatSpec(name="a"), pb.SeatSpec(name="b")]))
        match_id = created.match.match_id
        tokens = {t.seat: t.token for t in created.tokens}
        to_act = list((await stub.GetView(pb.GetViewRequest(match_id=match_id))).to_act)
        count = 0
        while to_act and time.perf_counter() < deadline:
            seat = to_act[0]
            legal = await stub.ListLegalCommands(pb.ListLegalCommandsRequest(match_id=match_id, token=tokens[seat]))
            # A substring test, not a JSON decode: the client stays cheap, so the server is what is measured.
            options = [c for c in legal.commands_json if CONCEDE not in c]
            started = time.perf_counter()
            reply = await stub.SubmitCommand(pb.SubmitCommandRequest(
                match_id=match_id, token=tokens[seat], command_json=rng.choice(options), command_id=f"c{count}"))
            latencies.append(time.perf_counter() - started)
            to_act = list(reply.to_act)
            count += 1


async def load(address: str, matches: int, seconds: float) -> tuple[float, float, float, int]:
    """(commands/s, p50 ms, p99 ms, commands) for ``matches`` concurrent bot matches."""
    latencies: list[float] = []
    async with grpc.aio.insecure_channel(address) as channel:
        stub = pb_grpc.MatchServiceStub(channel)
        await bot_match(stub, random.Random(0), [], time.perf_counter() + 0.5)
        started = time.perf_counter()
        deadline = started + seconds
        await asyncio.gather(*(bot_match(stub, random.Random(i), latencies, deadline) for i in range(matches)))
        elapsed = time.perf_counter() - started
    cuts = statistics.quantiles(latencies, n=100)
    return len(latencies) / elapsed, cuts[49] * 1000, cuts[98] * 1000, len(latencies)


def database(backend: str, workdir: Path, label: str) -> str:
    if backend == "sqlite":
        return f"sqlite:///{workdir / label}.db"
    name = f"duelhall_bench_{label}_{os.getpid()}"
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    return POSTGRES.rsplit("/", 1)[0] + "/" + name


def drop(url: str) -> None:
    if url.startswith("postgresql"):
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')


def run(backend: str, kind: str, matches: int, seconds: float, workdir: Path) -> tuple[float, float, float, int]:
    url = database(backend, workdir, kind)
    duelhall = str(Path(sys.executable).parent / "duelhall")
    command = ([duelhall, "serve", "--database-url", url, "--listen", "127.0.0.1:0"] if kind == "duelhall"
               else [sys.executable, str(ROOT / "bench" / "bare_server.py"), "--database-url", url])
    proc, address = start(command)
    try:
        return asyncio.run(load(address, matches, seconds))
    finally:
        proc.terminate()
        proc.wait(10)
        drop(url)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each server; the median is shown")
    args = parser.parse_args()
    backends = ("sqlite", "postgres") if args.backend == "both" else (args.backend,)
    table = Table("backend", "server", "commands", "commands/s", "p50 ms", "p99 ms", "of ceiling")
    with tempfile.TemporaryDirectory() as tmp:
        for backend in backends:
            runs: dict[str, list[tuple[float, float, float, int]]] = {"bare": [], "duelhall": []}
            for _ in range(args.repeat):
                for kind in runs:
                    runs[kind].append(run(backend, kind, args.matches, args.seconds, Path(tmp)))
            ceiling, real = (sorted(runs[kind])[len(runs[kind]) // 2] for kind in ("bare", "duelhall"))
            for kind, (rate, p50, p99, count) in (("bare (ceiling)", ceiling), ("duelhall", real)):
                table.add_row(backend, kind, f"{count:,}", f"{rate:,.0f}", f"{p50:.1f}", f"{p99:.1f}",
                              f"{rate / ceiling[0]:.0%}")
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
