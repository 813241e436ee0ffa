"""The match manager on a real store: LRU eviction, reload from snapshot plus tail, timers re-armed on load."""

from __future__ import annotations

import asyncio
from typing import cast

import pytest

from engine import registry
from engine.bots import RandomBot
from engine.contract import Ruleset
from engine.errors import Rejected
from engine.match import encode
from engine.selfplay import next_move
from eventstore import AsyncEventStore, DatabaseError
from services.core.errors import RulesetUnavailable
from services.matches import ends as ends_module
from services.matches import snapshots
from services.matches.creation import SeatEntry
from services.matches.hot import HotMatch
from services.matches.manager import MatchManager
from services.matches.ownership import Ownership
from services.matches.timers import Timers
from services.ops.observed_store import ObservedStore
from services.readmodels import lifecycle
from services.readmodels.matchrows import ENDED
from tests.versions import card_monsters_v2, hosting

__all__ = ["card_monsters_v2"]  # the fixture, used by name

SEATS = [SeatEntry(name="a", config={}), SeatEntry(name="b", config={})]


async def play(manager: MatchManager, match_id: str, commands: int) -> None:
    hot = await manager.get(match_id)
    bots = [RandomBot(1), RandomBot(2)]
    for _ in range(commands):
        if hot.outcome is not None:
            break
        actor, command = next_move(hot.ruleset, hot.state, bots)
        await manager.submit(match_id, actor, encode(command))
    await manager.ends.recorded()


async def test_evicted_matches_reload_from_snapshot_and_tail_unchanged(store: AsyncEventStore) -> None:
    manager = MatchManager(store, capacity=1, snapshot_every=5)
    first = (await manager.create("card_monsters", SEATS, {})).row.match_id
    await play(manager, first, 12)
    before = manager.loaded(first)
    assert before is not None
    state, version = before.state, before.version
    second = (await manager.create("card_monsters", SEATS, {})).row.match_id
    assert manager.loaded(first) is None and manager.loaded(second) is not None
    snapshot = await store.snapshots.load(first, snapshots.schema(before.ruleset))
    assert snapshot is not None and 1 < snapshot.version <= version
    reloaded = await manager.get(first)
    assert (reloaded.state, reloaded.version, reloaded.deadlines) == (state, version, before.deadlines)
    await play(manager, first, 5)
    assert reloaded.version > version


async def test_a_reloaded_running_match_gets_its_timer_back(store: AsyncEventStore) -> None:
    manager = MatchManager(store, capacity=1)
    timers = Timers(manager)
    manager.on_change(timers.arm)
    first = (await manager.create("card_monsters", SEATS, {"turn_seconds": 30})).row.match_id
    assert 0 < (timers.due(first) or 0) <= 30
    fresh = MatchManager(store)
    fresh_timers = Timers(fresh)
    fresh.on_change(fresh_timers.arm)
    assert fresh_timers.due(first) is None
    await fresh.get(first)
    assert 0 < (fresh_timers.due(first) or 0) <= 30
    timers.close()
    fresh_timers.close()


async def test_a_restart_arms_the_expiry_a_kept_deadline_had(store: AsyncEventStore) -> None:
    """The seat's turn goes on over several commands: its clock runs from the first, on every instance."""
    manager = MatchManager(store)
    timers = Timers(manager)
    manager.on_change(timers.arm)
    match_id = (await manager.create("card_monsters", SEATS, {"turn_seconds": 30})).row.match_id
    kept = None
    for _ in range(60):
        before = timers.armed(match_id)
        await play(manager, match_id, 1)
        after = timers.armed(match_id)
        if before is not None and after is not None and (before.seat, before.timeout) == (after.seat, after.timeout):
            kept = after
            break
    assert kept is not None, "no command kept the deadline it found"
    fresh = MatchManager(store)
    fresh_timers = Timers(fresh)
    fresh.on_change(fresh_timers.arm)
    await fresh.get(match_id)
    armed = fresh_timers.armed(match_id)
    assert armed is not None and armed.expires_at == kept.expires_at, "not from the last command, from the first"
    timers.close()
    fresh_timers.close()


