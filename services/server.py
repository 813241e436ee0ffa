"""The server: store, manager, timers and feed wired behind the calls, served over gRPC (with health and
reflection) and, on a second port, over HTTP (Connect and the viewer page)."""

from __future__ import annotations

import asyncio
import logging
import signal

import grpc
import msgspec
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from eventstore import migrate, open_store
from services.api import duelhall_pb2 as pb
from services.grpc_edge import handlers
from services.manager import MatchManager
from services.methods import methods
from services.readmodel import RUNNING
from services.servicers import MatchServicer, RulesetServicer
from services.timers import Timers
from services.watch import Feed
from services.web.app import WebApp
from services.web.connect import ConnectApp
from services.web.http import HttpListener

log = logging.getLogger(__name__)

SERVICE_NAMES = tuple(pb.DESCRIPTOR.services_by_name[name].full_name for name in ("RulesetService", "MatchService"))


class ServerConfig(msgspec.Struct, frozen=True):
    database_url: str
    listen: str | None = "127.0.0.1:50051"
    """HOST:PORT of the gRPC port; None: no gRPC port (``duelhall view`` serves HTTP alone)."""
    http: str | None = None
    """HOST:PORT of the HTTP port (Connect and the viewer page); None: no HTTP port."""
    admin_token: str | None = None
    capacity: int = 1024
    """How many matches stay loaded in memory."""
    sqlite_synchronous: str = "NORMAL"


class Running:
    """A started server and what it owns; ``stop`` releases everything in order."""

    def __init__(self, server: grpc.aio.Server | None, port: int, store: object, manager: MatchManager, feed: Feed,
                 timers: Timers, health: health.aio.HealthServicer, http: HttpListener | None) -> None:
        self.server, self.port, self.store, self.manager = server, port, store, manager
        self.feed, self.timers, self.health, self.http = feed, timers, health, http

    async def stop(self, grace: float | None = 2.0) -> None:
        await self.health.enter_graceful_shutdown()
        if self.http is not None:
            await self.http.stop(grace or 0.0)
        if self.server is not None:
            await self.server.stop(grace)
        self.timers.close()
        await self.feed.stop()
        await self.store.close()  # type: ignore[attr-defined]


async def create_server(config: ServerConfig, replay: bytes | None = None) -> Running:
    """Migrates the database, opens the store and starts serving on ``config.listen`` (port 0: any free port).

    ``replay``: a replay file the HTTP port offers the viewer page at ``/replay.json`` (``duelhall view``).
    """
    http = None if config.http is None else HttpListener(config.http)
    try:
        return await _start(config, replay, http)
    except BaseException:
        if http is not None:
            await http.stop()
        raise


async def _start(config: ServerConfig, replay: bytes | None, http: HttpListener | None) -> Running:
    await asyncio.to_thread(migrate, config.database_url)
    store = await open_store(config.database_url, sqlite_synchronous=config.sqlite_synchronous)
    manager = MatchManager(store, capacity=config.capacity)
    timers = Timers(manager)
    feed = Feed(store, manager, eager=not config.database_url.startswith("sqlite"))
    await feed.start()
    calls = methods({"RulesetService": RulesetServicer(),
                     "MatchService": MatchServicer(manager, feed, config.admin_token, timers)})
    health_servicer = health.aio.HealthServicer()
    server, port = None, 0
    if config.listen is not None:
        server = grpc.aio.server()
        server.add_generic_rpc_handlers(handlers(calls))
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
        reflection.enable_server_reflection((*SERVICE_NAMES, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
        port = server.add_insecure_port(config.listen)
        await server.start()
    if http is not None:
        await http.start(WebApp(ConnectApp(calls), replay))
    await resume_timers(manager)
    for name in ("", *SERVICE_NAMES):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return Running(server, port, store, manager, feed, timers, health_servicer, http)


async def resume_timers(manager: MatchManager) -> int:
    """Loads every running match so its turn timer runs again (from its last event's time)."""
    resumed = 0
    after = None
    while True:
        rows, after = await manager.read_model.page(after, 500, status=RUNNING)
        for row in rows:
            await manager.get(row.match_id)
            resumed += 1
        if after is None:
            return resumed


async def serve(config: ServerConfig, ready: asyncio.Event | None = None) -> None:
    """Runs until SIGINT or SIGTERM, then stops gracefully."""
    running = await create_server(config)
    if config.listen is not None:
        host = config.listen.rsplit(":", 1)[0]
        log.info("duelhall serving on %s:%d (database %s)", host, running.port, config.database_url)
        print(f"duelhall listening on {host}:{running.port}", flush=True)
    if running.http is not None:
        print(f"duelhall http listening on {running.http.address}", flush=True)
    await until_signalled(running, ready)


async def until_signalled(running: Running, ready: asyncio.Event | None = None) -> None:
    """Waits for SIGINT or SIGTERM, then stops ``running`` gracefully."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    if ready is not None:
        ready.set()
    await stop.wait()
    await running.stop()
