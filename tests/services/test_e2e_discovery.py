"""Rulesets, match lists, health and reflection through a real server."""

from __future__ import annotations

import grpc
import msgspec
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from engine.registry import RULESETS
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from tests.services.client import create_match


async def test_rulesets_are_listed_and_described(rulesets: pb_grpc.RulesetServiceStub) -> None:
    listed = await rulesets.ListRulesets(pb.ListRulesetsRequest())
    assert [r.id for r in listed.rulesets] == sorted(RULESETS)
    described = await rulesets.DescribeRuleset(pb.DescribeRulesetRequest(ruleset="card_monsters"))
    commands = msgspec.json.decode(described.command_schema_json)
    assert "play_monster" in described.command_schema_json and commands
    assert set(msgspec.json.decode(described.presets_json)) >= {"starter_a", "starter_b"}
    assert msgspec.json.decode(described.options_json)["turn_seconds"] == 40


async def test_matches_are_listed_by_ruleset_and_status_in_pages(matches: pb_grpc.MatchServiceStub) -> None:
    ids = [(await create_match(matches)).match_id for _ in range(3)]
    first = await matches.ListMatches(pb.ListMatchesRequest(ruleset="card_monsters", page_size=2))
    second = await matches.ListMatches(pb.ListMatchesRequest(ruleset="card_monsters", page_size=2,
                                                             page_token=first.next_page_token))
    assert [m.match_id for m in first.matches] + [m.match_id for m in second.matches] == ids
    assert all(m.status == pb.MATCH_STATUS_RUNNING for m in first.matches)
    ended = await matches.ListMatches(pb.ListMatchesRequest(status=pb.MATCH_STATUS_ENDED))
    assert list(ended.matches) == []
    other = await matches.ListMatches(pb.ListMatchesRequest(ruleset="aq"))
    assert list(other.matches) == []


async def test_health_and_reflection(channel: grpc.aio.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "duelhall.v1.MatchService"):
        reply = await health.Check(health_pb2.HealthCheckRequest(service=service))
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
    responses = reflection.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
    names = [s.name async for r in responses for s in r.list_services_response.service]
    assert {"duelhall.v1.MatchService", "duelhall.v1.RulesetService", "grpc.health.v1.Health"} <= set(names)
