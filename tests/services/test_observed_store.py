"""The observed store: a typed pass-through of the wrapped store's parts and reads, with appends timed."""

from __future__ import annotations

from pathlib import Path

import pytest

from eventstore import CommandRecord, NewEvent, WrongExpectedVersion, migrate, open_store
from services.ops.observed_store import (
    BOT,
    CREATION,
    DUPLICATE,
    END,
    JOIN,
    OTHER,
    OTHER_INSTANCE,
    SEAT,
    THIS_INSTANCE,
    TIMER,
    VERSION,
    ObservedStore,
    appending,
)


async def test_it_times_appends_reports_conflicts_and_hands_out_the_wrapped_parts(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    migrate(url)
    store = await open_store(url)
    observed = ObservedStore(store)
    seconds: list[float] = []
    conflicts: list[tuple[str, str, str]] = []
    observed.append_listeners.append(seconds.append)
    observed.conflict_listeners.append(lambda kind, cause, what: conflicts.append((kind, cause, what)))
    try:
        assert (observed.secrets, observed.snapshots, observed.rows) == (store.secrets, store.snapshots, store.rows)
        created = CommandRecord("c1", "0", "Create", b"{}")
        await observed.append("m1", 0, [NewEvent("A", b"{}")], created, {"seed": b"s"})
        assert (await observed.append("m1", 0, [NewEvent("A", b"{}")], created)).duplicate
        with pytest.raises(WrongExpectedVersion):
            await observed.append("m1", 0, [NewEvent("B", b"{}")], CommandRecord("c2", "0", "Play", b"{}"))
        assert len(seconds) == 3 and conflicts == [(DUPLICATE, THIS_INSTANCE, SEAT), (VERSION, THIS_INSTANCE, SEAT)]
        elsewhere = CommandRecord("c3", "1", "Play", b"{}")
        await store.append("m1", 1, [NewEvent("C", b"{}")], elsewhere)  # another writer, not through ``observed``
        with pytest.raises(WrongExpectedVersion):
            await observed.append("m1", 1, [NewEvent("B", b"{}")], CommandRecord("c4", "0", "Play", b"{}"))
        assert (await observed.append("m1", 1, [NewEvent("C", b"{}")], elsewhere)).duplicate
        assert conflicts[2:] == [(VERSION, OTHER_INSTANCE, SEAT), (DUPLICATE, OTHER_INSTANCE, SEAT)]
        assert (await observed.head(), await observed.last_version("m1")) == (2, 2)
        assert [e.type for e in await observed.read_stream("m1")] == ["A", "C"]
        assert await observed.secrets.read("m1") == {"seed": b"s"}
    finally:
        await observed.close()


def test_a_conflict_is_told_what_was_being_appended() -> None:
    match = "9f" * 16
    assert [
        appending(match, CommandRecord("c1", "0", "play", b"{}")),
        appending(match, CommandRecord("bot-1-7", "1", "play", b"{}")),
        appending(match, CommandRecord("timeout-7", "system", "end_turn", b"{}")),
        appending(match, CommandRecord("j", "1", "join_seat", b"{}")),
        appending(match, CommandRecord(f"create-{match}", "system", "create_match", b"{}")),
        appending(f"ended:{match}", CommandRecord(f"end-{match}", "system", "record_end", b"{}")),
        appending("tournament:t1", CommandRecord("c2", "admin", "report", b"{}")),
    ] == [SEAT, BOT, TIMER, JOIN, CREATION, END, OTHER]
