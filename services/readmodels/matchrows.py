"""The match list: a read model kept in the store's projection rows, a projection of the events.

Projection tables hold the same rows: ``matches`` by match id (lookups) and ``matches_newest`` by a key that
sorts the newest creation first (listing); the indexes hold some of them under that key, so that a filtered
listing reads only the rows that can pass: ``matches_running`` the running ones alone (the server's start
resumes their timers), ``matches_ruleset`` every row under its ruleset, ``matches_label`` every row once
per label it carries, under that label and its value. A row and all its index entries are one write (one
transaction). ``services/readmodels/matchlist.py`` keeps them caught up with the store's global order; the manager
also writes a row as soon as it creates or ends a match, so a client reads its own writes. Rows only move
forward: running, then ended; a match's ruleset, labels and position never change, nor do its index keys.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import msgspec

from engine.contract import Outcome
from eventstore import AsyncEventStore, RowChange

TABLE = "matches"
NEWEST = "matches_newest"
RUNNING_INDEX = "matches_running"
"""The running matches' rows by ``order_key``: a row leaves it when its match ends."""
RULESET_INDEX = "matches_ruleset"
"""Every row by ``ruleset_prefix(ruleset) + order_key``: one ruleset's matches newest first."""
LABEL_INDEX = "matches_label"
"""Every row once per label, by ``label_prefix(key, value) + order_key``: one label's matches newest first."""
TABLES = (TABLE, NEWEST, RUNNING_INDEX, RULESET_INDEX, LABEL_INDEX)
RUNNING = "running"
ENDED = "ended"
_ORDER_BASE = 10**18
"""Larger than any global position: ``_ORDER_BASE - position`` sorts newest first, in fixed width."""


PUBLIC = "public"
"""The spectator policy of a match anyone may watch (``services/matches/spectators.py``): the only matches
listed, and announced, to a reader without the admin token."""
BOT = "bot"
"""The kind of a seat the server plays (``services/matches/bot_seats.py``): the list shows its level."""


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
    position: int = 0
    """Global position of the match's creation event: the list's order."""
    spectators: str = PUBLIC
    """Who may watch it without a seat token (``services/matches/spectators.py``): only public matches are
    listed to a caller without the admin token."""
    bots: dict[int, str] = msgspec.field(default_factory=dict)
    """The seats the server plays, with their bot levels (``services/matches/bot_seats.py``)."""
    open_seats: tuple[int, ...] = ()
    """The seats still open (engine/seating.py): a match listed as joinable. Only ever fewer."""


_decoder = msgspec.json.Decoder(MatchRow)


def order_key(position: int) -> str:
    """The ``matches_newest`` key of a match created at ``position``."""
    return f"{_ORDER_BASE - position:018d}"


def is_order_key(key: str) -> bool:
    return len(key) == 18 and key.isascii() and key.isdigit()


def _part(text: str) -> str:
    """``text`` after its length: whatever it holds (digits, ``:``), it ends where its length says, so no
    key of one ruleset or label starts with another's prefix."""
    return f"{len(text)}:{text}"


def ruleset_prefix(ruleset: str) -> str:
    """What the ``matches_ruleset`` keys of a ruleset's matches start with."""
    return _part(ruleset)


def label_prefix(key: str, value: str) -> str:
    """What the ``matches_label`` keys of the matches labelled ``key`` = ``value`` start with."""
    return _part(key) + _part(value)


def _filtered(row: MatchRow, order: str) -> list[tuple[str, str]]:
    """(table, key) of a row's ruleset and label entries (``order``: its ``order_key``)."""
    return [
        (RULESET_INDEX, ruleset_prefix(row.ruleset) + order),
        *((LABEL_INDEX, label_prefix(key, value) + order) for key, value in sorted(row.labels.items())),
    ]


def _listed(row: MatchRow, order: str) -> list[tuple[str, str]]:
    """(table, key) of every entry of a row but its running one and its row by id."""
    return [(NEWEST, order), *_filtered(row, order)]


def index_keys(row: MatchRow) -> list[str]:
    """The keys of every entry of a row but the one by match id (what pruning its match deletes)."""
    return [key for _, key in _listed(row, order_key(row.position))]


def _index_for(ruleset: str, status: str, labels: dict[str, str] | None) -> tuple[str, str]:
    """The table a filtered page reads and the prefix of the keys it reads there, by a fixed rule (no counts
    are kept): the running ones when only those are wanted, whatever else is (they are the matches in play,
    where every other index grows with the history: a ruleset's running matches are fewer in
    ``matches_running`` than its matches in ``matches_ruleset``); else the label with the longest value (a
    tournament's id before a round's or a table's number; of equal lengths the first key); else the ruleset;
    else every match. The page checks every filter on each row it reads."""
    if status == RUNNING:
        return RUNNING_INDEX, ""
    if labels:
        key, value = max(sorted(labels.items()), key=lambda label: len(label[1]))
        return LABEL_INDEX, label_prefix(key, value)
    if ruleset:
        return RULESET_INDEX, ruleset_prefix(ruleset)
    return NEWEST, ""


