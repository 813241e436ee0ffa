"""Which instance runs the deployment's shared projections (docs/operations.md, Running several instances).

The match list, the tournament list and results, and the tournaments' deadline follower keep rows and streams every
instance shares on PostgreSQL, so one instance at a time is enough to fold the global order into them: the holder
of one lease, ``role:projections`` (``eventstore/leases.py``), claimed by whichever instance finds it free and
renewed by its holder's heartbeat. When the holder dies its lease expires and another instance claims it within a
lease and a heartbeat; the projections resume from their stored checkpoints (they are idempotent per event).
Correctness never depends on it: every instance lists its own creations and ends as they commit, and two holders
at once (a holder cut off from the database for a lease) only fold the same events twice. On SQLite the one
server leads, without a lease.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid

from eventstore import StoreError
from eventstore.leases import ROLE_PREFIX, PostgresLeases
from services.core.tasks import cancel

log = logging.getLogger(__name__)

ROLE = f"{ROLE_PREFIX}projections"


class Lead:
    """Whether this instance leads; ``acquired`` waits until it does."""

    def __init__(self, leases: PostgresLeases | None, seconds: float, every: float) -> None:
        self._leases = leases
        self.seconds, self.every = seconds, every
        """How long a claim lasts, and seconds between claims (several per lease)."""
        self.owner = uuid.uuid4().hex
        self._valid_until = 0.0
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def leased(self) -> bool:
        """Whether leading is leased (PostgreSQL), not implied (SQLite's one server)."""
        return self._leases is not None

    @property
    def held(self) -> bool:
        return self._leases is None or time.monotonic() < self._valid_until

    async def acquired(self) -> None:
        """Returns once this instance leads."""
        while not self.held:
            self._changed.clear()
            await self._changed.wait()

    async def start(self) -> None:
        """Claims once before returning, so a server that starts with no other lead alive leads once started (its
        match list is current at its first call), then keeps claiming in the background."""
        if self._leases is not None and self._task is None:
            await self.claim(self._leases)
            self._task = asyncio.create_task(self._claiming(self._leases), name="duelhall-lead")

    async def stop(self) -> None:
        """Stops claiming and gives the lead up, so that another instance takes it at its next claim."""
        if self._task is not None:
            await cancel(self._task)
            self._task = None
        if self._leases is not None and self.held:
            self._valid_until = 0.0
            try:
                await self._leases.release(self.owner, [ROLE])
            except StoreError as exc:
                log.warning("the projections' lead not released (it expires in %.0f s): %s", self.seconds, exc)

    async def claim(self, leases: PostgresLeases) -> None:
        """One claim: takes the lead if it is free or expired, or renews it if this instance holds it."""
        started, was = time.monotonic(), self.held
        try:
            claimed = ROLE in await leases.claim(self.owner, [ROLE], self.seconds)
        except StoreError as exc:
            log.warning("the projections' lead not claimed: %s", exc)
            return
        self._valid_until = started + self.seconds if claimed else 0.0
        if claimed != was:
            log.info("this instance %s the projections", "runs" if claimed else "no longer runs")
            self._changed.set()

    async def _claiming(self, leases: PostgresLeases) -> None:
        while True:
            await asyncio.sleep(self.every)
            await self.claim(leases)
