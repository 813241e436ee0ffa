"""A rolling deploy (issue 33): two instances on one PostgreSQL, one still at the old code (card_monsters version 1
only, a real ``duelhall serve`` process) and one at the new (versions 1 and 2, in this process). Every match keeps
the version it was created with whichever instance serves each command, the old instance refuses a version 2 match
with the typed reason instead of playing it with other rules, and every replay verifies."""

from __future__ import annotations

import random
from collections.abc import Iterator

import grpc
import pytest

from engine.contract import Ruleset
from replays.format import decode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import ServerConfig, create_server
from tests.postgres import throwaway_database
from tests.services.client import Created, end_match, error_metadata, error_reason, play_one
from tests.services.process import ServerProcess
from tests.versions import card_monsters_v2, hosting

__all__ = ["card_monsters_v2"]  # the fixture, used by name

SEATS = [pb.SeatSpec(name="ann"), pb.SeatSpec(name="bob")]
COMMANDS = 12
"""Commands per match, each on the other instance than the one before."""


@pytest.fixture
def database_url() -> Iterator[str]:
    with throwaway_database("duelhall_rolling") as url:
        yield url


async def created(stub: pb_grpc.MatchServiceStub, version: int = 0) -> Created:
    reply = await stub.CreateMatch(pb.CreateMatchRequest(ruleset="card_monsters", seats=SEATS, ruleset_version=version))
    tokens = [t.token for t in sorted(reply.tokens, key=lambda t: t.seat)]
    return Created(reply.match.match_id, tokens, reply.match.version)


async def alternated(stubs: list[pb_grpc.MatchServiceStub], match: Created, seed: int) -> None:
    """Random commands, each sent to the other instance; then a concession, so that the match ends."""
    rng = random.Random(seed)
    view = await stubs[0].GetView(pb.GetViewRequest(match_id=match.match_id))
    to_act, version = list(view.to_act), view.version
    for command in range(COMMANDS):
        if not to_act:
            return
        # At the version the other instance just wrote: this one may not have seen it yet.
        reply = await play_one(stubs[command % 2], match, to_act[0], rng, f"r{seed}-{command}", min_version=version)
        to_act, version = list(reply.to_act), reply.version
    await end_match(stubs[COMMANDS % 2], match)


async def versions(stubs: list[pb_grpc.MatchServiceStub], match_id: str) -> list[int]:
    return [(await stub.GetMatch(pb.GetMatchRequest(match_id=match_id))).ruleset_version for stub in stubs]


@pytest.mark.postgres
async def test_a_rolling_deploy_keeps_every_match_on_its_version_whichever_instance_serves_it(
    database_url: str, card_monsters_v2: Ruleset
) -> None:
    old = ServerProcess(database_url)
    try:
        with hosting(card_monsters_v2):
            new = await create_server(ServerConfig(database_url=database_url, listen="127.0.0.1:0"))
            try:
                async with (
                    grpc.aio.insecure_channel(old.address) as old_channel,
                    grpc.aio.insecure_channel(f"127.0.0.1:{new.port}") as new_channel,
                ):
                    old_stub, new_stub = pb_grpc.MatchServiceStub(old_channel), pb_grpc.MatchServiceStub(new_channel)
                    both = [old_stub, new_stub]
                    before = await created(old_stub)  # created by the old code: version 1
                    pinned = await created(new_stub, version=1)  # the new code, asked for version 1
                    newest = await created(new_stub)  # the new code's newest: version 2
                    assert await versions(both, before.match_id) == [1, 1]
                    assert await versions([new_stub], newest.match_id) == [2]

                    await alternated(both, before, seed=1)
                    await alternated([new_stub, old_stub], pinned, seed=2)
                    for match in (before, pinned):
                        assert await versions(both, match.match_id) == [1, 1]

                    # The old code cannot play version 2: it refuses the match, it never folds it with version 1.
                    with pytest.raises(grpc.aio.AioRpcError) as refused:
                        await old_stub.SubmitCommand(
                            pb.SubmitCommandRequest(
                                match_id=newest.match_id, token=newest.tokens[0], command_json='{"type": "concede"}'
                            )
                        )
                    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
                    assert error_reason(refused.value) == "RULESET_VERSION_UNAVAILABLE"
                    assert error_metadata(refused.value) == {"ruleset": "card_monsters", "version": "2"}
                    await alternated([new_stub, new_stub], newest, seed=3)
                    assert await versions([new_stub], newest.match_id) == [2]

                    for match, version in ((before, 1), (pinned, 1), (newest, 2)):
                        exported = await new_stub.ExportReplay(pb.ExportReplayRequest(match_id=match.match_id))
                        assert decode_replay(exported.replay).ruleset.version == version
                        verdict = await new_stub.VerifyReplay(pb.VerifyReplayRequest(replay=exported.replay))
                        assert verdict.ok, verdict.failure
                        if version == 1:  # the old code verifies what it can host, exported by either
                            old_export = await old_stub.ExportReplay(pb.ExportReplayRequest(match_id=match.match_id))
                            assert old_export.replay == exported.replay
                            verdict = await old_stub.VerifyReplay(pb.VerifyReplayRequest(replay=exported.replay))
                            assert verdict.ok, verdict.failure
            finally:
                await new.stop(0)
    finally:
        old.stop()
