"""Over the wire (issue 39): an edited time or command record is refused by ImportReplay and named by VerifyReplay
and ViewReplay; a file written before hash chain 2 still imports, its uncovered parts named."""

from __future__ import annotations

from pathlib import Path

import grpc
import msgspec
import pytest

from replays.format import Replay, decode_replay, encode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import ServerConfig, create_server
from tests.replays.rewritten import as_format_1
from tests.services.client import create_match, error_metadata, error_reason, play_random


async def _ended(matches: pb_grpc.MatchServiceStub, seed: int) -> Replay:
    created = await create_match(matches)
    await play_random(matches, created, seed=seed)
    return decode_replay((await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay)


def _backdated(replay: Replay, index: int) -> bytes:
    events = list(replay.events)
    events[index] = msgspec.structs.replace(events[index], recorded_at="1999-01-01T00:00:00.000000+00:00")
    return encode_replay(msgspec.structs.replace(replay, events=events))


def _renamed(replay: Replay, index: int) -> bytes:
    commands = list(replay.commands)
    commands[index] = msgspec.structs.replace(commands[index], command_id="someone-else")
    return encode_replay(msgspec.structs.replace(replay, commands=commands))


async def test_an_edited_time_or_command_record_is_refused_naming_the_check(
    matches: pb_grpc.MatchServiceStub,
) -> None:
    replay = await _ended(matches, seed=6)
    command = replay.commands[2]
    for edited, version in ((_backdated(replay, 6), 7), (_renamed(replay, 2), command.first_version)):
        verdict = await matches.VerifyReplay(pb.VerifyReplayRequest(replay=edited))
        assert not verdict.ok and (verdict.failure.check, verdict.failure.version) == ("chain", version)
        assert list(verdict.checks) == ["format", "ruleset"]
        viewed = await matches.ViewReplay(pb.ViewReplayRequest(replay=edited, seat=-1))
        assert (viewed.verification.failure.check, viewed.verification.failure.version) == ("chain", version)
        assert not viewed.steps
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await matches.ImportReplay(pb.ImportReplayRequest(replay=edited))
        assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert error_reason(caught.value) == "REPLAY_INVALID"
        metadata = error_metadata(caught.value)
        assert (metadata["check"], metadata["version"]) == ("chain", str(version))


async def test_a_file_written_before_chain_2_imports_with_its_uncovered_parts_named(
    matches: pb_grpc.MatchServiceStub, tmp_path: Path
) -> None:
    """Its edited time still verifies (chain 1 never hashed times), which is exactly what it is told."""
    replay = await _ended(matches, seed=7)
    old = as_format_1(decode_replay(_backdated(replay, 6)))
    events = len(replay.events)
    verdict = await matches.VerifyReplay(pb.VerifyReplayRequest(replay=encode_replay(old)))
    assert verdict.ok and list(verdict.checks)[-1] == "reexecute"
    assert [part.split(":")[0] for part in verdict.uncovered] == [
        f"recorded_at of versions 1-{events}",
        f"the command records of versions 1-{events} (command_id, actor, type, payload text)",
    ]
    viewed = await matches.ViewReplay(pb.ViewReplayRequest(replay=encode_replay(old), seat=-1))
    assert list(viewed.verification.uncovered) == list(verdict.uncovered) and len(viewed.steps) == events
    current = await matches.VerifyReplay(pb.VerifyReplayRequest(replay=encode_replay(replay)))
    assert current.ok and not current.uncovered
    other = await create_server(ServerConfig(database_url=f"sqlite:///{tmp_path / 'other.db'}", listen="127.0.0.1:0"))
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{other.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            imported = await stub.ImportReplay(pb.ImportReplayRequest(replay=encode_replay(old)))
            assert imported.imported and list(imported.uncovered) == list(verdict.uncovered)
            # Stored as chain 1, it exports in today's format, its chain-1 parts still named as not covered.
            again = (await stub.ExportReplay(pb.ExportReplayRequest(match_id=replay.match_id))).replay
            assert decode_replay(again).head_hash == old.head_hash
            reverified = await stub.VerifyReplay(pb.VerifyReplayRequest(replay=again))
            assert reverified.ok and list(reverified.uncovered) == list(verdict.uncovered)
    finally:
        await other.stop(0)
