"""A server stopped while its bots play stops them cleanly (nothing left pending, nothing logged as an error), and
the next start plays every match on to its end."""

from __future__ import annotations

import logging

import grpc
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import ServerConfig, create_server
from tests.services.test_e2e_bot_seats import bot, ended, verified


async def test_stopping_while_bots_play_leaves_nothing_pending_and_the_next_start_plays_on(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    config = ServerConfig(database_url=database_url, listen="127.0.0.1:0")
    first = await create_server(config)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{first.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = [
                await stub.CreateMatch(pb.CreateMatchRequest(ruleset="wulin", seats=[bot("greedy"), bot("random")]))
                for _ in range(6)
            ]
        with caplog.at_level(logging.WARNING):
            await first.bots.stop()  # as the server's stop does, before it closes the store
            assert not first.bots._tasks  # every decision under way has ended
    finally:
        with caplog.at_level(logging.WARNING):
            await first.stop(0)
    unfinished = [r for r in created if first.manager.loaded(r.match.match_id).outcome is None]  # type: ignore[union-attr]
    assert unfinished  # the stop came while bots played
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    second = await create_server(config)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{second.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            for reply in created:
                await ended(stub, reply.match.match_id)
                await verified(stub, reply.match.match_id)
    finally:
        await second.stop(0)
