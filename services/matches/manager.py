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
import secrets
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

import msgspec

from engine import registry
from engine.contract import SYSTEM, Actor, Ruleset, Viewer
from engine.errors import Rejected
from engine.match import (
    Match,
    MatchCreated,
    create,
    decide,
    encode,
    event_decoder,
    start,
    type_tag,
)
from eventstore import (
    AsyncEventStore,
    CommandRecord,
    NewEvent,
    RecordedEvent,
    StoreError,
    WrongExpectedVersion,
)
from replays.format import is_match_id, match_id_for
from replays.storage import SEED_SECRET
from services.core import limits
from services.core.errors import Ahead, Conflict, InvalidArgument, MatchNotFound, VersionMismatch
from services.core.tasks import cancel, keep
from services.matches import snapshots
from services.matches.deadlines import NONE, Deadlines, folded
from services.matches.follower import Follower, commands
from services.matches.hot import HotMatch, MatchEvent, seen
from services.matches.tokens import TOKEN_SECRET_PREFIX, SeatToken, new_token, seat_for, token_hash, viewer_for
from services.readmodels import lifecycle
from services.readmodels.matchlist import MatchList
from services.readmodels.matchrows import MatchRow, row_for

log = logging.getLogger(__name__)

CREATE_COMMAND = "create_match"
_RETRIES = 8
END_RETRY = 1.0
"""Seconds before an end the store failed to record is recorded again."""

OnChange = Callable[[HotMatch], None]
"""Told that a match was loaded or changed (the timers re-arm)."""
OnEvents = Callable[[HotMatch, Sequence[MatchEvent]], None]
"""Handed the events a loaded match took on, in order, once it holds them (the watchers' feed)."""


class SeatEntry(msgspec.Struct, frozen=True):
    name: str
    config: dict[str, Any]


class Created(msgspec.Struct, frozen=True):
    row: MatchRow
    tokens: list[str]


class RedactedEvent(msgspec.Struct, frozen=True):
    """One event as one viewer may see it: ``data`` is its JSON, redacted for that viewer."""

    version: int
    type: str
    data: bytes
    actor: str
    recorded_at: datetime


class Submitted(msgspec.Struct, frozen=True):
    """Everything the reply to a command needs, taken under the match's lock."""

    events: list[RedactedEvent]
    """The command's events as the submitter may see them."""
    version: int
    duplicate: bool
    to_act: tuple[int, ...]


class Viewed(msgspec.Struct, frozen=True):
    """What a viewer sees of a match now."""

    viewer: Viewer
    version: int
    view: bytes
    to_act: tuple[int, ...]


class Decision(msgspec.Struct, frozen=True):
    """What a seat needs to act now: its legal commands (JSON), and its view when asked for."""

    seat: int
    version: int
    commands: list[bytes]
    view: bytes | None
    to_act: tuple[int, ...]


def ruleset_for(ruleset_id: str) -> Ruleset:
    """The hosted ruleset, or ``InvalidArgument(UNKNOWN_RULESET)``."""
    try:
        return registry.get(ruleset_id)
    except KeyError as exc:
        raise InvalidArgument(str(exc.args[0]), reason="UNKNOWN_RULESET") from None


def new_match_id() -> str:
    """Time-ordered: 12 hex digits of milliseconds, then 20 random hex digits (tournaments; a match's id is
    derived from its seed commitment, ``replays.format.match_id_for``)."""
    return f"{int(time.time() * 1000):012x}{secrets.token_hex(10)}"


def actor_name(actor: Actor) -> str:
    return str(actor)


