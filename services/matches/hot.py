"""A match held in memory: its folded state, seed, token hashes, spectator policy and the lock that serialises its
commands."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

import msgspec

from engine.contract import Outcome, Ruleset, Viewer
from engine.match import MATCH_LEVEL, Match, encode, stored_type
from services.matches.caster import Caster
from services.matches.deadlines import Deadlines, advanced, running
from services.matches.spectators import Spectators


class MatchEvent(msgspec.Struct, frozen=True):
    """An event a hot match took on, as recorded: the engine's object (to redact and fold) and its JSON."""

    version: int
    type: str
    event: Any
    data: bytes
    actor: str
    recorded_at: datetime


def seen(ruleset: Ruleset, viewer: Viewer, type: str, event: Any, data: bytes) -> bytes:
    """An event's JSON as ``viewer`` may see it: its recorded JSON when nothing of it is hidden (``MatchCreated``
    and the seating's events are public; an event ``redact`` hands back as it is), so that most events are not
    encoded a second time."""
    if type in MATCH_LEVEL:
        return data
    shown = ruleset.redact(event, viewer)
    # One stored at an older schema of its type goes out upcast, in the shape every other event of its type has.
    return data if shown is event and type == stored_type(ruleset, event) else encode(shown)


class HotMatch:
    """One loaded match. Mutated only on the event loop, and only under ``lock`` for writes."""

    def __init__(
        self,
        match_id: str,
        ruleset: Ruleset,
        match: Match,
        seed: bytes,
        token_hashes: tuple[bytes, ...],
        command_ids: dict[str, tuple[int, int]],
        last_event_at: datetime,
        deadlines: Deadlines,
        spectators: Spectators,
        caster: Caster = Caster(),
        created_at: datetime | None = None,
        bots: dict[int, str] | None = None,
        grace: int = 0,
    ) -> None:
        self.match_id = match_id
        self.ruleset = ruleset
        self.match = match
        self.seed = seed
        self.token_hashes = token_hashes
        self.spectators = spectators
        self.caster = caster
        self.bots = bots or {}
        """The seats the server plays, with their bot levels (``services/matches/bot_seats.py``)."""
        self.grace = grace
        """The disconnect grace in seconds, 0 for none (``services/matches/grace.py``)."""
        self.command_ids = command_ids
        """Command id -> (first, last) version it appended: answers retries without deciding again."""
        self.log_complete = True
        """Whether ``command_ids`` holds every command of the stream (a match loaded from a snapshot knows
        only the commands of its tail until it reads the log)."""
        self.last_event_at = last_event_at
        self.created_at = created_at or last_event_at
        """When the match was created: a seat never connected is away since then."""
        self.deadlines = deadlines
        self.lock = asyncio.Lock()
        self.watches = 0
        """Open watches: a watched match stays loaded, so each of its changes reaches its watchers."""

    @property
    def version(self) -> int:
        return self.match.version

    @property
    def state(self) -> Any:
        return self.match.state

    @property
    def outcome(self) -> Outcome | None:
        return None if self.match.seating else self.ruleset.outcome(self.match.state)

    def advance(self, after: Match, command_id: str, at: datetime) -> None:
        """Moves to the match a command's events led to (decided and folded once by the engine)."""
        self.command_ids[command_id] = (self.match.version + 1, after.version)
        self.match = after
        self.last_event_at = at
        self.deadlines = advanced(self.deadlines, running(self.ruleset, after.state), at)
