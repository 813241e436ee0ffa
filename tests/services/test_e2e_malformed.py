"""Malformed request bytes and oversized input: a rich INVALID_ARGUMENT, one log line, trailers that fit."""

from __future__ import annotations

import logging

import grpc
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.core.throttle import ThrottledLog
from services.edge import malformed
from services.server import Running
from tests.services.client import create_match, error_reason
from tests.services.test_e2e_errors import refused

GARBAGE = b"\xff\xff\xff\xff\x0f"
UNARY = [
    method.name for method in pb.DESCRIPTOR.services_by_name["MatchService"].methods if not method.server_streaming
] + ["ListRulesets", "DescribeRuleset"]


def _service(method: str) -> str:
    return "RulesetService" if method in ("ListRulesets", "DescribeRuleset") else "MatchService"


async def test_garbage_bytes_are_invalid_argument_to_every_method(
    channel: grpc.aio.Channel,
    server: Running,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(malformed, "_throttled", ThrottledLog(malformed.log))
    caplog.set_level(logging.WARNING)
    for method in UNARY:
        call = channel.unary_unary(f"/duelhall.v1.{_service(method)}/{method}")
        for _ in range(3):
            assert await refused(call(GARBAGE)) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"), method
    stream = channel.unary_stream("/duelhall.v1.MatchService/WatchMatch")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        async for _ in stream(GARBAGE):
            pass
    assert (caught.value.code(), error_reason(caught.value)) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    lines = [r for r in caplog.records if "malformed" in r.getMessage() or "Traceback" in r.getMessage()]
    assert len(lines) == 1 and "\n" not in lines[0].getMessage() and lines[0].exc_info is None


async def test_echoed_input_is_cut(matches: pb_grpc.MatchServiceStub) -> None:
    assert await refused(matches.GetMatch(pb.GetMatchRequest(match_id="x" * 8000))) == (
        grpc.StatusCode.NOT_FOUND,
        "MATCH_NOT_FOUND",
    )
    assert await refused(matches.ExportReplay(pb.ExportReplayRequest(match_id="é" * 8000))) == (
        grpc.StatusCode.NOT_FOUND,
        "MATCH_NOT_FOUND",
    )
    assert await refused(matches.CreateMatch(pb.CreateMatchRequest(ruleset="r" * 8000))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "UNKNOWN_RULESET",
    )


async def test_text_and_numbers_no_database_can_take_are_refused_up_front(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    for match_id in ("a\x00b", "0" * 31 + "\x00", "Z" * 32):
        assert await refused(matches.GetMatch(pb.GetMatchRequest(match_id=match_id))) == (
            grpc.StatusCode.NOT_FOUND,
            "MATCH_NOT_FOUND",
        )
        assert await refused(matches.ExportReplay(pb.ExportReplayRequest(match_id=match_id))) == (
            grpc.StatusCode.NOT_FOUND,
            "MATCH_NOT_FOUND",
        )
    for command_id in ("a\x00b", "x" * 129):
        assert await refused(
            matches.SubmitCommand(
                pb.SubmitCommandRequest(
                    match_id=created.match_id,
                    token=created.tokens[0],
                    command_json='{"type": "concede"}',
                    command_id=command_id,
                )
            )
        ) == (grpc.StatusCode.INVALID_ARGUMENT, "COMMAND_ID_INVALID")
    for version in (-1, 2**31, 2**63 - 1):
        assert await refused(matches.GetView(pb.GetViewRequest(match_id=created.match_id, min_version=version))) == (
            grpc.StatusCode.INVALID_ARGUMENT,
            "VERSION_OUT_OF_RANGE",
        )


async def test_garbage_in_a_play_stream_or_a_lifecycle_watch_is_invalid_argument(channel: grpc.aio.Channel) -> None:
    watch = channel.unary_stream("/duelhall.v1.MatchService/WatchLifecycle")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        async for _ in watch(GARBAGE):
            pass
    assert (caught.value.code(), error_reason(caught.value)) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    play = channel.stream_stream("/duelhall.v1.MatchService/Play")
    call = play()
    await call.write(GARBAGE)
    answers = []
    try:
        async for reply in call:  # a refusal in the stream, or the stream's status
            answers.append("MALFORMED_REQUEST" in str(reply))
            break
    except grpc.aio.AioRpcError as error:
        answers.append((error.code(), error_reason(error)) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"))
    call.cancel()
    assert answers == [True]
