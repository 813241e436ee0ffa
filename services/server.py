"""The server: store, manager, timers and feed wired behind the servicers, served over gRPC (with health and
reflection) and, on a second port, over HTTP (Connect and the viewer page)."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal

import grpc
import msgspec
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from eventstore import migrate, open_store
from eventstore.leases import leases_of
from eventstore.urls import is_shared, redacted
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.core.addresses import ListenError, listen_address
from services.core.clock import Clock, LoopClock
from services.core.errors import RulesetUnavailable
from services.core.limits import LEASE_SECONDS, MAX_STREAMS
from services.core.logs import fields
from services.edge import wire
from services.edge.malformed import GuardedRegistration
from services.edge.methods import methods
from services.edge.observer import CallObserver
from services.edge.servicers import MatchServicer, RulesetServicer
from services.edge.transport import OPTIONS, Tls, listen
from services.matches.bot_player import BotPlayer
from services.matches.grace_timers import GraceTimers
from services.matches.manager import MatchManager
from services.matches.ownership import Ownership, heartbeat_seconds
from services.matches.presence import Presence
from services.matches.timers import Timers
from services.matches.watch import Feed
from services.ops.claim import Claim, claim
from services.ops.metrics import Metrics
from services.ops.metrics_listener import MetricsListener
from services.ops.observed_store import ObservedStore
from services.readmodels.lead import Lead
from services.readmodels.matchlist import MatchList
from services.readmodels.matchrows import RUNNING
from services.tournament.wiring import SERVICE_NAME as TOURNAMENT_SERVICE
from services.tournament.wiring import Tournaments, attach
from services.web.app import WebApp
from services.web.connect import ConnectApp
from services.web.http import HttpListener

log = logging.getLogger(__name__)

FLUSH_SECONDS = 0.5
"""At shutdown, how long the port stays open after the last call ended (its status still on the way)."""

SERVICE_NAMES = (
    *(pb.DESCRIPTOR.services_by_name[name].full_name for name in ("RulesetService", "MatchService")),
    TOURNAMENT_SERVICE,
)


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
    migrate: bool = True
    """Migrate the database before serving (False where a separate job migrates: ``serve --no-migrate``)."""
    metrics: str | None = None
    """HOST:PORT of the Prometheus listener; None: none (the registry still counts, ``Running.metrics``)."""
    tls: Tls | None = None
    """Certificate and key (and optional client CA) to serve TLS; None: plaintext."""
    drain_seconds: float = 0.0
    """On SIGTERM: seconds to keep serving while health says NOT_SERVING, before the watches end."""
    grace_seconds: float = 10.0
    """On SIGTERM, after the drain: seconds in-flight calls get to finish before they are cancelled."""
    max_streams: int = MAX_STREAMS
    """Streams (watches, ``Play``, lifecycle) open at once, over gRPC and Connect together; past it a new one is
    refused RESOURCE_EXHAUSTED."""
    lease_seconds: float = LEASE_SECONDS
    """On PostgreSQL: how long this instance's ownership of a match lasts unrenewed; a dead instance's matches are
    taken over by a survivor within it and a heartbeat (docs/operations.md, Running several instances)."""
    advertise: str | None = None
    """On PostgreSQL: HOST:PORT recorded with this instance's leases, where a client that asks for a match's owner
    is sent (``services/edge/routing.py``); None: the gRPC listen address, with the port it bound."""


class Running:
    """A started server and what it owns; ``stop`` releases everything in order."""

    def __init__(
        self,
        server: grpc.aio.Server,
        port: int,
        store: ObservedStore,
        manager: MatchManager,
        feed: Feed[pb.MatchUpdate],
        match_list: MatchList,
        timers: Timers,
        presence: Presence,
        health: health.aio.HealthServicer,
        tournaments: Tournaments,
        observer: CallObserver,
        metrics: Metrics,
        listener: MetricsListener | None,
        http: HttpListener | None,
        bots: BotPlayer,
    ) -> None:
        self.server, self.port, self.store, self.manager = server, port, store, manager
        self.bots = bots
        self.feed, self.match_list, self.timers, self.presence = feed, match_list, timers, presence
        self.health, self.tournaments = health, tournaments
        self.observer, self.metrics, self.metrics_listener = observer, metrics, listener
        self.http = http
        self.claim: Claim | None = None
        """This server's claim on its SQLite file, released last."""
        self.lead: Lead | None = None
        """Whether this instance runs the shared projections (given up once they stopped)."""

    async def stop(self, grace: float | None = 2.0, drain: float = 0.0) -> None:
        """Health NOT_SERVING; ``drain`` seconds of serving on (load balancers move away); then new calls and
        every open watch end UNAVAILABLE while in-flight calls get ``grace`` seconds; then release all."""
        await self.health.enter_graceful_shutdown()
        if drain > 0:
            log.info("draining", extra=fields(drain_seconds=drain))
            await asyncio.sleep(drain)
        self.observer.refuse()
        self.feed.end_watches()
        # One grace period for both ports: their open requests are waited for together.
        http = asyncio.ensure_future(self.http.stop(grace or 0.0)) if self.http is not None else None
        settled = await self.observer.settled(grace)
        if http is not None:
            await http
        if not settled:
            log.warning("calls still in flight after the grace period are cancelled", extra=fields(grace_seconds=grace))
        # A handler that returned has not necessarily had its status sent: closing the port at once cancels
        # some of those answers. gRPC signals no "sent", so the last answers get a moment to leave.
        if settled and grace != 0:
            await asyncio.sleep(FLUSH_SECONDS)
        await self.server.stop(0)
        self.timers.close()
        await self.metrics.stop()
        await self.bots.stop()
        await self.presence.close()
        await self.tournaments.stop()
        await self.manager.stop()
        await self.manager.ownership.stop()
        await self.match_list.stop()
        if self.lead is not None:
            await self.lead.stop()
        await self.store.close()
        if self.metrics_listener is not None:
            self.metrics_listener.close()
        if self.claim is not None:
            self.claim.release()