def row_for(
    hot: Any,
    created_at: datetime | None,
    previous: MatchRow | None = None,
    labels: dict[str, str] | None = None,
    position: int = 0,
) -> MatchRow:
    """The row for a loaded match; ``created_at``, ``labels`` and ``position`` come from ``previous`` when not
    given."""
    created = hot.match.created
    outcome = hot.outcome
    return MatchRow(
        match_id=hot.match_id,
        ruleset=created.ruleset,
        ruleset_version=created.version,
        seats=created.seats,
        open_seats=created.open_seats,
        status=RUNNING if outcome is None else ENDED,
        version=hot.version,
        outcome=outcome,
        created_at=created_at or (previous.created_at if previous else hot.last_event_at),
        updated_at=hot.last_event_at,
        seed_commitment=created.seed_commitment,
        labels=labels if labels is not None else (previous.labels if previous else {}),
        position=position or (previous.position if previous else 0),
        spectators=hot.spectators.policy,
        bots=hot.bots or (previous.bots if previous else {}),  # an imported match has its bots in its row only
    )


class ReadModel:
    """Rows by match id, and pages of them newest first, over the store's generic projection table."""

    def __init__(self, store: AsyncEventStore) -> None:
        self._store = store

    async def put(self, row: MatchRow) -> None:
        """Writes the row by id and all its index entries in one transaction: a row found by id (what the
        projection checks) has them all, as new as it is, whenever the process stopped."""
        data = msgspec.json.encode(row)
        order = order_key(row.position)
        await self._store.rows.write(
            [
                *((table, key, data) for table, key in _listed(row, order)),
                (RUNNING_INDEX, order, data if row.status == RUNNING else None),
                (TABLE, row.match_id, data),
            ]
        )

    async def get(self, match_id: str) -> MatchRow | None:
        data = await self._store.rows.get(TABLE, match_id)
        return None if data is None else _decoder.decode(data)

    async def page(
        self,
        after: str | None,
        size: int,
        ruleset: str = "",
        status: str = "",
        labels: dict[str, str] | None = None,
        open_seats: bool = False,
    ) -> tuple[list[MatchRow], str | None]:
        """Up to ``size`` rows, newest first, after the order key ``after``, that pass the filters (``open_seats``:
        only the matches with a seat still open, read from the running index when no status is asked); and the
        key to continue after (None when no rows are left). It reads one index (``_index_for``), from the
        entry after ``after`` to where the index's entries for the filter end."""
        found: list[MatchRow] = []
        found_key = ""
        # A match with an open seat is running: its rows are all in the running index (few, the matches in play).
        table, prefix = _index_for(ruleset, status or (RUNNING if open_seats else ""), labels)
        cursor = None if after is None else prefix + after
        limit = max(size * 2, 100)
        while True:
            batch = await self._store.rows.list(table, after_key=cursor, limit=limit, prefix=prefix)
            for key, data in batch:
                cursor = key
                row = _decoder.decode(data)
                if (
                    (not ruleset or row.ruleset == ruleset)
                    and (not status or row.status == status)
                    and has_labels(row.labels, labels)
                    and (not open_seats or bool(row.open_seats))
                ):
                    if len(found) == size:
                        return found, found_key
                    found.append(row)
                    found_key = key[len(prefix) :]  # an order key whatever the index: what a page token holds
            if len(batch) < limit:
                return found, None

    async def clear(self) -> None:
        for table in TABLES:
            await self._store.rows.clear(table)

    async def index_running(self) -> int:
        """Writes ``matches_running`` from ``matches_newest`` (a list made before that table existed); returns
        how many running matches it found."""
        return await self._index(
            lambda key, data: [(RUNNING_INDEX, key, data)] if _decoder.decode(data).status == RUNNING else []
        )

    async def index_filters(self) -> int:
        """Writes ``matches_ruleset`` and ``matches_label`` from ``matches_newest`` (a list made before those
        tables existed), a transaction per page of rows; returns how many matches it indexed."""
        return await self._index(
            lambda key, data: [(table, entry, data) for table, entry in _filtered(_decoder.decode(data), key)]
        )

    async def _index(self, entries: Callable[[str, bytes], list[RowChange]]) -> int:
        """Writes the ``entries`` of every row of ``matches_newest`` (by its order key and JSON), a transaction
        per page of rows; returns how many rows had any."""
        count = 0
        cursor = None
        while batch := await self._store.rows.list(NEWEST, after_key=cursor, limit=500):
            written = [entries(key, data) for key, data in batch]
            await self._store.rows.write([change for changes in written for change in changes])
            count += sum(1 for changes in written if changes)
            cursor = batch[-1][0]
        return count


def has_labels(labels: dict[str, str], wanted: dict[str, str] | None) -> bool:
    """Whether ``labels`` carries every wanted label with its value."""
    return not wanted or all(labels.get(key) == value for key, value in wanted.items())
