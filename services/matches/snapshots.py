"""A hot match's snapshot: the engine's snapshot of its state, with its deadlines (``services/matches/deadlines.py``).

A snapshot is a cache. One of another schema (another ruleset version, or written before deadlines were kept
in it) is not read: the match is folded from its first event instead, deadlines included.
"""

from __future__ import annotations

import msgspec

from engine.contract import Ruleset
from engine.match import Match, MatchCreated, restore, snapshot
from eventstore import Snapshot
from services.matches.deadlines import Deadlines


class _Saved(msgspec.Struct, frozen=True):
    deadlines: Deadlines
    match: bytes


_decoder = msgspec.msgpack.Decoder(_Saved)


def schema(ruleset: Ruleset) -> str:
    return f"{ruleset.id}:{ruleset.version}:deadlines"


def saved(match_id: str, ruleset: Ruleset, match: Match, deadlines: Deadlines) -> Snapshot:
    data = msgspec.msgpack.encode(_Saved(deadlines, snapshot(match)))
    return Snapshot(stream_id=match_id, version=match.version, schema=schema(ruleset), data=data)


def restored(ruleset: Ruleset, created: MatchCreated, data: bytes) -> tuple[Match, Deadlines] | None:
    """The match and its deadlines, or None for data this code cannot read."""
    try:
        found = _decoder.decode(data)
    except msgspec.DecodeError:
        return None
    match = restore(ruleset, created, found.match)
    return None if match is None else (match, found.deadlines)
