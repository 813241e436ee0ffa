"""The observed store: a typed pass-through of the wrapped store's parts and reads, with appends timed."""

from __future__ import annotations

from pathlib import Path

import pytest

from eventstore import CommandRecord, NewEvent, WrongExpectedVersion, migrate, open_store
from services.ops.observed_store import DUPLICATE, VERSION, ObservedStore


async def test_it_times_appends_reports_conflicts_and_hands_out_the_wrapped_parts(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    migrate(url)
    store = await open_store(url)
    observed = ObservedStore(store)
    seconds: list[float] = []
    conflicts: list[str] = []
    observed.append_listeners.append(seconds.append)
    observed.conflict_listeners.append(conflicts.append)
    try:
        assert (observed.secrets, observed.snapshots, observed.rows) == (store.secrets, store.snapshots, store.rows)
        created = CommandRecord("c1", "0", "Create", b"{}")
        await observed.append("m1", 0, [NewEvent("A", b"{}")], created, {"seed": b"s"})
        assert (await observed.append("m1", 0, [NewEvent("A", b"{}")], created)).duplicate
        with pytest.raises(WrongExpectedVersion):
            await observed.append("m1", 0, [NewEvent("B", b"{}")], CommandRecord("c2", "0", "Play", b"{}"))
        assert len(seconds) == 3 and conflicts == [DUPLICATE, VERSION]
        assert (await observed.head(), await observed.last_version("m1")) == (1, 1)
        assert [e.type for e in await observed.read_stream("m1")] == ["A"]
        assert await observed.secrets.read("m1") == {"seed": b"s"}
    finally:
        await observed.close()
