"""Deleting whole streams: the one exception to append-only, for archived matches (docs/operations.md).

A stream goes with everything that belongs to it: events, command log, secrets, snapshot, and its rows in
the projections the caller names (keyed by stream id). The global positions of the deleted events are not
reused; the order of what remains is unchanged, and subscriptions read past the gap. The caller decides
what may go (an archived, verified copy exists); this only deletes.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import create_engine, delete, func, select
from sqlalchemy.pool import NullPool

from eventstore.schema import commands, events, projection_rows, secrets, snapshots
from eventstore.urls import sync_url


def delete_streams(
    url: str, stream_ids: Sequence[str], projections: Sequence[str] = (), row_keys: Sequence[str] = ()
) -> int:
    """Delete the streams in one transaction, with their rows of ``projections`` (keyed by stream id, or by
    one of ``row_keys``); returns how many events were deleted."""
    if not stream_ids:
        return 0
    engine = create_engine(sync_url(url), poolclass=NullPool)
    try:
        with engine.begin() as connection:
            ids = list(stream_ids)
            count = connection.execute(
                select(func.count()).select_from(events).where(events.c.stream_id.in_(ids))
            ).scalar_one()
            for table in (events, commands, secrets, snapshots):
                connection.execute(delete(table).where(table.c.stream_id.in_(ids)))
            if projections:
                connection.execute(
                    delete(projection_rows).where(
                        projection_rows.c.projection.in_(list(projections)),
                        projection_rows.c.key.in_([*ids, *row_keys]),
                    )
                )
            return int(count)
    finally:
        engine.dispose()
