"""The match list as a projection of the events: a row from each match's ``MatchCreated``, rewritten by each
``SeatJoined`` of a match created with open seats and by its ``MatchEnded`` (services/readmodels/lifecycle.py).

Rows come from those two events and the creation command (labels, and the version the creation left), never
from a loaded match, so rebuilding the list replays the global order without folding a single match. The
manager hands this projection its own creations and ends as they commit (a client reads its own writes);
the subscription brings in everything else, other instances' included. A checkpoint row records the last
position projected, so after a crash the next start projects what the list missed. Rows only move forward:
running, then ended.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from datetime import datetime

import msgspec

from engine.match import MATCH_CREATED, MatchCreated
from engine.seating import SEAT_JOINED, SeatJoined
from eventstore import AsyncEventStore, RecordedEvent
from replays.format import is_match_id
from services.readmodels import lifecycle
from services.readmodels.lead import Lead
from services.readmodels.matchrows import ENDED, RUNNING, MatchRow, ReadModel
from services.readmodels.projector import CHECKPOINT_KEY, Progress, Projector

log = logging.getLogger(__name__)

CHECKPOINT = "matches_checkpoint"
_INDEXED_KEY = "running_index"
"""Present once ``matches_running`` is complete: a list made before that table existed is indexed once."""
_FILTERS_KEY = "filter_index"
"""Present once ``matches_ruleset`` and ``matches_label`` are complete: the same, for those two."""
_PAGE = 500
PROGRESS_EVENTS = 100_000
"""Events between the progress lines of a long catch-up (the first start on a store filled in process or by an
import, or a rebuild): the server answers only once it is done."""
_SAVE_EVERY = 256
"""Positions projected between checkpoint writes; replaying a few after a crash changes nothing."""
TYPES = (MATCH_CREATED, SEAT_JOINED, lifecycle.MATCH_ENDED)
"""The events the list is made of; the store skips the rest (most of them: every ruleset event)."""
_KNOWN = 8192
"""Statuses remembered, so that most events need no read of their row."""

_created_decoder = msgspec.json.Decoder(MatchCreated)
_ended_decoder = msgspec.json.Decoder(lifecycle.MatchEnded)
_joined_decoder = msgspec.json.Decoder(SeatJoined)


def created_row(
    match_id: str,
    created: MatchCreated,
    position: int,
    recorded_at: datetime,
    version: int,
    labels: dict[str, str],
    spectators: str,
    bots: dict[int, str],
) -> MatchRow:
    """A running match's row: ``position`` and ``recorded_at`` of its ``MatchCreated``, ``version`` the last its
    creation appended."""
    return MatchRow(
        match_id=match_id,
        ruleset=created.ruleset,
        ruleset_version=created.version,
        seats=created.seats,
        open_seats=created.open_seats,
        status=RUNNING,
        version=version,
        outcome=None,
        created_at=recorded_at,
        updated_at=recorded_at,
        seed_commitment=created.seed_commitment,
        labels=labels,
        position=position,
        spectators=spectators,
        bots=bots,
    )


def seated_row(row: MatchRow, joined: SeatJoined) -> MatchRow:
    """The row once ``joined`` took its seat (the same row if it was taken already: a row only moves forward)."""
    if joined.seat not in row.open_seats:
        return row
    seats = tuple(joined.name if i == joined.seat else name for i, name in enumerate(row.seats))
    still_open = tuple(seat for seat in row.open_seats if seat != joined.seat)
    return msgspec.structs.replace(row, seats=seats, open_seats=still_open)


def ended_row(row: MatchRow, ended: lifecycle.MatchEnded, recorded_at: datetime) -> MatchRow:
    """The row once the match's end is recorded (at ``recorded_at``)."""
    return msgspec.structs.replace(
        row, status=ENDED, version=ended.version, outcome=ended.outcome, updated_at=recorded_at
    )


