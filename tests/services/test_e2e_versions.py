"""Rulesets hosted by (id, version) through a real server (issue 33): a version bump keeps every older match on
its version across a restart and every older replay verifiable and viewable; a server that does not host a
stored match's version refuses every call on it, and says so in its log once."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import grpc
import pytest

from engine.contract import Ruleset
from engine.rulesets import card_monsters
from replays import render
from replays.format import decode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.api import tournament_pb2 as tpb
from services.server import Running, ServerConfig, create_server
from tests.services.client import create_match, error_metadata, error_reason, play_random
from tests.services.conftest import ADMIN_TOKEN
from tests.services.test_e2e_tournament_rules import _tournament
from tests.tournament.players import channel_stubs, play_round
from tests.versions import CHANGED_CARD, card_monsters_v2, hosting

__all__ = ["card_monsters_v2"]  # the fixture, used by name

CHECKS = ["format", "ruleset", "chain", "times", "fold", "outcome", "seed", "reexecute"]


@asynccontextmanager
async def serving(database_url: str) -> AsyncIterator[tuple[Running, grpc.aio.Channel]]:
    """A server on the database with the rulesets hosted now, and a channel to it; stopped after."""
    running = await create_server(ServerConfig(database_url=database_url, listen="127.0.0.1:0"))
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            yield running, channel
    finally:
        await running.stop(0)


async def test_a_version_bump_keeps_older_matches_and_replays_on_their_version(
    database_url: str, card_monsters_v2: Ruleset
) -> None:
    async with serving(database_url) as (_, channel):
        stub = pb_grpc.MatchServiceStub(channel)
        ended = await create_match(stub)
        await play_random(stub, ended, seed=1)
        replay_v1 = (await stub.ExportReplay(pb.ExportReplayRequest(match_id=ended.match_id))).replay
        running = await create_match(stub)
        await play_random(stub, running, seed=2, max_commands=6)
        before = await stub.GetView(pb.GetViewRequest(match_id=running.match_id, token=running.tokens[0]))
    with hosting(card_monsters_v2):
        async with serving(database_url) as (server, channel):
            stub = pb_grpc.MatchServiceStub(channel)
            listed = await pb_grpc.RulesetServiceStub(channel).ListRulesets(pb.ListRulesetsRequest())
            assert [(r.id, r.version) for r in listed.versions if r.id == "card_monsters"] == [
                ("card_monsters", 1),
                ("card_monsters", 2),
            ]
            assert [r.version for r in listed.rulesets if r.id == "card_monsters"] == [2]
            described = [
                await pb_grpc.RulesetServiceStub(channel).DescribeRuleset(
                    pb.DescribeRulesetRequest(ruleset="card_monsters", version=version)
                )
                for version in (0, 1, 2)
            ]
            changed = [next(c for c in json.loads(d.cards_json) if c["id"] == CHANGED_CARD) for d in described]
            assert [(d.ruleset.version, card["max_hp"]) for d, card in zip(described, changed, strict=True)] == [
                (2, 9),
                (1, 7),
                (2, 9),
            ]

            verdict = await stub.VerifyReplay(pb.VerifyReplayRequest(replay=replay_v1))
            assert verdict.ok, verdict.failure
            assert list(verdict.checks) == CHECKS
            viewed = await stub.ViewReplay(pb.ViewReplayRequest(replay=replay_v1, seat=-1))
            events = len(decode_replay(replay_v1).events)
            assert viewed.verification.ok and viewed.match.ruleset_version == 1
            assert [step.event.version for step in viewed.steps] == list(range(1, events + 1))
            assert all(step.view_json for step in viewed.steps) and viewed.next_version == 0
            for step in (1, events):  # ``replay show``
                assert "ruleset card_monsters v1" in render.board(decode_replay(replay_v1), step, None)

            after = await stub.GetView(pb.GetViewRequest(match_id=running.match_id, token=running.tokens[0]))
            assert (after.version, after.view_json) == (before.version, before.view_json)
            loaded = server.manager.loaded(running.match_id)
            assert loaded is not None and loaded.ruleset is card_monsters.RULESET
            await play_random(stub, running, seed=3)
            match = await stub.GetMatch(pb.GetMatchRequest(match_id=running.match_id))
            assert match.status == pb.MATCH_STATUS_ENDED and match.ruleset_version == 1
            replay = (await stub.ExportReplay(pb.ExportReplayRequest(match_id=running.match_id))).replay
            assert decode_replay(replay).ruleset.version == 1
            verdict = await stub.VerifyReplay(pb.VerifyReplayRequest(replay=replay))
            assert verdict.ok, verdict.failure

            newer = await create_match(stub)
            assert (await stub.GetMatch(pb.GetMatchRequest(match_id=newer.match_id))).ruleset_version == 2
            assert server.manager.loaded(newer.match_id).ruleset is card_monsters_v2  # type: ignore[union-attr]
            await play_random(stub, newer, seed=4)
            replay_v2 = (await stub.ExportReplay(pb.ExportReplayRequest(match_id=newer.match_id))).replay
            assert decode_replay(replay_v2).ruleset.version == 2
            assert (await stub.VerifyReplay(pb.VerifyReplayRequest(replay=replay_v2))).ok

            seats = [pb.SeatSpec(name="a"), pb.SeatSpec(name="b")]
            named = await stub.CreateMatch(
                pb.CreateMatchRequest(ruleset="card_monsters", seats=seats, ruleset_version=1)
            )
            assert named.match.ruleset_version == 1
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.CreateMatch(pb.CreateMatchRequest(ruleset="card_monsters", seats=seats, ruleset_version=3))
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert error_reason(refused.value) == "UNKNOWN_RULESET_VERSION"
            assert error_metadata(refused.value) == {"ruleset": "card_monsters", "version": "3", "hosted": "1,2"}
    # Back at version 1 only: the replay of the version 2 match no longer verifies, it is not folded with v1.
    async with serving(database_url) as (_, channel):
        verdict = await pb_grpc.MatchServiceStub(channel).VerifyReplay(pb.VerifyReplayRequest(replay=replay_v2))
        assert not verdict.ok and verdict.failure.check == "ruleset"


async def test_a_server_without_a_matchs_version_refuses_every_call_on_it(
    database_url: str, card_monsters_v2: Ruleset, caplog: pytest.LogCaptureFixture
) -> None:
    with hosting(card_monsters_v2):
        async with serving(database_url) as (_, channel):
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub)
            await play_random(stub, created, seed=1, max_commands=4)
    caplog.set_level(logging.ERROR, logger="services.matches.manager")
    async with serving(database_url) as (_, channel):  # starts: resuming the match's timer skips it
        stub = pb_grpc.MatchServiceStub(channel)
        match_id, token = created.match_id, created.tokens[0]

        async def watched() -> Any:
            async for update in stub.WatchMatch(pb.WatchMatchRequest(match_id=match_id)):
                return update

        async def played() -> Any:
            call = stub.Play()
            await call.write(pb.PlayRequest(start=pb.PlayStart(match_id=match_id, token=token)))
            return await call.read()

        calls: list[Callable[[], Awaitable[Any]]] = [
            lambda: stub.GetMatch(pb.GetMatchRequest(match_id=match_id)),
            lambda: stub.GetView(pb.GetViewRequest(match_id=match_id, token=token)),
            lambda: stub.ListLegalCommands(pb.ListLegalCommandsRequest(match_id=match_id, token=token)),
            lambda: stub.SubmitCommand(
                pb.SubmitCommandRequest(match_id=match_id, token=token, command_json='{"type": "concede"}')
            ),
            watched,
            played,
            lambda: stub.ExportReplay(pb.ExportReplayRequest(match_id=match_id)),
            lambda: stub.ViewReplay(pb.ViewReplayRequest(match_id=match_id, seat=-1)),
        ]
        for _ in range(2):
            for call in calls:
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await call()
                assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
                assert error_reason(refused.value) == "RULESET_VERSION_UNAVAILABLE"
                assert error_metadata(refused.value) == {"ruleset": "card_monsters", "version": "2"}
    logged = [r for r in caplog.records if match_id in r.getMessage()]
    assert len(logged) == 1, [r.getMessage() for r in logged]
    assert "version 2 is not hosted" in logged[0].getMessage()


async def test_a_tournament_plays_the_version_it_was_created_with_across_an_upgrade(
    database_url: str, card_monsters_v2: Ruleset
) -> None:
    """Its games keep one ruleset, so a tournament spanning a deploy records every game verified."""
    config = ServerConfig(database_url=database_url, listen="127.0.0.1:0", admin_token=ADMIN_TOKEN)
    first = await create_server(config)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{first.port}") as channel:
            tournaments, _ = channel_stubs(channel)
            old, tokens = await _tournament(tournaments, 3)
            assert (await tournaments.GetTournament(tpb.GetTournamentRequest(tournament_id=old))).ruleset_version == 1
    finally:
        await first.stop(0)
    with hosting(card_monsters_v2):
        second = await create_server(config)
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{second.port}") as channel:
                tournaments, matches = channel_stubs(channel)
                await tournaments.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=old))
                played = await play_round(tournaments, matches, old, "card_monsters", tokens, seed=4)
                games = [g.match_id for t in played.tables if t.b for g in t.games]
                assert games and {await version_of(matches, g) for g in games} == {1}
                unhosted = tpb.CreateTournamentRequest(
                    admin_token=ADMIN_TOKEN, name="cup", ruleset="card_monsters", format="swiss", ruleset_version=3
                )
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await tournaments.CreateTournament(unhosted)
                assert (refused.value.code(), error_reason(refused.value)) == (
                    grpc.StatusCode.INVALID_ARGUMENT,
                    "UNKNOWN_RULESET_VERSION",
                )
                new, _ = await _tournament(tournaments, 3)
                assert (
                    await tournaments.GetTournament(tpb.GetTournamentRequest(tournament_id=new))
                ).ruleset_version == 2
        finally:
            await second.stop(0)


async def version_of(matches: pb_grpc.MatchServiceStub, match_id: str) -> int:
    return int((await matches.GetMatch(pb.GetMatchRequest(match_id=match_id))).ruleset_version)
