"""A bot match's replay names its bot seats wherever it goes: imported into another server (GetMatch, ListMatches)
and opened in the viewer (ViewReplay)."""

from __future__ import annotations

from pathlib import Path

import grpc

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import ServerConfig, create_server
from tests.services.test_e2e_bot_seats import bot, ended, verified


async def test_an_imported_or_viewed_bot_match_shows_its_bot_seats(
    matches: pb_grpc.MatchServiceStub, tmp_path: Path
) -> None:
    created = await matches.CreateMatch(
        pb.CreateMatchRequest(ruleset="duel", seats=[bot("random"), bot("greedy", "hal")])
    )
    match_id = created.match.match_id
    await ended(matches, match_id)
    replay = await verified(matches, match_id)
    shown = [(s.name, s.kind, s.bot_level) for s in created.match.seat_info]
    assert shown == [("random bot", pb.SEAT_KIND_BOT, "random"), ("hal", pb.SEAT_KIND_BOT, "greedy")]
    viewed = await matches.ViewReplay(pb.ViewReplayRequest(replay=replay, max_steps=1))
    assert [(s.name, s.kind, s.bot_level) for s in viewed.match.seat_info] == shown
    other = await create_server(ServerConfig(database_url=f"sqlite:///{tmp_path / 'other.db'}", listen="127.0.0.1:0"))
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{other.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            assert (await stub.ImportReplay(pb.ImportReplayRequest(replay=replay))).imported
            got = await stub.GetMatch(pb.GetMatchRequest(match_id=match_id))
            listed = await stub.ListMatches(pb.ListMatchesRequest())
            for match in (got, *listed.matches):
                assert [(s.name, s.kind, s.bot_level) for s in match.seat_info] == shown
    finally:
        await other.stop(0)