@pytest.mark.parametrize("ruleset", sorted(registry.RULESETS))
async def test_deadlines_loaded_from_the_store_are_those_kept_live(store: AsyncEventStore, ruleset: str) -> None:
    """Kept, begun, paused and resumed deadlines over a played match: a load from snapshot and tail (every 7
    versions) folds the same deadlines as the live match, and its timer the same expiry."""
    manager = MatchManager(store, snapshot_every=7)
    timers = Timers(manager)
    manager.on_change(timers.arm)
    match_id = (await manager.create(ruleset, SEATS, {})).row.match_id
    for _ in range(8):
        await play(manager, match_id, 9)
        live = manager.loaded(match_id)
        assert live is not None
        fresh = MatchManager(store, snapshot_every=7)
        fresh_timers = Timers(fresh)
        fresh.on_change(fresh_timers.arm)
        loaded = await fresh.get(match_id)
        assert (loaded.version, loaded.deadlines) == (live.version, live.deadlines)
        assert fresh_timers.armed(match_id) == timers.armed(match_id)
        fresh_timers.close()
    timers.close()


class Counting:
    """The store (or one of its parts) with a count of its reads, by method; the parts' as ``part.method``."""

    def __init__(self, store: object, reads: list[str] | None = None, prefix: str = "") -> None:
        self._store = store
        self.reads: list[str] = [] if reads is None else reads
        self._prefix = prefix

    def __getattr__(self, name: str) -> object:
        attribute = getattr(self._store, name)
        if name in ("secrets", "snapshots", "rows"):
            return Counting(attribute, self.reads, f"{name}.")
        if name.startswith(("read", "load", "get", "list")):

            async def counted(*args: object, **kwargs: object) -> object:
                self.reads.append(self._prefix + name)
                return await attribute(*args, **kwargs)

            return counted
        return attribute


async def test_a_refusal_on_the_embedded_instance_reads_nothing(store: AsyncEventStore) -> None:
    counting = Counting(store)
    manager = MatchManager(cast(AsyncEventStore, counting))
    match_id = (await manager.create("card_monsters", SEATS, {})).row.match_id
    hot = manager.loaded(match_id)
    assert hot is not None
    idle = 1 - hot.ruleset.to_act(hot.state)[0]
    counting.reads.clear()
    with pytest.raises(Rejected):
        await manager.submit(match_id, idle, b'{"type": "engage"}')
    assert counting.reads == []


async def test_a_refusal_on_a_shared_database_is_decided_again_on_the_current_match(store: AsyncEventStore) -> None:
    counting = Counting(store)
    manager = MatchManager(cast(AsyncEventStore, counting), shared=True)
    match_id = (await manager.create("card_monsters", SEATS, {})).row.match_id
    hot = manager.loaded(match_id)
    assert hot is not None
    idle = 1 - hot.ruleset.to_act(hot.state)[0]
    counting.reads.clear()
    with pytest.raises(Rejected):
        await manager.submit(match_id, idle, b'{"type": "engage"}')
    assert counting.reads == ["read_stream"]


async def test_a_read_at_a_version_another_instance_appended_waits_for_the_follower(store: AsyncEventStore) -> None:
    """A client whose seats call different instances reads at the version its last command made: the follower is
    about to hand it over, so it is not read a second time (a round trip per command on the other instance)."""
    writer = MatchManager(store)
    match_id = (await writer.create("card_monsters", SEATS, {})).row.match_id
    counting = Counting(store)
    reader = MatchManager(cast(AsyncEventStore, counting), shared=True)
    await reader.get(match_id)
    await play(writer, match_id, 1)
    version = await store.last_version(match_id)
    tail = await store.read_stream(match_id, 2)
    counting.reads.clear()
    reading = asyncio.create_task(reader.at_least(match_id, version))
    await asyncio.sleep(0)  # one turn of the loop: the read runs until it waits
    await reader.apply_foreign(tail)  # as the follower does
    assert (await reading).version == version
    assert counting.reads == []


async def test_a_cold_load_reads_in_three_round_trips(store: AsyncEventStore) -> None:
    manager = MatchManager(store, snapshot_every=5)
    match_id = (await manager.create("card_monsters", SEATS, {})).row.match_id
    await play(manager, match_id, 12)
    counting = Counting(store)
    cold = MatchManager(cast(AsyncEventStore, counting))
    loaded = await cold.get(match_id)
    assert loaded.state == (await manager.get(match_id)).state
    # The first event and the secrets at once, then the snapshot, then the tail.
    assert sorted(counting.reads[:2]) == ["read_stream", "secrets.read"]
    assert counting.reads[2:] == ["snapshots.load", "read_stream"]


