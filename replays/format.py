"""The replay file (docs/replay-format.md): one UTF-8 JSON document, readable from any language.

Event data and command payloads are JSON *strings* holding the exact bytes that were hashed and decided,
so a verifier in another language hashes them as they are, with no re-serialisation.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import msgspec

from engine.contract import Outcome
from eventstore import from_micros, to_micros

FORMAT = "duelhall-replay"
FORMAT_VERSION = 2
"""What export writes: 2 gives each event its ``chain`` (docs/replay-format.md)."""
READABLE_VERSIONS = (1, 2)
"""What verification reads: a version-1 file (written before chain 2) has only chain-1 events."""


class RulesetRef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    version: int
    card_data_hash: str


class ReplayCommand(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    command_id: str
    actor: str
    type: str
    payload: str
    first_version: int
    last_version: int


class ReplayEvent(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    version: int
    type: str
    data: str
    hash: str
    recorded_at: str
    chain: int = 1
    """The hash chain the event is linked with; absent (1) in a version-1 file."""


class Replay(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    format: str
    format_version: int
    match_id: str
    ruleset: RulesetRef
    seats: list[str]
    config: dict[str, object]
    seed_commitment: str
    seed: str | None
    outcome: Outcome | None
    commands: list[ReplayCommand]
    events: list[ReplayEvent]
    head_hash: str


def format_time(micros: int) -> str:
    """A recorded time as a file writes it: ISO 8601 in UTC with all six digits of microseconds, the one text
    of that instant a chain-2 event may carry."""
    return from_micros(micros).isoformat(timespec="microseconds")


def time_micros(text: str) -> int | None:
    """A file's ``recorded_at`` in microseconds since the Unix epoch (a time without an offset is UTC); None if
    it is no ISO 8601 time."""
    try:
        at = datetime.fromisoformat(text)
        return to_micros(at.replace(tzinfo=UTC) if at.tzinfo is None else at)
    except (ValueError, OverflowError):
        return None


def match_id_for(seed_commitment: str) -> str:
    """A match's id: 32 hex digits of SHA-256 over its seed commitment, which ``MatchCreated`` carries inside
    the hash chain. Verification recomputes it, so a replay cannot be passed off under another id, and the
    same match always has the same id."""
    return hashlib.sha256(b"duelhall-match-id\x00" + seed_commitment.encode()).hexdigest()[:32]


def is_match_id(text: str) -> bool:
    """Whether ``text`` has the form of a match id (32 lowercase hex digits): anything else names no match."""
    return len(text) == 32 and all(c in "0123456789abcdef" for c in text)


_decoder = msgspec.json.Decoder(Replay)
_encoder = msgspec.json.Encoder()


def encode_replay(replay: Replay) -> bytes:
    """The file's bytes: pretty enough to diff, one event per line."""
    return msgspec.json.format(_encoder.encode(replay), indent=1) + b"\n"


def decode_replay(data: bytes) -> Replay:
    """The replay in ``data``; raises ``msgspec.DecodeError`` / ``ValidationError`` when malformed."""
    return _decoder.decode(data)
