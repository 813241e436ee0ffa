"""Archiving ended matches as verified replay files, and pruning from the store only what is archived.

``export_ended`` writes ``DIR/<match id>.json`` for every ended match (ended since a time), each verified
after it is written. ``prune`` deletes a match from the store only when a file in the archive verifies
(chain, fold, outcome, seed, re-execution), holds the seed (the match had ended), and is the very stream the
store holds (same version and hash of the last event). Anything else is kept and reported with the reason.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Protocol

import msgspec

from eventstore import AsyncEventStore
from eventstore.prune import delete_streams
from replays import storage
from replays.verify import verify_bytes
from services.readmodels.matchrows import ENDED, TABLES, MatchRow, ReadModel, index_keys


class Progress(Protocol):
    """Told how many matches there are to go through, then of each one done (a rich progress bar)."""

    def total(self, count: int) -> None: ...

    def advance(self) -> None: ...


class Verdict(msgspec.Struct, frozen=True):
    """What prune decided about one archive file."""

    file: str
    match_id: str
    pruned: bool
    reason: str


async def ended_since(store: AsyncEventStore, since: datetime | None) -> AsyncIterator[MatchRow]:
    """Ended matches whose last status change (their end) is at or after ``since``, newest first, a page of
    the list at a time."""
    rows = ReadModel(store)
    after = None
    while True:
        page, after = await rows.page(after, 500, status=ENDED)
        for row in page:
            if since is None or row.updated_at >= since:
                yield row
        if after is None:
            return


async def export_ended(
    store: AsyncEventStore, folder: Path, since: datetime | None, progress: Progress | None = None
) -> int:
    """Writes and verifies one replay file per ended match; returns how many it wrote.

    The list is read twice, a page at a time: once to count the matches (for the progress), once to export
    them; memory stays that of one page and one match, however many there are."""
    if progress:
        progress.total(sum([1 async for _ in ended_since(store, since)]))
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    async for row in ended_since(store, since):
        data = await storage.export(store, row.match_id, include_seed=True)
        path = folder / f"{row.match_id}.json"
        partial = path.with_suffix(".json.partial")
        partial.write_bytes(data)
        os.replace(partial, path)
        verdict = await asyncio.to_thread(verify_bytes, path.read_bytes())
        if verdict.failure is not None:
            raise storage.ReplayInvalid(verdict.failure.check, verdict.failure.version, verdict.failure.message)
        written += 1
        if progress:
            progress.advance()
    return written


async def judge(store: AsyncEventStore, path: Path) -> Verdict:
    """Whether the archive file ``path`` allows deleting its match from the store, and why (not)."""
    verdict = await asyncio.to_thread(verify_bytes, path.read_bytes())
    if verdict.failure is not None or verdict.replay is None:
        reason = verdict.failure.check if verdict.failure else "unreadable"
        return Verdict(path.name, "", False, f"the file does not verify ({reason})")
    replay = verdict.replay
    if replay.seed is None:
        return Verdict(path.name, replay.match_id, False, "the file has no seed: the match had not ended")
    row = await ReadModel(store).get(replay.match_id)
    if row is None:
        return Verdict(path.name, replay.match_id, False, "not in the store")
    if row.status != ENDED:
        return Verdict(path.name, replay.match_id, False, "the match is running in the store")
    version = await store.last_version(replay.match_id)
    last = await store.read_stream(replay.match_id, version, version) if version else []
    if version != len(replay.events) or not last or last[0].hash.hex() != replay.head_hash:
        return Verdict(path.name, replay.match_id, False, "the store holds a different stream")
    return Verdict(path.name, replay.match_id, True, "archived and verified")


async def prune(
    store: AsyncEventStore, url: str, folder: Path, dry_run: bool = False, progress: Progress | None = None
) -> list[Verdict]:
    """Judges every ``*.json`` in ``folder`` and deletes the matches that may go (none if ``dry_run``)."""
    files = sorted(folder.glob("*.json"))
    if progress:
        progress.total(len(files))
    verdicts = []
    for path in files:
        verdicts.append(await judge(store, path))
        if progress:
            progress.advance()
    doomed = sorted({v.match_id for v in verdicts if v.pruned})
    if doomed and not dry_run:
        rows = ReadModel(store)
        listed = {match_id: index_keys(row) for match_id in doomed if (row := await rows.get(match_id))}
        await asyncio.to_thread(delete_streams, url, doomed, TABLES, listed)
    return verdicts