async def test_a_retry_of_a_command_from_before_a_reload_gets_its_first_result(store: AsyncEventStore) -> None:
    manager = MatchManager(store, snapshot_every=5)
    match_id = (await manager.create("card_monsters", SEATS, {})).row.match_id
    hot = await manager.get(match_id)
    bots = [RandomBot(1), RandomBot(2)]
    submitted = []
    for index in range(12):
        actor, command = next_move(hot.ruleset, hot.state, bots)
        submitted.append(
            (
                f"c{index}",
                actor,
                encode(command),
                await manager.submit(match_id, actor, encode(command), command_id=f"c{index}"),
            )
        )
    # An early command of a seat that is not to act now: deciding it again could only refuse it.
    command_id, actor, raw, original = next(s for s in submitted if s[1] not in hot.ruleset.to_act(hot.state))
    counting = Counting(store)
    cold = MatchManager(cast(AsyncEventStore, counting))
    reloaded = await cold.get(match_id)
    assert not reloaded.log_complete, "loaded from the snapshot, the log of older commands is not read"
    retried = await cold.submit(match_id, actor, raw, command_id=command_id)
    assert retried.duplicate and retried.events == original.events
    assert counting.reads.count("read_commands") == 1
    again = await cold.submit(match_id, actor, raw, command_id=command_id)
    assert again.duplicate and counting.reads.count("read_commands") == 1


class HeldTail:
    """The store, whose next read of a stream's tail (from version 2 on) is read at once and then held back
    until ``release``: an append committed meanwhile is not in it."""

    def __init__(self, store: AsyncEventStore) -> None:
        self._store = store
        self.reading = asyncio.Event()
        self.release = asyncio.Event()

    def __getattr__(self, name: str) -> object:
        return getattr(self._store, name)

    async def read_stream(self, stream_id: str, from_version: int = 1, to_version: int | None = None) -> object:
        read = await self._store.read_stream(stream_id, from_version, to_version)
        if from_version > 1 and not self.reading.is_set():
            self.reading.set()
            await self.release.wait()
        return read


async def test_an_event_folded_by_the_follower_while_the_match_loads_is_not_lost(store: AsyncEventStore) -> None:
    """Another instance appends after this one read the tail of a match it is loading, and the follower hands
    that event over before the load is done: the loaded match must not stay behind it (its watchers would
    wait for an event that already passed, e.g. the match's end)."""
    writer = MatchManager(store)
    match_id = (await writer.create("card_monsters", SEATS, {})).row.match_id
    await play(writer, match_id, 2)
    held = HeldTail(store)
    reader = MatchManager(cast(AsyncEventStore, held), shared=True)
    loading = asyncio.create_task(reader.get(match_id))
    await held.reading.wait()
    before = await store.last_version(match_id)
    await play(writer, match_id, 1)
    await reader.apply_foreign(await store.read_stream(match_id, before + 1))  # as the follower does
    held.release.set()
    loaded = await loading
    assert loaded.version == await store.last_version(match_id)


class EndFails:
    """The store, whose first append of a match's end record fails as a lost connection does."""

    def __init__(self, store: AsyncEventStore) -> None:
        self._store = store
        self.failed = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self._store, name)

    async def append(self, stream_id: str, *args: object, **kwargs: object) -> object:
        if stream_id.startswith(lifecycle.ENDED_STREAM_PREFIX) and not self.failed:
            self.failed += 1
            raise DatabaseError("connection lost")
        return await self._store.append(stream_id, *args, **kwargs)  # type: ignore[arg-type]


