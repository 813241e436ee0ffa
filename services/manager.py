"""The match manager: hot matches in memory, one writer per match, appends, reloads on lost races.

Commands for one match are serialised by its lock; the RNG stream of a command is keyed by the version of
its first event (DESIGN.md). A version conflict means another instance wrote the stream: reload the tail and
decide again. Watchers and timers hang off the manager but live in their own modules.
"""

from __future__ import annotations

import secrets
import time
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from engine import registry
from engine.contract import SYSTEM, Actor, Ruleset
from engine.errors import Rejected
from engine.match import (
    Match, MatchCreated, apply, create, decide, encode, event_decoder, fold, restore, snapshot, type_tag,
)
from eventstore import CommandRecord, NewEvent, RecordedEvent, Snapshot, WrongExpectedVersion
from replays.storage import SEED_SECRET
from services.errors import InvalidArgument, MatchNotFound, VersionMismatch
from services.hot import HotMatch
from services.readmodel import TABLE, MatchRow, ReadModel, row_for
from services.tokens import TOKEN_SECRET_PREFIX, new_token, token_hash

CREATE_COMMAND = "create_match"
_RETRIES = 8


class SeatEntry(msgspec.Struct, frozen=True):
    name: str
    config: dict[str, Any]


class Created(msgspec.Struct, frozen=True):
    row: MatchRow
    tokens: list[str]


class Submitted(msgspec.Struct, frozen=True):
    events: list[Any]
    """The command's events (engine objects, unredacted)."""
    first_version: int
    version: int
    duplicate: bool
    recorded_at: datetime


def ruleset_for(ruleset_id: str) -> Ruleset:
    """The hosted ruleset, or ``InvalidArgument(UNKNOWN_RULESET)``."""
    try:
        return registry.get(ruleset_id)
    except KeyError as exc:
        raise InvalidArgument(str(exc.args[0]), reason="UNKNOWN_RULESET") from None


def new_match_id() -> str:
    """Time-ordered: 12 hex digits of milliseconds, then 20 random hex digits."""
    return f"{int(time.time() * 1000):012x}{secrets.token_hex(10)}"


def actor_name(actor: Actor) -> str:
    return str(actor)


