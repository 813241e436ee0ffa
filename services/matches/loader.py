"""Loading a match from the store into memory, and saving its snapshots: the store's side of a hot match.

A load takes three round trips: the first event with the secrets, the snapshot, the tail. The command log is
not read: the tail's events name their commands, the store answers a retry of an older one as a duplicate, and
a refused command looks the log up once (``complete_log``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import msgspec

from engine import registry
from engine.contract import Actor, Ruleset
from engine.match import EventDecoder, Match, MatchCreated, fold, start, stored_type
from eventstore import AsyncEventStore, RecordedEvent, StoreError
from replays.format import is_match_id
from replays.storage import SEED_SECRET
from services.core.errors import Conflict, InvalidArgument, MatchNotFound, RulesetUnavailable
from services.matches import bot_seats, caster, grace, snapshots, spectators
from services.matches.deadlines import NONE, Deadlines, folded
from services.matches.follower import commands
from services.matches.hot import HotMatch, MatchEvent, seen
from services.matches.replies import RedactedEvent, Submitted
from services.matches.tokens import TOKEN_SECRET_PREFIX

log = logging.getLogger(__name__)


async def load(store: AsyncEventStore, match_id: str) -> HotMatch:
    """The match folded from its snapshot and the events after it; ``MatchNotFound`` when it does not exist."""
    if not is_match_id(match_id):  # no such match, and no such text for the database to choke on
        raise MatchNotFound(f"no match {match_id!r}")
    recorded, hidden = await asyncio.gather(store.read_stream(match_id, 1, 1), store.secrets.read(match_id))
    if not recorded:
        raise MatchNotFound(f"no match {match_id!r}")
    ruleset = ruleset_of(recorded[0])
    decoder = EventDecoder(ruleset)
    created = decoder.decode(recorded[0].type, recorded[0].data)
    snapshotted = await _from_snapshot(store, match_id, created, ruleset, decoder)
    match, deadlines = snapshotted or (start(ruleset, created), NONE)
    tail = await store.read_stream(match_id, match.version + 1)
    base = match.version
    # From the first event when there is no snapshot: the creating command starts the first deadline.
    groups = commands(tail if snapshotted else [*recorded, *tail])
    decoded = [
        ([decoder.decode(r.type, r.data) for r in group if r.version > base], group[-1].meta.recorded_at)
        for group in groups
    ]
    match, deadlines = folded(ruleset, match, deadlines, decoded)
    if created.open_seats:
        # A join commits its seat's token hash with its events: read after the tail, the secrets hold the hash of
        # every join the tail holds (read before it, a join committed in between would be seated, its token refused).
        hidden = await store.secrets.read(match_id)
    hashes = tuple(hidden.get(f"{TOKEN_SECRET_PREFIX}{seat}", b"") for seat in range(len(created.seats)))
    command_ids: dict[str, tuple[int, int]] = {}
    for group in groups:
        command_ids[group[0].meta.command_id] = (group[0].version, group[-1].version)
    last_at = (tail or recorded)[-1].meta.recorded_at
    seed = hidden.get(SEED_SECRET, b"")
    hot = HotMatch(
        match_id,
        ruleset,
        match,
        seed,
        hashes,
        command_ids,
        last_at,
        deadlines,
        spectators.stored(hidden),
        caster.stored(hidden),
        recorded[0].meta.recorded_at,
        bot_seats.stored(hidden),
        grace.stored(hidden),
    )
    hot.log_complete = snapshotted is None
    return hot


async def complete_log(store: AsyncEventStore, hot: HotMatch, command_id: str) -> bool:
    """Reads the whole command log of a loaded match, once; True if it holds ``command_id``."""
    for command, first, last in await store.read_commands(hot.match_id):
        hot.command_ids.setdefault(command.command_id, (first, last))
    hot.log_complete = True
    return command_id in hot.command_ids


async def save_snapshot(store: AsyncEventStore, hot: HotMatch) -> None:
    """Saves a snapshot, a cache: a store fault only means the next load folds more events."""
    try:
        await store.snapshots.save(snapshots.saved(hot.match_id, hot.ruleset, hot.match, hot.deadlines))
    except StoreError as exc:
        log.warning("snapshot of %s at version %d not saved: %s", hot.match_id, hot.version, exc)


async def _from_snapshot(
    store: AsyncEventStore, match_id: str, created: MatchCreated, ruleset: Ruleset, decoder: EventDecoder
) -> tuple[Match, Deadlines] | None:
    found = await store.snapshots.load(match_id, snapshots.schema(ruleset))
    if found is None:
        return None
    if created.open_seats:  # a snapshot holds the state, not the seating: fold it from its events, a few
        seating = await store.read_stream(match_id, 1, 2 + len(created.open_seats))
        seated = fold(ruleset, [decoder.decode(r.type, r.data) for r in seating])
        if seated.seating:
            return None
        created = seated.created
    return snapshots.restored(ruleset, created, found.data)


async def replayed(store: AsyncEventStore, hot: HotMatch, command_id: str, actor: Actor) -> Submitted:
    """The first result of a command id, as of the versions it appended. Ids are idempotency keys of the actor
    that submitted them: another actor's reuse is ``Conflict(COMMAND_ID_REUSED)``, never another seat's result."""
    first, last = hot.command_ids[command_id]
    recorded = await store.read_stream(hot.match_id, first, last)
    if recorded and recorded[0].meta.actor != str(actor):
        raise Conflict(
            f"command id {command_id!r} was already used by another seat",
            reason="COMMAND_ID_REUSED",
            command_id=command_id,
        )
    viewer = actor if isinstance(actor, int) else None
    decoder = EventDecoder(hot.ruleset)
    decoded = [decoder.decode(r.type, r.data) for r in recorded]
    events = [
        RedactedEvent(
            r.version,
            stored_type(hot.ruleset, event),  # today's schema, as seen() shows the data
            seen(hot.ruleset, viewer, r.type, event, r.data),
            r.meta.actor,
            r.meta.recorded_at,
        )
        for r, event in zip(recorded, decoded, strict=True)
    ]
    return Submitted(events, last, True, hot.ruleset.to_act(hot.state))


def fold_stored(hot: HotMatch, tail: Sequence[RecordedEvent]) -> list[MatchEvent]:
    """Folds stored events that follow the hot version into ``hot``, with their command ids; the events, decoded."""
    decoder = EventDecoder(hot.ruleset)
    happened = [
        MatchEvent(r.version, r.type, decoder.decode(r.type, r.data), r.data, r.meta.actor, r.meta.recorded_at)
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
    return happened


class Unhosted:
    """Refusals of the stored matches whose ruleset version this server does not host."""

    def __init__(self) -> None:
        self._logged: set[str] = set()

    def refusal(self, match_id: str, exc: registry.Unhosted) -> RulesetUnavailable:
        """The refusal of this match, logged once per match (not once per call: clients retry, and every timer
        or watch would repeat it)."""
        if match_id not in self._logged:
            self._logged.add(match_id)
            log.error("match %s refused: %s", match_id, exc.message)
        return RulesetUnavailable(f"match {match_id}: {exc.message}", exc.ruleset_id, exc.version)


def ruleset_for(ruleset_id: str, version: int = 0) -> Ruleset:
    """The hosted ruleset in this version (0: the newest), or ``InvalidArgument`` (``UNKNOWN_RULESET``,
    ``UNKNOWN_RULESET_VERSION``)."""
    try:
        newest = registry.get(ruleset_id)
    except KeyError as exc:
        raise InvalidArgument(str(exc.args[0]), reason="UNKNOWN_RULESET") from None
    if not version:
        return newest
    try:
        return registry.exact(ruleset_id, version)
    except registry.Unhosted as exc:
        hosted = ",".join(map(str, registry.versions(ruleset_id)))
        raise InvalidArgument(
            exc.message, reason="UNKNOWN_RULESET_VERSION", ruleset=ruleset_id, version=str(version), hosted=hosted
        ) from None


class _Identity(msgspec.Struct):
    """What of ``MatchCreated`` names the code that may fold the stream."""

    ruleset: str
    version: int
    card_data_hash: str


def ruleset_of(created: RecordedEvent) -> Ruleset:
    """The ruleset a stream was created with, from its first event, ``MatchCreated``: exactly its id, version
    and card data, never another version's code; ``Unhosted`` when this server does not host it."""
    identity = msgspec.json.decode(created.data, type=_Identity)
    return registry.exact(identity.ruleset, identity.version, identity.card_data_hash)