class MatchManager:
    """Creates matches and runs their commands; keeps up to ``capacity`` matches loaded (LRU)."""

    def __init__(
        self,
        store: AsyncEventStore,
        *,
        shared: bool = False,
        capacity: int = 1024,
        snapshot_every: int = 200,
    ) -> None:
        self.store = store
        self.match_list = MatchList(store)
        """The match list, a projection of the events; the manager hands it its own creations and ends."""
        self.read_model = self.match_list.rows
        self.shared = shared
        """Whether other instances write the same database (``eventstore.urls.is_shared``)."""
        self.capacity = capacity
        self.snapshot_every = snapshot_every
        self._hot: OrderedDict[str, HotMatch] = OrderedDict()
        self._on_change: list[OnChange] = []
        self._on_events: list[OnEvents] = []
        self._follower = Follower(store, self.apply_foreign) if shared else None
        self._loading: dict[str, list[int]] = {}
        """Matches being loaded: [loads under way, the highest version the follower handed over meanwhile]. An
        event committed after a load read the tail would otherwise pass unseen, its match loaded behind it."""
        self._ends: set[asyncio.Task[None]] = set()
        """Ends being recorded after the command that ended the match was answered (``ends_recorded``)."""
        self._end_retries: set[asyncio.Task[None]] = set()
        """Ends the store failed to record, recorded again until it takes them (not waited for: an outage)."""

    def on_change(self, listener: OnChange) -> None:
        self._on_change.append(listener)

    def on_events(self, listener: OnEvents) -> None:
        self._on_events.append(listener)

    async def start(self) -> None:
        """Follows the other instances' appends, on a shared database."""
        if self._follower is not None:
            await self._follower.start()

    async def stop(self) -> None:
        if self._follower is not None:  # first: folding an end starts recording it
            await self._follower.stop()
        await self.ends_recorded()
        for retry in list(self._end_retries):  # the next start records these ends (server.resume_timers)
            await cancel(retry)

    async def ends_recorded(self) -> None:
        """Returns once the ends this manager was recording when called are recorded and listed (``ListMatches``
        waits for it, so a client that has just played a match to its end finds it listed as ended). Ends begun
        meanwhile are not waited for: under a steady stream of them the wait would never end."""
        if self._ends:
            await asyncio.wait(set(self._ends))

    # -- creation ---------------------------------------------------------------------------------

    def check(
        self, ruleset_id: str, seats: Sequence[SeatEntry], options: dict[str, Any], labels: dict[str, str]
    ) -> None:
        """Raises what ``create`` would refuse this request with, before anything is stored (a request id's
        claim must not be spent on a request that cannot create its match)."""
        ruleset = self._checked(ruleset_id, seats, labels)
        ruleset.configure({"seats": [seat.config for seat in seats], "options": options})

    def _checked(self, ruleset_id: str, seats: Sequence[SeatEntry], labels: dict[str, str]) -> Ruleset:
        ruleset = ruleset_for(ruleset_id)
        if not ruleset.min_seats <= len(seats) <= ruleset.max_seats:
            players = (
                f"{ruleset.min_seats}"
                if ruleset.min_seats == ruleset.max_seats
                else f"{ruleset.min_seats} to {ruleset.max_seats}"
            )
            raise InvalidArgument(
                f"{ruleset.id} takes {players} seats, not {len(seats)}",
                reason="PLAYER_COUNT_INVALID",
                min=str(ruleset.min_seats),
                max=str(ruleset.max_seats),
                count=str(len(seats)),
            )
        for index, seat in enumerate(seats):
            if not seat.name.strip():
                raise InvalidArgument(f"seat {index} has no name", reason="SEAT_NAME_MISSING", seat=str(index))
            limits.name(seat.name, f"seat {index}'s name", "SEAT_NAME_INVALID", seat=str(index))
        limits.labels(labels)
        return ruleset

    async def create(
        self,
        ruleset_id: str,
        seats: Sequence[SeatEntry],
        options: dict[str, Any],
        labels: dict[str, str] | None = None,
        seed: bytes = b"",
        tokens: Sequence[str] = (),
    ) -> Created:
        """A new match with fresh seed and seat tokens; ``ConfigError`` for a bad configuration.

        Its id follows from the seed (``match_id_for``). ``seed`` and ``tokens`` are chosen by the caller when
        a retried request must land on the same match (services/matches/create_requests.py); the append then fails
        with ``WrongExpectedVersion`` if it exists.
        """
        ruleset = self._checked(ruleset_id, seats, labels or {})
        seed = seed or secrets.token_bytes(32)
        config_data = {"seats": [seat.config for seat in seats], "options": options}
        names = [seat.name for seat in seats]
        events = create(ruleset, config_data, names, seed)
        match_id = match_id_for(events[0].seed_commitment)
        tokens = list(tokens) or [new_token() for _ in seats]
        labels = dict(sorted((labels or {}).items()))
        payload = encode(
            {
                "ruleset": ruleset_id,
                "seats": [msgspec.to_builtins(s) for s in seats],
                "options": options,
                "labels": labels,
            }
        )
        command = CommandRecord(command_id=f"create-{match_id}", actor=SYSTEM, type=CREATE_COMMAND, payload=payload)
        hidden = {SEED_SECRET: seed} | {f"{TOKEN_SECRET_PREFIX}{i}": token_hash(t) for i, t in enumerate(tokens)}
        appended = await self.store.append(match_id, 0, _new_events(events), command, secrets=hidden)
        match, deadlines = folded(ruleset, start(ruleset, events[0]), NONE, [(events[1:], appended.recorded_at)])
        hot = HotMatch(
            match_id,
            ruleset,
            match,
            seed,
            tuple(hidden[f"{TOKEN_SECRET_PREFIX}{i}"] for i in range(len(tokens))),
            {command.command_id: (1, len(events))},
            appended.recorded_at,
            deadlines,
        )
        self._remember(hot)
        row = row_for(hot, created_at=appended.recorded_at, labels=labels, position=appended.first_position)
        await self._list(
            self.match_list.created(
                match_id, events[0], appended.first_position, appended.recorded_at, appended.last_version, labels
            ),
            match_id,
        )
        self._changed(hot)
        return Created(row=row, tokens=tokens)

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
        command_id = command_id or uuid.uuid4().hex
        viewer = actor if isinstance(actor, int) else None
        async with hot.lock:
            for _ in range(_RETRIES):
                if command_id in hot.command_ids:
                    return await self._replayed(hot, command_id, actor)
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
                    if not hot.log_complete and await self._complete_log(hot, command_id):
                        continue
                    raise
                events = list(decided.events)
                record = CommandRecord(
                    command_id=command_id, actor=actor_name(actor), type=type_tag(decided.command), payload=raw
                )
                new = _new_events(events)
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
                first, at = appended.first_version, appended.recorded_at
                happened = [
                    MatchEvent(first + i, n.type, e, n.data, record.actor, at)
                    for i, (e, n) in enumerate(zip(events, new, strict=True))
                ]
                await self._advanced(hot, decided.match, happened, command_id)
                redacted = [
                    RedactedEvent(m.version, m.type, seen(hot.ruleset, viewer, m.type, m.event, m.data), m.actor, at)
                    for m in happened
                ]
                return Submitted(redacted, hot.version, False, hot.ruleset.to_act(hot.state))
        raise VersionMismatch("the match kept changing under this command; retry", actual=str(hot.version))

    async def _advanced(self, hot: HotMatch, after: Match, happened: list[MatchEvent], command_id: str) -> None:
        was_running = hot.outcome is None
        hot.advance(after, command_id, happened[-1].recorded_at)
        self._publish(hot, happened)
        if was_running and hot.outcome is not None:
            self._record_end(hot)
        if hot.version // self.snapshot_every != (hot.version - len(happened)) // self.snapshot_every:
            await self._snapshot(hot)

    def _record_end(self, hot: HotMatch) -> None:
        """Records the end after the command that ended the match is answered: waiting on its three store round
        trips (the row, the lifecycle record, the list) made that command the slowest of all (p99 x2)."""
        keep(self._ends, self._end_logged(hot), f"duelhall-end-{hot.match_id}")

    async def _end_logged(self, hot: HotMatch) -> None:
        if (error := await self._end_tried(hot)) is not None:
            # The command is stored and answered: the end is recorded again until the store takes it (it is
            # recorded once, whoever tries), else by the next start (server.resume_timers).
            log.warning("end of match %s not recorded: %s; retrying in %.0f s", hot.match_id, error, END_RETRY)
            keep(self._end_retries, self._end_retried(hot), f"duelhall-end-retry-{hot.match_id}")

    async def _end_retried(self, hot: HotMatch) -> None:
        while True:
            await asyncio.sleep(END_RETRY)
            if await self._end_tried(hot) is None:
                return

    async def _end_tried(self, hot: HotMatch) -> StoreError | None:
        """Records the end; the store fault that stopped it, to be tried again."""
        try:
            await self.ended(hot)
        except StoreError as exc:
            return exc
        except Exception:  # a bug: said where it happened, not left for the task's garbage collection
            log.exception("end of match %s not recorded", hot.match_id)
        return None

    async def _replayed(self, hot: HotMatch, command_id: str, actor: Actor) -> Submitted:
        """The first result of a command id, as of the versions it appended. Ids are idempotency keys of the
        actor that submitted them: another actor's reuse is ``Conflict(COMMAND_ID_REUSED)``, never another
        seat's result."""
        first, last = hot.command_ids[command_id]
        recorded = await self.store.read_stream(hot.match_id, first, last)
        if recorded and recorded[0].meta.actor != actor_name(actor):
            raise Conflict(
                f"command id {command_id!r} was already used by another seat",
                reason="COMMAND_ID_REUSED",
                command_id=command_id,
            )
        viewer = actor if isinstance(actor, int) else None
        decoder = event_decoder(hot.ruleset)
        events = [
            RedactedEvent(
                r.version,
                r.type,
                seen(hot.ruleset, viewer, r.type, decoder.decode(r.data), r.data),
                r.meta.actor,
                r.meta.recorded_at,
            )
            for r in recorded
        ]
        return Submitted(events, last, True, hot.ruleset.to_act(hot.state))

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
            hot = await self._load(match_id)
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
        instances passes the last version it saw to read its own writes. A version the store does not hold
        either is ``Ahead``.
        """
        hot = await self.get(match_id)
        if hot.version < min_version:
            async with hot.lock:
                await self._catch_up(hot)
        if hot.version < min_version:
            raise Ahead(
                f"match {match_id} has no version {min_version}: it is at {hot.version}", version=str(hot.version)
            )
        return hot

    async def viewed(self, match_id: str, token: str, min_version: int = 0) -> Viewed:
        """The view of the token's seat (a spectator's without a token), at ``min_version`` or later."""
        hot = await self.at_least(match_id, min_version)
        viewer = viewer_for(token, hot.token_hashes)
        return Viewed(viewer, hot.version, encode(hot.ruleset.view(hot.state, viewer)), hot.ruleset.to_act(hot.state))

    async def decision(self, match_id: str, token: str, min_version: int = 0, include_view: bool = False) -> Decision:
        """The legal commands of the token's seat, at ``min_version`` or later."""
        hot = await self.at_least(match_id, min_version)
        return decision(hot, seat_for(token, hot.token_hashes), include_view)

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
            await self.ended(hot)

    async def ended(self, hot: HotMatch) -> None:
        """A match ended: its end is recorded once in the lifecycle (services/readmodels/lifecycle.py), and listed."""
        row = await self.read_model.get(hot.match_id)
        labels = row.labels if row is not None else await lifecycle.labels_of(self.store, hot.match_id)
        created = hot.match.created
        assert hot.outcome is not None
        ended = lifecycle.MatchEnded(hot.match_id, created.ruleset, created.seats, labels, hot.outcome, hot.version)
        recorded = await lifecycle.record_end(self.store, ended)
        await self._list(self.match_list.ended(ended, recorded.recorded_at, row), hot.match_id)

    async def _list(self, listing: Awaitable[None], match_id: str) -> None:
        """Lists a change after its append committed: on a store fault the projection's subscription lists it
        later, and the caller still hears that its command was stored."""
        try:
            await listing
        except StoreError as exc:
            log.warning("match list row for %s left to the projection: %s", match_id, exc)

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

    async def _load(self, match_id: str) -> HotMatch:
        """Three round trips: the first event with the secrets, the snapshot, the tail.

        The command log is not read: the tail's events name their commands, the store answers a retry of an
        older one as a duplicate, and a refused command looks the log up once (``_complete_log``).
        """
        if not is_match_id(match_id):  # no such match, and no such text for the database to choke on
            raise MatchNotFound(f"no match {match_id!r}")
        recorded, hidden = await asyncio.gather(
            self.store.read_stream(match_id, 1, 1), self.store.secrets.read(match_id)
        )
        if not recorded:
            raise MatchNotFound(f"no match {match_id!r}")
        ruleset = ruleset_of(recorded[0])
        decoder = event_decoder(ruleset)
        created = decoder.decode(recorded[0].data)
        snapshotted = await self._from_snapshot(match_id, created, ruleset)
        match, deadlines = snapshotted or (start(ruleset, created), NONE)
        tail = await self.store.read_stream(match_id, match.version + 1)
        base = match.version
        # From the first event when there is no snapshot: the creating command starts the first deadline.
        groups = commands(tail if snapshotted else [*recorded, *tail])
        decoded = [
            ([decoder.decode(r.data) for r in group if r.version > base], group[-1].meta.recorded_at)
            for group in groups
        ]
        match, deadlines = folded(ruleset, match, deadlines, decoded)
        hashes = tuple(hidden.get(f"{TOKEN_SECRET_PREFIX}{seat}", b"") for seat in range(len(created.seats)))
        command_ids: dict[str, tuple[int, int]] = {}
        for group in groups:
            command_ids[group[0].meta.command_id] = (group[0].version, group[-1].version)
        last_at = (tail or recorded)[-1].meta.recorded_at
        hot = HotMatch(match_id, ruleset, match, hidden.get(SEED_SECRET, b""), hashes, command_ids, last_at, deadlines)
        hot.log_complete = snapshotted is None
        return hot

    async def _complete_log(self, hot: HotMatch, command_id: str) -> bool:
        """Reads the whole command log of a loaded match, once; True if it holds ``command_id``."""
        for command, first, last in await self.store.read_commands(hot.match_id):
            hot.command_ids.setdefault(command.command_id, (first, last))
        hot.log_complete = True
        return command_id in hot.command_ids

    async def _catch_up(self, hot: HotMatch) -> bool:
        """Folds what other writers appended since the hot version, with their command ids; True if any."""
        tail = await self.store.read_stream(hot.match_id, hot.version + 1)
        if not tail:
            return False
        await self._fold_in(hot, tail)
        return True

    async def _fold_in(self, hot: HotMatch, tail: Sequence[RecordedEvent]) -> None:
        """Folds stored events that follow the hot version, and hands them on."""
        decoder = event_decoder(hot.ruleset)
        was_running = hot.outcome is None
        happened = [
            MatchEvent(r.version, r.type, decoder.decode(r.data), r.data, r.meta.actor, r.meta.recorded_at)
            for r in tail
        ]
        groups = commands(tail)
        for group in groups:
            first, _ = hot.command_ids.get(group[0].meta.command_id, (group[0].version, 0))
            hot.command_ids[group[0].meta.command_id] = (first, group[-1].version)
        events = iter(happened)
        decoded = [([next(events).event for _ in group], group[-1].meta.recorded_at) for group in groups]
        hot.match, hot.deadlines = folded(hot.ruleset, hot.match, hot.deadlines, decoded)
        hot.last_event_at = tail[-1].meta.recorded_at
        self._publish(hot, happened)
        if was_running and hot.outcome is not None:
            # In the background, as after a command: a store fault here must not lose the end, nor stall the
            # follower (every other match's events) on its round trips.
            self._record_end(hot)

    async def _snapshot(self, hot: HotMatch) -> None:
        """Saves a snapshot, a cache: a store fault only means the next load folds more events."""
        try:
            await self.store.snapshots.save(snapshots.saved(hot.match_id, hot.ruleset, hot.match, hot.deadlines))
        except StoreError as exc:
            log.warning("snapshot of %s at version %d not saved: %s", hot.match_id, hot.version, exc)

    async def _from_snapshot(
        self, match_id: str, created: MatchCreated, ruleset: Ruleset
    ) -> tuple[Match, Deadlines] | None:
        found = await self.store.snapshots.load(match_id, snapshots.schema(ruleset))
        return None if found is None else snapshots.restored(ruleset, created, found.data)

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

    def _changed(self, hot: HotMatch) -> None:
        for listener in self._on_change:
            listener(hot)


def decision(hot: HotMatch, seat: int, include_view: bool) -> Decision:
    """A seat's legal commands (and view) on the match as it is now."""
    ruleset, state = hot.ruleset, hot.state
    view = encode(ruleset.view(state, seat)) if include_view else None
    return Decision(
        seat, hot.version, [encode(c) for c in ruleset.legal_commands(state, seat)], view, ruleset.to_act(state)
    )


def _retrieved(work: asyncio.Future[Submitted]) -> None:
    """Marks a submit's error as seen when its caller was cancelled before hearing of it."""
    if not work.cancelled():
        work.exception()


def _new_events(events: Sequence[Any]) -> list[NewEvent]:
    return [NewEvent(type=type_tag(e), data=encode(e)) for e in events]


def ruleset_of(created: RecordedEvent) -> Ruleset:
    """The ruleset of a stream, from its first event, ``MatchCreated``."""
    return ruleset_for(str(msgspec.json.decode(created.data).get("ruleset", "")))
