"""The tamper-evident hash chain over a stream's events (docs/eventstore.md "Hash chain").

Chain 1 (events stored before chain 2 existed):
``hash(v) = SHA-256(hash(v-1) || v as 8-byte big-endian || type as UTF-8 || 0x00 || data)``.
Chain 2 (every event appended since) also covers when the store recorded the event and the command record
that caused it: ``hash(v) = SHA-256("duelhall-chain-2" || 0x00 || hash(v-1) || v as 8 bytes || recorded_at
as 8-byte signed microseconds || command digest || type || 0x00 || data)``, where the command digest is
``SHA-256(command_id, actor and type, each as a 4-byte length and its UTF-8, then payload)``. ``hash(0)`` is
32 zero bytes in both; a stream may switch from chain 1 to chain 2 once (a match live across the upgrade),
never back. Positions are never covered, so a replay imported elsewhere keeps its hashes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from eventstore.model import CommandRecord, RecordedEvent, to_micros

GENESIS_HASH = bytes(32)
_CHAIN_2 = b"duelhall-chain-2\x00"


def chain_hash(prev: bytes, version: int, type: str, data: bytes) -> bytes:
    """The chain-1 hash of the event at ``version`` whose predecessor's hash is ``prev``."""
    digest = hashlib.sha256(prev)
    digest.update(version.to_bytes(8, "big"))
    digest.update(type.encode())
    digest.update(b"\x00")
    digest.update(data)
    return digest.digest()


def command_digest(command: CommandRecord) -> bytes:
    """What chain 2 links into each event of a command: its id, actor and type, each as a 4-byte length and its
    UTF-8, then its payload (the lengths keep the fields apart, so no two records share a digest)."""
    command_id, actor, type_ = command.command_id.encode(), command.actor.encode(), command.type.encode()
    fields = (
        len(command_id).to_bytes(4, "big"),
        command_id,
        len(actor).to_bytes(4, "big"),
        actor,
        len(type_).to_bytes(4, "big"),
        type_,
        command.payload,
    )
    return hashlib.sha256(b"".join(fields)).digest()


def chain2_hash(prev: bytes, version: int, type: str, data: bytes, recorded_at: int, command: bytes) -> bytes:
    """The chain-2 hash of the event at ``version``: ``recorded_at`` in microseconds since the Unix epoch,
    ``command`` the ``command_digest`` of the command that appended it. One buffer, hashed at once: cheaper than
    an update per field on the append path."""
    return hashlib.sha256(
        b"".join(
            (
                _CHAIN_2,
                prev,
                version.to_bytes(8, "big"),
                recorded_at.to_bytes(8, "big", signed=True),
                command,
                type.encode(),
                b"\x00",
                data,
            )
        )
    ).digest()


def verify_chain(
    events: Iterable[RecordedEvent],
    commands: Iterable[tuple[CommandRecord, int, int]] = (),
    prev: bytes = GENESIS_HASH,
) -> bytes:
    """Recompute the chain over consecutive events of one stream; return the last event's hash.

    ``commands`` is the stream's command log (``read_commands``), which chain-2 events are linked with.
    Raises ValueError naming the first event whose stored hash differs from the recomputed one.
    """
    digests = {record.command_id: command_digest(record) for record, _, _ in commands}
    chain = 1
    for event in events:
        if event.chain < chain:
            raise ValueError(f"chain {event.chain} after chain {chain} at {event.stream_id!r} version {event.version}")
        chain = event.chain
        if chain == 1:
            prev = chain_hash(prev, event.version, event.type, event.data)
        else:
            command = digests.get(event.meta.command_id, b"")
            prev = chain2_hash(prev, event.version, event.type, event.data, to_micros(event.meta.recorded_at), command)
        if prev != event.hash:
            raise ValueError(f"hash mismatch at {event.stream_id!r} version {event.version}")
    return prev
