"""Prometheus metrics of one server: the registry and its collectors, fed by the server's parts.

Every collector lives in ``Metrics.registry`` (one registry per server, so several servers in one process
count apart); whatever serves HTTP exposes it (``services/ops/metrics_listener.py`` today, for
``serve --metrics HOST:PORT``). ``attach`` subscribes the collectors to the parts that report: the RPC
observer, the observed store, the turn timers, the match manager (its creations and recorded ends, and the
lags of its readers of the store, ``services/ops/lag.py``) and the bot seats; the store's writer feeds
``commit_batch`` itself, through the ``on_commit`` it was opened with (``services/server.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from services.api import duelhall_pb2 as pb
from services.core.clock import Clock
from services.edge.observer import CallObserver, Finished
from services.matches.bot_player import BotPlayer
from services.matches.hot import HotMatch
from services.matches.manager import MatchManager
from services.matches.ownership import Ownership
from services.matches.presence import Presence
from services.matches.timers import Timers
from services.ops.lag import LagSampler
from services.ops.observed_store import ObservedStore

SUBMIT = "SubmitCommand"
PROJECTION = "projection"
FOLLOWER = "follower"
ACCEPTED = "accepted"
REJECTED = "rejected"
_LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_BATCH = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)


class Metrics:
    """The collectors; names follow Prometheus conventions (``_total``, ``_seconds``)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.commands = Counter(
            "duelhall_commands",
            "SubmitCommand calls by ruleset, result (accepted or rejected) and ErrorInfo reason",
            ["ruleset", "result", "reason"],
            registry=r,
        )
        self.rpc_seconds = Histogram(
            "duelhall_rpc_duration_seconds",
            "RPC latency by method and status code (watches: time open)",
            ["method", "code"],
            buckets=_LATENCY,
            registry=r,
        )
        self.append_seconds = Histogram(
            "duelhall_store_append_duration_seconds",
            "Latency of one append to the event store, queueing included",
            buckets=_LATENCY,
            registry=r,
        )
        self.commit_batch = Histogram(
            "duelhall_store_commit_batch_size",
            "Appends carried by one committed transaction (group commit)",
            buckets=_BATCH,
            registry=r,
        )
        self.conflicts = Counter(
            "duelhall_conflicts",
            "Optimistic-concurrency conflicts by kind (version, duplicate), cause (this_instance: two of its own "
            "calls raced; other_instance) and what was being appended (seat, bot, timer, admin, end, join, creation, "
            "other)",
            ["kind", "cause", "appending"],
            registry=r,
        )
        self.timers = Counter("duelhall_timers", "Turn timers by event (armed, fired)", ["event"], registry=r)
        self.watch_streams = Gauge(
            "duelhall_open_streams", "Open server streams by method (WatchMatch: watchers)", ["method"], registry=r
        )
        self.hot_matches = Gauge("duelhall_hot_matches", "Matches loaded in memory", registry=r)
        self.bot_decision_seconds = Histogram(
            "duelhall_bot_decision_seconds",
            "Seconds a bot seat thought per decision, on its worker, by ruleset and bot level",
            ["ruleset", "level"],
            buckets=_LATENCY,
            registry=r,
        )
        self.leases_held = Gauge(
            "duelhall_leases_held", "Matches this instance owns by lease (PostgreSQL; 0 on SQLite)", registry=r
        )
        self.leases = Counter(
            "duelhall_leases",
            "Lease events by kind: taken_over (a match whose owner's lease expired), renew_failed (a heartbeat the "
            "store refused)",
            ["event"],
            registry=r,
        )
        self.follower_lag = Gauge(
            "duelhall_follower_lag_seconds",
            "From the commit of the last event another instance appended to its folding here (PostgreSQL)",
            registry=r,
        )
        self.connected_seats = Gauge(
            "duelhall_connected_seats", "Seats with a Play or watch stream open on this instance", registry=r
        )
        self.created = Counter(
            "duelhall_matches_created", "Matches this instance created, by ruleset", ["ruleset"], registry=r
        )
        self.ended = Counter(
            "duelhall_matches_ended",
            "Match ends this instance recorded (each end once, whichever instance records it), by ruleset and the "
            "outcome's reason",
            ["ruleset", "reason"],
            registry=r,
        )
        self.lag = Gauge(
            "duelhall_lag_events",
            "Events between the store's head and a reader of its global order: the match list's projection "
            "(projection), and on a shared database the follower of the other instances' appends (follower)",
            ["reader"],
            registry=r,
        )
        self._lag: LagSampler | None = None

    def attach(
        self,
        observer: CallObserver,
        store: ObservedStore,
        timers: Timers,
        manager: MatchManager,
        play_results: list[Callable[[str, pb.CommandResult], None]],
        presence: Presence,
        bots: BotPlayer,
        clock: Clock,
    ) -> None:
        """Feed the collectors from the server's parts (``play_results``: the Play streams' commands), and
        start sampling the lags on ``clock`` (until ``stop``)."""

        # One child per label set, looked up once: ``labels`` takes a lock and checks its arguments every call.
        latency = functools.cache(self.rpc_seconds.labels)
        commands = functools.cache(self.commands.labels)

        def counted(match_id: str, accepted: bool, reason: str) -> None:
            hot = manager.loaded(match_id)
            commands(hot.ruleset.id if hot else "", ACCEPTED if accepted else REJECTED, reason).inc()

        def finished(call: Finished) -> None:
            latency(call.method, call.code).observe(call.seconds)
            if call.method == SUBMIT:
                counted(call.match_id, call.code == "OK", call.reason)

        def played(match_id: str, result: pb.CommandResult) -> None:
            refused = result.HasField("error")
            counted(match_id, not refused, result.error.reason if refused else "")

        observer.listeners.append(finished)
        play_results.append(played)
        observer.stream_listeners.append(lambda method, change: self.watch_streams.labels(method).inc(change))
        store.append_listeners.append(self.append_seconds.observe)
        store.conflict_listeners.append(lambda kind, cause, what: self.conflicts.labels(kind, cause, what).inc())
        timers.listeners.append(lambda event: self.timers.labels(event).inc())
        self.hot_matches.set_function(lambda: manager.loaded_count)
        self.follower_lag.set_function(lambda: manager.follower_lag)
        self.connected_seats.set_function(lambda: presence.connected)
        decisions = functools.cache(self.bot_decision_seconds.labels)
        bots.listeners.append(lambda ruleset, level, seconds: decisions(ruleset, level).observe(seconds))
        manager.creations.append(lambda hot: self.created.labels(hot.ruleset.id).inc())
        manager.ends.listeners.append(self._count_end)
        readers = {
            # Only where the list is followed: on the other instances its position is the lead's business.
            PROJECTION: lambda: manager.match_list.position if manager.match_list.following else None,
            FOLLOWER: lambda: manager.followed,
        }
        self._lag = LagSampler(manager.store.head, readers, self.lag, clock)
        self._lag.start()

    def _count_end(self, hot: HotMatch) -> None:
        reason = hot.outcome.reason if hot.outcome is not None else ""
        self.ended.labels(hot.ruleset.id, reason).inc()

    async def sample_lags(self) -> None:
        """Samples the lags now, without waiting for the next due sample."""
        if self._lag is not None:
            await self._lag.sample()

    async def stop(self) -> None:
        """Stops sampling the lags."""
        if self._lag is not None:
            await self._lag.stop()

    def attach_ownership(self, ownership: Ownership) -> None:
        """Count this instance's leases (``services/matches/ownership.py``)."""
        self.leases_held.set_function(lambda: ownership.held)
        ownership.listeners.append(lambda event: self.leases.labels(event).inc())
