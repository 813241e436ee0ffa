"""The watch feed on its own: live delivery without store reads, resume, gaps, the end, many viewers."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from engine import registry
from engine.bots import RandomBot
from engine.match import (
    MATCH_CREATED,
    EventDecoder,
    Match,
    create,
    decide_command,
    encode,
    fold,
    type_tag,
)
from engine.selfplay import next_move
from eventstore import EventMeta, RecordedEvent, Snapshot
from services.matches import snapshots
from services.matches import watch as watch_module
from services.matches.deadlines import NONE
from services.matches.hot import HotMatch, MatchEvent
from services.matches.spectators import Spectators
from services.matches.timers import Armed
from services.matches.tokens import token_hash
from services.matches.watch import After, Feed, Update, Watch

AT = datetime(2026, 1, 1, tzinfo=UTC)
TOKENS = ("t0", "t1")


class Scripted:
    """A card_monsters match played by bots, with its events kept as a store would keep them."""

    def __init__(self) -> None:
        self.ruleset = registry.get("card_monsters")
        seed = bytes(range(32))
        events = create(self.ruleset, {"seats": [{}, {}], "options": {}}, ["a", "b"], seed)
        self.hot = HotMatch(
            "m1",
            self.ruleset,
            fold(self.ruleset, events),
            seed,
            tuple(token_hash(t) for t in TOKENS),
            {},
            AT,
            NONE,
            Spectators(),
        )
        self.stored = [self._recorded(i + 1, e) for i, e in enumerate(events)]
        self.states: dict[int, Match] = {self.hot.version: self.hot.match}
        self.bots = [RandomBot(1), RandomBot(2)]
        self.reads: list[tuple[int, int | None]] = []
        self.snapshot: Snapshot | None = None
        self.clock: Armed | None = None
        self.feed: Feed[Update] = Feed(self, self, self._encode, self.armed)
        self.encoded = 0

    def armed(self, match_id: str) -> Armed | None:
        return self.clock

    def _encode(self, update: Update) -> Update:
        self.encoded += 1
        return update

    def _recorded(self, version: int, event: Any) -> RecordedEvent:
        return RecordedEvent(version, "m1", version, type_tag(event), encode(event), EventMeta("c", "0", AT), b"")

    async def at_least(self, match_id: str, min_version: int) -> HotMatch:
        return self.hot

    async def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[RecordedEvent]:
        self.reads.append((from_version, to_version))
        return [r for r in self.stored if from_version <= r.version <= (to_version or r.version)]

    @property
    def snapshots(self) -> Scripted:
        return self

    async def load(self, stream_id: str, schema: str) -> Snapshot | None:
        return self.snapshot

    async def save(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot

    def step(self, publish: bool = True) -> list[MatchEvent]:
        """One bot command, appended to the 'store', folded into the hot match and published."""
        actor, command = next_move(self.ruleset, self.hot.state, self.bots)
        decided = decide_command(self.ruleset, self.hot.match, actor, command, self.hot.seed)
        first = self.hot.version + 1
        self.hot.advance(decided.match, f"c{first}", AT)
        happened = [
            MatchEvent(first + i, type_tag(e), e, encode(e), str(actor), AT) for i, e in enumerate(decided.events)
        ]
        self.stored += [self._recorded(m.version, m.event) for m in happened]
        self.states[self.hot.version] = self.hot.match
        if publish:
            self.feed.publish(self.hot, happened)
        return happened

    def play_to_end(self) -> None:
        while self.hot.outcome is None:
            self.step()

    async def open(self, seat: int | None, after: int, include_view: bool = False) -> Watch[Update]:
        return await self.feed.open("m1", lambda hot: seat, after, include_view)


async def versions(watch: Watch[Update]) -> list[int]:
    return [u.event.version for u in await watch.take()]


async def test_live_events_reach_a_watcher_without_reading_the_store() -> None:
    match = Scripted()
    watch = await match.open(None, match.hot.version)
    start = match.hot.version
    for _ in range(5):
        match.step()
    assert await versions(watch) == list(range(start + 1, match.hot.version + 1))
    assert match.reads == []
    watch.close()
    assert match.hot.watches == 0


async def test_only_the_latest_update_says_who_acts_and_carries_the_clock_live_and_caught_up() -> None:
    match = Scripted()
    match.clock = Armed(0, b'{"type":"timeout"}', AT, 30.0)
    watch = await match.open(None, match.hot.version)
    resumed = await match.open(1, 0)
    match.step()
    for updates in (await watch.take(), await resumed.take()):
        *earlier, latest = updates
        assert latest.event.version == match.hot.version
        assert latest.after == After(match.ruleset.to_act(match.hot.state), match.clock)
        assert all(update.after is None for update in earlier)
    watch.close()
    resumed.close()


async def test_a_resumed_watch_reads_the_store_once_then_goes_live() -> None:
    match = Scripted()
    for _ in range(4):
        match.step()
    watch = await match.open(None, 3)
    match.step()
    assert await versions(watch) == list(range(4, match.hot.version + 1))
    assert len(match.reads) == 1
    match.step()
    before = match.hot.version
    match.step()
    assert (await versions(watch))[-1] == match.hot.version and before < match.hot.version
    assert len(match.reads) == 1
    watch.close()


async def test_a_watcher_that_falls_behind_catches_up_from_the_store_without_a_gap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(watch_module, "MAILBOX", 3)
    match = Scripted()
    start = match.hot.version
    watch = await match.open(0, start)
    for _ in range(10):
        match.step()
    assert await versions(watch) == list(range(start + 1, match.hot.version + 1))
    assert len(match.reads) == 1


async def test_the_last_update_of_an_ended_match_says_so_and_the_watch_ends() -> None:
    match = Scripted()
    watch = await match.open(1, match.hot.version)
    updates: list[Update] = []
    while match.hot.outcome is None:
        match.step()
        updates += await watch.take()
    assert [u.ended for u in updates] == [False] * (len(updates) - 1) + [True]
    assert watch.ended and await watch.next() == []
    late = await match.open(None, match.hot.version)
    assert late.ended and await late.next() == []


async def test_two_seats_see_their_own_redactions_of_the_same_events() -> None:
    match = Scripted()
    watches = [await match.open(seat, match.hot.version) for seat in (0, 1)]
    while not any(m.type == "CardDrawn" for m in match.step()):
        pass
    seen = [[u for u in await w.take() if u.event.type == "CardDrawn"][-1] for w in watches]
    stored = next(r for r in reversed(match.stored) if r.type == "CardDrawn")
    drawn = EventDecoder(match.ruleset).decode(stored.type, stored.data)
    assert seen[0].event.data != seen[1].event.data, "only the drawer sees the card"
    for seat in (0, 1):
        assert seen[seat].event.data == encode(match.ruleset.redact(drawn, seat))


async def test_many_viewers_cost_one_encoding_per_distinct_viewer_and_no_reads() -> None:
    match = Scripted()
    spectators = [await match.open(None, match.hot.version) for _ in range(200)]
    seat = await match.open(0, match.hot.version)
    happened = match.step()
    assert match.encoded == 2 * len(happened)
    first = await spectators[0].take()
    for other in spectators[1:]:
        assert await other.take() == first
    assert [u.event.version for u in await seat.take()] == [m.version for m in happened]
    assert match.reads == []


async def test_views_follow_each_event_from_the_hot_match() -> None:
    match = Scripted()
    watch = await match.open(0, match.hot.version, include_view=True)
    for _ in range(3):
        match.step()
    updates = await watch.take()
    last = updates[-1]
    assert last.view == encode(match.ruleset.view(match.hot.state, 0))
    assert all(u.view is not None for u in updates)
    assert match.reads == []


async def test_a_resumed_watch_with_views_starts_from_the_snapshot() -> None:
    match = Scripted()
    for _ in range(6):
        match.step()
    base = sorted(match.states)[2]
    match.snapshot = snapshots.saved("m1", match.ruleset, match.states[base], NONE)
    watch = await match.open(1, base + 1, include_view=True)
    updates = await watch.take()
    assert match.reads == [(base + 1, match.hot.version)]
    assert updates[-1].view == encode(match.ruleset.view(match.hot.state, 1))
    assert updates[0].event.version == base + 2
    assert all(u.event.type != MATCH_CREATED for u in updates)
