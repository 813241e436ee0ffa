"""Deleting whole streams: the one exception to append-only, for archived matches (docs/operations.md).

A stream goes with everything that belongs to it: events, command log, secrets, snapshot, and its rows in
the projections the caller names (keyed by stream id). The global positions of the deleted events are not
reused; the order of what remains is unchanged, and subscriptions read past the gap. The caller decides
what may go (an archived, verified copy exists); this only deletes, a few hundred streams per transaction
(each stream goes whole or not at all).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import create_engine, delete, func, select
from sqlalchemy.pool import NullPool

from eventstore.schema import commands, events, projection_rows, secrets, snapshots
from eventstore.urls import sync_url

CHUNK = 500
"""Streams deleted per transaction: a statement's parameters stay far below the drivers' limits (PostgreSQL's
65,535, SQLite's 250,000), and a writer waits for one chunk, not for the whole prune."""


def delete_streams(
    url: str,
    stream_ids: Sequence[str],
    projections: Sequence[str] = (),
    row_keys: Mapping[str, Sequence[str]] | None = None,
    chunk: int = CHUNK,
) -> int:
    """Delete the streams, ``chunk`` of them per transaction, each with its rows of ``projections`` (keyed by
    stream id, or by one of its ``row_keys``); returns how many events were deleted."""
    if not stream_ids:
        return 0
    row_keys = row_keys or {}
    engine = create_engine(sync_url(url), poolclass=NullPool)
    count = 0
    try:
        for first in range(0, len(stream_ids), chunk):
            ids = list(stream_ids[first : first + chunk])
            with engine.begin() as connection:
                count += connection.execute(
                    select(func.count()).select_from(events).where(events.c.stream_id.in_(ids))
                ).scalar_one()
                for table in (events, commands, secrets, snapshots):
                    connection.execute(delete(table).where(table.c.stream_id.in_(ids)))
                if projections:
                    keys = [*ids, *(key for stream_id in ids for key in row_keys.get(stream_id, ()))]
                    connection.execute(
                        delete(projection_rows).where(
                            projection_rows.c.projection.in_(list(projections)), projection_rows.c.key.in_(keys)
                        )
                    )
        return count
    finally:
        engine.dispose()
