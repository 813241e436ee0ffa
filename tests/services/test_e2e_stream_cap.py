"""A server holds at most ``max_streams`` streams open (watches, Play, lifecycle, over gRPC and Connect together):
past it a new one is refused RESOURCE_EXHAUSTED TOO_MANY_STREAMS, while unary calls and health checks go on."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import Running, ServerConfig, create_server
from tests.services.client import create_match, error_metadata, error_reason
from tests.services.connect_client import MATCHES, ConnectFailure, stream

CAP = 3
EXHAUSTED = (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_STREAMS")


@pytest.fixture
async def capped(tmp_path: Path) -> AsyncIterator[Running]:
    running = await create_server(
        ServerConfig(
            database_url=f"sqlite:///{tmp_path / 'cap.db'}", listen="127.0.0.1:0", http="127.0.0.1:0", max_streams=CAP
        )
    )
    try:
        yield running
    finally:
        await running.stop(0)


async def first_refusal(call: Any) -> tuple[grpc.StatusCode, str]:
    """The status and reason a stream is refused with, at its first read; the refusal names the cap."""
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await call.read()
    assert error_metadata(refused.value)["limit"] == str(CAP)
    return refused.value.code(), error_reason(refused.value)


async def test_streams_past_the_cap_are_refused_until_one_ends(capped: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{capped.port}") as channel:
        stub = pb_grpc.MatchServiceStub(channel)
        created = await create_match(stub)
        watch = stub.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id))
        play = stub.Play()
        await play.write(pb.PlayRequest(start=pb.PlayStart(match_id=created.match_id, token=created.tokens[0])))
        lifecycle = stub.WatchLifecycle(pb.WatchLifecycleRequest())
        for call in (watch, play, lifecycle):
            assert await call.read() is not grpc.aio.EOF  # each is open: the cap is reached

        assert await first_refusal(stub.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id))) == EXHAUSTED
        assert await first_refusal(stub.WatchMatchBatched(pb.WatchMatchRequest(match_id=created.match_id))) == EXHAUSTED
        assert await first_refusal(stub.WatchLifecycle(pb.WatchLifecycleRequest())) == EXHAUSTED
        refused_play = stub.Play()
        # The server refuses a Play before it reads from it, so the refusal may already have ended the call.
        with contextlib.suppress(grpc.aio.AioRpcError):
            await refused_play.write(
                pb.PlayRequest(start=pb.PlayStart(match_id=created.match_id, token=created.tokens[1]))
            )
        assert await first_refusal(refused_play) == EXHAUSTED
        assert capped.http is not None
        async with httpx.AsyncClient(base_url=capped.http.address, timeout=30) as web:
            with pytest.raises(ConnectFailure) as over_connect:
                async for _ in stream(web, MATCHES, "WatchMatch", {"matchId": created.match_id}):
                    pass
        assert (over_connect.value.code, over_connect.value.reason) == ("resource_exhausted", "TOO_MANY_STREAMS")

        # Unary calls and health checks (whose streams are not counted) still answer.
        assert (await stub.GetView(pb.GetViewRequest(match_id=created.match_id))).version == created.version
        health = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest())
        assert (await health.read()).status == health_pb2.HealthCheckResponse.SERVING
        health.cancel()

        # The watch ends with the match, and its place is free again.
        conceded = await stub.SubmitCommand(
            pb.SubmitCommandRequest(
                match_id=created.match_id, token=created.tokens[1], command_json='{"type": "concede"}'
            )
        )
        while (update := await watch.read()) is not grpc.aio.EOF:
            last = update.event.version
        assert last == conceded.version
        resumed = stub.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id, from_version=created.version))
        assert [u.event.version async for u in resumed][-1] == conceded.version
        play.cancel()
        lifecycle.cancel()
