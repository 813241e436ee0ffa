"""The tournament list: a projection of the tournament streams' creations, starts and ends into one row each
(``store.rows``, table ``tournaments``), for ``ListTournaments``. A row's key is the global position of its
``TournamentCreated`` in 16 hex digits, so keys run in creation order (tournament ids order only to the
millisecond); ``tournament_keys`` finds a tournament's key from its id.

Pages follow the rows in key order after the page token's key. A page reads at most ``MAX_SCAN`` rows: with a
filter few rows match, a page may hold fewer than its size (even none) and still have a next page token.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re

import msgspec

from eventstore import AsyncEventStore, RecordedEvent
from services.core.errors import InvalidArgument
from services.readmodels.lead import Lead
from services.readmodels.projector import Projector
from services.tournament.events import RoundPaired, TournamentCreated, TournamentEnded, decoder
from services.tournament.manager import STREAM_PREFIX

TABLE = "tournaments"
KEYS = "tournament_keys"
CHECKPOINTS = "tournament_list"
CHECKPOINT_EVERY = 1000
REGISTRATION, RUNNING, ENDED = "registration", "running", "ended"
STATUSES = (REGISTRATION, RUNNING, ENDED)
DEFAULT_PAGE = 50
MAX_PAGE = 500
MAX_SCAN = 5000
"""Rows one page reads at most, matching or not."""
_MAX_TOKEN = 512
_KEY = re.compile("[0-9a-f]{16}")


class Listed(msgspec.Struct, frozen=True):
    tournament_id: str
    name: str
    ruleset: str
    format: str
    status: str
    labels: dict[str, str] = {}


class _Token(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    after: str
    filters: str


class Listing:
    """The projection (a ``Projection``) and its reads."""

    name = "tournament list"
    checkpoint_table = CHECKPOINTS
    types: tuple[str, ...] = ("TournamentCreated", "RoundPaired", "TournamentEnded")

    def __init__(self, store: AsyncEventStore, lead: Lead | None = None) -> None:
        self._store = store
        self._projector = Projector(store, self, CHECKPOINT_EVERY, lead=lead)

    async def start(self) -> None:
        """Catches up (so a started server lists every tournament), then follows the store."""
        await self._projector.catch_up()
        self._projector.start()

    async def stop(self) -> None:
        await self._projector.stop()

    async def settled(self, timeout: float) -> bool:
        """Returns once every tournament created, started or ended before the call is listed as such; False if
        that took more than ``timeout`` seconds."""
        return await self._projector.caught_up(await self._store.head(), timeout)

    async def project(self, recorded: RecordedEvent) -> bool:
        if not recorded.stream_id.startswith(STREAM_PREFIX):
            return False
        tournament_id = recorded.stream_id.removeprefix(STREAM_PREFIX)
        event = decoder.decode(recorded.data)
        if isinstance(event, TournamentCreated):
            key = f"{recorded.position:016x}"
            row = Listed(tournament_id, event.name, event.ruleset, event.format, REGISTRATION, event.labels)
            await self._store.rows.write([(TABLE, key, msgspec.json.encode(row)), (KEYS, tournament_id, key.encode())])
            return False
        found = await self._store.rows.get(KEYS, tournament_id)
        stored = None if found is None else await self._store.rows.get(TABLE, found.decode())
        if found is None or stored is None:
            return False
        row = msgspec.json.decode(stored, type=Listed)
        if isinstance(event, RoundPaired) and row.status == REGISTRATION:
            row = msgspec.structs.replace(row, status=RUNNING)
        elif isinstance(event, TournamentEnded):
            row = msgspec.structs.replace(row, status=ENDED)
        else:
            return False
        await self._store.rows.put(TABLE, found.decode(), msgspec.json.encode(row))
        return False

    async def running(self) -> list[str]:
        """The ids of every tournament that has started and not ended."""
        found, after = [], None
        while True:
            rows, after = await self.page(after, MAX_PAGE, RUNNING, {})
            found += [r.tournament_id for r in rows]
            if after is None:
                return found

    async def page(
        self, after: str | None, size: int, status: str, labels: dict[str, str]
    ) -> tuple[list[Listed], str | None]:
        """Up to ``size`` tournaments after the key ``after`` with the status (empty: any) and every label;
        and the key to continue after (None: no more)."""
        found: list[Listed] = []
        scanned = 0
        while len(found) < size and scanned < MAX_SCAN:
            limit = min(size, MAX_SCAN - scanned)
            batch = await self._store.rows.list(TABLE, after_key=after, limit=limit)
            for key, value in batch:
                after, scanned = key, scanned + 1
                row = msgspec.json.decode(value, type=Listed)
                if (not status or row.status == status) and labels.items() <= row.labels.items():
                    found.append(row)
                    if len(found) == size:
                        break
            if len(batch) < limit and len(found) < size:
                return found, None
        return found, after


def checked_status(status: str) -> str:
    if status and status not in STATUSES:
        raise InvalidArgument(
            f"status is empty or one of {', '.join(STATUSES)}, not {status!r}", reason="STATUS_INVALID"
        )
    return status


def checked_size(size: int) -> int:
    if not 0 <= size <= MAX_PAGE:
        raise InvalidArgument(
            f"page_size must be 0 (the default, {DEFAULT_PAGE}) to {MAX_PAGE}, not {size}",
            reason="PAGE_SIZE_OUT_OF_RANGE",
        )
    return size or DEFAULT_PAGE


def _digest(status: str, labels: dict[str, str]) -> str:
    return hashlib.sha256(msgspec.json.encode([status, sorted(labels.items())])).hexdigest()[:32]


def encode_token(after: str, status: str, labels: dict[str, str]) -> str:
    token = _Token(after, _digest(status, labels))
    return base64.urlsafe_b64encode(msgspec.json.encode(token)).decode().rstrip("=")


def decode_token(token: str, status: str, labels: dict[str, str]) -> str | None:
    """The key a page token continues after (None: no token); ``InvalidArgument`` ``PAGE_TOKEN_INVALID`` for a
    token this service did not issue, or issued for other filters."""
    if not token:
        return None
    try:
        if len(token) > _MAX_TOKEN:
            raise ValueError
        parsed = msgspec.json.decode(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)), type=_Token)
    except (ValueError, binascii.Error, msgspec.DecodeError, msgspec.ValidationError):
        parsed = None
    if parsed is None or not _KEY.fullmatch(parsed.after):
        raise InvalidArgument(
            "page_token is not a token from a previous ListTournaments response", reason="PAGE_TOKEN_INVALID"
        )
    if parsed.filters != _digest(status, labels):
        raise InvalidArgument(
            "page_token belongs to a listing with other filters (status, labels)", reason="PAGE_TOKEN_INVALID"
        )
    return parsed.after
