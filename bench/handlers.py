"""Handler benchmark: duelhall's own work per command, without gRPC's transport.

The real server's method handlers (call observer, request guard, error mapping, servicer, manager, engine,
store) are wired by ``create_server`` as ``duelhall serve`` wires them, but registered with a stand-in for the
gRPC server, and called in this process. Concurrent bots send what bench/service.py sends: CreateMatch and
GetView per match, then ListLegalCommands and SubmitCommand per command. It prints the process's CPU time per
command: what duelhall adds to gRPC's own cost per call, which bench/service.py can only show mixed with it.
Log lines go to stderr as the server writes them (send it to /dev/null).

    python bench/handlers.py [--commands 20000] [--matches 64] [--log-level info] [--repeat 3]
                             [--database-url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any
from unittest import mock

import grpc
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.service import CONCEDE
from services import logs
from services.api import duelhall_pb2 as pb
from services.server import ServerConfig, create_server

SERVICE = "duelhall.v1.MatchService"


class StandIn:
    """Takes the place of the gRPC server: keeps the handlers registered with it, serves nothing."""

    def __init__(self) -> None:
        self.handlers: dict[str, Any] = {}

    def add_generic_rpc_handlers(self, handlers: Any) -> None:
        """Ignored: ``add_registered_method_handlers`` carries the same handlers."""

    def add_registered_method_handlers(self, service: str, handlers: Mapping[str, Any]) -> None:
        self.handlers.update({f"{service}/{name}": handler for name, handler in handlers.items()})

    async def start(self) -> None: ...

    async def stop(self, grace: float | None) -> None: ...


class Context:
    """What the handlers read of a call's context on the way to an OK answer."""

    def code(self) -> None:
        return None

    def trailing_metadata(self) -> tuple[()]:
        return ()

    async def abort(self, code: grpc.StatusCode, details: str = "") -> None:
        raise RuntimeError(f"the call failed: {code} {details}")

    async def abort_with_status(self, status: Any) -> None:
        raise RuntimeError(f"the call failed: {status}")


Call = Callable[[Any], Awaitable[Any]]


def method(server: StandIn, name: str) -> Call:
    behaviour = server.handlers[f"{SERVICE}/{name}"].unary_unary
    return lambda request: behaviour(request, Context())


async def bot(server: StandIn, rng: random.Random, done: list[int], commands: int) -> None:
    """Plays matches one after another until ``done`` holds ``commands`` commands in all."""
    create, view, legal, submit = (
        method(server, name) for name in ("CreateMatch", "GetView", "ListLegalCommands", "SubmitCommand")
    )
    while done[0] < commands:
        created = await create(
            pb.CreateMatchRequest(ruleset="card_monsters", seats=[pb.SeatSpec(name="a"), pb.SeatSpec(name="b")])
        )
        match_id = created.match.match_id
        tokens = {t.seat: t.token for t in created.tokens}
        to_act = list((await view(pb.GetViewRequest(match_id=match_id))).to_act)
        count = 0
        while to_act and done[0] < commands:
            seat = to_act[0]
            options = (await legal(pb.ListLegalCommandsRequest(match_id=match_id, token=tokens[seat]))).commands_json
            reply = await submit(
                pb.SubmitCommandRequest(
                    match_id=match_id,
                    token=tokens[seat],
                    command_json=rng.choice([c for c in options if CONCEDE not in c]),
                    command_id=f"c{count}",
                )
            )
            to_act = list(reply.to_act)
            count += 1
            done[0] += 1


async def run(database_url: str, matches: int, commands: int) -> tuple[float, float]:
    """(CPU us, wall us) per command of one run on a fresh server."""
    server = StandIn()
    with mock.patch("grpc.aio.server", lambda *args, **kwargs: server):
        running = await create_server(ServerConfig(database_url=database_url, listen=None))
    try:
        await bot(server, random.Random(-1), [0], 200)  # warm-up: imports, caches, the first matches
        done = [0]
        wall, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(bot(server, random.Random(i), done, commands) for i in range(matches)))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        return cpu / done[0] * 1e6, wall / done[0] * 1e6
    finally:
        await running.stop(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=20_000)
    parser.add_argument("--matches", type=int, default=64)
    parser.add_argument("--log-level", choices=logs.LEVELS, default="info")
    parser.add_argument("--repeat", type=int, default=3, help="runs, each on a fresh database; the median is shown")
    parser.add_argument("--database-url", help="default: a new SQLite file per run")
    args = parser.parse_args()
    logs.configure("console", args.log_level)
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(args.repeat):
            url = args.database_url or f"sqlite:///{Path(tmp) / f'run{index}.db'}"
            runs.append(asyncio.run(run(url, args.matches, args.commands)))
    cpu, wall = statistics.median(c for c, _ in runs), statistics.median(w for _, w in runs)
    table = Table("store", "log level", "commands per run", "CPU us/command", "wall us/command", "runs (CPU)")
    table.add_row(
        "postgres" if args.database_url and args.database_url.startswith("postgresql") else "sqlite",
        args.log_level,
        f"{args.commands:,}",
        f"{cpu:.1f}",
        f"{wall:.1f}",
        ", ".join(f"{c:.0f}" for c, _ in runs),
    )
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
