"""The match manager: hot matches in memory, one writer per match, appends, reloads on lost races.

Commands for one match are serialised by its lock; the RNG stream of a command is keyed by the version of
its first event (docs/rng.md). A version conflict means another instance wrote the stream: reload the tail and
decide again. On a database shared with other instances a follower folds their appends into the loaded
matches. Every change is handed to the listeners wired in ``server.create_server``: the events to the
watchers' feed, the match to the timers.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from engine import registry
from engine.contract import Actor
from engine.errors import Rejected
from engine.match import Match, decide, encode, join, type_tag
from engine.seating import JOIN_COMMAND, SEAT_JOINED, Join
from eventstore import (
    Appended,
    AsyncEventStore,
    CommandRecord,
    NewEvent,
    RecordedEvent,
    StoreError,
    WrongExpectedVersion,
)
from eventstore.foreign import foreign_of
from services.core import limits
from services.core.errors import Ahead, InvalidArgument, MatchNotFound, Refused, RulesetUnavailable, VersionMismatch
from services.core.tasks import cancel, keep
from services.matches.creation import SeatEntry, created_match, creation, new_events
from services.matches.ends import EndRecorder, listed
from services.matches.follower import Follower
from services.matches.hot import HotMatch, MatchEvent, seen
from services.matches.loader import Unhosted, complete_log, fold_stored, load, replayed, save_snapshot
from services.matches.ownership import Ownership
from services.matches.replies import Created, Decision, RedactedEvent, Submitted, Viewed, decision
from services.matches.seating import (
    Seated,
    join_command_id,
    join_secrets,
    rejoined,
    requested_configs,
    started,
    stored_hashes,
)
from services.matches.spectators import viewer_of
from services.matches.tokens import SeatToken, new_token, seat_for, token_hash
from services.readmodels.lead import Lead
from services.readmodels.matchlist import MatchList
from services.readmodels.matchrows import PUBLIC, row_for

log = logging.getLogger(__name__)

_RETRIES = 8
FOLLOW_WAIT = 0.25
"""Seconds a read at a version another instance appended waits for the follower to hand that version over before
it reads the match's stream itself (the follower is paused, or far behind)."""

OnChange = Callable[[HotMatch], None]
"""Told that a match was loaded or changed (the timers re-arm)."""
OnEvents = Callable[[HotMatch, Sequence[MatchEvent]], None]
"""Handed the events a loaded match took on, in order, once it holds them (the watchers' feed)."""


