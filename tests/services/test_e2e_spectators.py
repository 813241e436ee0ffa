"""Spectator policy per match, through a real server: public, spectator token, or none (seats and admin only)."""

from __future__ import annotations

import grpc
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import Running, ServerConfig, create_server
from tests.services.client import error_reason
from tests.services.conftest import ADMIN_TOKEN

SEATS = [pb.SeatSpec(name="ann"), pb.SeatSpec(name="bob")]
SPECTATOR = -1
"""``GetViewResponse.seat`` of a spectator's view."""


async def create(stub: pb_grpc.MatchServiceStub, spectators: int, request_id: str = "") -> pb.CreateMatchResponse:
    request = pb.CreateMatchRequest(ruleset="card_monsters", seats=SEATS, spectators=spectators, request_id=request_id)
    reply: pb.CreateMatchResponse = await stub.CreateMatch(request)
    return reply


async def refusal(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call  # type: ignore[misc]
    return caught.value.code(), error_reason(caught.value)


async def first_update(stub: pb_grpc.MatchServiceStub, match_id: str, token: str) -> pb.MatchUpdate:
    """The first update of a watch from the start (its events so far, as this token's viewer sees them)."""
    stream = stub.WatchMatch(pb.WatchMatchRequest(match_id=match_id, token=token))
    try:
        update: pb.MatchUpdate = await anext(aiter(stream))
        return update
    finally:
        stream.cancel()


async def watch_refusal(stub: pb_grpc.MatchServiceStub, match_id: str, token: str) -> tuple[grpc.StatusCode, str]:
    return await refusal(first_update(stub, match_id, token))


def seat_of(reply: pb.CreateMatchResponse, seat: int) -> str:
    return next(t.token for t in reply.tokens if t.seat == seat)


async def test_a_match_with_no_spectators_answers_only_its_seats_and_the_admin(
    matches: pb_grpc.MatchServiceStub,
) -> None:
    created = await create(matches, pb.SPECTATORS_NONE)
    match_id = created.match.match_id
    assert created.match.spectators == pb.SPECTATORS_NONE and not created.spectator_token
    refused = (grpc.StatusCode.PERMISSION_DENIED, "SPECTATORS_NONE")
    assert await refusal(matches.GetView(pb.GetViewRequest(match_id=match_id))) == refused
    assert await watch_refusal(matches, match_id, "") == refused
    assert await refusal(matches.WatchMatchBatched(pb.WatchMatchRequest(match_id=match_id)).read()) == refused
    seat = await matches.GetView(pb.GetViewRequest(match_id=match_id, token=seat_of(created, 1)))
    assert seat.seat == 1
    admin = await matches.GetView(pb.GetViewRequest(match_id=match_id, token=ADMIN_TOKEN))
    assert admin.seat == SPECTATOR  # the admin watches as a spectator: no seat's hidden cards
    assert (await first_update(matches, match_id, ADMIN_TOKEN)).event.version == 1


async def test_a_match_with_a_spectator_token_answers_that_token_as_a_spectator(
    matches: pb_grpc.MatchServiceStub,
) -> None:
    created = await create(matches, pb.SPECTATORS_TOKEN)
    match_id, spectator = created.match.match_id, created.spectator_token
    assert spectator and spectator not in {t.token for t in created.tokens}
    assert await refusal(matches.GetView(pb.GetViewRequest(match_id=match_id))) == (
        grpc.StatusCode.UNAUTHENTICATED,
        "SPECTATOR_TOKEN_REQUIRED",
    )
    other = await create(matches, pb.SPECTATORS_TOKEN)
    assert await watch_refusal(matches, match_id, other.spectator_token) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "TOKEN_INVALID",
    )
    viewed = await matches.GetView(pb.GetViewRequest(match_id=match_id, token=spectator))
    assert viewed.seat == SPECTATOR
    assert (await first_update(matches, match_id, spectator)).event.version == 1
    # The spectator token opens no seat: it cannot act.
    assert await refusal(
        matches.SubmitCommand(
            pb.SubmitCommandRequest(match_id=match_id, token=spectator, command_json='{"type": "concede"}')
        )
    ) == (grpc.StatusCode.PERMISSION_DENIED, "TOKEN_INVALID")


async def test_a_retried_request_gets_the_same_spectator_token(matches: pb_grpc.MatchServiceStub) -> None:
    first = await create(matches, pb.SPECTATORS_TOKEN, request_id="r-1")
    again = await create(matches, pb.SPECTATORS_TOKEN, request_id="r-1")
    assert (again.match.match_id, again.spectator_token) == (first.match.match_id, first.spectator_token)
    assert await refusal(
        matches.CreateMatch(
            pb.CreateMatchRequest(ruleset="card_monsters", seats=SEATS, spectators=pb.SPECTATORS_NONE, request_id="r-1")
        )
    ) == (grpc.StatusCode.ALREADY_EXISTS, "REQUEST_ID_REUSED")


