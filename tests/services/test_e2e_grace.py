"""Disconnect grace through real servers, on both backends and across a restart inside the window: a seat the match
waits on, away for ``disconnect_grace_seconds``, loses by the system's recorded forfeit (reason ``disconnected``)
and the replay verifies; a seat back a second before the grace ends keeps playing.

The servers run on a hand-moved clock, the same one across the restart. A seat's presence times are that clock's,
but the match's events are recorded with the store's clock (PostgreSQL's own), so the clock is first moved past the
match's recorded creation: a seat is then away since it left, on the hand-moved clock, not since the match began.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

import grpc
import msgspec
import pytest

from replays.format import decode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.edge.wire import timestamp
from services.server import Running, ServerConfig, create_server
from tests.services.client import Created, create_match, error_reason
from tests.services.clock import ManualClock
from tests.services.conftest import ADMIN_TOKEN
from tests.services.test_e2e_play import command, start, until_result
from tests.services.test_e2e_presence import next_presence

GRACE = 60
OPTIONS = f'{{"turn_seconds": 600, "disconnect_grace_seconds": {GRACE}}}'
"""The longest turn card_monsters allows: its timer stays far off while the grace runs."""


async def _watch(stub: pb_grpc.MatchServiceStub, created: Created, version: int) -> Any:
    watcher = stub.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id, from_version=version))
    await watcher.wait_for_connection()
    return watcher


async def _connected(watcher: Any, seats: set[int]) -> None:
    """Returns once the watcher is told that exactly ``seats`` are connected."""
    while {seat for seat, connected, _ in await next_presence(watcher) if connected} != seats:
        pass


async def _seated(clock: ManualClock, stub: pb_grpc.MatchServiceStub) -> tuple[Created, int, list[Any], Any]:
    """A match with a grace, both seats playing and watched, the clock past its creation; the seat it waits on."""
    created = await create_match(stub, options=OPTIONS)
    match = await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
    created_at = datetime.fromisoformat(match.created_at)
    clock.advance(max(0.0, (created_at - clock.now()).total_seconds()) + 1)
    watcher = await _watch(stub, created, created.version)
    plays = []
    for seat in (0, 1):
        play = stub.Play()
        await play.write(start(created, seat))
        plays.append(play)
    await _connected(watcher, {0, 1})
    waits_on = list((await stub.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act)
    assert len(waits_on) == 1
    return created, waits_on[0], plays, watcher


async def _leave(clock: ManualClock, play: Any, watcher: Any, seat: int) -> datetime:
    """Closes the seat's only stream; when it went away."""
    play.cancel()
    while True:
        told = {s: (connected, since) for s, connected, since in await next_presence(watcher)}
        if not told[seat][0]:
            assert told[seat][1] == timestamp(clock.now())
            return clock.now()


async def _away_across_a_restart(database_url: str, clock: ManualClock) -> tuple[Running, Created, int, int, datetime]:
    """A match with a grace whose waited-on seat left, then half the grace and a restart: the restarted server,
    the match, the seat, the match's version and when the seat left."""
    config = ServerConfig(database_url=database_url, listen="127.0.0.1:0", admin_token=ADMIN_TOKEN)
    running = await create_server(config, clock)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created, seat, plays, watcher = await _seated(clock, stub)
            left = await _leave(clock, plays[seat], watcher, seat)
            version = (await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))).version
            clock.advance(GRACE / 2)
    finally:
        await running.stop(0)
    return await create_server(config, clock), created, seat, version, left


async def test_a_seat_away_for_the_grace_loses_by_a_recorded_forfeit_across_a_restart(database_url: str) -> None:
    clock = ManualClock()
    running, created, seat, version, left = await _away_across_a_restart(database_url, clock)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            watcher = await _watch(stub, created, version)
            clock.advance((left + timedelta(seconds=GRACE - 1) - clock.now()).total_seconds())
            assert (
                await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
            ).status == pb.MATCH_STATUS_RUNNING
            clock.advance(1)

            async def forfeit() -> list[pb.Event]:
                events = []
                async for update in watcher:
                    if update.HasField("event"):
                        assert update.event.actor == "system", update.event
                        events.append(update.event)
                    if update.match_ended:
                        return events
                raise AssertionError("the watch ended before the match")

            events = await asyncio.wait_for(forfeit(), 30)
            assert [e.type for e in events] == ["MatchEnded"]
            assert msgspec.json.decode(events[0].data_json)["reason"] == "disconnected"
            match = await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
            assert msgspec.json.decode(match.outcome_json) == {
                "winners": [1 - seat],
                "losers": [seat],
                "draw": False,
                "reason": "disconnected",
            }
            replay = (
                await stub.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id, token=ADMIN_TOKEN))
            ).replay
            verdict = await stub.VerifyReplay(pb.VerifyReplayRequest(replay=replay))
            assert verdict.ok, verdict.failure
    finally:
        await running.stop(0)
    recorded = decode_replay(replay)
    last = recorded.commands[-1]
    assert (last.command_id, last.actor, last.type) == (f"disconnected-{seat}-{version}", "system", "forfeit")
    assert msgspec.json.decode(last.payload) == {"type": "forfeit", "seat": seat, "reason": "disconnected"}
    assert msgspec.json.decode(recorded.commands[0].payload)["disconnect_grace_seconds"] == GRACE


async def test_a_seat_back_a_second_before_the_grace_ends_plays_on_across_a_restart(database_url: str) -> None:
    clock = ManualClock()
    running, created, seat, version, left = await _away_across_a_restart(database_url, clock)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            watcher = await _watch(stub, created, version)
            clock.advance((left + timedelta(seconds=GRACE - 1) - clock.now()).total_seconds())
            plays = []
            for each in (0, 1):
                play = stub.Play()
                await play.write(start(created, each, from_version=version))
                plays.append(play)
            await _connected(watcher, {0, 1})
            assert running.timers.grace is not None and running.timers.grace.pending(created.match_id) is None
            clock.advance(2 * GRACE)  # well past when the seat's grace would have run out
            await plays[seat].write(command('{"type": "engage"}', "back"))
            result = (await until_result(plays[seat])).result
            assert not result.HasField("error") and result.version > version, result
            match = await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
            assert match.status == pb.MATCH_STATUS_RUNNING
            for play in plays:
                play.cancel()
    finally:
        await running.stop(0)


@pytest.mark.parametrize("request_id", ["", "grace-refused"])
async def test_a_grace_out_of_range_is_refused_before_anything_is_stored(
    matches: pb_grpc.MatchServiceStub, request_id: str
) -> None:
    request = pb.CreateMatchRequest(
        ruleset="duel",
        seats=[pb.SeatSpec(name="ada"), pb.SeatSpec(name="bob")],
        options_json='{"disconnect_grace_seconds": 86401}',
        request_id=request_id,
    )
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await matches.CreateMatch(request)
    assert (refused.value.code(), error_reason(refused.value)) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "DISCONNECT_GRACE_INVALID",
    )
    listed = await matches.ListMatches(pb.ListMatchesRequest())
    assert list(listed.matches) == []
