"""The Play stream through a real server: a whole match on two seat streams, retries, refusals, resume."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterable
from typing import Any

import grpc
import msgspec
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from tests.services.client import Created, create_match, error_reason

NOT_YOUR_TURN = 9  # FAILED_PRECONDITION


def start(created: Created, seat: int, from_version: int = 0, include_view: bool = False) -> pb.PlayRequest:
    return pb.PlayRequest(
        start=pb.PlayStart(
            match_id=created.match_id, token=created.tokens[seat], from_version=from_version, include_view=include_view
        )
    )


def command(json: str, command_id: str) -> pb.PlayRequest:
    return pb.PlayRequest(command=pb.PlayCommand(command_json=json, command_id=command_id))


async def read(call: Any) -> pb.PlayResponse:
    response = await asyncio.wait_for(call.read(), 30)
    assert response is not grpc.aio.EOF, "the stream ended"
    return response


def events(updates: Iterable[pb.MatchUpdate]) -> list[pb.MatchUpdate]:
    """The updates that carry an event: presence updates come in between, whenever a seat connects or leaves."""
    return [u for u in updates if u.HasField("event")]


async def until_turn(call: Any, updates: list[pb.MatchUpdate]) -> pb.PlayResponse:
    """Reads responses, collecting their event updates, until one carries a turn."""
    while True:
        response = await read(call)
        updates.extend(events(response.updates))
        if response.HasField("turn"):
            return response


async def until_result(call: Any) -> pb.PlayResponse:
    """Reads responses until one carries a command's result (a presence update may come first)."""
    while not (response := await read(call)).HasField("result"):
        assert not events(response.updates), "no event before the result"
    return response


async def test_two_seats_play_a_whole_match_over_their_streams(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    calls = [matches.Play(), matches.Play()]
    for seat, call in enumerate(calls):
        await call.write(start(created, seat))
    updates: list[list[pb.MatchUpdate]] = [[], []]
    turns = [await until_turn(call, updates[seat]) for seat, call in enumerate(calls)]
    rng = random.Random(3)
    commands = 0
    while turns[0].turn.to_act:
        seat = turns[0].turn.to_act[0]
        options = [c for c in turns[seat].turn.commands_json if msgspec.json.decode(c)["type"] != "concede"]
        assert options, "the seat to act is sent its legal commands"
        waiting = [msgspec.json.decode(c)["type"] for c in turns[1 - seat].turn.commands_json]
        assert waiting == ["concede"], "the other seat may only concede"
        await calls[seat].write(command(rng.choice(options), f"c{commands}"))
        commands += 1
        answer = await until_turn(calls[seat], updates[seat])
        assert answer.result.command_id == f"c{commands - 1}" and not answer.result.HasField("error")
        assert answer.result.version == answer.turn.version
        turns[seat] = answer
        turns[1 - seat] = await until_turn(calls[1 - seat], updates[1 - seat])
        assert turns[0].turn.version == turns[1].turn.version
    for seat, call in enumerate(calls):
        assert [u.event.version for u in updates[seat]] == list(range(1, turns[0].turn.version + 1))
        assert updates[seat][-1].match_ended
        assert await call.read() is grpc.aio.EOF, "the stream ends after the match's last event"
    match = await matches.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
    assert match.status == pb.MATCH_STATUS_ENDED and commands > 10


async def test_a_retried_command_gets_its_first_result_and_a_refusal_keeps_the_stream(
    matches: pb_grpc.MatchServiceStub,
) -> None:
    created = await create_match(matches)
    seat = (await matches.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
    idle = matches.Play()
    await idle.write(start(created, 1 - seat))
    await until_turn(idle, [])
    await idle.write(command('{"type": "engage"}', "early"))
    refused = await until_result(idle)
    assert refused.result.command_id == "early" and not events(refused.updates)
    assert (refused.result.error.code, refused.result.error.reason) == (NOT_YOUR_TURN, "NOT_YOUR_TURN")

    active = matches.Play()
    await active.write(start(created, seat))
    legal = (await until_turn(active, [])).turn.commands_json
    await active.write(command(legal[0], "once"))
    first = await until_turn(active, [])
    await active.write(command(legal[0], "once"))
    again = await until_result(active)
    assert again.result.duplicate and again.result.version == first.result.version
    assert not events(again.updates), "a retry appends nothing, so nothing new is sent"
    await idle.done_writing()
    assert await read_to_end(idle) == "OK"
    active.cancel()


async def read_to_end(call: Any) -> str:
    while await asyncio.wait_for(call.read(), 30) is not grpc.aio.EOF:
        pass
    return str((await call.code()).name)


async def test_a_resumed_stream_starts_after_the_version_given_with_views(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    call = matches.Play()
    await call.write(start(created, 0, from_version=created.version - 2, include_view=True))
    updates: list[pb.MatchUpdate] = []
    turn = await until_turn(call, updates)
    assert [u.event.version for u in updates] == [created.version - 1, created.version]
    assert all(u.view_json for u in updates)
    assert turn.turn.version == created.version
    call.cancel()


@pytest.mark.parametrize(
    ("first", "status", "reason"),
    [
        ("command", grpc.StatusCode.INVALID_ARGUMENT, "PLAY_START_MISSING"),
        ("bad token", grpc.StatusCode.PERMISSION_DENIED, "TOKEN_INVALID"),
        ("no token", grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING"),
    ],
)
async def test_a_bad_start_ends_the_stream_with_its_status(
    matches: pb_grpc.MatchServiceStub,
    first: str,
    status: grpc.StatusCode,
    reason: str,
) -> None:
    created = await create_match(matches)
    opening = {
        "command": command('{"type": "engage"}', "x"),
        "bad token": pb.PlayRequest(start=pb.PlayStart(match_id=created.match_id, token="nope")),
        "no token": pb.PlayRequest(start=pb.PlayStart(match_id=created.match_id)),
    }[first]
    call = matches.Play()
    await call.write(opening)
    with pytest.raises(grpc.aio.AioRpcError) as raised:
        await asyncio.wait_for(call.read(), 30)
    assert raised.value.code() == status
    assert error_reason(raised.value) == reason
