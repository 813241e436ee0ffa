"""The match list as a projection of the events: caught up from the store's global order on start and as it runs.

Each event brings its match's row up to date from the loaded match (``MatchManager.at_least``): a row from
the creation event, rewritten when the match ends. A checkpoint row records the last position projected, so
after a crash (or a submit that committed after its caller gave up) the next start projects what the list
missed, and the list never disagrees with the events for longer than the projection takes to catch up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict

from engine.match import MATCH_CREATED
from eventstore import AsyncEventStore, RecordedEvent, StoreError
from replays.format import is_match_id
from services import lifecycle
from services.errors import ServiceError
from services.manager import MatchManager
from services.readmodel import ENDED, RUNNING, ReadModel, row_for

log = logging.getLogger(__name__)

CHECKPOINT = "matches_checkpoint"
_CHECKPOINT_KEY = "position"
_PAGE = 500
_SAVE_EVERY = 256
"""Events projected between checkpoint writes; replaying a few after a crash changes nothing."""
_KNOWN = 8192
"""Statuses remembered, so that most events need no read of their row."""
RETRY = 1.0
"""Seconds before following the store again after it failed."""
LINGER = 0.02


class MatchList:
    """Keeps the ``ReadModel`` rows in step with the events."""

    def __init__(self, store: AsyncEventStore, manager: MatchManager) -> None:
        self._store = store
        self._manager = manager
        self._rows = ReadModel(store)
        self._known: OrderedDict[str, str] = OrderedDict()
        self._kinds: OrderedDict[str, bool] = OrderedDict()
        """Whether recently seen streams are matches."""
        self._position = 0
        self._saved = 0
        self._task: asyncio.Task[None] | None = None

    async def catch_up(self) -> int:
        """Projects every event after the checkpoint (all of them, list cleared first, when there is none);
        returns how many matches were created in what it projected."""
        saved = await self._store.rows.get(CHECKPOINT, _CHECKPOINT_KEY)
        if saved is None:
            await self._rows.clear()
        self._position = self._saved = int(saved or 0)
        created = 0
        while batch := await self._store.read_all(self._position + 1, _PAGE):
            for recorded in batch:
                created += await self._project(recorded) and recorded.version == 1
        await self._save()
        return created

    async def rebuild(self) -> int:
        """Clears the list and projects every event again."""
        await self._store.rows.clear(CHECKPOINT)
        self._known.clear()
        return await self.catch_up()

    def start(self) -> None:
        """Follows the store from the position ``catch_up`` reached."""
        self._task = asyncio.create_task(self._run(), name="duelhall-match-list")

    async def stop(self) -> None:
        if self._task is None:
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        try:
            await self._save()
        except StoreError as exc:
            log.warning("match list checkpoint not saved at shutdown: %s", exc)

    async def _run(self) -> None:
        while True:
            try:
                async for recorded in self._store.subscribe(self._position + 1, linger=LINGER):
                    await self._project(recorded)
                    if self._position - self._saved >= _SAVE_EVERY:
                        await self._save()
                return  # the store closed
            except StoreError as exc:
                log.warning("match list paused at position %d: %s; retrying in %.0f s", self._position, exc, RETRY)
                await asyncio.sleep(RETRY)

    async def _project(self, recorded: RecordedEvent) -> bool:
        """Brings the event's match row up to date; False for an event of a stream that is not a match."""
        match_id = recorded.stream_id
        if not await self._is_match(recorded):
            self._position = recorded.position
            return False
        try:
            hot = await self._manager.at_least(match_id, recorded.version)
        except ServiceError as exc:  # e.g. a match of a ruleset not hosted here: nothing to list
            log.warning("match list skips %s: %s", match_id, exc)
            self._position = recorded.position
            return False
        status = RUNNING if hot.outcome is None else ENDED
        if self._known.get(match_id) != status:
            row = await self._rows.get(match_id)
            if row is None or (row.status != status and row.status != ENDED):
                head = recorded if recorded.version == 1 else (await self._store.read_stream(match_id, 1, 1))[0]
                labels = None if row is not None else await lifecycle.labels_of(self._store, match_id)
                await self._rows.put(
                    row_for(hot, created_at=head.meta.recorded_at, previous=row, labels=labels, position=head.position)
                )
            self._known[match_id] = status
            self._known.move_to_end(match_id)
            if len(self._known) > _KNOWN:
                self._known.popitem(last=False)
        self._position = recorded.position
        return True

    async def _is_match(self, recorded: RecordedEvent) -> bool:
        """Whether the event's stream is a match (its head is ``MatchCreated``), not a tournament, a create
        request or a lifecycle record."""
        stream_id = recorded.stream_id
        if stream_id in self._known:
            return True
        kind = self._kinds.get(stream_id)
        if kind is None:
            if not is_match_id(stream_id):
                kind = False
            elif recorded.version == 1:
                kind = recorded.type == MATCH_CREATED
            else:
                head = await self._store.read_stream(stream_id, 1, 1)
                kind = bool(head) and head[0].type == MATCH_CREATED
            self._kinds[stream_id] = kind
            if len(self._kinds) > _KNOWN:
                self._kinds.popitem(last=False)
        return kind

    async def _save(self) -> None:
        if self._position != self._saved:
            await self._store.rows.put(CHECKPOINT, _CHECKPOINT_KEY, str(self._position).encode())
            self._saved = self._position
