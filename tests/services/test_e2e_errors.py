"""Errors over the wire (AIP-193): status code and ErrorInfo reason for everything a client can get wrong."""

from __future__ import annotations

import grpc
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from tests.services.client import create_match, error_reason


async def refused(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call  # type: ignore[misc]
    return caught.value.code(), error_reason(caught.value)


async def test_tokens_are_required_and_checked(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    other = await create_match(matches)
    command = '{"type": "engage"}'
    assert await refused(
        matches.SubmitCommand(pb.SubmitCommandRequest(match_id=created.match_id, command_json=command))
    ) == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING")
    assert await refused(
        matches.SubmitCommand(
            pb.SubmitCommandRequest(match_id=created.match_id, token=other.tokens[0], command_json=command)
        )
    ) == (grpc.StatusCode.PERMISSION_DENIED, "TOKEN_INVALID")
    assert await refused(
        matches.ListLegalCommands(pb.ListLegalCommandsRequest(match_id=created.match_id, token="not-a-token"))
    ) == (grpc.StatusCode.PERMISSION_DENIED, "TOKEN_INVALID")
    assert await refused(matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))) == (
        grpc.StatusCode.UNAUTHENTICATED,
        "TOKEN_MISSING",
    )
    assert await refused(
        matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id, token=created.tokens[0]))
    ) == (grpc.StatusCode.PERMISSION_DENIED, "ADMIN_REQUIRED")


async def test_malformed_commands_are_invalid_arguments(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    seat = (await matches.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
    token = created.tokens[seat]
    for command, reason in [
        ("{not json", "BAD_JSON"),
        ('{"type": "fly_to_the_moon"}', "UNKNOWN_COMMAND"),
        ('{"type": "play_monster", "card": 7}', "BAD_FIELDS"),
        ('{"type": "play_monster", "card": "0:1", "extra": 1}', "BAD_FIELDS"),
    ]:
        assert await refused(
            matches.SubmitCommand(pb.SubmitCommandRequest(match_id=created.match_id, token=token, command_json=command))
        ) == (grpc.StatusCode.INVALID_ARGUMENT, reason), command


async def test_rule_refusals_are_failed_preconditions_with_the_spec_code(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    seat = (await matches.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
    waiting = 1 - seat
    assert await refused(
        matches.SubmitCommand(
            pb.SubmitCommandRequest(
                match_id=created.match_id, token=created.tokens[waiting], command_json='{"type": "engage"}'
            )
        )
    ) == (grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN")
    assert await refused(
        matches.SubmitCommand(
            pb.SubmitCommandRequest(
                match_id=created.match_id,
                token=created.tokens[seat],
                command_json='{"type": "play_monster", "card": "9:99"}',
            )
        )
    ) == (grpc.StatusCode.FAILED_PRECONDITION, "CARD_NOT_IN_HAND")


async def test_unknown_match_ruleset_and_bad_configuration(matches: pb_grpc.MatchServiceStub) -> None:
    assert await refused(matches.GetMatch(pb.GetMatchRequest(match_id="nope"))) == (
        grpc.StatusCode.NOT_FOUND,
        "MATCH_NOT_FOUND",
    )
    assert await refused(matches.CreateMatch(pb.CreateMatchRequest(ruleset="chess"))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "UNKNOWN_RULESET",
    )
    seats = [pb.SeatSpec(name="a", config_json='{"deck": ["M99"]}'), pb.SeatSpec(name="b")]
    assert await refused(matches.CreateMatch(pb.CreateMatchRequest(ruleset="card_monsters", seats=seats))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "DECK_UNKNOWN_CARD",
    )
    seats = [pb.SeatSpec(name="a", config_json="[1]"), pb.SeatSpec(name="b")]
    assert await refused(matches.CreateMatch(pb.CreateMatchRequest(ruleset="card_monsters", seats=seats))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "BAD_JSON",
    )
    unnamed = [pb.SeatSpec(name="a"), pb.SeatSpec(name=" ")]
    assert await refused(matches.CreateMatch(pb.CreateMatchRequest(ruleset="card_monsters", seats=unnamed))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "SEAT_NAME_MISSING",
    )
    three = [pb.SeatSpec(name=n) for n in "abc"]
    assert await refused(matches.CreateMatch(pb.CreateMatchRequest(ruleset="card_monsters", seats=three))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "PLAYER_COUNT_INVALID",
    )


async def test_retries_are_idempotent_and_expected_version_guards(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    seat = (await matches.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
    request = pb.SubmitCommandRequest(
        match_id=created.match_id,
        token=created.tokens[seat],
        command_json='{"type": "engage"}',
        command_id="retry-me",
        expected_version=created.version,
    )
    first = await matches.SubmitCommand(request)
    again = await matches.SubmitCommand(request)
    assert not first.duplicate and again.duplicate
    assert [e.data_json for e in again.events] == [e.data_json for e in first.events]
    assert again.version == first.version
    stale = pb.SubmitCommandRequest(
        match_id=created.match_id,
        token=created.tokens[1 - seat],
        command_json='{"type": "engage"}',
        command_id="late",
        expected_version=created.version,
    )
    assert await refused(matches.SubmitCommand(stale)) == (grpc.StatusCode.ABORTED, "VERSION_MISMATCH")


async def test_watching_an_unknown_match_or_with_a_wrong_token_is_refused(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)

    async def first_update(request: pb.WatchMatchRequest) -> None:
        async for _ in matches.WatchMatch(request):
            return

    assert await refused(first_update(pb.WatchMatchRequest(match_id="nope"))) == (
        grpc.StatusCode.NOT_FOUND,
        "MATCH_NOT_FOUND",
    )
    assert await refused(first_update(pb.WatchMatchRequest(match_id=created.match_id, token="forged"))) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "TOKEN_INVALID",
    )
