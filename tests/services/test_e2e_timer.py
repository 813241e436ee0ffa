"""A turn timer expires on the server (on a hand-moved clock); the system's Timeout is in the stream and the replay."""

from __future__ import annotations

import asyncio

import grpc
import msgspec

from replays.format import decode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import ServerConfig, create_server
from tests.services.client import create_match
from tests.services.clock import ManualClock
from tests.services.conftest import ADMIN_TOKEN

TURN_SECONDS = 10  # the shortest turn card_monsters allows (spec §3.6)


async def test_an_expired_turn_timer_ends_the_turn_as_the_system(database_url: str) -> None:
    clock = ManualClock()
    running = await create_server(ServerConfig(database_url=database_url, listen="127.0.0.1:0",
                                               admin_token=ADMIN_TOKEN), clock)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            matches = pb_grpc.MatchServiceStub(channel)
            created = await create_match(matches, options=f'{{"turn_seconds": {TURN_SECONDS}}}')
            stream = matches.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id,
                                                             from_version=created.version))
            await stream.wait_for_connection()
            clock.advance(TURN_SECONDS + 30)  # past the deadline whatever the setup took on the real clock

            async def first_system_event() -> pb.Event:
                async for update in stream:
                    if update.event.actor == "system":
                        return update.event
                raise AssertionError("stream ended without a system event")

            event = await asyncio.wait_for(first_system_event(), 30)
            stream.cancel()
            assert event.type == "TurnEnded"
            assert msgspec.json.decode(event.data_json)["reason"] == "timeout"
            replay = decode_replay((await matches.ExportReplay(pb.ExportReplayRequest(
                match_id=created.match_id, token=ADMIN_TOKEN))).replay)
    finally:
        await running.stop(0)
    timeouts = [c for c in replay.commands if c.actor == "system" and c.type == "timeout"]
    assert timeouts and msgspec.json.decode(timeouts[0].payload) == {"type": "timeout", "turn": 1}
