"""One projector for every read model: the subscription by event type, the checkpoint, the retry, the waiters.

A projection (``Projection``) names the event types it reads and folds one event into its rows; the projector
feeds it the store's global order from the position after its checkpoint: a catch-up in pages, then live. It
saves the checkpoint every ``save_every`` positions and after any event the projection asks it to (work too
dear to do twice), pauses on a store fault and resumes where it was, and tells ``caught_up`` waiters once it has
passed their position. Projections are idempotent per event, so a crash between a write and the checkpoint
only replays a few events. Adding a read model is a ``Projection`` and a ``Projector`` for it
(ARCHITECTURE.md, "Adding a projection").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from eventstore import AsyncEventStore, RecordedEvent, StoreError
from services.core.tasks import cancel
from services.readmodels.lead import Lead

log = logging.getLogger(__name__)

CHECKPOINT_KEY = "position"
"""The key of a projection's checkpoint in its checkpoint table."""
RETRY = 1.0
"""Seconds before following the store again after it failed."""
LINGER = 0.02
"""Seconds a live projection lets commits gather between reads."""
PAGE = 500
"""Events of each type per read of a catch-up."""
SAVE_SOON = 0.2
"""Seconds after catching up that a led projection saves its checkpoint: instances that do not lead wait on it."""
POLL = 0.05
"""Seconds between reads of the stored checkpoint by an instance waiting on a projection another instance leads."""

Progress = Callable[[int, int], None]
"""Told the events a catch-up has projected, and how many it has to."""


class Projection(Protocol):
    """A read model folded from the events of ``types``, in global order."""

    name: str
    """What log lines call it."""
    checkpoint_table: str
    """The table (of the store's projection rows) that holds its checkpoint."""
    types: tuple[str, ...]
    """The event types it reads; the store skips the rest."""

    async def project(self, recorded: RecordedEvent) -> bool:
        """Folds one event; True if the checkpoint must move past it at once."""
        ...


