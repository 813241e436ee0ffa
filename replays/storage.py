"""Replays in and out of an event store.

Export reads the stream, its command log and (for ended matches) the seed. Import verifies first, then appends
the events command by command, so the imported stream has the same versions, hashes and command log.
Both take the async store; the CLI runs them with ``asyncio.run``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import msgspec

from engine import registry
from engine.match import EventDecoder, fold
from eventstore import (
    AsyncBatches,
    AsyncEventStore,
    CommandRecord,
    NewEvent,
    Origin,
    RecordedEvent,
    StoreError,
    append_request,
    to_micros,
)
from replays.format import (
    FORMAT,
    FORMAT_VERSION,
    Replay,
    ReplayCommand,
    ReplayEvent,
    RulesetRef,
    encode_replay,
    format_time,
    time_micros,
)
from replays.verify import Verdict, verify_bytes

SEED_SECRET = "seed"
"""The store secret holding a match's seed, revealed only in replays of ended matches."""
_IMPORT_BATCH = 500
"""Appends (commands) an import commits per transaction."""


class ReplayInvalid(Exception):
    """A replay failed verification; carries the failure."""

    def __init__(self, check: str, version: int, message: str) -> None:
        super().__init__(f"{check} check failed at version {version}: {message}")
        self.check, self.version, self.message = check, version, message


class ReplayConflict(Exception):
    """The store holds a different match under the replay's match id."""


def build(
    match_id: str,
    recorded: Sequence[RecordedEvent],
    commands: Sequence[tuple[CommandRecord, int, int]],
    seed: bytes | None,
) -> Replay:
    """The replay of a stored match; ``seed`` is left out while the folded events show no outcome."""
    if not recorded:
        raise KeyError(match_id)
    first = msgspec.json.decode(recorded[0].data)
    ruleset = registry.exact(first["ruleset"], first["version"], first["card_data_hash"])
    decoder = EventDecoder(ruleset)
    folded = fold(ruleset, [decoder.decode(r.type, r.data) for r in recorded])
    outcome = None if folded.seating else ruleset.outcome(folded.state)
    created = folded.created  # as seated: the players who joined open seats named
    return Replay(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        match_id=match_id,
        ruleset=RulesetRef(id=created.ruleset, version=created.version, card_data_hash=created.card_data_hash),
        seats=list(created.seats),
        config=created.config,
        seed_commitment=created.seed_commitment,
        seed=None if seed is None or outcome is None else seed.hex(),
        outcome=outcome,
        commands=[
            ReplayCommand(
                command_id=c.command_id,
                actor=c.actor,
                type=c.type,
                payload=c.payload.decode(),
                first_version=first,
                last_version=last,
            )
            for c, first, last in commands
        ],
        events=[
            ReplayEvent(
                version=r.version,
                type=r.type,
                data=r.data.decode(),
                hash=r.hash.hex(),
                recorded_at=format_time(to_micros(r.meta.recorded_at)),
                chain=r.chain,
            )
            for r in recorded
        ],
        head_hash=recorded[-1].hash.hex(),
    )


class Imported(msgspec.Struct, frozen=True):
    """What an import did: the match's id, False when the same match was already stored, and what of the file
    its checks did not cover (``Verdict.uncovered``)."""

    match_id: str
    imported: bool
    uncovered: list[str]


def verified(data: bytes) -> Verdict:
    """The verdict on ``data`` if every check passes (its replay set), else ``ReplayInvalid``."""
    verdict = verify_bytes(data)
    if verdict.failure is not None:
        raise ReplayInvalid(verdict.failure.check, verdict.failure.version, verdict.failure.message)
    assert verdict.replay is not None
    return verdict


Step = tuple[int, list[NewEvent], CommandRecord, dict[str, bytes] | None, Origin]


def appends(replay: Replay) -> list[Step]:
    """The store appends that recreate the replay's stream: (expected version, events, command, secrets, origin).

    Chain-2 events keep their time, which their hashes cover; chain-1 events are recorded at import, as before
    chain 2 (their times are neither hashed nor checked)."""
    steps: list[Step] = []
    for index, command in enumerate(replay.commands):
        stored = replay.events[command.first_version - 1 : command.last_version]
        events = [NewEvent(type=e.type, data=e.data.encode()) for e in stored]
        chain = stored[0].chain
        origin = Origin(time_micros(stored[0].recorded_at) if chain == 2 else None, chain)
        record = CommandRecord(
            command_id=command.command_id, actor=command.actor, type=command.type, payload=command.payload.encode()
        )
        secrets = {SEED_SECRET: bytes.fromhex(replay.seed)} if index == 0 and replay.seed else None
        steps.append((command.first_version - 1, events, record, secrets, origin))
    return steps


def _same_match(replay: Replay, stored_last: RecordedEvent | None) -> bool:
    return stored_last is not None and stored_last.hash.hex() == replay.head_hash


async def stored(store: AsyncEventStore, match_id: str, include_seed: bool = True) -> Replay | None:
    """The replay of the stored match (with its seed if ended and ``include_seed``), None if there is none.

    Whether the match has ended is decided by folding its events, never by the match list."""
    recorded = await store.read_stream(match_id)
    if not recorded:
        return None
    seed = (await store.secrets.read(match_id)).get(SEED_SECRET) if include_seed else None
    return build(match_id, recorded, await store.read_commands(match_id), seed)


async def export(store: AsyncEventStore, match_id: str, include_seed: bool) -> bytes:
    """The replay file of the stored match (``KeyError`` if there is none); see ``stored``."""
    replay = await stored(store, match_id, include_seed)
    if replay is None:
        raise KeyError(match_id)
    return encode_replay(replay)


async def import_(store: AsyncEventStore, data: bytes) -> Imported:
    """Verify ``data``, then store its match unless the same match is stored already.

    The replay is checked on a thread: re-executing a long one takes about a second per 16 MiB, which on the
    event loop would stall every other call of the process."""
    verdict = await asyncio.to_thread(verified, data)
    replay, uncovered = verdict.replay, verdict.uncovered
    assert replay is not None
    version = await store.last_version(replay.match_id)
    if version:
        last = await store.read_stream(replay.match_id, version, version)
        if version == len(replay.events) and _same_match(replay, last[0]):
            return Imported(replay.match_id, False, uncovered)
        raise ReplayConflict(f"another match is stored under {replay.match_id}")
    steps = appends(replay)
    if not isinstance(store, AsyncBatches):
        for expected, events, record, secrets, origin in steps:
            await store.append(replay.match_id, expected, events, record, secrets=secrets, origin=origin)
        return Imported(replay.match_id, True, uncovered)
    # The concrete stores take the whole stream in a few transactions (one per command: 20 ms a match).
    requests = [append_request(replay.match_id, *step) for step in steps]
    for first in range(0, len(requests), _IMPORT_BATCH):
        for outcome in await store.append_batch(requests[first : first + _IMPORT_BATCH]):
            if isinstance(outcome, StoreError):
                raise outcome
    return Imported(replay.match_id, True, uncovered)