class MatchList:
    """Keeps the ``ReadModel`` rows in step with the events (a ``Projection``)."""

    name = "match list"
    checkpoint_table = CHECKPOINT
    types: tuple[str, ...] = TYPES

    def __init__(self, store: AsyncEventStore, lead: Lead | None = None) -> None:
        """``lead``: follow the store only while this instance leads the projections (``lead.py``)."""
        self._store = store
        self.rows = ReadModel(store)
        self._known: OrderedDict[str, str] = OrderedDict()
        """The status last written per match (the most recent ones)."""
        self._lead = lead
        self._projector = Projector(store, self, _SAVE_EVERY, lead=lead)
        self._trusted = True
        """Whether the statuses this list remembers may spare it reading a row (not while it rebuilds)."""
        self._created = 0
        """Matches created in what the current catch-up projected."""

    async def created(
        self,
        match_id: str,
        created: MatchCreated,
        position: int,
        recorded_at: datetime,
        version: int,
        labels: dict[str, str],
        spectators: str,
        bots: dict[int, str],
    ) -> None:
        """Lists a match the manager just created (its stream is new, so it has no row yet)."""
        await self.rows.put(created_row(match_id, created, position, recorded_at, version, labels, spectators, bots))
        self._remember(match_id, RUNNING)

    async def seated(self, match_id: str, created: MatchCreated) -> None:
        """Shows the seating of a match the manager just seated a player in (``created``: as seated now)."""
        row = await self.rows.get(match_id)
        if row is not None and set(created.open_seats) < set(row.open_seats):
            await self.rows.put(msgspec.structs.replace(row, seats=created.seats, open_seats=created.open_seats))

    async def ended(self, ended: lifecycle.MatchEnded, recorded_at: datetime, listed: MatchRow | None = None) -> None:
        """Marks a match ended (listing it first if its creation was never projected); ``listed``: its row as
        the caller just read it."""
        await self._end(ended, recorded_at, listed)

    async def _end(
        self, ended: lifecycle.MatchEnded, recorded_at: datetime, listed: MatchRow | None = None, trusted: bool = True
    ) -> None:
        match_id = ended.match_id
        if trusted and self._known.get(match_id) == ENDED:
            return
        row = listed or await self.rows.get(match_id) or await self._row_from_stream(match_id)
        if row is not None and row.status != ENDED:
            await self.rows.put(ended_row(row, ended, recorded_at))
        self._remember(match_id, ENDED)

    async def relist(self, match_id: str) -> None:
        """Writes the match's running row again from its stream (an import, possibly listed half-way)."""
        row = await self._row_from_stream(match_id)
        if row is not None:
            await self.rows.put(row)
            self._remember(match_id, RUNNING)

    async def catch_up(self, progress: Progress | None = None) -> int:
        """Projects every event after the checkpoint (all of them, list cleared first, when there is none);
        returns how many matches were created in what it projected. ``progress`` is told after each page how many
        events are projected, of how many (a long catch-up is also logged)."""
        saved = await self._store.rows.get(CHECKPOINT, CHECKPOINT_KEY)
        if saved is None:
            await self.rows.clear()  # every index too: the projection writes them all from the events
            await self._store.rows.write([(CHECKPOINT, _INDEXED_KEY, b"1"), (CHECKPOINT, _FILTERS_KEY, b"1")])
        else:
            if await self._store.rows.get(CHECKPOINT, _INDEXED_KEY) is None:
                log.info("indexed the running matches of the match list: %d", await self.rows.index_running())
                await self._store.rows.put(CHECKPOINT, _INDEXED_KEY, b"1")
            if await self._store.rows.get(CHECKPOINT, _FILTERS_KEY) is None:
                indexed = await self.rows.index_filters()
                log.info("indexed the match list by ruleset and label: %d matches", indexed)
                await self._store.rows.put(CHECKPOINT, _FILTERS_KEY, b"1")
        start, head = int(saved or 0), await self._store.head()
        loud = head - start >= PROGRESS_EVENTS
        if loud:
            log.info("catching up the match list: positions %d to %d", start + 1, head)
        line_at = start + PROGRESS_EVENTS

        def told(done: int, total: int) -> None:
            nonlocal line_at
            if progress is not None:
                progress(done, total)
            # The last page is told by the caught-up line, not as one more position.
            if loud and line_at <= start + done < head:
                log.info("match list at position %d of %d", start + done, head)
                line_at = start + done + PROGRESS_EVENTS

        self._created = 0
        await self._projector.catch_up(told, _PAGE)
        if loud:
            log.info("match list caught up at position %d: %d matches listed", self._projector.position, self._created)
        return self._created

    async def rebuild(self, progress: Progress | None = None) -> int:
        """Clears the list and projects every event again; the subscription, if started, pauses meanwhile.

        The manager goes on listing its own writes. One that lands before the clearing is lost with it, yet
        remembered as listed: so the rebuild trusts no remembered status and reads each match's row."""
        following = await self._projector.rewind()
        await self._store.rows.clear(CHECKPOINT)
        self._known.clear()
        self._trusted = False
        try:
            created = await self.catch_up(progress=progress)
        finally:
            self._trusted = True
        if following:
            self.start()
        return created

    @property
    def position(self) -> int:
        """The last position of the store's global order the list has taken in."""
        return self._projector.position

    @property
    def following(self) -> bool:
        """Whether this instance folds the store into the list now (the one server, or the projections' lead)."""
        return self._lead is None or self._lead.held

    def start(self) -> None:
        """Follows the store from the position ``catch_up`` reached."""
        self._projector.start()

    async def stop(self) -> None:
        await self._projector.stop()

    async def project(self, recorded: RecordedEvent) -> bool:
        """Brings the list up to date with one event."""
        trusted = self._trusted
        created = recorded.version == 1 and recorded.type == MATCH_CREATED and is_match_id(recorded.stream_id)
        if created and not (trusted and recorded.stream_id in self._known):
            row = await self._row_from_stream(recorded.stream_id, recorded)
            if row is not None and await self.rows.get(row.match_id) is None:
                await self.rows.put(row)
            self._remember(recorded.stream_id, RUNNING)
        elif recorded.type == SEAT_JOINED and is_match_id(recorded.stream_id):
            row = await self.rows.get(recorded.stream_id)
            if row is not None and (seated := seated_row(row, _joined_decoder.decode(recorded.data))) != row:
                await self.rows.put(seated)
        elif recorded.type == lifecycle.MATCH_ENDED and recorded.stream_id.startswith(lifecycle.ENDED_STREAM_PREFIX):
            await self._end(_ended_decoder.decode(recorded.data), recorded.meta.recorded_at, trusted=trusted)
        self._created += created
        return False

    async def _row_from_stream(self, match_id: str, first: RecordedEvent | None = None) -> MatchRow | None:
        """The running row of a stored match, from its ``MatchCreated`` and its creation command."""
        if first is None:
            stored = await self._store.read_stream(match_id, 1, 1)
            if not stored or stored[0].type != MATCH_CREATED:
                return None
            first = stored[0]
        commands = await self._store.read_commands(match_id, limit=1)
        version = commands[0][2] if commands else 1
        request = lifecycle.request_in(commands[0][0].payload) if commands else lifecycle.CreateRequest()
        created = _created_decoder.decode(first.data)
        at = first.meta.recorded_at
        row = created_row(
            match_id, created, first.position, at, version, request.labels, request.spectators, request.bots
        )
        if created.open_seats:  # the joins so far: they follow it, one event each, before the setup
            for joined in await self._store.read_stream(match_id, 2, 1 + len(created.open_seats)):
                if joined.type == SEAT_JOINED:
                    row = seated_row(row, _joined_decoder.decode(joined.data))
        return row

    def _remember(self, match_id: str, status: str) -> None:
        self._known[match_id] = status
        self._known.move_to_end(match_id)
        if len(self._known) > _KNOWN:
            self._known.popitem(last=False)
