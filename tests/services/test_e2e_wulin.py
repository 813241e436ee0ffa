"""wulin through a real server: a referee ruling over gRPC, and countdown penalties from the server's timers
(applied once, also across a restart), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import grpc
import msgspec
import pytest

from replays.format import decode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import ServerConfig, create_server
from tests.services.client import Created, create_match, error_reason
from tests.services.clock import ManualClock
from tests.services.conftest import ADMIN_TOKEN

REFEREE = '{"referee_enabled": true}'
RULING = '{"type": "referee_ruling", "winner": 1, "note": "network failure"}'


async def submit(
    stub: pb_grpc.MatchServiceStub,
    created: Created,
    token: str,
    command: str,
) -> pb.SubmitCommandResponse:
    return await stub.SubmitCommand(
        pb.SubmitCommandRequest(match_id=created.match_id, token=token, command_json=command)
    )


async def refusal(stub: pb_grpc.MatchServiceStub, created: Created, token: str, command: str) -> tuple[str, str]:
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await submit(stub, created, token, command)
    return refused.value.code().name, error_reason(refused.value)


async def test_a_referee_ruling_ends_a_running_match(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches, "wulin", options=REFEREE)
    reply = await submit(matches, created, ADMIN_TOKEN, RULING)
    assert [e.type for e in reply.events] == ["RefereeRuled", "MatchEnded"]
    assert {e.actor for e in reply.events} == {"admin"} and list(reply.to_act) == []
    assert msgspec.json.decode(reply.events[1].data_json) == {"type": "MatchEnded", "winner": 1, "reason": "referee"}
    match = await matches.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
    assert match.status == pb.MATCH_STATUS_ENDED


async def test_admin_command_refusals(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches, "wulin", options=REFEREE)
    assert await refusal(matches, created, ADMIN_TOKEN, '{"type": "end_phase"}') == (
        "PERMISSION_DENIED",
        "NOT_AN_ADMIN_COMMAND",
    )
    assert await refusal(matches, created, created.tokens[0], RULING) == ("FAILED_PRECONDITION", "NOT_REFEREE")
    assert await refusal(matches, created, "", RULING) == ("UNAUTHENTICATED", "TOKEN_MISSING")
    assert await refusal(matches, created, "not-the-admin", RULING) == ("PERMISSION_DENIED", "TOKEN_INVALID")
    assert await refusal(matches, created, ADMIN_TOKEN, '{"type": "referee_ruling", "winner": 2}') == (
        "FAILED_PRECONDITION",
        "BAD_WINNER",
    )
    plain = await create_match(matches, "wulin")
    assert await refusal(matches, plain, ADMIN_TOKEN, RULING) == ("FAILED_PRECONDITION", "REFEREE_DISABLED")
    other = await create_match(matches, "card_monsters")
    assert await refusal(matches, other, ADMIN_TOKEN, '{"type": "engage"}') == (
        "PERMISSION_DENIED",
        "NOT_AN_ADMIN_COMMAND",
    )


async def _next_timeout(stub: pb_grpc.MatchServiceStub, match_id: str, after: int) -> list[pb.Event]:
    """The events of the first system command after version ``after``, as the stream delivers them."""
    stream = stub.WatchMatch(pb.WatchMatchRequest(match_id=match_id, from_version=after))
    events: list[pb.Event] = []
    try:
        async for update in stream:
            if update.event.actor == "system":
                events.append(update.event)
                if update.event.type == "ClockRestarted" or update.match_ended:
                    return events
    finally:
        stream.cancel()
    raise AssertionError("the stream ended before a timeout")


def _hp(view_json: str) -> list[int]:
    return [side["hp"] for side in msgspec.json.decode(view_json)["sides"]]


async def test_countdown_timeouts_apply_the_penalty_once_across_a_restart(database_url: str) -> None:
    config = ServerConfig(database_url=database_url, listen="127.0.0.1:0", admin_token=ADMIN_TOKEN)
    clock = ManualClock()
    first = await create_server(config, clock)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{first.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub, "wulin", options='{"action_timer_s": 10}')
            view = await stub.GetView(pb.GetViewRequest(match_id=created.match_id))
            idle = view.to_act[0]
            watching = asyncio.ensure_future(_next_timeout(stub, created.match_id, view.version))
            clock.advance(300)  # past the deadline whatever the setup took on the real clock
            events = await asyncio.wait_for(watching, 30)
            assert [e.type for e in events] == ["TimedOut", "HpChanged", "PhaseEnded", "PhaseStarted", "ClockRestarted"]
            assert msgspec.json.decode(events[1].data_json)["reason"] == "timeout_penalty"
            after_first = await stub.GetView(pb.GetViewRequest(match_id=created.match_id))
            assert _hp(after_first.view_json)[idle] == 270
    finally:
        await first.stop(0)
    clock = ManualClock()
    second = await create_server(config, clock)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{second.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            restored = await stub.GetView(pb.GetViewRequest(match_id=created.match_id))
            assert restored.version == after_first.version and _hp(restored.view_json)[idle] == 270
            watching = asyncio.ensure_future(_next_timeout(stub, created.match_id, restored.version))
            clock.advance(40)
            events = await asyncio.wait_for(watching, 30)
            assert [e.type for e in events][:2] == ["TimedOut", "HpChanged"]
            final = await stub.GetView(pb.GetViewRequest(match_id=created.match_id))
            assert _hp(final.view_json) == [270, 270]
            replay = decode_replay(
                (await stub.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id, token=ADMIN_TOKEN))).replay
            )
            timeouts = [msgspec.json.decode(c.payload) for c in replay.commands if c.type == "timeout"]
            assert len(timeouts) == 2
            assert timeouts[0]["clock_seq"] != timeouts[1]["clock_seq"]
    finally:
        await second.stop(0)
