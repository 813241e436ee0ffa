"""Which matches this instance owns: it runs their timers and records their ends (docs/operations.md).

On PostgreSQL each running match has one owner, held as a lease (``eventstore/leases.py``): the instance that
creates a match claims it before its first append, a heartbeat renews every lease an instance holds in one
statement, and the same heartbeat takes over the leases that expired (their owner died or lost the database),
handing each taken match to ``take_over`` (load it: its overdue timer fires, its unrecorded end is recorded).
An ended match's lease is released once its end is recorded. Correctness never depends on a lease: every
instance serves every call, appends carry the expected version and a timeout or an end is stored once whoever
submits it; the lease only says who must act when nobody asks. On SQLite the one server owns everything and no
lease is written.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable, Collection, Coroutine
from typing import Any

from eventstore import StoreError
from eventstore.leases import PostgresLeases
from services.core.limits import LEASE_SECONDS
from services.core.tasks import cancel, keep

log = logging.getLogger(__name__)

TAKE_OVER_AT_ONCE = 200
"""Expired leases one heartbeat takes over: a dead instance's matches are taken over in batches of this many."""


def heartbeat_seconds(lease_seconds: float) -> float:
    """Seconds between heartbeats: several per lease, so a late one does not lose the leases, and at most half a
    second, so a survivor takes a dead owner's matches within a lease and half a second of its last renewal."""
    return min(lease_seconds / 4, 0.5)


class Ownership:
    """This instance's leases; ``owns`` is the one predicate the timers and the end recorder consult.

    Leases run on the system's monotonic clock, not the server's injectable one: they expire by PostgreSQL's
    clock, which no test can move, and a hand-moved clock would let a lease lapse here that the database holds."""

    def __init__(self, leases: PostgresLeases | None, seconds: float = LEASE_SECONDS) -> None:
        self._leases = leases
        self.seconds = seconds
        self.instance = uuid.uuid4().hex
        """This process's id, the owner its leases name (a restarted server is another owner)."""
        self.address = ""
        """Where this instance takes calls, recorded with its leases (``serve --advertise``; set once it listens)."""
        self._held: set[str] = set()
        self._valid_until = 0.0
        """Monotonic time the leases last renewed run out: past it this instance owns nothing it has not renewed."""
        self._take_over: Callable[[str], Coroutine[Any, Any, None]] | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._taking: set[asyncio.Task[None]] = set()
        self.listeners: list[Callable[[str], None]] = []
        """Told ``TAKEN_OVER`` or ``RENEW_FAILED`` (metrics)."""

    @property
    def leased(self) -> bool:
        """Whether ownership is leased (PostgreSQL), not implied (SQLite's one server)."""
        return self._leases is not None

    def owns(self, match_id: str) -> bool:
        """Whether this instance runs the match's timers and records its end."""
        if self._leases is None:
            return True
        return match_id in self._held and time.monotonic() < self._valid_until

    @property
    def matches(self) -> frozenset[str]:
        """The matches whose leases this instance holds (none on SQLite, where it owns all without a lease)."""
        return frozenset(self._held)

    @property
    def held(self) -> int:
        return len(self._held) if self._leases is not None else 0

    async def claim(self, match_ids: Collection[str]) -> set[str]:
        """Claims matches nobody live owns; those this instance now owns. A store fault is logged and claims
        nothing: the match is served all the same, only not owned until a takeover finds it."""
        if self._leases is None:
            return set(match_ids)
        if not match_ids:
            return set()
        started = time.monotonic()
        try:
            claimed = await self._leases.claim(self.instance, match_ids, self.seconds, self.address)
        except StoreError as exc:
            log.warning("leases on %d matches not claimed: %s", len(match_ids), exc)
            return set()
        self._held |= claimed
        if not self._valid_until:
            self._valid_until = started + self.seconds
        return claimed

    async def elsewhere(self, match_id: str) -> str | None:
        """The address of the match's owner when another instance owns it and says where it takes calls; None
        when this instance owns it, nobody live does, or its owner recorded no address (then this one serves).
        A store fault is raised: the caller asked to be sent to the owner, and it is not known."""
        if self._leases is None or self.owns(match_id):
            return None
        found = await self._leases.owner(match_id)
        if found is None or found[0] == self.instance or not found[1] or found[1] == self.address:
            return None
        return found[1]

    async def release(self, match_id: str) -> None:
        """Gives up an ended match (a fault leaves the lease to expire and a survivor to find the end recorded)."""
        if self._leases is None or match_id not in self._held:
            return
        self._held.discard(match_id)
        try:
            await self._leases.release(self.instance, [match_id])
        except StoreError as exc:
            log.warning("lease on %s not released: %s", match_id, exc)

    def start(self, take_over: Callable[[str], Coroutine[Any, Any, None]]) -> None:
        """Starts the heartbeat (on PostgreSQL): renew, then take over what expired."""
        self._take_over = take_over
        if self._leases is not None and self._heartbeat is None:
            self._heartbeat = asyncio.create_task(self._beat(self._leases), name="duelhall-leases")

    async def stop(self) -> None:
        """Stops the heartbeat and releases every lease, so that the survivors take them over at once."""
        if self._heartbeat is not None:
            await cancel(self._heartbeat)
            self._heartbeat = None
        for task in list(self._taking):
            await cancel(task)
        if self._leases is not None and self._held:
            self._held.clear()
            try:
                await self._leases.release_all(self.instance)
            except StoreError as exc:
                log.warning("leases not released at shutdown (they expire in %.0f s): %s", self.seconds, exc)

    async def _beat(self, leases: PostgresLeases) -> None:
        every = heartbeat_seconds(self.seconds)
        while True:
            await self.beat(leases)
            await asyncio.sleep(every)

    async def beat(self, leases: PostgresLeases) -> None:
        """One heartbeat: renews this instance's leases, then takes over expired ones."""
        started, before = time.monotonic(), set(self._held)
        try:
            renewed = await leases.renew(self.instance, self.seconds)
            self._held = renewed | (self._held - before)  # with the claims made meanwhile
            self._valid_until = started + self.seconds
            taken = await leases.take_over(self.instance, self.seconds, TAKE_OVER_AT_ONCE, self.address)
        except StoreError as exc:
            self._tell(RENEW_FAILED)
            log.warning("leases not renewed: %s", exc)
            return
        self._held |= taken
        for match_id in taken:
            self._tell(TAKEN_OVER)
            log.info("took over match %s from an expired lease", match_id)
            assert self._take_over is not None
            keep(self._taking, self._take_over(match_id), f"duelhall-take-over-{match_id}")

    def _tell(self, what: str) -> None:
        for listener in self.listeners:
            listener(what)


TAKEN_OVER = "taken_over"
RENEW_FAILED = "renew_failed"