async def test_a_spectator_policy_outside_the_enum_is_an_invalid_argument(matches: pb_grpc.MatchServiceStub) -> None:
    request = pb.CreateMatchRequest(ruleset="card_monsters", seats=SEATS, spectators=9)  # type: ignore[arg-type]
    assert await refusal(matches.CreateMatch(request)) == (grpc.StatusCode.INVALID_ARGUMENT, "SPECTATORS_INVALID")


async def test_list_matches_shows_only_the_matches_anyone_may_watch_without_the_admin_token(
    matches: pb_grpc.MatchServiceStub,
) -> None:
    ids = {
        policy: (await create(matches, policy)).match.match_id
        for policy in (pb.SPECTATORS_UNSPECIFIED, pb.SPECTATORS_PUBLIC, pb.SPECTATORS_TOKEN, pb.SPECTATORS_NONE)
    }
    listed = await matches.ListMatches(pb.ListMatchesRequest())
    assert {m.match_id for m in listed.matches} == {ids[pb.SPECTATORS_UNSPECIFIED], ids[pb.SPECTATORS_PUBLIC]}
    everything = await matches.ListMatches(pb.ListMatchesRequest(token=ADMIN_TOKEN))
    assert {m.match_id: m.spectators for m in everything.matches} == {
        ids[pb.SPECTATORS_UNSPECIFIED]: pb.SPECTATORS_PUBLIC,
        ids[pb.SPECTATORS_PUBLIC]: pb.SPECTATORS_PUBLIC,
        ids[pb.SPECTATORS_TOKEN]: pb.SPECTATORS_TOKEN,
        ids[pb.SPECTATORS_NONE]: pb.SPECTATORS_NONE,
    }
    assert await refusal(matches.ListMatches(pb.ListMatchesRequest(token="not-the-admin"))) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "ADMIN_REQUIRED",
    )


async def test_the_policy_holds_after_a_restart(database_url: str) -> None:
    """The policy and the spectator token's hash are stored with the match, not only in the serving process."""
    config = ServerConfig(database_url=database_url, listen="127.0.0.1:0", http=None, admin_token=ADMIN_TOKEN)
    first: Running = await create_server(config)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{first.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            hidden, watched = await create(stub, pb.SPECTATORS_NONE), await create(stub, pb.SPECTATORS_TOKEN)
    finally:
        await first.stop(0)
    second: Running = await create_server(config)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{second.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            assert await refusal(stub.GetView(pb.GetViewRequest(match_id=hidden.match.match_id))) == (
                grpc.StatusCode.PERMISSION_DENIED,
                "SPECTATORS_NONE",
            )
            token = watched.spectator_token
            viewed = await stub.GetView(pb.GetViewRequest(match_id=watched.match.match_id, token=token))
            assert viewed.seat == SPECTATOR
            rows = (await stub.ListMatches(pb.ListMatchesRequest(token=ADMIN_TOKEN))).matches
            assert {m.match_id: m.spectators for m in rows} == {
                hidden.match.match_id: pb.SPECTATORS_NONE,
                watched.match.match_id: pb.SPECTATORS_TOKEN,
            }
    finally:
        await second.stop(0)


async def test_the_lifecycle_feed_announces_only_public_matches_without_the_admin_token(
    matches: pb_grpc.MatchServiceStub,
) -> None:
    hidden, public = await create(matches, pb.SPECTATORS_NONE), await create(matches, pb.SPECTATORS_PUBLIC)
    for created in (hidden, public):
        concede = pb.SubmitCommandRequest(
            match_id=created.match.match_id, token=seat_of(created, 0), command_json='{"type": "concede"}'
        )
        await matches.SubmitCommand(concede)
        await matches.ListMatches(pb.ListMatchesRequest())  # waits until the end is recorded: one order of ends
    marker = await create(matches, pb.SPECTATORS_PUBLIC)
    kinds = (pb.LIFECYCLE_KIND_CREATED, pb.LIFECYCLE_KIND_ENDED)
    announced = [(c.match_id, c.kind) for c in await changes(matches, "", 3)]
    assert announced == [
        (public.match.match_id, kinds[0]),
        (public.match.match_id, kinds[1]),
        (marker.match.match_id, kinds[0]),  # the hidden match's end, recorded before, was left out
    ]
    everything = [(c.match_id, c.kind) for c in await changes(matches, ADMIN_TOKEN, 5)]
    assert everything == [
        (hidden.match.match_id, kinds[0]),
        (public.match.match_id, kinds[0]),
        (hidden.match.match_id, kinds[1]),
        (public.match.match_id, kinds[1]),
        (marker.match.match_id, kinds[0]),
    ]
    assert await refusal(changes(matches, "not-the-admin", 1)) == (grpc.StatusCode.PERMISSION_DENIED, "ADMIN_REQUIRED")


async def changes(stub: pb_grpc.MatchServiceStub, token: str, count: int) -> list[pb.LifecycleChange]:
    """The first ``count`` changes of the lifecycle feed from the start, as this token may see them."""
    stream = stub.WatchLifecycle(pb.WatchLifecycleRequest(from_position=1, token=token))
    try:
        updates = aiter(stream)
        return [await anext(updates) for _ in range(count)]
    finally:
        stream.cancel()
