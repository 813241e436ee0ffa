"""The follower: every event from the head on, in order, once; a store fault pauses it, it resumes after it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime

import pytest

from eventstore import DatabaseError, EventMeta, Page, RecordedEvent
from eventstore.foreign import Streams
from services.matches import follower as follower_module
from services.matches.follower import Follower


def event(position: int) -> RecordedEvent:
    return RecordedEvent(position, "m1", position, "E", b"{}", EventMeta("c", "0", datetime.now(UTC)), b"")


class Flaky:
    """A global order of five events after a head of 2, whose first subscription fails after one event."""

    def __init__(self) -> None:
        self.subscribed: list[int] = []

    async def head(self) -> int:
        return 2

    async def subscribe(self, from_position: int, linger: float, streams: Streams) -> AsyncIterator[Page]:
        self.subscribed.append(from_position)
        for position in range(from_position, 8):
            if len(self.subscribed) == 1 and position == 4:
                raise DatabaseError("connection lost")
            yield Page([event(position)], position, False)


async def test_a_store_fault_pauses_following_and_it_resumes_after_the_last_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(follower_module, "RETRY", 0.0)
    source = Flaky()
    folded: list[int] = []
    done = asyncio.Event()

    async def fold(command: Sequence[RecordedEvent]) -> None:
        folded.extend(recorded.position for recorded in command)
        if command[-1].position == 7:
            done.set()

    follower = Follower(source, fold, list)
    await follower.start()
    await asyncio.wait_for(done.wait(), 10)
    await follower.stop()
    assert folded == [3, 4, 5, 6, 7], "each event once, in order, across the fault"
    assert source.subscribed == [3, 4]


class Commands:
    """After a head of 2, one read: three events of command c1 of match m1, one of m2, two of c2 of m1."""

    async def head(self) -> int:
        return 2

    async def subscribe(self, from_position: int, linger: float, streams: Streams) -> AsyncIterator[Page]:
        layout = [("m1", 5, "c1"), ("m1", 6, "c1"), ("m1", 7, "c1"), ("m2", 2, "d1"), ("m1", 8, "c2"), ("m1", 9, "c2")]
        yield Page(
            [
                RecordedEvent(position, stream, version, "E", b"{}", EventMeta(command, "0", datetime.now(UTC)), b"")
                for position, (stream, version, command) in enumerate(layout, start=from_position)
            ],
            from_position + len(layout) - 1,
            False,
        )
        await asyncio.Event().wait()  # caught up: nothing more commits


async def test_the_events_of_one_command_are_folded_together() -> None:
    """A watcher of the other instance's match must not see the states between a command's events."""
    folded: list[list[tuple[str, int]]] = []
    done = asyncio.Event()

    async def fold(command: Sequence[RecordedEvent]) -> None:
        folded.append([(recorded.stream_id, recorded.version) for recorded in command])
        if len(folded) == 3:
            done.set()

    follower = Follower(Commands(), fold, list)
    await follower.start()
    await asyncio.wait_for(done.wait(), 10)
    await follower.stop()
    assert folded == [[("m1", 5), ("m1", 6), ("m1", 7)], [("m2", 2)], [("m1", 8), ("m1", 9)]]
