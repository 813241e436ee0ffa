"""Open seats (issue 34): a match created with a seat open is listed as joinable, JoinSeat fills the seat once
(retries answer the same token, any other joiner is refused), and the match starts only when every seat is
taken; its replay verifies. Over SQLite and PostgreSQL, across a restart, and between two instances."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import grpc
import msgspec
import pytest

from replays.format import decode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import Running
from tests.postgres import throwaway_database
from tests.services.client import Created, end_match, error_reason, play_random
from tests.services.conftest import ADMIN_TOKEN
from tests.services.instances import two_instances
from tests.services.process import ServerProcess

LABELS = {"lobby": "friday"}


async def create_lobby(stub: pb_grpc.MatchServiceStub) -> pb.CreateMatchResponse:
    """A card_monsters match with seat 0 named and seat 1 open."""
    return await stub.CreateMatch(
        pb.CreateMatchRequest(
            ruleset="card_monsters",
            seats=[pb.SeatSpec(name="ann"), pb.SeatSpec(kind=pb.SEAT_KIND_OPEN)],
            labels=LABELS,
        )
    )


async def joinable(stub: pb_grpc.MatchServiceStub) -> list[str]:
    listed = await stub.ListMatches(pb.ListMatchesRequest(ruleset="card_monsters", labels=LABELS, open_seats=True))
    return [m.match_id for m in listed.matches]


async def event_types(stub: pb_grpc.MatchServiceStub, match_id: str) -> list[str]:
    exported = await stub.ExportReplay(pb.ExportReplayRequest(match_id=match_id, token=ADMIN_TOKEN))
    return [e.type for e in decode_replay(exported.replay).events]


def join(match_id: str, request_id: str, name: str = "bob", config: str = "") -> pb.JoinSeatRequest:
    return pb.JoinSeatRequest(match_id=match_id, request_id=request_id, name=name, config_json=config)


async def refused(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as raised:
        await call  # type: ignore[misc]
    return raised.value.code(), error_reason(raised.value)


async def test_an_open_seat_is_joinable_filled_once_and_the_match_starts_only_when_full(
    server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    created = await create_lobby(matches)
    match_id = created.match.match_id
    assert [t.seat for t in created.tokens] == [0]
    assert created.match.open_seats == 1 and created.match.version == 1
    assert [(s.seat, s.name, s.kind) for s in created.match.seat_info] == [
        (0, "ann", pb.SEAT_KIND_PLAYER),
        (1, "", pb.SEAT_KIND_OPEN),
    ]
    assert await joinable(matches) == [match_id]
    assert await event_types(matches, match_id) == ["MatchCreated"]
    ann = created.tokens[0].token
    not_started = (grpc.StatusCode.FAILED_PRECONDITION, "MATCH_NOT_STARTED")
    assert await refused(matches.GetView(pb.GetViewRequest(match_id=match_id, token=ann))) == not_started
    assert await refused(matches.ListLegalCommands(pb.ListLegalCommandsRequest(match_id=match_id, token=ann))) == (
        not_started
    )
    submit = pb.SubmitCommandRequest(match_id=match_id, token=ann, command_json='{"type": "concede"}')
    assert await refused(matches.SubmitCommand(submit)) == not_started

    seated = await matches.JoinSeat(join(match_id, "bob-1", config='{"deck": "starter_b"}'))
    assert seated.seat == 1 and seated.token and seated.match.open_seats == 0
    again = await matches.JoinSeat(join(match_id, "bob-1", config='{"deck": "starter_b"}'))
    assert (again.seat, again.token) == (seated.seat, seated.token)
    assert await refused(matches.JoinSeat(join(match_id, "bob-1", name="rob"))) == (
        grpc.StatusCode.ALREADY_EXISTS,
        "REQUEST_ID_REUSED",
    )
    assert await refused(matches.JoinSeat(join(match_id, "cat-1", name="cat"))) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "NO_OPEN_SEAT",
    )

    got = await matches.GetMatch(pb.GetMatchRequest(match_id=match_id))
    assert list(got.seats) == ["ann", "bob"] and got.open_seats == 0
    assert [s.kind for s in got.seat_info] == [pb.SEAT_KIND_PLAYER, pb.SEAT_KIND_PLAYER]
    assert await joinable(matches) == []
    types = await event_types(matches, match_id)
    assert types[:3] == ["MatchCreated", "SeatJoined", "SeatsFilled"] and len(types) > 3  # the setup, only now

    game = Created(match_id, [ann, seated.token], got.version)
    assert await play_random(matches, game, seed=3, max_commands=8) == 8
    await end_match(matches, game)
    ended = await matches.GetMatch(pb.GetMatchRequest(match_id=match_id))
    assert ended.status == pb.MATCH_STATUS_ENDED and list(ended.seats) == ["ann", "bob"]
    replay = (await matches.ExportReplay(pb.ExportReplayRequest(match_id=match_id))).replay
    assert decode_replay(replay).seats == ["ann", "bob"]
    verdict = await matches.VerifyReplay(pb.VerifyReplayRequest(replay=replay))
    assert verdict.ok, verdict.failure
    steps = await matches.ViewReplay(pb.ViewReplayRequest(match_id=match_id, seat=1, max_steps=2))
    assert msgspec.json.decode(steps.steps[0].view_json) == {"seating": {"seats": ["ann", ""], "open_seats": [1]}}


async def test_a_restart_while_a_seat_is_open_keeps_the_lobby(database_url: str) -> None:
    first = ServerProcess(database_url)
    try:
        async with grpc.aio.insecure_channel(first.address) as channel:
            created = await create_lobby(pb_grpc.MatchServiceStub(channel))
    finally:
        first.kill()
    match_id = created.match.match_id
    second = ServerProcess(database_url)
    try:
        async with grpc.aio.insecure_channel(second.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            assert await joinable(stub) == [match_id]
            got = await stub.GetMatch(pb.GetMatchRequest(match_id=match_id))
            assert got.open_seats == 1 and [s.kind for s in got.seat_info][1] == pb.SEAT_KIND_OPEN
            seated = await stub.JoinSeat(join(match_id, "after-restart"))
            assert seated.seat == 1
            view = await stub.GetView(pb.GetViewRequest(match_id=match_id, token=seated.token))
            assert view.seat == 1 and view.version > 3
    finally:
        second.stop()


@pytest.fixture
def shared_url() -> Iterator[str]:
    with throwaway_database("duelhall_open_seats") as url:
        yield url


@pytest.mark.postgres
async def test_two_joiners_on_two_instances_exactly_one_gets_the_seat(shared_url: str) -> None:
    async with two_instances(shared_url) as (_, _, stubs):
        created = await create_lobby(stubs[0])
        match_id = created.match.match_id
        answers = await asyncio.gather(
            stubs[0].JoinSeat(join(match_id, "a", name="alf")),
            stubs[1].JoinSeat(join(match_id, "b", name="bea")),
            return_exceptions=True,
        )
        seated = [a for a in answers if isinstance(a, pb.JoinSeatResponse)]
        losers = [a for a in answers if isinstance(a, grpc.aio.AioRpcError)]
        assert len(seated) == 1 and len(losers) == 1, answers
        assert (losers[0].code(), error_reason(losers[0])) == (grpc.StatusCode.FAILED_PRECONDITION, "NO_OPEN_SEAT")
        winner = answers.index(seated[0])
        # The winner's retry, answered by the other instance, returns the same seat and token.
        retry = await stubs[1 - winner].JoinSeat(join(match_id, "ab"[winner], name=["alf", "bea"][winner]))
        assert (retry.seat, retry.token) == (seated[0].seat, seated[0].token)
        view = await stubs[1 - winner].GetView(pb.GetViewRequest(match_id=match_id, token=retry.token))
        assert view.seat == 1