class MatchManager:
    """Creates matches and runs their commands; keeps up to ``capacity`` matches loaded (LRU)."""

    def __init__(
        self,
        store: AsyncEventStore,
        *,
        shared: bool = False,
        capacity: int = 1024,
        snapshot_every: int = 200,
        ownership: Ownership | None = None,
        lead: Lead | None = None,
    ) -> None:
        self.store = store
        self.match_list = MatchList(store, lead)
        """The match list, a projection of the events; the manager hands it its own creations and ends."""
        self.read_model = self.match_list.rows
        self.shared = shared
        """Whether other instances write the same database (``eventstore.urls.is_shared``)."""
        self.capacity = capacity
        self.snapshot_every = snapshot_every
        self._hot: OrderedDict[str, HotMatch] = OrderedDict()
        self._on_change: list[OnChange] = []
        self.creations: list[OnChange] = []
        """Told of each match this manager created (metrics count them)."""
        self._on_events: list[OnEvents] = []
        foreign = foreign_of(store) if shared else None
        self._follower = Follower(foreign, self.apply_foreign, self._followed_streams) if foreign is not None else None
        self._awaited: dict[str, list[tuple[int, asyncio.Future[None]]]] = {}
        """Reads waiting for a loaded match to reach a version (``at_least``): the version, the waiter."""
        self._loading: dict[str, list[int]] = {}
        """Matches being loaded: [loads under way, the highest version the follower handed over meanwhile]. An
        event committed after a load read the tail would otherwise pass unseen, its match loaded behind it."""
        self.ownership = ownership or Ownership(None)
        """The matches this instance runs the timers and records the ends of (all of them but on PostgreSQL)."""
        self.ends = EndRecorder(store, self.match_list, self.ownership)
        self._owned_loads: set[asyncio.Task[None]] = set()
        self.unhosted = Unhosted()
        """Matches refused for a ruleset version this server does not host, already logged: once each."""

    def on_change(self, listener: OnChange) -> None:
        self._on_change.append(listener)

    def on_events(self, listener: OnEvents) -> None:
        self._on_events.append(listener)

    def _followed_streams(self) -> list[str]:
        """The matches whose other instances' events this one takes in: loaded (watched ones stay loaded), being
        loaded (a load must not miss an append made while it reads), or owned (its clock and end are this
        instance's to run, loaded or not)."""
        return [*self._hot, *self._loading, *self.ownership.matches]

    @property
    def followed(self) -> int | None:
        """The position of the last event the follower handed over (None: no follower, the database not shared)."""
        return self._follower.position if self._follower is not None else None

    async def start(self) -> None:
        """Follows the other instances' appends, on a shared database."""
        if self._follower is not None:
            await self._follower.start()

    async def stop(self) -> None:
        if self._follower is not None:  # first: folding an end starts recording it
            await self._follower.stop()
        for task in list(self._owned_loads):
            await cancel(task)
        await self.ends.stop()

    # -- creation ---------------------------------------------------------------------------------

    async def create(
        self,
        ruleset_id: str,
        seats: Sequence[SeatEntry],
        options: dict[str, Any],
        labels: dict[str, str] | None = None,
        seed: bytes = b"",
        tokens: Sequence[str] = (),
        ruleset_version: int = 0,
        spectators: str = PUBLIC,
        spectator_token: str = "",
        caster_delay: int = 0,
        caster_token: str = "",
    ) -> Created:
        """A new match with fresh seed and seat tokens (and a spectator token under the ``token`` policy);
        ``ConfigError`` for a bad configuration.

        Its id follows from the seed (``match_id_for``). ``seed`` and the tokens are chosen by the caller when
        a retried request must land on the same match (services/matches/create_requests.py); the append then fails
        with ``WrongExpectedVersion`` if it exists. ``ruleset_version`` 0 is the newest hosted version.
        """
        new = creation(
            ruleset_id,
            ruleset_version,
            seats,
            options,
            labels or {},
            seed,
            tokens,
            spectators,
            spectator_token,
            caster_delay,
            caster_token,
        )
        match_id = new.match_id
        # Before the append: a match stored is never without an owner, even if this instance dies right after.
        await self.ownership.claim([match_id])
        appended = await self.store.append(
            match_id, 0, new_events(new.ruleset, new.events), new.command, secrets=new.secrets
        )
        hot = created_match(new, appended.recorded_at)
        self._remember(hot)
        row = row_for(hot, created_at=appended.recorded_at, labels=new.labels, position=appended.first_position)
        await listed(
            self.match_list.created(
                match_id,
                new.created,
                appended.first_position,
                appended.recorded_at,
                appended.last_version,
                new.labels,
                spectators,
                new.bots,
            ),
            match_id,
        )
        for listener in self.creations:
            listener(hot)
        self._changed(hot)
        return Created(row=row, tokens=new.tokens, spectator_token=new.spectator_token, caster_token=new.caster_token)

    # -- commands ---------------------------------------------------------------------------------

    async def submit(
        self,
        match_id: str,
        actor: Actor | SeatToken,
        raw: bytes,
        command_id: str = "",
        expected_version: int | None = None,
    ) -> Submitted:
        """Decides and appends one command; retries with the same ``command_id`` get the first result.

        A ``SeatToken`` is checked against the match's token hashes once the match is at hand. The work runs
        to its end even when the caller is cancelled (a client deadline): an append that commits is always
        folded into the loaded match and the match list.
        """
        limits.command_id(command_id)
        work = asyncio.ensure_future(self._submit(match_id, actor, raw, command_id, expected_version))
        work.add_done_callback(_retrieved)
        return await asyncio.shield(work)

    async def _submit(
        self,
        match_id: str,
        actor: Actor | SeatToken,
        raw: bytes,
        command_id: str,
        expected_version: int | None,
    ) -> Submitted:
        hot = await self.get(match_id)
        if isinstance(actor, SeatToken):
            actor = seat_for(actor.token, hot.token_hashes)
        started(match_id, hot.match)
        command_id = command_id or uuid.uuid4().hex
        viewer = actor if isinstance(actor, int) else None
        async with hot.lock:
            for _ in range(_RETRIES):
                if command_id in hot.command_ids:
                    if self.shared and hot.outcome is not None:
                        await self.ends.confirm(hot)
                    return await replayed(self.store, hot, command_id, actor)
                if expected_version is not None and expected_version != hot.version:
                    raise VersionMismatch(
                        f"match is at version {hot.version}, not {expected_version}", actual=str(hot.version)
                    )
                try:
                    decided = decide(hot.ruleset, hot.match, actor, raw, hot.seed)
                except Rejected:
                    # On a shared database the copy may be behind another instance: refuse only when current.
                    # The embedded instance is the only writer, so its copy is current.
                    if self.shared and await self._catch_up(hot):
                        continue
                    # A retry of a command from before the match was loaded: answer it, do not refuse it.
                    if not hot.log_complete and await complete_log(self.store, hot, command_id):
                        continue
                    raise
                events = list(decided.events)
                record = CommandRecord(
                    command_id=command_id, actor=str(actor), type=type_tag(decided.command), payload=raw
                )
                new = new_events(hot.ruleset, events)
                try:
                    appended = await self.store.append(match_id, hot.version, new, record)
                except WrongExpectedVersion:
                    await self._catch_up(hot)
                    continue
                if appended.duplicate:  # a command from before the match was loaded, or another instance's
                    hot.command_ids[command_id] = (appended.first_version, appended.last_version)
                    if self.shared:
                        await self._catch_up(hot)
                    continue
                happened = _happened(appended, events, new, record.actor)
                await self._advanced(hot, decided.match, happened, command_id)
                shown = [seen(hot.ruleset, viewer, m.type, m.event, m.data) for m in happened]
                redacted = [
                    RedactedEvent(m.version, m.type, data, m.actor, m.recorded_at)
                    for m, data in zip(happened, shown, strict=True)
                ]
                return Submitted(redacted, hot.version, False, hot.ruleset.to_act(hot.state))
        raise VersionMismatch("the match kept changing under this command; retry", actual=str(hot.version))

    async def join(
        self, match_id: str, seat: int | None, name: str, config: dict[str, Any], request_id: str = ""
    ) -> Seated:
        """Seats a player in an open seat (``seat``, or the first open one when None) with a fresh token, whose
        hash is stored with the join. A request id is the join's command id (``seating.join_command_id``): its
        retry, on any instance, answers the seat it took and the same token, kept for it beside the hash.
        ``Refused(NO_OPEN_SEAT)`` when the seat (or every seat) is taken; ``ConfigError`` for a configuration
        the ruleset refuses."""
        hot = await self.get(match_id)
        if not name.strip():
            raise InvalidArgument("the joining player has no name", reason="SEAT_NAME_MISSING")
        limits.name(name, "the joining player's name", "SEAT_NAME_INVALID")
        if seat is not None and not 0 <= seat < len(hot.match.created.seats):
            raise InvalidArgument(
                f"seat {seat} is not a seat 0..{len(hot.match.created.seats) - 1}", reason="SEAT_INVALID"
            )
        command_id = join_command_id(request_id)
        token = new_token()
        async with hot.lock:
            for _ in range(_RETRIES):
                if command_id in hot.command_ids or (
                    request_id and not hot.log_complete and await complete_log(self.store, hot, command_id)
                ):
                    return await rejoined(self.store, hot, command_id, seat, name, config)
                still_open = hot.match.created.open_seats
                chosen = still_open[0] if seat is None and still_open else seat
                if chosen is None or chosen not in still_open:
                    # On a shared database the copy may be behind another instance: refuse only when current.
                    if self.shared and await self._catch_up(hot):
                        continue
                    where = "no seat is open" if seat is None else f"seat {seat} is not open"
                    raise Refused(f"match {match_id}: {where}", reason="NO_OPEN_SEAT")
                joined = Join(seat=chosen, name=name, config=config)
                configs, options = await requested_configs(self.store, match_id)
                decided = join(hot.ruleset, hot.match, joined, configs, options, hot.seed)
                events = list(decided.events)
                record = CommandRecord(command_id, actor=str(chosen), type=JOIN_COMMAND, payload=encode(joined))
                new = new_events(hot.ruleset, events)
                try:
                    appended = await self.store.append(
                        match_id, hot.version, new, record, secrets=join_secrets(chosen, token, bool(request_id))
                    )
                except WrongExpectedVersion:
                    await self._catch_up(hot)
                    continue
                if appended.duplicate:  # another instance answered this request first
                    hot.command_ids[command_id] = (appended.first_version, appended.last_version)
                    await self._catch_up(hot)
                    continue
                happened = _happened(appended, events, new, record.actor)
                hot.token_hashes = tuple(
                    token_hash(token) if i == chosen else known for i, known in enumerate(hot.token_hashes)
                )
                await self._advanced(hot, decided.match, happened, command_id)
                await listed(self.match_list.seated(match_id, hot.match.created), match_id)
                return Seated(chosen, token, hot.version)
        raise VersionMismatch("the match kept changing under this join; retry", actual=str(hot.version))

    async def _advanced(self, hot: HotMatch, after: Match, happened: list[MatchEvent], command_id: str) -> None:
        was_running = hot.outcome is None
        hot.advance(after, command_id, happened[-1].recorded_at)
        self._publish(hot, happened)
        if was_running and hot.outcome is not None:
            await self.ends.begin(hot)
        if hot.version // self.snapshot_every != (hot.version - len(happened)) // self.snapshot_every:
            await save_snapshot(self.store, hot)

    # -- reading ----------------------------------------------------------------------------------

    async def get(self, match_id: str) -> HotMatch:
        """The loaded match (loading it on a miss); ``MatchNotFound`` when it does not exist."""
        hot = self._hot.get(match_id)
        if hot is not None:
            self._hot.move_to_end(match_id)
            return hot
        loading = self._loading.setdefault(match_id, [0, 0])
        loading[0] += 1
        try:
            hot = await load(self.store, match_id)
        except registry.Unhosted as exc:
            raise self.unhosted.refusal(match_id, exc) from None
        finally:
            loading[0] -= 1
            if not loading[0]:
                del self._loading[match_id]
        passed = loading[1]
        existing = self._hot.get(match_id)
        if existing is not None:
            return existing
        self._remember(hot)
        if passed > hot.version:  # folded now, in order, so the watchers and timers hear of it
            async with hot.lock:
                await self._catch_up(hot)
        self._changed(hot)
        return hot

    async def at_least(self, match_id: str, min_version: int) -> HotMatch:
        """The loaded match, caught up with the store first when it is behind ``min_version``.

        Reads are served from memory, which the store subscription keeps current; a client that moves between
        instances passes the last version it saw to read its own writes. That version was appended by another
        instance, and the follower is about to hand it over: it is waited for (``FOLLOW_WAIT`` at most) rather
        than read a second time, a round trip per command saved when a match's seats call different instances.
        A version the store does not hold either is ``Ahead``.
        """
        hot = await self.get(match_id)
        if hot.version < min_version and self.shared:
            await self._followed(hot, min_version)
        if hot.version < min_version:
            async with hot.lock:
                await self._catch_up(hot)
        if hot.version < min_version:
            raise Ahead(
                f"match {match_id} has no version {min_version}: it is at {hot.version}", version=str(hot.version)
            )
        return hot

    async def _followed(self, hot: HotMatch, version: int) -> None:
        """Returns once ``hot`` is at ``version`` or later, or after ``FOLLOW_WAIT`` seconds."""
        waiter = asyncio.get_running_loop().create_future()
        awaited = self._awaited.setdefault(hot.match_id, [])
        awaited.append((version, waiter))
        try:
            async with asyncio.timeout(FOLLOW_WAIT):
                await waiter
        except TimeoutError:
            pass
        finally:
            awaited.remove((version, waiter))
            if not awaited:
                del self._awaited[hot.match_id]

    async def viewed(self, match_id: str, token: str, min_version: int = 0, admin: bool = False) -> Viewed:
        """The view of the token's seat (a spectator's without one, as the match's spectator policy allows;
        ``admin``: the token is the admin's), at ``min_version`` or later."""
        hot = await self.at_least(match_id, min_version)
        viewer = viewer_of(token, hot.token_hashes, hot.spectators, admin)
        started(match_id, hot.match)
        return Viewed(viewer, hot.version, encode(hot.ruleset.view(hot.state, viewer)), hot.ruleset.to_act(hot.state))

    async def decision(self, match_id: str, token: str, min_version: int = 0, include_view: bool = False) -> Decision:
        """The legal commands of the token's seat, at ``min_version`` or later."""
        hot = await self.at_least(match_id, min_version)
        seat = seat_for(token, hot.token_hashes)
        started(match_id, hot.match)
        return decision(hot, seat, include_view)

    def turn(self, match_id: str, seat: int) -> Decision:
        """A watched seat's legal commands now (its match is loaded while watched)."""
        hot = self._hot.get(match_id)
        if hot is None:
            raise MatchNotFound(f"no match {match_id!r}")
        return decision(hot, seat, include_view=False)

    async def reindex(self, match_id: str) -> None:
        """Lists a match from its events (after an import, which may have been loaded while its appends were
        still coming in), recording its end if it ended."""
        hot = await self.at_least(match_id, await self.store.last_version(match_id))
        await self.match_list.relist(match_id)
        if hot.outcome is not None:
            await self.ends.record(hot)

    async def take_over(self, match_id: str, settle: bool = False) -> None:
        """Runs a match this instance now owns: loaded and caught up with the store, its timer armed (one
        overdue fires at once) and its end recorded if it ended without one (its owner died in between;
        ``settle``: another instance may have just ended it and be recording its end)."""
        try:
            hot = await self.at_least(match_id, await self.store.last_version(match_id))
        except MatchNotFound:  # claimed by a creation that never appended
            await self.ownership.release(match_id)
            return
        except (RulesetUnavailable, StoreError) as exc:  # logged; the next owner, or a restart, runs it
            log.warning("match %s not taken over: %s", match_id, exc)
            return
        if hot.outcome is not None:
            self.ends.followed(hot, settle)
        else:
            self._changed(hot)

    @property
    def follower_lag(self) -> float:
        """Seconds the last event another instance appended took to reach this one (0 without a follower)."""
        return self._follower.lag if self._follower is not None else 0.0

    def loaded(self, match_id: str) -> HotMatch | None:
        return self._hot.get(match_id)

    @property
    def loaded_count(self) -> int:
        """How many matches are in memory."""
        return len(self._hot)

    async def apply_foreign(self, events: Sequence[RecordedEvent]) -> None:
        """Folds consecutive events of one stream, which another instance appended, into their match if it is
        loaded (the follower's callback: the events of one command at once)."""
        if not events:
            return
        last = events[-1]
        hot = self._hot.get(last.stream_id)
        if hot is None:
            loading = self._loading.get(last.stream_id)
            if loading is not None:
                loading[1] = max(loading[1], last.version)
            elif self.ownership.leased and self.ownership.owns(last.stream_id):
                # An owned match left the cache: its owner must still see its clock change and its end.
                keep(self._owned_loads, self.take_over(last.stream_id, True), f"duelhall-owned-{last.stream_id}")
            return
        if last.version <= hot.version:
            return
        async with hot.lock:
            fresh = [recorded for recorded in events if recorded.version > hot.version]
            if fresh and fresh[0].version == hot.version + 1:
                await self._fold_in(hot, fresh)
            elif fresh:
                await self._catch_up(hot)

    # -- loading ----------------------------------------------------------------------------------

    async def _catch_up(self, hot: HotMatch) -> bool:
        """Folds what other writers appended since the hot version, with their command ids; True if any."""
        tail = await self.store.read_stream(hot.match_id, hot.version + 1)
        if not tail:
            return False
        await self._fold_in(hot, tail)
        return True

    async def _fold_in(self, hot: HotMatch, tail: Sequence[RecordedEvent]) -> None:
        """Folds stored events that follow the hot version, and hands them on."""
        was_running = hot.outcome is None
        happened = fold_stored(hot, tail)
        if any(m.type == SEAT_JOINED for m in happened):  # another instance seated a player: its token's hash
            hot.token_hashes = await stored_hashes(self.store, hot.match_id, len(hot.token_hashes))
        self._publish(hot, happened)
        if was_running and hot.outcome is not None:
            # Another instance ended it and records its end; the owner makes sure, in the background: a store
            # fault here must not lose the end, nor stall the follower (every other match's events).
            self.ends.followed(hot)

    # -- cache ------------------------------------------------------------------------------------

    def _remember(self, hot: HotMatch) -> None:
        self._hot[hot.match_id] = hot
        self._hot.move_to_end(hot.match_id)
        # Evict the least recently used matches that no command and no watch holds.
        for _ in range(len(self._hot)):
            if len(self._hot) <= self.capacity:
                return
            oldest = next(iter(self._hot))
            held = self._hot[oldest]
            if held.lock.locked() or held.watches:
                self._hot.move_to_end(oldest)
            else:
                del self._hot[oldest]

    def _publish(self, hot: HotMatch, happened: Sequence[MatchEvent]) -> None:
        # Changes first: the timers re-arm, so the watchers' updates carry the new clock.
        self._changed(hot)
        for events_listener in self._on_events:
            events_listener(hot, happened)
        for version, waiter in self._awaited.get(hot.match_id, ()):
            if version <= hot.version and not waiter.done():
                waiter.set_result(None)

    def _changed(self, hot: HotMatch) -> None:
        for listener in self._on_change:
            listener(hot)


def _retrieved(work: asyncio.Future[Submitted]) -> None:
    """Marks a submit's error as seen when its caller was cancelled before hearing of it."""
    if not work.cancelled():
        work.exception()


def _happened(appended: Appended, events: Sequence[Any], new: Sequence[NewEvent], actor: str) -> list[MatchEvent]:
    """The events an append stored, as the match's followers take them."""
    first, at = appended.first_version, appended.recorded_at
    return [
        MatchEvent(first + i, n.type, e, n.data, actor, at) for i, (e, n) in enumerate(zip(events, new, strict=True))
    ]
