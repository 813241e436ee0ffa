"""Handler benchmark: duelhall's own work per command, without gRPC's transport.

The real server's method handlers (call observer, request guard, error mapping, servicer, manager, engine,
store) are wired by ``create_server`` as ``duelhall serve`` wires them, but registered with a stand-in for the
gRPC server, and called in this process. Concurrent bots send what bench/service.py sends: CreateMatch and
GetView per match, then ListLegalCommands and SubmitCommand per command. It prints the process's CPU time per
command: what duelhall adds to gRPC's own cost per call, which bench/service.py can only show mixed with it.
Each run is followed by one of the rules-only servicer (bench/bare_server.py's ``EngineMatches``: the rules and
the same append, nothing else) under the same bots, also called in this process, and the table shows both and
their ratio: duelhall's own work beyond the rules, without gRPC's cost diluting it.
Log lines go to stderr as the server writes them (send it to /dev/null).

    python bench/handlers.py [--seconds 10] [--matches 64] [--log-level info] [--repeat 3]
                             [--database-url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
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

from bench.bare_server import EngineMatches
from bench.service import bot_match
from eventstore import migrate, open_store
from services.cli.serve import YOUNG_COLLECTION
from services.core import logs
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


METHODS = ("CreateMatch", "GetView", "ListLegalCommands", "SubmitCommand")


class Stub:
    """The four MatchService methods bench/service.py's bots call, answered by the registered handlers."""

    def __init__(self, server: StandIn) -> None:
        for name in METHODS:
            setattr(self, name, self._call(server.handlers[f"{SERVICE}/{name}"].unary_unary))

    @staticmethod
    def _call(behaviour: Callable[[Any, Context], Awaitable[Any]]) -> Callable[[Any], Awaitable[Any]]:
        return lambda request: behaviour(request, Context())


class EngineStub:
    """The same four methods answered by the rules-only servicer."""

    def __init__(self, servicer: EngineMatches) -> None:
        for name in METHODS:
            setattr(self, name, Stub._call(getattr(servicer, name)))


async def play(stub: Any, matches: int, seconds: float) -> tuple[float, float]:
    """(CPU us, wall us) per command of ``matches`` concurrent bots for ``seconds``."""
    await bot_match(stub, random.Random(-1), [], time.perf_counter() + 0.5)  # warm-up: caches, first matches
    latencies: list[float] = []
    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(bot_match(stub, random.Random(i), latencies, wall + seconds) for i in range(matches)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return cpu / len(latencies) * 1e6, wall / len(latencies) * 1e6


async def run(database_url: str, matches: int, seconds: float) -> tuple[float, float]:
    """(CPU us, wall us) per command of one run on a fresh server."""
    server = StandIn()
    with mock.patch("grpc.aio.server", lambda *args, **kwargs: server):
        running = await create_server(ServerConfig(database_url=database_url, listen=None))
    try:
        return await play(Stub(server), matches, seconds)
    finally:
        await running.stop(0)


async def run_engine(database_url: str, matches: int, seconds: float) -> tuple[float, float]:
    """The same for the rules-only servicer."""
    await asyncio.to_thread(migrate, database_url)
    store = await open_store(database_url)
    try:
        return await play(EngineStub(EngineMatches(store)), matches, seconds)
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of play per run")
    parser.add_argument("--matches", type=int, default=64)
    parser.add_argument("--log-level", choices=logs.LEVELS, default="info")
    parser.add_argument("--repeat", type=int, default=3, help="runs, each on a fresh database; the median is shown")
    parser.add_argument("--database-url", help="default: a new SQLite file per run")
    args = parser.parse_args()
    logs.configure("console", args.log_level)
    gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])  # as duelhall serve runs
    runs: dict[str, list[tuple[float, float]]] = {"duelhall": [], "rules only": []}
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(args.repeat):  # alternating, so that a drift of the machine's speed hits both
            for kind, runner in (("duelhall", run), ("rules only", run_engine)):
                url = args.database_url or f"sqlite:///{Path(tmp) / f'{kind[0]}{index}.db'}"
                runs[kind].append(asyncio.run(runner(url, args.matches, args.seconds)))
    store = "postgres" if args.database_url and args.database_url.startswith("postgresql") else "sqlite"
    table = Table(
        "store", "server", "log level", "seconds per run", "CPU us/command", "wall us/command", "runs (CPU)", "ratio"
    )
    engine = statistics.median(c for c, _ in runs["rules only"])
    for kind, measured in runs.items():
        cpu, wall = statistics.median(c for c, _ in measured), statistics.median(w for _, w in measured)
        table.add_row(
            store,
            kind,
            args.log_level,
            f"{args.seconds:g}",
            f"{cpu:.1f}",
            f"{wall:.1f}",
            ", ".join(f"{c:.0f}" for c, _ in measured),
            f"{cpu / engine:.2f}x",
        )
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
