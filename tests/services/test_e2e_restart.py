"""SIGKILL of the server mid-match: after a restart every acknowledged command is kept and play goes on."""

from __future__ import annotations

import asyncio
import random

import grpc
import pytest

from engine.match import MATCH_CREATED
from eventstore import open_store
from replays import storage
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from tests.services.client import create_match, play_random
from tests.services.process import ServerProcess


async def test_sigkill_mid_match_then_restart_keeps_every_acknowledged_command(database_url: str) -> None:
    first = ServerProcess(database_url)
    try:
        async with grpc.aio.insecure_channel(first.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub)
            await play_random(stub, created, seed=5, max_commands=25)
            acknowledged = await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
            seen = await stub.GetView(pb.GetViewRequest(match_id=created.match_id, token=created.tokens[0]))
    finally:
        first.kill()
    second = ServerProcess(database_url)
    try:
        async with grpc.aio.insecure_channel(second.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            restored = await stub.GetView(pb.GetViewRequest(match_id=created.match_id, token=created.tokens[0]))
            assert (restored.version, restored.view_json) == (seen.version, seen.view_json)
            assert restored.version == acknowledged.version
            await play_random(stub, created, seed=6)
            final = await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
            assert final.status == pb.MATCH_STATUS_ENDED and final.version > acknowledged.version
            replay = (await stub.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
            verdict = await stub.VerifyReplay(pb.VerifyReplayRequest(replay=replay))
            assert verdict.ok, verdict.failure
    finally:
        second.stop()


async def _play_until_killed(
    stub: pb_grpc.MatchServiceStub,
    game: int,
    acked: list[int],
    enough: asyncio.Event,
) -> None:
    """Bot games one after another, every third one conceded early, until the server goes away."""
    rng = random.Random(game)
    try:
        while True:
            created = await create_match(stub)
            to_act = list((await stub.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act)
            commands = 0
            while to_act:
                seat = to_act[0]
                legal = await stub.ListLegalCommands(
                    pb.ListLegalCommandsRequest(match_id=created.match_id, token=created.tokens[seat])
                )
                options = [c for c in legal.commands_json if '"concede"' not in c]
                command = '{"type": "concede"}' if game % 3 == 0 and commands == 3 else rng.choice(options)
                reply = await stub.SubmitCommand(
                    pb.SubmitCommandRequest(
                        match_id=created.match_id,
                        token=created.tokens[seat],
                        command_json=command,
                        command_id=f"g{game}-{commands}",
                    )
                )
                to_act = list(reply.to_act)
                commands += 1
                acked.append(reply.version)
                if len(acked) >= 150:
                    enough.set()
    except grpc.aio.AioRpcError:
        return  # the server was killed


async def _truth(database_url: str) -> dict[str, str]:
    """Every stored match's status, from folding its events."""
    store = await open_store(database_url)
    try:
        statuses = {}
        position = 1
        while batch := (await store.read_all(position, 1000)).events:
            for recorded in batch:
                if recorded.version == 1 and recorded.type == MATCH_CREATED:
                    replay = await storage.stored(store, recorded.stream_id)
                    assert replay is not None
                    statuses[recorded.stream_id] = "running" if replay.outcome is None else "ended"
            position = batch[-1].position + 1
        return statuses
    finally:
        await store.close()


async def test_after_a_sigkill_the_match_list_agrees_with_the_events(database_url: str) -> None:
    first = ServerProcess(database_url)
    try:
        async with grpc.aio.insecure_channel(first.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            acked: list[int] = []
            enough = asyncio.Event()
            games = [asyncio.create_task(_play_until_killed(stub, game, acked, enough)) for game in range(6)]
            await enough.wait()
            first.kill()  # commands are in flight on every game
            await asyncio.gather(*games)
    finally:
        first.kill()
    second = ServerProcess(database_url)
    try:
        async with grpc.aio.insecure_channel(second.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            listed: dict[str, str] = {}
            token = ""
            while True:
                page = await stub.ListMatches(pb.ListMatchesRequest(page_size=500, page_token=token))
                listed |= {
                    m.match_id: "running" if m.status == pb.MATCH_STATUS_RUNNING else "ended" for m in page.matches
                }
                token = page.next_page_token
                if not token:
                    break
    finally:
        second.stop()
    truth = await _truth(database_url)
    assert "ended" in truth.values() and "running" in truth.values()
    assert listed == truth


async def test_a_watch_on_a_killed_server_ends_unavailable_and_resumes_on_the_next_without_a_gap(
    database_url: str,
) -> None:
    """A SIGKILL runs no shutdown code: the kernel closes the connection, so the watcher hears UNAVAILABLE at
    once (from its gRPC library, without an ErrorInfo) instead of waiting in silence, and resumes from the last
    version it got on the server that takes over."""
    first = ServerProcess(database_url)
    try:
        async with grpc.aio.insecure_channel(first.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub)
            watch = stub.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id))
            await play_random(stub, created, seed=7, max_commands=4)  # far from any end
            played = (await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))).version
            seen = [(await watch.read()).event.version for _ in range(played)]
            first.kill()
            with pytest.raises(grpc.aio.AioRpcError) as ended:
                await watch.read()
            assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        first.kill()
    second = ServerProcess(database_url)
    try:
        async with grpc.aio.insecure_channel(second.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            resumed = stub.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id, from_version=seen[-1]))
            await play_random(stub, created, seed=8)
            seen += [update.event.version async for update in resumed]
            final = (await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))).version
            assert seen == list(range(1, final + 1))
    finally:
        second.stop()
