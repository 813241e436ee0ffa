"""The tamper-evident hash chain over a stream's events (ARCHITECTURE.md, The path of an event).

``hash(v) = SHA-256(hash(v-1) || v as 8-byte big-endian || type as UTF-8 || 0x00 || data)``, with
``hash(0)`` = 32 zero bytes. It covers exactly the deterministic content: not positions, not metadata.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from eventstore.model import RecordedEvent

GENESIS_HASH = bytes(32)


def chain_hash(prev: bytes, version: int, type: str, data: bytes) -> bytes:
    """The hash of the event at ``version`` whose predecessor's hash is ``prev``."""
    digest = hashlib.sha256(prev)
    digest.update(version.to_bytes(8, "big"))
    digest.update(type.encode())
    digest.update(b"\x00")
    digest.update(data)
    return digest.digest()


def verify_chain(events: Iterable[RecordedEvent], prev: bytes = GENESIS_HASH) -> bytes:
    """Recompute the chain over consecutive events of one stream; return the last event's hash.

    Raises ValueError naming the first event whose stored hash differs from the recomputed one.
    """
    for event in events:
        prev = chain_hash(prev, event.version, event.type, event.data)
        if prev != event.hash:
            raise ValueError(f"hash mismatch at {event.stream_id!r} version {event.version}")
    return prev