class Projector:
    """Runs one projection: ``catch_up`` and ``start`` feed it, ``stop`` cancels it."""

    def __init__(
        self,
        store: AsyncEventStore,
        projection: Projection,
        save_every: int,
        retry: float = RETRY,
        lead: Lead | None = None,
    ) -> None:
        """``lead``: follow live only while this instance leads (``lead.py``); None: always."""
        self._store = store
        self._lead = lead
        self._saving: asyncio.Task[None] | None = None
        self._projection = projection
        self._save_every = save_every
        self._retry = retry
        self._position: int | None = None
        """Every event up to here is projected; None until the checkpoint is read."""
        self._saved = 0
        self._task: asyncio.Task[None] | None = None
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []

    @property
    def position(self) -> int:
        return self._position or 0

    async def checkpoint(self) -> int:
        """The position the stored checkpoint says is projected (0: none)."""
        stored = await self._store.rows.get(self._projection.checkpoint_table, CHECKPOINT_KEY)
        return 0 if stored is None else int(stored)

    async def catch_up(self, progress: Progress | None = None, page: int = PAGE) -> None:
        """Projects every event after the checkpoint, page by page, saving the checkpoint after each page;
        ``progress`` is told after each page how many events are projected, of how many."""
        await self._resume()
        first, head, types = self.position, await self._store.head(), self._projection.types
        while (found := await self._store.read_all(self.position + 1, page, types)).through > self.position:
            for recorded in found.events:
                await self._project(recorded)
            # Saved as it goes: a catch-up stopped half-way through a long history resumes where it was.
            await self._save(found.through)
            self._passed(found.through)
            if progress is not None:
                progress(self.position - first, max(head, self.position) - first)

    def start(self) -> None:
        """Follows the store live from where the projection is (its checkpoint, if it has not caught up); under a
        lead, only while this instance leads, from the stored checkpoint when it starts leading."""
        self._task = asyncio.create_task(self._run(), name=f"duelhall-{self._projection.name.replace(' ', '-')}")

    async def stop(self) -> None:
        """Cancels the following and saves the checkpoint where it stopped; a new start resumes from the stored
        checkpoint."""
        if self._task is None:
            return
        await self._halt()
        try:
            await self._save()
        except StoreError as exc:
            log.warning("%s: checkpoint not saved at shutdown: %s", self._projection.name, exc)
        self._position = None

    async def rewind(self) -> bool:
        """Stops following, and forgets the position: the next catch-up starts from the stored checkpoint (from
        the first event once the caller has dropped it). True if it was following."""
        following = self._task is not None
        await self._halt()
        self._position = None
        return following

    async def _halt(self) -> None:
        """Cancels the following and a checkpoint save it scheduled (which must not land after a caller's clear)."""
        for task in (self._task, self._saving):
            if task is not None:
                await cancel(task)
        self._task = self._saving = None

    async def caught_up(self, position: int, timeout: float) -> bool:
        """Returns once every event up to ``position`` is projected; False if that took over ``timeout`` seconds
        (a long catch-up, a store outage). Where another instance leads, its stored checkpoint tells."""
        if self.position >= position:
            return True
        if self._lead is not None and not self._lead.held:
            return await self._stored_past(position, timeout)
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append((position, waiter))
        try:
            async with asyncio.timeout(timeout):  # not wait_for, which may swallow a cancellation (subscription.py)
                await waiter
        except TimeoutError:
            return False
        finally:
            self._waiters.remove((position, waiter))
        return True

    async def _stored_past(self, position: int, timeout: float) -> bool:
        try:
            async with asyncio.timeout(timeout):
                while await self.checkpoint() < position:
                    await asyncio.sleep(POLL)
        except TimeoutError:
            return False
        return True

    async def _run(self) -> None:
        name = self._projection.name
        while True:
            try:
                if self._lead is not None and not self._lead.held:
                    await self._lead.acquired()
                    self._position = None  # the instance that led meanwhile moved the checkpoint
                await self._resume()
                async for found in self._store.subscribe(self.position + 1, LINGER, self._projection.types):
                    for recorded in found.events:
                        await self._project(recorded)
                    if found.through - self._saved >= self._save_every:
                        await self._save(found.through)
                    self._passed(found.through)
                    if self._lead is not None and self._lead.leased:
                        if not self._lead.held:
                            break
                        if not found.more and self._saving is None:
                            self._saving = asyncio.create_task(self._save_soon())
                else:
                    return  # the store closed
                continue
            except StoreError as exc:  # the database gone a moment: no bug, no traceback
                log.warning("%s paused at position %d: %s; retrying in %.0f s", name, self.position, exc, self._retry)
            except Exception:
                log.exception("%s stopped at position %d; retrying in %.0f s", name, self.position, self._retry)
            await asyncio.sleep(self._retry)

    async def _resume(self) -> None:
        if self._position is None:
            self._position = self._saved = await self.checkpoint()

    async def _project(self, recorded: RecordedEvent) -> None:
        if await self._projection.project(recorded):
            await self._save(recorded.position)
        self._passed(recorded.position)

    async def _save_soon(self) -> None:
        try:
            await asyncio.sleep(SAVE_SOON)
            await self._save()
        except StoreError as exc:
            log.warning("%s: checkpoint not saved: %s", self._projection.name, exc)
        finally:
            self._saving = None

    def _passed(self, position: int) -> None:
        """Moves the position, and tells the waiters it reached: after any save of it, so that a waiter finds
        the checkpoint where the projection is."""
        self._position = max(self.position, position)
        for target, waiter in self._waiters:
            if target <= self.position and not waiter.done():
                waiter.set_result(None)

    async def _save(self, position: int | None = None) -> None:
        position = self.position if position is None else position
        if position != self._saved:
            await self._store.rows.put(self._projection.checkpoint_table, CHECKPOINT_KEY, str(position).encode())
            self._saved = position