async def create_server(config: ServerConfig, clock: Clock | None = None, replay: bytes | None = None) -> Running:
    """Migrates the database, opens the store and starts serving on ``config.listen`` (port 0: any free port)
    and on ``config.http``.

    ``clock`` drives the turn timers (tests move one by hand). The manager's listeners are wired here: its
    events go to the watchers' feed, its changed matches to the timers. The match list is caught up with the
    events before the server answers. ``replay``: a replay file the HTTP port offers the viewer page at
    ``/replay.json`` (``duelhall view``). The HTTP port is bound first, so a taken one stops the start before
    anything is opened. The gRPC port is bound exclusively (no SO_REUSEPORT): a second server on a taken port
    is refused with ``ListenError`` instead of silently sharing the port's clients with the first. Likewise a
    second server on a SQLite file another one serves is refused with ``DatabaseInUse`` (``services/ops/claim.py``).
    """
    if config.listen is not None:
        listen_address(config.listen)
    http = None if config.http is None else HttpListener(config.http, config.tls)
    held = None
    try:
        held = claim(config.database_url)
        running = await _start(config, clock, replay, http)
    except BaseException:
        if held is not None:
            held.release()
        if http is not None:
            await http.stop()
        raise
    running.claim = held
    return running


async def _start(config: ServerConfig, clock: Clock | None, replay: bytes | None, http: HttpListener | None) -> Running:
    if config.migrate:
        log.info("migrating the database", extra=fields(database=redacted(config.database_url)))
        await asyncio.to_thread(migrate, config.database_url)
    metrics = Metrics()
    opened = await open_store(
        config.database_url, sqlite_synchronous=config.sqlite_synchronous, on_commit=metrics.commit_batch.observe
    )
    store = ObservedStore(opened)
    shared = is_shared(config.database_url)
    leases = leases_of(opened) if shared else None
    ownership = Ownership(leases, config.lease_seconds)
    lead = Lead(leases, config.lease_seconds, heartbeat_seconds(config.lease_seconds))
    manager = MatchManager(store, shared=shared, capacity=config.capacity, ownership=ownership, lead=lead)
    presence = Presence(store.rows, shared, clock)
    timers = Timers(manager, clock, GraceTimers(manager, presence, clock, ownership.owns), ownership.owns)
    feed = Feed(manager, store, wire.update, timers.armed, clock, presence)
    bots = BotPlayer(manager, clock)
    manager.on_change(timers.arm)
    manager.on_change(bots.play)
    manager.on_events(feed.publish)
    await manager.start()
    match_list = manager.match_list
    await match_list.catch_up()
    await lead.start()
    match_list.start()
    observer = CallObserver(manager, config.admin_token, config.max_streams)
    server = grpc.aio.server(options=(*OPTIONS, ("grpc.so_reuseport", 0)))
    registration = GuardedRegistration(server, observer)
    tournaments = await attach(registration, store, manager, config.admin_token, clock, lead)
    rulesets = RulesetServicer()
    matches = MatchServicer(manager, feed, config.admin_token, timers, tournaments.embargo, presence)
    # The generated registration functions carry no annotations.
    pb_grpc.add_RulesetServiceServicer_to_server(rulesets, registration)  # type: ignore[no-untyped-call]
    pb_grpc.add_MatchServiceServicer_to_server(matches, registration)  # type: ignore[no-untyped-call]
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, registration)
    reflection.enable_server_reflection((*SERVICE_NAMES, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    port = 0
    if config.listen is not None:
        try:
            port = listen(server, config.listen, config.tls)
        except (OSError, RuntimeError):
            await server.stop(0)
            await bots.stop()
            await tournaments.stop()
            await manager.stop()
            await match_list.stop()
            await lead.stop()
            await store.close()
            raise ListenError(
                f"cannot listen on {config.listen}: the port is in use or the address is not local"
            ) from None
    ownership.address = config.advertise or advertised(config.listen, port)
    metrics.attach(observer, store, timers, manager, matches.play_results, presence, bots, clock or LoopClock())
    metrics.attach_ownership(ownership)
    if config.listen is not None:
        await server.start()
    if http is not None:
        served = {"RulesetService": rulesets, "MatchService": matches, "TournamentService": tournaments.servicer}
        calls = [observer.observed_method(m) for m in methods(served)]
        await http.start(WebApp(ConnectApp(calls), replay, metrics.registry))
    listener = MetricsListener(metrics.registry, config.metrics) if config.metrics else None
    await resume_timers(manager)
    ownership.start(manager.take_over)
    presence.start()
    for name in ("", *SERVICE_NAMES):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    running = Running(
        server,
        port,
        store,
        manager,
        feed,
        match_list,
        timers,
        presence,
        health_servicer,
        tournaments,
        observer,
        metrics,
        listener,
        http,
        bots,
    )
    running.lead = lead
    return running


def advertised(listen: str | None, port: int) -> str:
    """The listen address with the port it bound (port 0 asks for any); '' without a gRPC port."""
    return "" if listen is None else f"{listen_address(listen)[0]}:{port}"


async def resume_timers(manager: MatchManager) -> int:
    """Loads every running match so its turn timer runs again (from its last event's time), recording the end of
    one that ended unrecorded. On PostgreSQL it first claims those without a live owner (matches of an older
    version, or of an instance that stopped): the timers of the others stay their owners'."""
    resumed = 0
    after = None
    while True:
        rows, after = await manager.read_model.page(after, 500, status=RUNNING)
        await manager.ownership.claim([row.match_id for row in rows])
        for row in rows:
            try:
                hot = await manager.get(row.match_id)
            except RulesetUnavailable:  # logged; another instance may host its version and run its clock
                continue
            if hot.outcome is not None:
                # Ended just before a crash, before its row and lifecycle end were written.
                await manager.ends.record(hot)
            resumed += 1
        if after is None:
            return resumed


def signalled() -> asyncio.Event:
    """An event set by SIGINT or SIGTERM; installed first, a signal during the start stops the server once
    started, not abruptly."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    return stop


async def serve(config: ServerConfig, ready: asyncio.Event | None = None) -> None:
    """Runs until SIGINT or SIGTERM, then stops gracefully."""
    stop = signalled()
    running = await create_server(config)
    # What start-up loaded (modules, descriptors, card data) lives as long as the process: out of the
    # collector's sight, a full collection no longer walks it (fan-out p99 at 300 spectators: 140-190 -> 55-65 ms).
    gc.freeze()
    if config.listen is not None:
        host = config.listen.rsplit(":", 1)[0]
        log.info(
            "duelhall serving on %s:%d",
            host,
            running.port,
            extra=fields(listen=f"{host}:{running.port}", database=redacted(config.database_url)),
        )
        print(f"duelhall listening on {host}:{running.port}", flush=True)
    if running.metrics_listener is not None:
        where = f"{running.metrics_listener.host}:{running.metrics_listener.port}"
        log.info("metrics on http://%s/metrics", where, extra=fields(metrics=where))
        print(f"duelhall metrics on {where}", flush=True)
    if running.http is not None:
        log.info("http on %s", running.http.address, extra=fields(http=running.http.address))
        print(f"duelhall http listening on {running.http.address}", flush=True)
    if ready is not None:
        ready.set()
    await stop.wait()
    log.info("shutting down", extra=fields(drain_seconds=config.drain_seconds, grace_seconds=config.grace_seconds))
    await running.stop(config.grace_seconds, config.drain_seconds)
    log.info("stopped")
