"""Rulesets, match lists, health and reflection through a real server."""

from __future__ import annotations

import grpc
import msgspec
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from engine.registry import RULESETS
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from tests.services.client import create_match, error_reason
from tests.services.test_e2e_errors import refused


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
    second = await matches.ListMatches(
        pb.ListMatchesRequest(ruleset="card_monsters", page_size=2, page_token=first.next_page_token)
    )
    assert [m.match_id for m in first.matches] + [m.match_id for m in second.matches] == ids[::-1]
    assert first.next_page_token and not second.next_page_token
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


async def test_list_requests_out_of_range_are_refused(matches: pb_grpc.MatchServiceStub) -> None:
    for _ in range(2):
        await create_match(matches)
    first = await matches.ListMatches(pb.ListMatchesRequest(page_size=1))
    invalid = grpc.StatusCode.INVALID_ARGUMENT
    for request, reason in [
        (pb.ListMatchesRequest(page_size=-1), "PAGE_SIZE_OUT_OF_RANGE"),
        (pb.ListMatchesRequest(page_size=501), "PAGE_SIZE_OUT_OF_RANGE"),
        (pb.ListMatchesRequest(status=99), "STATUS_UNKNOWN"),  # type: ignore[arg-type]
        (pb.ListMatchesRequest(page_token="garbage"), "PAGE_TOKEN_INVALID"),
        (pb.ListMatchesRequest(page_token="eyJhZnRlciI6IngifQ"), "PAGE_TOKEN_INVALID"),
        (pb.ListMatchesRequest(page_token=first.next_page_token, ruleset="aq"), "PAGE_TOKEN_INVALID"),
        (pb.ListMatchesRequest(page_token="A" * 5000), "PAGE_TOKEN_INVALID"),
        (pb.ListMatchesRequest(page_token=first.next_page_token, labels={"cup": "a"}), "PAGE_TOKEN_INVALID"),
        (pb.ListMatchesRequest(labels={f"k{i}": "v" for i in range(33)}), "LABELS_INVALID"),
        (pb.ListMatchesRequest(labels={"cup": "v" * 101}), "LABELS_INVALID"),
        (pb.ListMatchesRequest(ruleset="card-monsters"), "UNKNOWN_RULESET"),
        (pb.ListMatchesRequest(ruleset="x" * 100_000), "UNKNOWN_RULESET"),
    ]:
        assert await refused(matches.ListMatches(request)) == (invalid, reason), request


async def test_a_listing_by_the_longest_labels_a_match_takes_goes_on_page_after_page(
    matches: pb_grpc.MatchServiceStub,
) -> None:
    """The page token stays short whatever the filters: it carries their digest, not them."""
    labels = {"tournament": "t" * 100, "round": "r" * 100, "table": "x" * 100}
    seats = [pb.SeatSpec(name="ann"), pb.SeatSpec(name="bob")]
    ids = [
        (
            await matches.CreateMatch(pb.CreateMatchRequest(ruleset="card_monsters", seats=seats, labels=labels))
        ).match.match_id
        for _ in range(3)
    ]
    await create_match(matches)  # unlabelled: not listed
    listed: list[str] = []
    token = ""
    while True:
        page = await matches.ListMatches(pb.ListMatchesRequest(page_size=1, labels=labels, page_token=token))
        listed += [m.match_id for m in page.matches]
        assert len(page.next_page_token) <= 100  # as docs/api.md promises, whatever the filters
        if not (token := page.next_page_token):
            break
    assert listed == ids[::-1]


async def test_a_lifecycle_filter_is_bounded_as_labels_are(matches: pb_grpc.MatchServiceStub) -> None:
    call = matches.WatchLifecycle(pb.WatchLifecycleRequest(labels={"cup": "v" * 101}))
    with pytest.raises(grpc.aio.AioRpcError) as refusal:
        await call.read()
    assert (refusal.value.code(), error_reason(refusal.value)) == (grpc.StatusCode.INVALID_ARGUMENT, "LABELS_INVALID")
