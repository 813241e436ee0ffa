"""A turn timer expires on the server (on a hand-moved clock); the system's Timeout is in the stream and the replay."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

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
    running = await create_server(
        ServerConfig(database_url=database_url, listen="127.0.0.1:0", admin_token=ADMIN_TOKEN), clock
    )
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            matches = pb_grpc.MatchServiceStub(channel)
            created = await create_match(matches, options=f'{{"turn_seconds": {TURN_SECONDS}}}')
            stream = matches.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id, from_version=created.version))
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
            replay = decode_replay(
                (
                    await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id, token=ADMIN_TOKEN))
                ).replay
            )
    finally:
        await running.stop(0)
    timeouts = [c for c in replay.commands if c.actor == "system" and c.type == "timeout"]
    assert timeouts and msgspec.json.decode(timeouts[0].payload) == {"type": "timeout", "turn": 1}


async def test_views_and_the_latest_watch_update_carry_the_running_clock(matches: pb_grpc.MatchServiceStub) -> None:
    before = datetime.now(UTC)
    created = await create_match(matches, options='{"turn_seconds": 40}')
    view = await matches.GetView(pb.GetViewRequest(match_id=created.match_id))
    assert view.HasField("deadline")
    assert view.deadline.seat == view.to_act[0]
    assert msgspec.json.decode(view.deadline.timeout_json)["type"] == "timeout"
    assert view.deadline.seconds == 40
    expires = datetime.fromisoformat(view.deadline.expires_at)
    assert before + timedelta(seconds=39) < expires < datetime.now(UTC) + timedelta(seconds=40.5)
    legal = await matches.ListLegalCommands(
        pb.ListLegalCommandsRequest(match_id=created.match_id, token=created.tokens[view.to_act[0]])
    )
    assert legal.deadline == view.deadline
    updates = []
    async for update in matches.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id)):
        updates.append(update)
        if update.event.version == created.version:
            break
    assert [u.HasField("deadline") for u in updates] == [False] * (len(updates) - 1) + [True]
    assert updates[-1].deadline == view.deadline
    assert list(updates[-1].to_act) == list(view.to_act) and not updates[0].to_act
    conceded = await matches.SubmitCommand(
        pb.SubmitCommandRequest(match_id=created.match_id, token=created.tokens[0], command_json='{"type": "concede"}')
    )
    assert not (
        await matches.GetView(pb.GetViewRequest(match_id=created.match_id, min_version=conceded.version))
    ).HasField("deadline")
