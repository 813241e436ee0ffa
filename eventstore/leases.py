"""Leases on PostgreSQL: which instance owns a stream until when, one row per stream in ``leases``.

Expiries are taken on the database's clock, so instances whose clocks disagree still agree on who owns what.
Each statement is one round trip and atomic on its own: a claim takes a stream that is free, expired or already
the caller's; a takeover takes expired streams with ``FOR UPDATE SKIP LOCKED``, so two instances racing for the
same dead owner's streams split them and never both take one. Each row also names the address its owner takes
calls at (``address``, what it advertises; '' for none). The store knows nothing of what a stream is: the service
decides what an owner does (docs/operations.md, Running several instances). A lease on a name starting ``role:``
names no stream but a role one instance plays at a time: it is only ever claimed, never taken over.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Any

Fetch = Callable[..., Awaitable[Sequence[Any]]]
"""Runs one statement (text, then its positional parameters) and returns its rows."""

_NOW = "(extract(epoch from clock_timestamp()) * 1000000)::bigint"

CLAIM = f"""
INSERT INTO leases (stream_id, owner, expires_at, address)
SELECT s, $2, {_NOW} + $3, $4 FROM unnest($1::text[]) AS s
ON CONFLICT (stream_id) DO UPDATE
SET owner = excluded.owner, expires_at = excluded.expires_at, address = excluded.address
WHERE leases.owner = excluded.owner OR leases.expires_at < {_NOW}
RETURNING stream_id
"""
RENEW = f"UPDATE leases SET expires_at = {_NOW} + $2 WHERE owner = $1 RETURNING stream_id"
TAKE_OVER = f"""
UPDATE leases SET owner = $1, expires_at = {_NOW} + $2, address = $4
WHERE stream_id IN (
    SELECT stream_id FROM leases WHERE expires_at < {_NOW} AND stream_id NOT LIKE 'role:%'
    ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED
)
RETURNING stream_id
"""
RELEASE = "DELETE FROM leases WHERE stream_id = ANY($1::text[]) AND owner = $2"
RELEASE_ALL = "DELETE FROM leases WHERE owner = $1"
ROLE_PREFIX = "role:"
OWNER = f"SELECT owner, address FROM leases WHERE stream_id = $1 AND expires_at >= {_NOW}"


class PostgresLeases:
    """The ``leases`` table's statements; ``seconds`` is how long a claim, a renewal or a takeover lasts, and
    ``address`` is where the owner takes calls (what its claims and takeovers record)."""

    def __init__(self, fetch: Fetch) -> None:
        self._fetch = fetch

    async def claim(self, owner: str, stream_ids: Collection[str], seconds: float, address: str = "") -> set[str]:
        """Claims each stream that has no live owner but ``owner``; the streams ``owner`` now holds."""
        rows = await self._fetch(CLAIM, sorted(set(stream_ids)), owner, _micros(seconds), address)
        return {row[0] for row in rows}

    async def renew(self, owner: str, seconds: float) -> set[str]:
        """Extends every lease ``owner`` still holds; those streams (a lease taken over after it expired is not)."""
        rows = await self._fetch(RENEW, owner, _micros(seconds))
        return {row[0] for row in rows}

    async def take_over(self, owner: str, seconds: float, limit: int, address: str = "") -> set[str]:
        """Takes up to ``limit`` expired leases, whoever held them; the streams taken."""
        rows = await self._fetch(TAKE_OVER, owner, _micros(seconds), limit, address)
        return {row[0] for row in rows}

    async def release(self, owner: str, stream_ids: Collection[str]) -> None:
        """Gives up ``owner``'s leases on these streams (an ended match needs no owner)."""
        await self._fetch(RELEASE, sorted(set(stream_ids)), owner)

    async def release_all(self, owner: str) -> None:
        """Gives up every lease of ``owner`` (a graceful stop: the survivors take them at once)."""
        await self._fetch(RELEASE_ALL, owner)

    async def owner(self, stream_id: str) -> tuple[str, str] | None:
        """The live owner of a stream and the address it takes calls at ('' if none), if it has a live owner."""
        rows = await self._fetch(OWNER, stream_id)
        return (rows[0][0], rows[0][1]) if rows else None


def _micros(seconds: float) -> int:
    return round(seconds * 1_000_000)


def leases_of(store: object) -> PostgresLeases | None:
    """The leases of a store that has them (PostgreSQL); None for one that needs none (SQLite: one server)."""
    found = getattr(store, "leases", None)
    return found if isinstance(found, PostgresLeases) else None
