"""The match list: a read model kept in the store's projection rows, rebuildable from the events."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec

from engine.contract import Outcome

TABLE = "matches"
RUNNING = "running"
ENDED = "ended"


class MatchRow(msgspec.Struct, frozen=True):
    """One match as the list shows it; ``version`` and ``updated_at`` are as of the last status change."""

    match_id: str
    ruleset: str
    ruleset_version: int
    seats: tuple[str, ...]
    status: str
    version: int
    outcome: Outcome | None
    created_at: datetime
    updated_at: datetime
    seed_commitment: str
    labels: dict[str, str] = msgspec.field(default_factory=dict)


_decoder = msgspec.json.Decoder(MatchRow)


def row_for(
    hot: Any, created_at: datetime | None, previous: MatchRow | None = None, labels: dict[str, str] | None = None,
) -> MatchRow:
    """The row for a loaded match; ``created_at`` and ``labels`` come from ``previous`` when not given."""
    created = hot.match.created
    outcome = hot.outcome
    return MatchRow(
        match_id=hot.match_id,
        ruleset=created.ruleset,
        ruleset_version=created.version,
        seats=created.seats,
        status=RUNNING if outcome is None else ENDED,
        version=hot.version,
        outcome=outcome,
        created_at=created_at or (previous.created_at if previous else hot.last_event_at),
        updated_at=hot.last_event_at if created_at is None else created_at,
        seed_commitment=created.seed_commitment,
        labels=labels if labels is not None else (previous.labels if previous else {}),
    )


class ReadModel:
    """Rows by match id over the store's generic projection table."""

    def __init__(self, store: Any) -> None:
        self._store = store

    async def put(self, row: MatchRow) -> None:
        await self._store.put_row(TABLE, row.match_id, msgspec.json.encode(row))

    async def get(self, match_id: str) -> MatchRow | None:
        data = await self._store.get_row(TABLE, match_id)
        return None if data is None else _decoder.decode(data)

    async def page(
        self, after: str | None, size: int, ruleset: str = "", status: str = "",
        labels: dict[str, str] | None = None,
    ) -> tuple[list[MatchRow], str | None]:
        """Up to ``size`` rows after the key ``after`` (creation order) that pass the filters."""
        found: list[MatchRow] = []
        cursor = after
        while len(found) < size:
            batch = await self._store.list_rows(TABLE, after_key=cursor, limit=max(size * 2, 100))
            if not batch:
                return found, None
            for key, data in batch:
                cursor = key
                row = _decoder.decode(data)
                if ((not ruleset or row.ruleset == ruleset) and (not status or row.status == status)
                        and has_labels(row.labels, labels)):
                    found.append(row)
                    if len(found) == size:
                        return found, key
        return found, cursor


def has_labels(labels: dict[str, str], wanted: dict[str, str] | None) -> bool:
    """Whether ``labels`` carries every wanted label with its value."""
    return not wanted or all(labels.get(key) == value for key, value in wanted.items())