class MatchManager:
    """Creates matches and runs their commands; keeps up to ``capacity`` matches loaded (LRU)."""

    def __init__(self, store: Any, *, capacity: int = 1024, snapshot_every: int = 200) -> None:
        self.store = store
        self.read_model = ReadModel(store)
        self.capacity = capacity
        self.snapshot_every = snapshot_every
        self._hot: OrderedDict[str, HotMatch] = OrderedDict()
        self.on_change: list[Any] = []
        """Callbacks ``f(hot)`` run after a hot match changed (timers re-arm here)."""

    # -- creation ---------------------------------------------------------------------------------

    async def create(self, ruleset_id: str, seats: Sequence[SeatEntry], options: dict[str, Any]) -> Created:
        """A new match with fresh seed and seat tokens; ``ConfigError`` for a bad configuration."""
        ruleset = ruleset_for(ruleset_id)
        for index, seat in enumerate(seats):
            if not seat.name.strip():
                raise InvalidArgument(f"seat {index} has no name", reason="SEAT_NAME_MISSING", seat=str(index))
        seed = secrets.token_bytes(32)
        config_data = {"seats": [seat.config for seat in seats], "options": options}
        names = [seat.name for seat in seats]
        events = create(ruleset, config_data, names, seed)
        match_id = new_match_id()
        tokens = [new_token() for _ in seats]
        payload = encode({"ruleset": ruleset_id, "seats": [msgspec.to_builtins(s) for s in seats],
                          "options": options})
        command = CommandRecord(command_id=f"create-{match_id}", actor=SYSTEM, type=CREATE_COMMAND,
                                payload=payload)
        hidden = {SEED_SECRET: seed} | {f"{TOKEN_SECRET_PREFIX}{i}": token_hash(t) for i, t in enumerate(tokens)}
        await self.store.append(match_id, 0, _new_events(events), command, secrets=hidden)
        now = datetime.now(UTC)
        hot = HotMatch(match_id, ruleset, fold(ruleset, events), seed,
                       tuple(hidden[f"{TOKEN_SECRET_PREFIX}{i}"] for i in range(len(tokens))),
                       {command.command_id: (1, len(events))}, now)
        self._remember(hot)
        row = row_for(hot, created_at=now)
        await self.read_model.put(row)
        self._changed(hot)
        return Created(row=row, tokens=tokens)

    # -- commands ---------------------------------------------------------------------------------

    async def submit(
        self, match_id: str, actor: Actor, raw: bytes, command_id: str = "", expected_version: int | None = None,
    ) -> Submitted:
        """Decides and appends one command; retries with the same ``command_id`` get the first result."""
        hot = await self.get(match_id)
        command_id = command_id or uuid.uuid4().hex
        async with hot.lock:
            for _ in range(_RETRIES):
                if command_id in hot.command_ids:
                    return await self._replayed(hot, command_id)
                if expected_version is not None and expected_version != hot.version:
                    raise VersionMismatch(f"match is at version {hot.version}, not {expected_version}",
                                          actual=str(hot.version))
                try:
                    decided = decide(hot.ruleset, hot.match, actor, raw, hot.seed)
                except Rejected:
                    # Decided on a copy another instance may have moved past: refuse only when current.
                    if await self._catch_up(hot):
                        continue
                    raise
                events = list(decided.events)
                record = CommandRecord(command_id=command_id, actor=actor_name(actor),
                                       type=type_tag(decided.command), payload=raw)
                try:
                    appended = await self.store.append(match_id, hot.version, _new_events(events), record)
                except WrongExpectedVersion:
                    await self._catch_up(hot)
                    continue
                if appended.duplicate:
                    await self._catch_up(hot)
                    continue
                await self._advanced(hot, decided.match, len(events), command_id)
                return Submitted(events=events, first_version=hot.version - len(events) + 1,
                                 version=hot.version, duplicate=False, recorded_at=hot.last_event_at)
        raise VersionMismatch("the match kept changing under this command; retry", actual=str(hot.version))

    async def _advanced(self, hot: HotMatch, after: Match, appended: int, command_id: str) -> None:
        was_running = hot.outcome is None
        hot.advance(after, command_id, datetime.now(UTC))
        if was_running and hot.outcome is not None:
            await self.read_model.put(row_for(hot, created_at=None, previous=await self.read_model.get(hot.match_id)))
        if hot.version // self.snapshot_every != (hot.version - appended) // self.snapshot_every:
            await self._snapshot(hot)
        self._changed(hot)

    async def _replayed(self, hot: HotMatch, command_id: str) -> Submitted:
        first, last = hot.command_ids[command_id]
        recorded = await self.store.read_stream(hot.match_id, first, last)
        decoder = event_decoder(hot.ruleset)
        return Submitted(events=[decoder.decode(r.data) for r in recorded], first_version=first, version=hot.version,
                         duplicate=True, recorded_at=recorded[-1].meta.recorded_at)

    # -- reading ----------------------------------------------------------------------------------

    async def get(self, match_id: str) -> HotMatch:
        """The loaded match (loading it on a miss); ``MatchNotFound`` when it does not exist."""
        hot = self._hot.get(match_id)
        if hot is not None:
            self._hot.move_to_end(match_id)
            return hot
        hot = await self._load(match_id)
        existing = self._hot.get(match_id)
        if existing is not None:
            return existing
        self._remember(hot)
        self._changed(hot)
        return hot

    async def at_least(self, match_id: str, min_version: int) -> HotMatch:
        """The loaded match, caught up with the store first when it is behind ``min_version``.

        Reads are served from memory, which the store subscription keeps current; a client that moves between
        instances passes the last version it saw to read its own writes.
        """
        hot = await self.get(match_id)
        if hot.version < min_version:
            async with hot.lock:
                await self._catch_up(hot)
        return hot

    async def reindex(self, match_id: str) -> MatchRow:
        """Rewrites the match's read-model row from its events (after an import)."""
        hot = await self.get(match_id)
        head = await self.store.read_stream(match_id, 1, 1)
        row = row_for(hot, created_at=head[0].meta.recorded_at)
        await self.read_model.put(row)
        return row

    async def rebuild_read_model(self) -> int:
        """Rebuilds the match list from scratch from the events (DESIGN.md: read models are projections)."""
        await self.store.clear_rows(TABLE)
        rebuilt, position = 0, 1
        while batch := await self.store.read_all(position, 1000):
            for recorded in batch:
                if recorded.version == 1:
                    await self.reindex(recorded.stream_id)
                    self._hot.pop(recorded.stream_id, None)
                    rebuilt += 1
            position = batch[-1].position + 1
        return rebuilt

    def loaded(self, match_id: str) -> HotMatch | None:
        return self._hot.get(match_id)

    @property
    def loaded_count(self) -> int:
        """How many matches are in memory."""
        return len(self._hot)

    async def apply_foreign(self, hot: HotMatch, recorded: RecordedEvent) -> None:
        """Folds an event another instance appended, if it is the next one (else the next write reloads)."""
        if recorded.version != hot.version + 1 or hot.lock.locked():
            return
        async with hot.lock:
            if recorded.version == hot.version + 1:
                await self._catch_up(hot)

    # -- loading ----------------------------------------------------------------------------------

    async def _load(self, match_id: str) -> HotMatch:
        recorded = await self.store.read_stream(match_id, 1, 1)
        if not recorded:
            raise MatchNotFound(f"no match {match_id!r}")
        ruleset = ruleset_of(recorded[0])
        decoder = event_decoder(ruleset)
        created = decoder.decode(recorded[0].data)
        match = await self._from_snapshot(match_id, created, ruleset) or fold(ruleset, [created])
        tail = await self.store.read_stream(match_id, match.version + 1)
        match = apply(ruleset, match, [decoder.decode(r.data) for r in tail])
        seed = await self.store.read_secret(match_id, SEED_SECRET) or b""
        hashes = []
        for seat in range(len(created.seats)):
            hashes.append(await self.store.read_secret(match_id, f"{TOKEN_SECRET_PREFIX}{seat}") or b"")
        commands = {c.command_id: (first, last) for c, first, last in await self.store.read_commands(match_id)}
        last_at = (tail or recorded)[-1].meta.recorded_at
        return HotMatch(match_id, ruleset, match, seed, tuple(hashes), commands, last_at)

    async def _catch_up(self, hot: HotMatch) -> bool:
        """Folds what other writers appended since the hot version, with their command ids; True if any."""
        tail = await self.store.read_stream(hot.match_id, hot.version + 1)
        if not tail:
            return False
        decoder = event_decoder(hot.ruleset)
        was_running = hot.outcome is None
        for recorded in tail:
            hot.match = apply(hot.ruleset, hot.match, [decoder.decode(recorded.data)])
            first, _ = hot.command_ids.get(recorded.meta.command_id, (recorded.version, 0))
            hot.command_ids[recorded.meta.command_id] = (first, recorded.version)
        hot.last_event_at = tail[-1].meta.recorded_at
        if was_running and hot.outcome is not None:
            await self.read_model.put(row_for(hot, created_at=None, previous=await self.read_model.get(hot.match_id)))
        self._changed(hot)
        return True

    async def _snapshot(self, hot: HotMatch) -> None:
        await self.store.save_snapshot(Snapshot(stream_id=hot.match_id, version=hot.version,
                                                schema=_snapshot_schema(hot.ruleset), data=snapshot(hot.match)))

    async def _from_snapshot(self, match_id: str, created: MatchCreated, ruleset: Ruleset) -> Match | None:
        snapshot = await self.store.load_snapshot(match_id, _snapshot_schema(ruleset))
        return None if snapshot is None else restore(ruleset, created, snapshot.data)

    # -- cache ------------------------------------------------------------------------------------

    def _remember(self, hot: HotMatch) -> None:
        self._hot[hot.match_id] = hot
        self._hot.move_to_end(hot.match_id)
        while len(self._hot) > self.capacity:
            oldest = next(iter(self._hot))
            if self._hot[oldest].lock.locked():
                break
            del self._hot[oldest]

    def _changed(self, hot: HotMatch) -> None:
        for callback in self.on_change:
            callback(hot)


def _snapshot_schema(ruleset: Ruleset) -> str:
    return f"{ruleset.id}:{ruleset.version}"


def _new_events(events: Sequence[Any]) -> list[NewEvent]:
    return [NewEvent(type=type_tag(e), data=encode(e)) for e in events]


def ruleset_of(head: RecordedEvent) -> Ruleset:
    """The ruleset of a stream, from its ``MatchCreated`` head."""
    return ruleset_for(str(msgspec.json.decode(head.data).get("ruleset", "")))