async def test_an_end_the_store_failed_to_record_is_recorded_once_it_is_back(
    store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command that ended the match is stored and answered; a store fault while its end is recorded must not
    leave the match without an end record (lifecycle, list, tournament result) until the server restarts."""
    monkeypatch.setattr(ends_module, "RETRY", 0.01)
    failing = EndFails(store)
    manager = MatchManager(cast(AsyncEventStore, failing))
    released = asyncio.Event()
    release = manager.ownership.release

    async def releasing(match_id: str) -> None:
        await release(match_id)
        released.set()

    monkeypatch.setattr(manager.ownership, "release", releasing)
    match_id = (await manager.create("card_monsters", SEATS, {})).row.match_id
    hot = manager.loaded(match_id)
    assert hot is not None
    await manager.submit(match_id, hot.ruleset.to_act(hot.state)[0], b'{"type": "concede"}')
    await manager.ends.recorded()
    assert failing.failed == 1
    await asyncio.wait_for(released.wait(), 5)  # the retry's last step, once the end is recorded and listed
    assert len(await store.read_stream(f"{lifecycle.ENDED_STREAM_PREFIX}{match_id}")) == 1
    row = await manager.read_model.get(match_id)
    assert row is not None and row.status == ENDED
    await manager.stop()


async def test_a_snapshot_restores_only_under_its_own_ruleset_version(
    store: AsyncEventStore, card_monsters_v2: Ruleset
) -> None:
    manager = MatchManager(store, snapshot_every=5)
    v1 = (await manager.create("card_monsters", SEATS, {})).row.match_id
    await play(manager, v1, 12)
    before = manager.loaded(v1)
    assert before is not None and before.ruleset is registry.get("card_monsters")
    with hosting(card_monsters_v2):
        assert snapshots.schema(card_monsters_v2) != snapshots.schema(before.ruleset)
        assert await store.snapshots.load(v1, snapshots.schema(card_monsters_v2)) is None
        reloaded = await MatchManager(store).get(v1)  # a restart after the bump: still version 1, from its snapshot
        assert reloaded.ruleset is before.ruleset
        assert (reloaded.state, reloaded.version) == (before.state, before.version)
        v2 = (await manager.create("card_monsters", SEATS, {})).row.match_id
        assert manager.loaded(v2).ruleset is card_monsters_v2  # type: ignore[union-attr]
        await play(manager, v2, 12)
    # Without version 2 its snapshot is never read as version 1's state: the match is refused.
    with pytest.raises(RulesetUnavailable) as refused:
        await MatchManager(store).get(v2)
    assert refused.value.details == {"ruleset": "card_monsters", "version": "2"}


class NoLeases(Ownership):
    """An instance that owns none of the matches (another instance does)."""

    def owns(self, match_id: str) -> bool:
        return False


async def ended_by_another_instance(store: AsyncEventStore, writer: MatchManager, *readers: MatchManager) -> str:
    """A match ``writer`` creates and concedes, which the ``readers`` have loaded and then fold from the store as
    their followers would hand it over."""
    match_id = (await writer.create("card_monsters", SEATS, {})).row.match_id
    hot = await writer.get(match_id)
    for reader in readers:
        await reader.get(match_id)
    await writer.submit(match_id, hot.ruleset.to_act(hot.state)[0], b'{"type": "concede"}')
    await writer.ends.recorded()
    for reader in readers:
        await reader.apply_foreign(await store.read_stream(match_id, 2))
        folded = reader.loaded(match_id)
        assert folded is not None and folded.outcome is not None
        await reader.ends.recorded()
        await asyncio.gather(*reader.ends.settling)
    return match_id


async def test_the_owner_does_not_record_again_an_end_another_instance_recorded(store: AsyncEventStore) -> None:
    """With seats split across instances, both recording each end was a conflict per match: the instance whose
    command ended the match records it, its owner only looks it up."""
    observed = ObservedStore(store)
    conflicts: list[str] = []
    observed.conflict_listeners.append(lambda kind, cause, what: conflicts.append(what))
    owner = MatchManager(cast(AsyncEventStore, observed), shared=True)
    owner.ends.settle = 0.0
    match_id = await ended_by_another_instance(store, MatchManager(store, ownership=NoLeases(None)), owner)
    assert len(await store.read_stream(lifecycle.ended_stream(match_id))) == 1
    assert conflicts == []


async def test_the_owner_records_the_end_of_a_match_whose_ending_instance_died_first(
    store: AsyncEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The instance whose command ended the match dies after appending it, before recording the end: its owner
    records it (another instance that folds the end does not)."""
    writer = MatchManager(store, ownership=NoLeases(None))

    async def dead(hot: HotMatch) -> None:
        """Dead before it records."""

    monkeypatch.setattr(writer.ends, "begin", dead)
    bystander = MatchManager(store, shared=True, ownership=NoLeases(None))
    match_id = await ended_by_another_instance(store, writer, bystander)
    assert await store.read_stream(lifecycle.ended_stream(match_id)) == []
    owner = MatchManager(store, shared=True)
    owner.ends.settle = 0.0
    await owner.get(match_id)  # loaded ended, as a takeover loads it
    await owner.take_over(match_id)
    await asyncio.gather(*owner.ends.settling)
    assert len(await store.read_stream(lifecycle.ended_stream(match_id))) == 1
    row = await owner.read_model.get(match_id)
    assert row is not None and row.status == ENDED
