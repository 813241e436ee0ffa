"""The owner-address redirect (issue 37): a client that asks (request metadata ``duelhall-redirect: owner``) and calls
an instance that does not own the match is refused NOT_OWNER with the owner's address; it calls the owner there and
is served. A client that does not ask is served by any instance. Two real ``duelhall serve`` processes on one
PostgreSQL database."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import grpc
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import ServerConfig, create_server
from tests.postgres import throwaway_database
from tests.services.client import create_match, error_metadata, error_reason
from tests.services.process import ServerProcess

ASKING = (("duelhall-redirect", "owner"),)
ADVERTISED = "instance-a.invalid:7000"
"""What the first instance advertises (``DUELHALL_ADVERTISE``): no client follows it here, the test reads it."""


@pytest.fixture
def database_url() -> Iterator[str]:
    with throwaway_database("duelhall_redirect") as url:
        yield url


def refusal(error: grpc.aio.AioRpcError) -> tuple[grpc.StatusCode, str, str]:
    return error.code(), error_reason(error), error_metadata(error).get("owner_address", "")


async def play_stream(stub: pb_grpc.MatchServiceStub, match_id: str, token: str) -> AsyncIterator[pb.PlayResponse]:
    """A Play stream that asks to be sent to the owner."""

    async def requests() -> AsyncIterator[pb.PlayRequest]:
        yield pb.PlayRequest(start=pb.PlayStart(match_id=match_id, token=token))

    async for response in stub.Play(requests(), metadata=ASKING):
        yield response


@pytest.mark.postgres
async def test_a_client_that_asks_is_sent_to_the_owner_and_one_that_does_not_is_served_anywhere(
    database_url: str,
) -> None:
    first = ServerProcess(database_url, env={"DUELHALL_ADVERTISE": ADVERTISED})
    second = ServerProcess(database_url)
    try:
        async with (
            grpc.aio.insecure_channel(first.address) as a_channel,
            grpc.aio.insecure_channel(second.address) as b_channel,
        ):
            a, b = pb_grpc.MatchServiceStub(a_channel), pb_grpc.MatchServiceStub(b_channel)
            on_a, on_b = await create_match(a), await create_match(b)  # each owned by the instance that created it

            # Not asked: every instance serves every match, as before.
            served = await b.GetView(pb.GetViewRequest(match_id=on_a.match_id, token=on_a.tokens[0]))
            assert served.version == on_a.version

            # Asked, on the instance that does not own the match: refused before anything is done.
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await b.GetView(pb.GetViewRequest(match_id=on_a.match_id, token=on_a.tokens[0]), metadata=ASKING)
            assert refusal(refused.value) == (grpc.StatusCode.FAILED_PRECONDITION, "NOT_OWNER", ADVERTISED)
            seat = (await b.GetView(pb.GetViewRequest(match_id=on_b.match_id), metadata=ASKING)).to_act[0]
            legal = await b.ListLegalCommands(
                pb.ListLegalCommandsRequest(match_id=on_b.match_id, token=on_b.tokens[seat]), metadata=ASKING
            )
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await a.SubmitCommand(
                    pb.SubmitCommandRequest(
                        match_id=on_b.match_id, token=on_b.tokens[seat], command_json=legal.commands_json[0]
                    ),
                    metadata=ASKING,
                )
            # The default address: the one the instance listens on, with the port it bound.
            assert refusal(refused.value) == (grpc.StatusCode.FAILED_PRECONDITION, "NOT_OWNER", second.address)
            assert (await b.GetMatch(pb.GetMatchRequest(match_id=on_b.match_id))).version == on_b.version

            with pytest.raises(grpc.aio.AioRpcError) as refused:
                async for _ in play_stream(a, on_b.match_id, on_b.tokens[0]):
                    raise AssertionError("a Play stream on a non-owner that asked to be redirected opened")
            assert refusal(refused.value) == (grpc.StatusCode.FAILED_PRECONDITION, "NOT_OWNER", second.address)

            # Followed: the owner serves the client that asked, command after command.
            rng, version = random.Random(1), on_b.version
            to_act = list((await b.GetView(pb.GetViewRequest(match_id=on_b.match_id), metadata=ASKING)).to_act)
            for n in range(6):
                token = on_b.tokens[to_act[0]]
                legal = await b.ListLegalCommands(
                    pb.ListLegalCommandsRequest(match_id=on_b.match_id, token=token, min_version=version),
                    metadata=ASKING,
                )
                options = [c for c in legal.commands_json if "concede" not in c]
                reply = await b.SubmitCommand(
                    pb.SubmitCommandRequest(
                        match_id=on_b.match_id, token=token, command_json=rng.choice(options), command_id=f"c{n}"
                    ),
                    metadata=ASKING,
                )
                to_act, version = list(reply.to_act), reply.version
            assert version > on_b.version

            # The owner stopped (its leases released): the instance left serves the client that asked.
            first.stop()
            view = await b.GetView(pb.GetViewRequest(match_id=on_a.match_id), metadata=ASKING)
            assert view.version == on_a.version
    finally:
        first.stop()
        second.stop()


async def test_on_sqlite_the_one_server_owns_every_match_and_serves_a_client_that_asks(tmp_path: Path) -> None:
    running = await create_server(ServerConfig(database_url=f"sqlite:///{tmp_path / 'one.db'}", listen="127.0.0.1:0"))
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub)
            view = await stub.GetView(pb.GetViewRequest(match_id=created.match_id), metadata=ASKING)
            assert view.version == created.version
    finally:
        await running.stop(0)
