"""Recording a match's end: once in the lifecycle (``services/readmodels/lifecycle.py``), then in the match list.

The instance whose command ended the match records the end in the lifecycle before it answers that command
(``begin``): a call any instance receives after the reply then finds it, such as a tournament call, which waits
for the results of the matches that ended before it. The match list follows in the background: waiting on its
store round trips too made that command the slowest of all (p99 x2). An end the store refused is recorded again
until it takes it (it is recorded once, whoever tries), else by the next start (``server.resume_timers``), or by
the instance that takes the match over when this one dies (``services/matches/ownership.py``); then the match's
lease is released.

Another instance that folds that end (``followed``) records nothing unless it owns the match, and the owner first
lets the ending instance record it (``SETTLE``) and reads whether it did: with seats split across instances, both
recording every end was every conflict they had (a duplicate of the lifecycle record, and its reads, per match).
The owner still records an end whose instance died before recording it, and releases its lease either way. An
instance that answers a retried command of an ended match makes sure the end is recorded first (``confirm``): the
instance that ended it may have died before it could.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from eventstore import Appended, AsyncEventStore, StoreError
from services.core.tasks import cancel, keep
from services.matches.hot import HotMatch
from services.matches.ownership import Ownership
from services.readmodels import lifecycle
from services.readmodels.matchlist import MatchList
from services.readmodels.matchrows import MatchRow

log = logging.getLogger(__name__)

RETRY = 1.0
"""Seconds before an end the store failed to record is recorded again."""
SETTLE = 1.0
"""Seconds the owner of a match another instance ended leaves that instance to record the end before it looks."""


class EndRecorder:
    """Records the ends of the matches one manager runs."""

    def __init__(self, store: AsyncEventStore, match_list: MatchList, ownership: Ownership) -> None:
        self._store = store
        self._list = match_list
        self._ownership = ownership
        self._recording: set[asyncio.Task[None]] = set()
        """Ends being recorded after the command that ended the match was answered (``recorded``)."""
        self._retries: set[asyncio.Task[None]] = set()
        """Ends the store failed to record, recorded again until it takes them (not waited for: an outage)."""
        self.listeners: list[Callable[[HotMatch], None]] = []
        """Told of each end this recorder recorded first (another instance's, or an earlier try's, is not)."""
        self.settle = SETTLE
        self.settling: set[asyncio.Task[None]] = set()
        """Owned matches another instance ended, waiting for ``settle`` before their end is looked up (``followed``)."""

    async def begin(self, hot: HotMatch) -> None:
        """Records the end of ``hot`` in the lifecycle now (this instance's command ended it, and is answered
        next), and lists it in the background. A store fault leaves the end to the retries: the command is stored,
        and answered."""
        try:
            ended, row, recorded = await self._recorded(hot)
        except StoreError as exc:
            self._retry(hot, exc)
            return
        except Exception:  # a bug: said where it happened, and the stored command still answered
            log.exception("end of match %s not recorded", hot.match_id)
            return
        keep(self._recording, self._finished(hot, ended, row, recorded), f"duelhall-end-{hot.match_id}")

    async def confirm(self, hot: HotMatch) -> None:
        """Records the end of ``hot`` unless it is recorded (a retried command of the ended match is answered next:
        the instance whose command ended it may have died before recording it)."""
        await self._unless_recorded(hot, 0.0)

    def followed(self, hot: HotMatch, settle: bool = True) -> None:
        """``hot`` was found ended in the store (another instance ended it): its owner makes sure the end is
        recorded, after ``settle`` seconds when the ending instance is alive to record it itself."""
        if self._ownership.owns(hot.match_id):
            keep(
                self.settling,
                self._unless_recorded(hot, self.settle if settle else 0.0),
                f"duelhall-end-{hot.match_id}",
            )

    async def _unless_recorded(self, hot: HotMatch, settle: float) -> None:
        await asyncio.sleep(settle)
        try:
            recorded = await self._store.last_version(lifecycle.ended_stream(hot.match_id)) > 0
        except StoreError as exc:
            recorded = False
            log.warning("end of match %s not looked up: %s; recording it", hot.match_id, exc)
        if recorded:
            await self._ownership.release(hot.match_id)
        else:
            await self._logged(hot)

    async def recorded(self) -> None:
        """Returns once the ends being recorded when called are recorded and listed (``ListMatches`` waits for
        it, so a client that has just played a match to its end finds it listed as ended). Ends begun meanwhile
        are not waited for: under a steady stream of them the wait would never end."""
        if self._recording:
            await asyncio.wait(set(self._recording))

    async def stop(self) -> None:
        await self.recorded()
        for settling in list(self.settling):  # the ending instance recorded it, or a takeover or restart will
            await cancel(settling)
        for retry in list(self._retries):  # the next start records these ends (server.resume_timers)
            await cancel(retry)

    async def record(self, hot: HotMatch) -> None:
        """Records the end of ``hot`` now, once in the lifecycle, and lists it (a store fault is raised)."""
        await self._listing(hot, *await self._recorded(hot))

    async def _recorded(self, hot: HotMatch) -> tuple[lifecycle.MatchEnded, MatchRow | None, Appended]:
        """Records the end in the lifecycle, once; what listing it takes."""
        row = await self._list.rows.get(hot.match_id)
        labels = row.labels if row is not None else await lifecycle.labels_of(self._store, hot.match_id)
        created = hot.match.created
        assert hot.outcome is not None
        ended = lifecycle.MatchEnded(
            hot.match_id, created.ruleset, created.seats, labels, hot.outcome, hot.version, hot.spectators.policy
        )
        recorded = await lifecycle.record_end(self._store, ended)
        if not recorded.duplicate:
            for listener in self.listeners:
                listener(hot)
        return ended, row, recorded

    async def _listing(
        self, hot: HotMatch, ended: lifecycle.MatchEnded, row: MatchRow | None, recorded: Appended
    ) -> None:
        await listed(self._list.ended(ended, recorded.recorded_at, row), hot.match_id)
        await self._ownership.release(hot.match_id)

    async def _finished(
        self, hot: HotMatch, ended: lifecycle.MatchEnded, row: MatchRow | None, recorded: Appended
    ) -> None:
        try:
            await self._listing(hot, ended, row, recorded)
        except StoreError as exc:
            self._retry(hot, exc)

    async def _logged(self, hot: HotMatch) -> None:
        if (error := await self._tried(hot)) is not None:
            self._retry(hot, error)

    def _retry(self, hot: HotMatch, error: StoreError) -> None:
        log.warning("end of match %s not recorded: %s; retrying in %.0f s", hot.match_id, error, RETRY)
        keep(self._retries, self._retried(hot), f"duelhall-end-retry-{hot.match_id}")

    async def _retried(self, hot: HotMatch) -> None:
        while True:
            await asyncio.sleep(RETRY)
            if await self._tried(hot) is None:
                return

    async def _tried(self, hot: HotMatch) -> StoreError | None:
        """Records the end; the store fault that stopped it, to be tried again."""
        try:
            await self.record(hot)
        except StoreError as exc:
            return exc
        except Exception:  # a bug: said where it happened, not left for the task's garbage collection
            log.exception("end of match %s not recorded", hot.match_id)
        return None


async def listed(listing: Awaitable[None], match_id: str) -> None:
    """Lists a change after its append committed: on a store fault the projection's subscription lists it later,
    and the caller still hears that its command was stored."""
    try:
        await listing
    except StoreError as exc:
        log.warning("match list row for %s left to the projection: %s", match_id, exc)
