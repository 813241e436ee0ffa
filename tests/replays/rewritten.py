"""Replay files rewritten as a forger would: as a release before hash chain 2 wrote them (format version 1), or
with every hash recomputed after an edit, so that only the other checks can catch it."""

from __future__ import annotations

import msgspec

from eventstore import GENESIS_HASH, CommandRecord, chain2_hash, chain_hash, command_digest
from replays.format import Replay, time_micros


def as_format_1(replay: Replay) -> Replay:
    """``replay`` as a file written before chain 2: format version 1, every event chain 1, hashes recomputed.
    Command records are not hashed there, so an edited command reaches re-execution."""
    prev, events = GENESIS_HASH, []
    for event in replay.events:
        prev = chain_hash(prev, event.version, event.type, event.data.encode())
        events.append(msgspec.structs.replace(event, chain=1, hash=prev.hex()))
    return msgspec.structs.replace(replay, format_version=1, events=events, head_hash=prev.hex())


def rechained(replay: Replay) -> Replay:
    """``replay`` with every hash recomputed by its event's chain (and ``head_hash``)."""
    digests: dict[int, bytes] = {}
    for command in replay.commands:
        record = CommandRecord(command.command_id, command.actor, command.type, command.payload.encode())
        for version in range(command.first_version, command.last_version + 1):
            digests[version] = command_digest(record)
    prev, events = GENESIS_HASH, []
    for event in replay.events:
        data = event.data.encode()
        if event.chain == 1:
            prev = chain_hash(prev, event.version, event.type, data)
        else:
            micros = time_micros(event.recorded_at)
            assert micros is not None
            prev = chain2_hash(prev, event.version, event.type, data, micros, digests[event.version])
        events.append(msgspec.structs.replace(event, hash=prev.hex()))
    return msgspec.structs.replace(replay, events=events, head_hash=prev.hex())
