"""The tournaments' deadlines on the clock: one alarm per running deadline (services/tournament/timing.py).

Alarms are set from the folded tournament whenever this instance folds a change (the manager's listener),
whoever appended it: at the start every running tournament is loaded, and the store is followed for the
events that start or stop a deadline, so a restarted instance, or one that shares the database with the
instance that paired the round, arms the same expiries. On expiry the decision is appended with the expected
version and the deadline's key as command id: of several instances firing together one appends, the others
find the deadline gone.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from datetime import datetime

from eventstore import AsyncEventStore, StoreError
from services.core.clock import Alarm, Clock, LoopClock
from services.core.errors import ServiceError
from services.core.tasks import cancel, keep
from services.readmodels.lead import Lead
from services.tournament import timing
from services.tournament.listing import Listing
from services.tournament.manager import STREAM_PREFIX, TournamentManager
from services.tournament.state import Tournament

log = logging.getLogger(__name__)

RETRY = 1.0
"""Seconds before an expiry the store could not take, or a lost subscription, is tried again."""
LINGER = 0.05
STARTS_AND_STOPS = (
    "RoundPaired",
    "RoundRepaired",
    "PairingsEdited",
    "GameRecorded",
    "FirstChosen",
    "ChooserTimedOut",
    "MatchResulted",
    "RoundTimeEnded",
    "TournamentEnded",
)
"""The event types that start or end a deadline."""


class TournamentClocks:
    def __init__(
        self,
        store: AsyncEventStore,
        manager: TournamentManager,
        listing: Listing,
        clock: Clock | None = None,
        lead: Lead | None = None,
    ) -> None:
        """``lead``: follow the other instances' changes only while this instance leads the projections."""
        self._store, self._manager, self._listing = store, manager, listing
        self._lead = lead
        self._clock: Clock = clock or LoopClock()
        self._alarms: dict[str, dict[str, tuple[datetime, Alarm]]] = {}
        """Tournament id -> deadline key -> (expiry, alarm)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._follow: asyncio.Task[None] | None = None
        manager.listeners.append(self.arm)

    async def start(self) -> None:
        """Arms every running tournament's deadlines, then follows the store for changes from any instance."""
        position = await self._arm_running()
        self._follow = asyncio.create_task(self._following(position), name="duelhall-tournament-clocks")

    async def stop(self) -> None:
        if self._follow is not None:
            await cancel(self._follow)
        for alarms in self._alarms.values():
            for _, alarm in alarms.values():
                alarm.cancel()
        self._alarms.clear()
        for task in list(self._tasks):
            await cancel(task)

    async def settled(self) -> None:
        """Returns once every expiry already fired has been decided (a test moves a hand clock, then waits)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def due(self, tournament_id: str) -> dict[str, datetime]:
        """The deadlines armed for a tournament, by key, with their expiry."""
        return {key: at for key, (at, _) in self._alarms.get(tournament_id, {}).items()}

    def arm(self, state: Tournament) -> None:
        """Sets an alarm for each deadline running in ``state`` and cancels those that no longer run."""
        tournament_id = state.created.tournament_id
        wanted = {due.key: due for due in timing.deadlines(state)}
        armed = self._alarms.setdefault(tournament_id, {})
        for key in [k for k, (at, _) in armed.items() if k not in wanted or wanted[k].at != at]:
            armed.pop(key)[1].cancel()
        for key, due in wanted.items():
            if key not in armed:
                delay = max(0.0, (due.at - self._clock.now()).total_seconds())
                armed[key] = (due.at, self._clock.call_later(delay, functools.partial(self._fire, tournament_id, key)))
        if not armed:
            del self._alarms[tournament_id]

    def _fire(self, tournament_id: str, key: str) -> None:
        self._alarms.get(tournament_id, {}).pop(key, None)
        keep(self._tasks, self._expire(tournament_id, key), f"duelhall-tournament-deadline-{key}")

    async def _expire(self, tournament_id: str, key: str) -> None:
        try:
            state = await self._manager.execute(
                tournament_id,
                "deadline",
                {"deadline": key},
                lambda t: timing.expire(t, key, self._clock.now()),
                command_id=key,
            )
        except ServiceError as exc:
            log.info("tournament %s deadline %s not applied: %s", tournament_id, key, exc.message)
            return
        except StoreError as exc:
            # The key as command id makes a retry safe whether or not the failed attempt was stored.
            log.warning("tournament %s deadline %s not stored (%s); retrying", tournament_id, key, exc)
            self._clock.call_later(RETRY, functools.partial(self._fire, tournament_id, key))
            return
        # Fired a little early (the loop's timer resolution), the deadline is still running: set it again.
        self.arm(state)

    async def _arm_running(self) -> int:
        """Arms every running tournament's deadlines; the position to follow the store from."""
        position = await self._store.head() + 1
        for tournament_id in await self._listing.running():
            await self._manager.load(tournament_id)
        return position

    async def _following(self, position: int) -> None:
        while True:
            try:
                if self._lead is not None and not self._lead.held:
                    # Another instance follows the changes meanwhile; this one still arms those it makes itself.
                    await self._lead.acquired()
                    position = await self._arm_running()
                async for page in self._store.subscribe(position, LINGER, STARTS_AND_STOPS):
                    streams = {e.stream_id for e in page.events if e.stream_id.startswith(STREAM_PREFIX)}
                    for stream in sorted(streams):
                        # Loading folds the new events, which arms (``arm`` is the manager's listener).
                        await self._manager.load(stream.removeprefix(STREAM_PREFIX))
                    position = page.through + 1
                    if self._lead is not None and not self._lead.held:
                        break
                else:
                    return
            except (StoreError, ServiceError) as exc:
                log.warning("tournament clocks: following the store failed (%s); resuming", exc)
                await asyncio.sleep(RETRY)
