"""Service benchmark: 64 concurrent bot matches through a real server, from this (separate) client process.

For each backend it runs the real server (`duelhall serve`) and two ceilings (bench/bare_server.py: same proto,
same store append): the bare server, with trivial validation, and the engine server, which runs the rules and
nothing else. It drives each with the same loop (ListLegalCommands, then SubmitCommand of a random legal command;
a new match when one ends) and prints commands/s, submit latency and server CPU per command, and commands/s and
CPU per command against the two ceilings'.

    python bench/service.py [--matches 64] [--seconds 10] [--repeat 3] [--backend sqlite|postgres|both]
                            [--play-stream | --rate COMMANDS_PER_SECOND]

Runs alternate between the servers and the table shows the median run of each (by commands/s, or with
``--rate`` by CPU per command; compare ratios measured side by side; absolute figures drift with the machine's
load). With ``--play-stream`` the
real server is driven both ways instead, alternating: unary calls as above, and one Play stream per seat
(a command out; the seat's updates, result and turn back), and the ratio is to the unary path.

With ``--rate`` every server is offered the same load, below what each serves flat out, on a fixed
schedule: a server's CPU per command then does not depend on how fast it answers (flat out, a faster server
takes more calls per wake-up of its event loop, and so spends less per command).

Each server's CPU per command is shown twice: the whole process, and its main thread, which runs the event
loop. The loop does every call's Python work, so one second divided by its CPU per command bounds the
process's commands/s, whatever its other threads do. Beside them: this load generator's CPU per command, and
how busy the machine's cores were during the run. Where the cores are nearly all busy (server, load generator
and database on one small machine), commands/s follows the CPU all of them spend per command.

On PostgreSQL, when it runs on this machine, the database's own CPU per command too: the user and system time
(/proc/<pid>/stat) of the backends serving the run's database (pg_stat_activity), read as the run ends. Each run
has a database of its own, so that is what the server's statements cost PostgreSQL, its start included (small),
but not the cluster's background processes (WAL writer, checkpointer), which every database shares.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import itertools
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

import grpc
import psycopg
from rich.console import Console
from rich.table import Table

from engine.registry import REFERENCE
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc

ROOT = Path(__file__).resolve().parent.parent
STREAMS = "duelhall (Play streams)"
BARE = "bare (ceiling)"
ENGINE = "engine (ceiling)"
CONCEDE = '"type":"concede"'
POSTGRES = os.environ.get("DUELHALL_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def start(command: list[str]) -> tuple[subprocess.Popen[str], str]:
    """Starts a server and reads its listening line; if it does not start, raises with what it wrote (its
    stderr goes to a file, not a pipe: a pipe nobody reads would fill and block a server that logs)."""
    with tempfile.TemporaryFile("w+") as log:  # the server keeps its own descriptor of it
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if "listening on" not in line:
            proc.kill()
            proc.wait()
            log.seek(0)
            raise RuntimeError(f"{command[0]} did not start: {line!r}\n{log.read()}")
    return proc, line.strip().rsplit(" ", 1)[-1]


class Pace:
    """One command per ``interval`` seconds on a fixed schedule: a late one does not move the later ones. No
    interval: no wait."""

    def __init__(self, rng: random.Random, interval: float) -> None:
        self._interval = interval
        self._slot = time.perf_counter() + rng.random() * interval  # spread, so that the bots do not send in step

    async def next(self) -> None:
        if self._interval:
            self._slot += self._interval
            await asyncio.sleep(self._slot - time.perf_counter())  # behind schedule: at once


async def bot_match(
    stub: pb_grpc.MatchServiceStub,
    rng: random.Random,
    latencies: list[float],
    deadline: float,
    interval: float = 0.0,
) -> None:
    """Plays matches one after another until the deadline, recording each submit's latency; with an
    ``interval``, one command per interval (``Pace``)."""
    pace = Pace(rng, interval)
    while time.perf_counter() < deadline:
        created = await stub.CreateMatch(
            pb.CreateMatchRequest(ruleset=REFERENCE, seats=[pb.SeatSpec(name="a"), pb.SeatSpec(name="b")])
        )
        match_id = created.match.match_id
        tokens = {t.seat: t.token for t in created.tokens}
        to_act = list((await stub.GetView(pb.GetViewRequest(match_id=match_id))).to_act)
        count = 0
        while to_act and time.perf_counter() < deadline:
            await pace.next()
            seat = to_act[0]
            legal = await stub.ListLegalCommands(pb.ListLegalCommandsRequest(match_id=match_id, token=tokens[seat]))
            # A substring test, not a JSON decode: the client stays cheap, so the server is what is measured.
            options = [c for c in legal.commands_json if CONCEDE not in c]
            started = time.perf_counter()
            reply = await stub.SubmitCommand(
                pb.SubmitCommandRequest(
                    match_id=match_id, token=tokens[seat], command_json=rng.choice(options), command_id=f"c{count}"
                )
            )
            latencies.append(time.perf_counter() - started)
            to_act = list(reply.to_act)
            count += 1


async def play_seat(call: Any, seat: int, rng: random.Random, latencies: list[float], deadline: float) -> None:
    """One seat on its Play stream: a random legal command whenever its turn names it first, until the end."""
    sent = 0.0
    count = 0
    while (response := await call.read()) is not grpc.aio.EOF:
        if response.HasField("result") and sent:
            latencies.append(time.perf_counter() - sent)
            sent = 0.0
        turn = response.turn
        if response.HasField("turn") and turn.to_act and turn.to_act[0] == seat:
            if time.perf_counter() >= deadline:
                return
            options = [c for c in turn.commands_json if CONCEDE not in c]
            sent = time.perf_counter()
            await call.write(
                pb.PlayRequest(command=pb.PlayCommand(command_json=rng.choice(options), command_id=f"s{seat}c{count}"))
            )
            count += 1


async def stream_match(
    stub: pb_grpc.MatchServiceStub, rng: random.Random, latencies: list[float], deadline: float
) -> None:
    """Plays matches one after another over two Play streams each, until the deadline."""
    while time.perf_counter() < deadline:
        created = await stub.CreateMatch(
            pb.CreateMatchRequest(ruleset=REFERENCE, seats=[pb.SeatSpec(name="a"), pb.SeatSpec(name="b")])
        )
        calls = [stub.Play(), stub.Play()]
        for token in created.tokens:
            await calls[token.seat].write(
                pb.PlayRequest(
                    start=pb.PlayStart(
                        match_id=created.match.match_id, token=token.token, from_version=created.match.version
                    )
                )
            )
        seats = [
            asyncio.ensure_future(play_seat(call, seat, rng, latencies, deadline)) for seat, call in enumerate(calls)
        ]
        await asyncio.wait(seats, return_when=asyncio.FIRST_COMPLETED)
        for call in calls:
            call.cancel()
        await asyncio.gather(*seats, return_exceptions=True)


async def load(
    address: str, matches: int, seconds: float, streams: bool = False, rate: float = 0.0
) -> tuple[float, float, float, int]:
    """(commands/s, p50 ms, p99 ms, commands) for ``matches`` concurrent bot matches, as fast as the server
    answers, or at ``rate`` commands/s in all."""
    latencies: list[float] = []
    bot = stream_match if streams else functools.partial(bot_match, interval=matches / rate if rate else 0.0)
    async with grpc.aio.insecure_channel(address) as channel:
        stub = pb_grpc.MatchServiceStub(channel)  # type: ignore[no-untyped-call]
        await bot(stub, random.Random(0), [], time.perf_counter() + 0.5)
        started = time.perf_counter()
        deadline = started + seconds
        await asyncio.gather(*(bot(stub, random.Random(i), latencies, deadline) for i in range(matches)))
        elapsed = time.perf_counter() - started
    cuts = statistics.quantiles(latencies, n=100)
    return len(latencies) / elapsed, cuts[49] * 1000, cuts[98] * 1000, len(latencies)


_runs = itertools.count()


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


def cpu_seconds(pid: int, loop: bool = False) -> float:
    """User plus system CPU time of a process, or of its main thread (``loop``), from /proc."""
    stat = f"/proc/{pid}/task/{pid}/stat" if loop else f"/proc/{pid}/stat"
    fields = Path(stat).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_times() -> tuple[int, int]:
    """(idle, total) clock ticks of all the machine's cores so far, from /proc/stat."""
    ticks = [int(field) for field in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return ticks[3] + ticks[4], sum(ticks)  # idle and iowait


def client_seconds() -> float:
    times = os.times()
    return times.user + times.system


class Run(NamedTuple):
    """One server's run; CPU figures in us per command, ``busy`` the machine's busy share of all its cores."""

    rate: float
    p50: float
    p99: float
    commands: int
    cpu: float
    loop: float
    client: float
    busy: float
    database: float | None
    """PostgreSQL's backends' CPU in us per command (None: SQLite, or a database not on this machine)."""


def database_seconds(url: str) -> float | None:
    """CPU seconds the backends connected to ``url``'s database have used so far (None: not readable here)."""
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", (name,)
        ).fetchall()
    try:
        return sum(cpu_seconds(pid) for (pid,) in rows)
    except (FileNotFoundError, PermissionError):
        return None


