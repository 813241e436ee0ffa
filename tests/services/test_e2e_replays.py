"""Replays over the wire: export an ended match, import it into a fresh PostgreSQL database, verify."""

from __future__ import annotations

import asyncio
import threading

import grpc
import pytest

from replays import storage
from replays.verify import Verdict, verify_bytes
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.edge import servicers
from services.server import ServerConfig, create_server
from tests.postgres import throwaway_database
from tests.services.client import create_match, error_reason, play_random
from tests.services.conftest import ADMIN_TOKEN


@pytest.mark.postgres
async def test_export_import_into_fresh_postgres_then_verify(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    await play_random(matches, created, seed=3)
    replay = (await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
    with throwaway_database("duelhall_import") as url:
        other = await create_server(ServerConfig(database_url=url, listen="127.0.0.1:0"))
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{other.port}") as channel:
                stub = pb_grpc.MatchServiceStub(channel)
                first = await stub.ImportReplay(pb.ImportReplayRequest(replay=replay))
                second = await stub.ImportReplay(pb.ImportReplayRequest(replay=replay))
                assert (first.match_id, first.imported) == (created.match_id, True)
                assert (second.match_id, second.imported) == (created.match_id, False)
                verdict = await stub.VerifyReplay(pb.VerifyReplayRequest(replay=replay))
                assert verdict.ok and list(verdict.checks)[-1] == "reexecute"
                stored = await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
                assert stored.status == pb.MATCH_STATUS_ENDED
                again = (await stub.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
                # The import kept every time and command record (chain 2 hashes them): the very same file.
                assert again == replay
        finally:
            await other.stop(0)


async def test_a_running_match_exports_without_seed_for_the_admin_only(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    replay = (await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id, token=ADMIN_TOKEN))).replay
    verdict = await matches.VerifyReplay(pb.VerifyReplayRequest(replay=replay))
    assert not verdict.ok and verdict.failure.check == "seed"
    assert list(verdict.checks) == ["format", "ruleset", "chain", "times", "fold", "outcome"]
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await matches.ImportReplay(pb.ImportReplayRequest(replay=replay))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error_reason(caught.value) == "REPLAY_INVALID"


async def test_a_tampered_replay_is_refused_naming_the_version(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    await play_random(matches, created, seed=4)
    replay = (await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
    tampered = replay.replace(b'\\"turn\\":2,', b'\\"turn\\":3,', 1)
    assert tampered != replay
    verdict = await matches.VerifyReplay(pb.VerifyReplayRequest(replay=tampered))
    assert not verdict.ok and verdict.failure.check == "chain" and verdict.failure.version > 1


@pytest.mark.parametrize("method", ["VerifyReplay", "ImportReplay"])
async def test_other_calls_are_answered_while_a_replay_is_checked(
    matches: pb_grpc.MatchServiceStub, monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    """A long replay takes seconds to re-execute: checked on the event loop, it would stall every match."""
    created = await create_match(matches)
    await play_random(matches, created, seed=5)
    replay = (await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
    answered = threading.Event()

    def checked_once_answered(data: bytes) -> Verdict:
        # Waits for the call below; on the event loop it would wait in vain, the call unanswered.
        assert answered.wait(30), "no other call was answered while the replay was checked"
        return verify_bytes(data)

    monkeypatch.setattr(servicers, "verify_bytes", checked_once_answered)
    monkeypatch.setattr(storage, "verify_bytes", checked_once_answered)
    call = getattr(matches, method)
    request = pb.VerifyReplayRequest if method == "VerifyReplay" else pb.ImportReplayRequest
    checking = asyncio.ensure_future(call(request(replay=replay)))
    other = await matches.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
    answered.set()
    assert other.status == pb.MATCH_STATUS_ENDED
    reply = await checking
    assert reply.ok if method == "VerifyReplay" else (reply.match_id, reply.imported) == (created.match_id, False)


async def test_at_most_two_replays_are_checked_at_once_and_the_rest_wait_their_turn(
    matches: pb_grpc.MatchServiceStub, rulesets: pb_grpc.RulesetServiceStub, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = await create_match(matches)
    await play_random(matches, created, seed=6)
    replay = (await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
    inside, lock, full, release = [0], threading.Lock(), threading.Event(), threading.Event()

    def held(data: bytes) -> Verdict:
        with lock:
            inside[0] += 1
            if inside[0] == servicers.REPLAY_WORKERS:
                full.set()
        assert release.wait(30), "the test never released the checks"
        with lock:
            inside[0] -= 1
        return verify_bytes(data)

    monkeypatch.setattr(servicers, "verify_bytes", held)
    checks = [asyncio.ensure_future(matches.VerifyReplay(pb.VerifyReplayRequest(replay=replay))) for _ in range(3)]
    try:
        assert await asyncio.to_thread(full.wait, 30)
        await rulesets.ListRulesets(pb.ListRulesetsRequest())  # the server has taken in the third call meanwhile
        with lock:
            assert inside[0] == servicers.REPLAY_WORKERS
    finally:
        release.set()
    assert all(reply.ok for reply in await asyncio.gather(*checks))
