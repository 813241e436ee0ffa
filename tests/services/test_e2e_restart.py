"""SIGKILL of the server mid-match: after a restart every acknowledged command is kept and play goes on."""

from __future__ import annotations

import grpc

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