def run(backend: str, kind: str, matches: int, seconds: float, workdir: Path, offered: float = 0.0) -> Run:
    """One server's run, flat out or at ``offered`` commands/s."""
    url = database(backend, workdir, f"{kind.split()[0]}{next(_runs)}")  # each run on a new database
    duelhall = str(Path(sys.executable).parent / "duelhall")
    bare = [sys.executable, str(ROOT / "bench" / "bare_server.py"), "--database-url", url]
    command = {
        BARE: bare,
        ENGINE: [*bare, "--engine"],
    }.get(kind, [duelhall, "serve", "--database-url", url, "--listen", "127.0.0.1:0", "--http", "off"])
    proc, address = start(command)
    try:
        before, loop_before = cpu_seconds(proc.pid), cpu_seconds(proc.pid, loop=True)
        client_before, (idle_before, total_before) = client_seconds(), machine_times()
        rate, p50, p99, count = asyncio.run(load(address, matches, seconds, kind == STREAMS, offered))
        cpu, loop = cpu_seconds(proc.pid) - before, cpu_seconds(proc.pid, loop=True) - loop_before
        client, (idle, total) = client_seconds() - client_before, machine_times()
        busy = 1 - (idle - idle_before) / (total - total_before)
        database_cpu = database_seconds(url) if backend == "postgres" else None
        per_command = None if database_cpu is None else database_cpu / count * 1e6
        return Run(
            rate, p50, p99, count, cpu / count * 1e6, loop / count * 1e6, client / count * 1e6, busy, per_command
        )
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
    parser.add_argument("--play-stream", action="store_true", help="compare Play streams with the unary path")
    parser.add_argument(
        "--rate", type=float, default=0.0, help="commands/s offered in all, on a fixed schedule (default: flat out)"
    )
    args = parser.parse_args()
    if args.rate and args.play_stream:
        parser.error("--rate paces the unary path only")
    backends = ("sqlite", "postgres") if args.backend == "both" else (args.backend,)
    kinds = ("duelhall", STREAMS) if args.play_stream else (BARE, ENGINE, "duelhall")
    ceilings = ("unary",) if args.play_stream else ("bare", "engine")
    table = Table(
        "backend",
        "server",
        "commands",
        "commands/s",
        "runs",
        "p50 ms",
        "p99 ms",
        "server CPU us/command",
        "event loop us/command",
        "client CPU us/command",
        "database CPU us/command",
        "machine busy",
        *(f"commands/s of {ceiling}" for ceiling in ceilings),
        *(f"CPU of {ceiling}" for ceiling in ceilings),
    )
    with tempfile.TemporaryDirectory() as tmp:
        for backend in backends:
            runs: dict[str, list[Run]] = {kind: [] for kind in kinds}
            for _ in range(args.repeat):
                for kind in kinds:
                    runs[kind].append(run(backend, kind, args.matches, args.seconds, Path(tmp), args.rate))
            # Paced, every run's commands/s is the rate offered: the median run is the one of median CPU.
            key = (lambda r: r.cpu) if args.rate else (lambda r: r.rate)
            medians = [sorted(runs[kind], key=key)[len(runs[kind]) // 2] for kind in kinds]
            for kind, (rate, p50, p99, count, cpu, loop, client, busy, database_cpu) in zip(
                kinds, medians, strict=True
            ):
                # commands/s as a share of each ceiling's, and server CPU per command as a multiple of theirs
                of = [f"{rate / ceiling.rate:.0%}" for ceiling in medians[: len(ceilings)]]
                of += [f"{cpu / ceiling.cpu:.2f}x" for ceiling in medians[: len(ceilings)]]
                spread = " ".join(f"{run.rate:,.0f}" for run in runs[kind])  # each run's commands/s: the noise
                db = "-" if database_cpu is None else f"{database_cpu:,.0f}"
                figures = (
                    f"{p50:.1f}",
                    f"{p99:.1f}",
                    f"{cpu:,.0f}",
                    f"{loop:,.0f}",
                    f"{client:,.0f}",
                    db,
                    f"{busy:.0%}",
                )
                table.add_row(backend, kind, f"{count:,}", f"{rate:,.0f}", spread, *figures, *of)
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
