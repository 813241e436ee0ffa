"""Seat presence through real servers: watchers are told when a seat's first stream opens and its last one closes,
over gRPC and Connect, on the instance that holds the stream and on another one; GetMatch shows it, across a
restart. The servers run on a hand-moved clock: a change on the watcher's own instance is told with no time
passing, one on another instance within the poll (``POLL``), never after a sleep."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import grpc
import httpx
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.edge.wire import timestamp
from services.matches.presence import POLL
from services.server import ServerConfig, create_server
from tests.ops.test_metrics import value
from tests.postgres import throwaway_database
from tests.services.client import create_match
from tests.services.clock import ManualClock
from tests.services.connect_client import MATCHES, stream
from tests.services.test_e2e_play import start

AHEAD = timedelta(hours=1)
"""The hand-moved clock starts ahead of the store's, which records the match's creation: a seat's times are then
the clock's, not its creation's."""
ACCEPTANCE = 1.0
"""Seconds within which a watcher must see a change made on another instance."""


async def next_presence(watch: Any) -> list[tuple[int, bool, str]]:
    """The next presence update of a gRPC watch, as (seat, connected, since); event updates are skipped."""

    async def read() -> list[tuple[int, bool, str]]:
        while (update := await watch.read()) is not grpc.aio.EOF:
            if not update.HasField("event"):
                return [(p.seat, p.connected, p.since) for p in update.presence]
        raise AssertionError("the watch ended")

    return await asyncio.wait_for(read(), 30)


def shown(match: pb.Match) -> list[tuple[int, bool, str]]:
    return [(p.seat, p.connected, p.since) for p in match.presence]


async def test_a_watcher_is_told_when_a_seat_connects_and_leaves_over_grpc_and_connect(database_url: str) -> None:
    clock = ManualClock(datetime.now(UTC) + AHEAD)
    running = await create_server(
        ServerConfig(database_url=database_url, listen="127.0.0.1:0", http="127.0.0.1:0"), clock
    )
    assert running.http is not None
    try:
        async with (
            grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel,
            httpx.AsyncClient(base_url=running.http.address, timeout=30) as web,
        ):
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub)
            match = await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
            # Never connected: away since the match was created.
            assert shown(match) == [(0, False, match.created_at), (1, False, match.created_at)]
            watcher = stub.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id, from_version=created.version))
            await watcher.wait_for_connection()
            now = timestamp(clock.now())  # the clock never moves: each change is told at once

            play = stub.Play()
            await play.write(start(created, 0))
            assert await next_presence(watcher) == [(0, True, now), (1, False, match.created_at)]

            connect: AsyncIterator[dict[str, Any]] = stream(
                web,
                MATCHES,
                "WatchMatch",
                {"matchId": created.match_id, "token": created.tokens[1], "fromVersion": str(created.version)},
            )
            told = await asyncio.wait_for(anext(connect), 30)  # the Connect watch is told of its own seat too
            assert "event" not in told and [p.get("connected", False) for p in told["presence"]] == [True, True]
            both = [(0, True, now), (1, True, now)]
            assert await next_presence(watcher) == both
            assert shown(await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))) == both
            assert value(running, "duelhall_connected_seats") == 2

            play.cancel()
            assert await next_presence(watcher) == [(0, False, now), (1, True, now)]
            await connect.aclose()
            assert await next_presence(watcher) == [(0, False, now), (1, False, now)]
            assert value(running, "duelhall_connected_seats") == 0
            watcher.cancel()
    finally:
        await running.stop(0)


async def test_a_seat_stays_away_since_it_left_across_a_restart(database_url: str) -> None:
    clock = ManualClock(datetime.now(UTC) + AHEAD)
    config = ServerConfig(database_url=database_url, listen="127.0.0.1:0")
    running = await create_server(config, clock)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub)
            watcher = stub.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id, from_version=created.version))
            await watcher.wait_for_connection()
            play = stub.Play()
            await play.write(start(created, 1))
            await next_presence(watcher)
            clock.advance(30)
            play.cancel()
            left = await next_presence(watcher)
            assert left[1] == (1, False, timestamp(clock.now()))
            watcher.cancel()
    finally:
        await running.stop(0)
    clock.advance(30)
    running = await create_server(config, clock)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            match = await pb_grpc.MatchServiceStub(channel).GetMatch(pb.GetMatchRequest(match_id=created.match_id))
            assert shown(match) == left
    finally:
        await running.stop(0)


@pytest.mark.postgres
async def test_a_watcher_on_one_instance_is_told_of_a_seat_streaming_on_another() -> None:
    clock = ManualClock(datetime.now(UTC) + AHEAD)
    with throwaway_database("duelhall_presence") as url:
        first = await create_server(ServerConfig(database_url=url, listen="127.0.0.1:0"), clock)
        second = await create_server(ServerConfig(database_url=url, listen="127.0.0.1:0"), clock)
        try:
            async with (
                grpc.aio.insecure_channel(f"127.0.0.1:{first.port}") as a,
                grpc.aio.insecure_channel(f"127.0.0.1:{second.port}") as b,
            ):
                here, there = pb_grpc.MatchServiceStub(a), pb_grpc.MatchServiceStub(b)
                created = await create_match(here)
                request = pb.WatchMatchRequest(match_id=created.match_id, from_version=created.version)
                far, near = here.WatchMatch(request), there.WatchMatch(request)
                await far.wait_for_connection()
                await near.wait_for_connection()
                play = there.Play()
                await play.write(start(created, 0))
                connected = await next_presence(near)  # told on the second instance once its rows are written
                assert connected[0][1]
                assert POLL <= ACCEPTANCE
                clock.advance(ACCEPTANCE)
                assert await next_presence(far) == connected
                assert shown(await here.GetMatch(pb.GetMatchRequest(match_id=created.match_id))) == connected

                play.cancel()
                away = await next_presence(near)
                assert not away[0][1]
                clock.advance(ACCEPTANCE)
                assert await next_presence(far) == away
                far.cancel()
                near.cancel()
        finally:
            await second.stop(0)
            await first.stop(0)
