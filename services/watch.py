"""Watching matches: one store subscription feeds every watcher, each event redacted for its viewer.

The feed reads the store's global order, so a watcher sees events whichever instance appended them, and a
watch resumed from version N gets exactly the events after N (history from the store, then live, with the
overlap dropped by version). It also folds other instances' events into loaded matches, so a server on a
shared database (PostgreSQL) follows the store from the start; the embedded SQLite server, a single
instance, only once someone watches, since until then every event is its own.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

import msgspec

from engine.contract import Viewer
from engine.match import MATCH_CREATED, apply, encode, event_decoder, fold
from eventstore import RecordedEvent
from services.errors import Unavailable
from services.hot import HotMatch

log = logging.getLogger(__name__)

_RENDER_CACHE = 4096
LINGER = 0.02
"""Seconds the feed lets commits gather between reads: one query per interval instead of one per commit."""


class Update(msgspec.Struct, frozen=True):
    """One event as a viewer may see it, optionally with the viewer's view after it."""

    recorded: RecordedEvent
    data: bytes
    view: bytes | None
    ended: bool


class Feed:
    """Routes stored events to the queues of the matches' watchers."""

    def __init__(self, store: Any, manager: Any, *, eager: bool = True) -> None:
        self._store = store
        self._manager = manager
        self._eager = eager
        self._queues: dict[str, set[asyncio.Queue[RecordedEvent | None]]] = {}
        self._ending = False
        self._rendered: OrderedDict[tuple[str, int, Viewer], bytes] = OrderedDict()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Follows the store from its current head now if eager, else from the first watch on."""
        if self._eager:
            await self._follow()

    async def _follow(self) -> None:
        if self._task is None:
            head = await self._store.head_position()
            self._task = asyncio.create_task(self._run(head + 1))

    def end_watches(self) -> None:
        """Ends every open watch with ``Unavailable`` and refuses new ones (the server is shutting down)."""
        self._ending = True
        for queues in self._queues.values():
            for queue in queues:
                queue.put_nowait(None)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    async def _run(self, from_position: int) -> None:
        async for recorded in self._store.subscribe(from_position, linger=LINGER):
            hot = self._manager.loaded(recorded.stream_id)
            if hot is not None and recorded.version > hot.version:
                await self._manager.apply_foreign(hot, recorded)
            for queue in self._queues.get(recorded.stream_id, ()):
                queue.put_nowait(recorded)

    def render(self, hot: HotMatch, recorded: RecordedEvent, viewer: Viewer) -> bytes:
        """The event's JSON as ``viewer`` may see it, computed once per viewer."""
        key = (recorded.stream_id, recorded.version, viewer)
        cached = self._rendered.get(key)
        if cached is not None:
            return cached
        if recorded.type == MATCH_CREATED:
            data = recorded.data
        else:
            event = event_decoder(hot.ruleset).decode(recorded.data)
            data = encode(hot.ruleset.redact(event, viewer))
        self._rendered[key] = data
        if len(self._rendered) > _RENDER_CACHE:
            self._rendered.popitem(last=False)
        return data

    async def watch(
        self, match_id: str, viewer: Viewer, from_version: int, include_view: bool,
    ) -> AsyncIterator[Update]:
        """Events after ``from_version`` for ``viewer``: stored ones, then live ones until the match ends."""
        if self._ending:
            raise Unavailable("the server is shutting down; watch on another instance")
        hot = await self._manager.get(match_id)
        queue: asyncio.Queue[RecordedEvent | None] = asyncio.Queue()
        self._queues.setdefault(match_id, set()).add(queue)
        try:
            # Live events start after the head read here; the history read below covers the rest.
            await self._follow()
            decoder = event_decoder(hot.ruleset)
            start = 1 if include_view else from_version + 1
            history = await self._store.read_stream(match_id, start)
            folded = None
            last = from_version
            for recorded in history:
                if include_view:
                    folded = _advance(hot, folded, decoder.decode(recorded.data))
                if recorded.version <= from_version:
                    continue
                yield self._update(hot, recorded, viewer, folded)
                last = recorded.version
            while not (hot.outcome is not None and last >= hot.version):
                recorded = await queue.get()
                if recorded is None:
                    raise Unavailable(f"the server is shutting down; resume from version {last} on another instance",
                                      version=str(last))
                if recorded.version <= last:
                    continue
                for missing in await self._store.read_stream(match_id, last + 1, recorded.version):
                    if include_view:
                        folded = _advance(hot, folded, decoder.decode(missing.data))
                    yield self._update(hot, missing, viewer, folded)
                    last = missing.version
        finally:
            queues = self._queues.get(match_id, set())
            queues.discard(queue)
            if not queues:
                self._queues.pop(match_id, None)

    def _update(self, hot: HotMatch, recorded: RecordedEvent, viewer: Viewer, folded: Any) -> Update:
        view = None if folded is None else encode(hot.ruleset.view(folded.state, viewer))
        ended = hot.outcome is not None and recorded.version >= hot.version
        return Update(recorded=recorded, data=self.render(hot, recorded, viewer), view=view, ended=ended)


def _advance(hot: HotMatch, folded: Any, event: Any) -> Any:
    if folded is None:
        return fold(hot.ruleset, [event])
    return apply(hot.ruleset, folded, [event])
