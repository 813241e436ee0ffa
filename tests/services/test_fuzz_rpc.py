"""Hostile requests to every RPC of a real server: malformed bytes, deep and huge JSON, oversized strings,
bad tokens and page tokens. Whatever comes back, it is never INTERNAL or UNKNOWN, and every refusal carries
an ErrorInfo reason."""

from __future__ import annotations

from typing import Any

import grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import Running
from tests.services.client import Created, create_match, error_reason

FORBIDDEN = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN}
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

DEEP = "[" * 3000 + "]" * 3000
DEEP_OBJECT = '{"type":' * 2000 + '"x"' + "}" * 2000
hostile_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "",
            "null",
            "{}",
            "[]",
            "0",
            '"x"',
            '{"type": "engage"}',
            '{"type": "concede"}',
            DEEP,
            DEEP_OBJECT,
            '{"deck": ' + DEEP + "}",
            "\x00",
            "a\x00b",
            "0" * 31 + "\x00",
            "é" * 3000,
        ]
    ),
    st.integers(1, 300_000).map(lambda n: "x" * n),
    st.binary(max_size=64).map(lambda b: b.decode("latin-1")),
)
int32 = st.integers(-(2**31), 2**31 - 1)
int64 = st.one_of(st.integers(-5, 50), st.integers(-(2**63), 2**63 - 1))
garbage = st.one_of(
    st.binary(max_size=300), st.just(b"\xff" * 20), st.just(b"\x0a\xff\xff\xff\xff\x0f"), st.just(DEEP.encode())
)

_matches: dict[Running, Created] = {}


async def _match(server: Running, stub: pb_grpc.MatchServiceStub) -> Created:
    # Keyed by the server itself: a later test's server may listen on a port an earlier one used.
    if server not in _matches:
        _matches[server] = await create_match(stub)
    return _matches[server]


async def _settles(call: Any) -> None:
    """Awaits a unary call; a refusal must be a documented status with a reason."""
    try:
        await call
    except grpc.aio.AioRpcError as error:
        assert error.code() not in FORBIDDEN, (error.code(), error.details())
        if error.code() not in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED):
            error_reason(error)


def _id(created: Created, choice: str | None) -> str:
    return created.match_id if choice is None else choice


def _token(created: Created, choice: str | None) -> str:
    return created.tokens[0] if choice is None else choice


maybe_text = st.one_of(st.none(), hostile_text)


@FUZZ
@given(
    method=st.sampled_from(
        [
            "CreateMatch",
            "JoinSeat",
            "GetMatch",
            "ListMatches",
            "GetView",
            "ListLegalCommands",
            "SubmitCommand",
            "WatchMatch",
            "WatchMatchBatched",
            "ExportReplay",
            "ImportReplay",
            "VerifyReplay",
            "ListRulesets",
            "DescribeRuleset",
            "WatchLifecycle",
        ]
    ),
    data=garbage,
)
async def test_malformed_bytes(server: Running, channel: grpc.aio.Channel, method: str, data: bytes) -> None:
    service = "RulesetService" if method in ("ListRulesets", "DescribeRuleset") else "MatchService"
    path = f"/duelhall.v1.{service}/{method}"
    if method in ("WatchMatch", "WatchMatchBatched", "WatchLifecycle"):
        await _settles(channel.unary_stream(path)(data, timeout=0.5).read())
    else:
        await _settles(channel.unary_unary(path)(data, timeout=10))


@FUZZ
@given(
    ruleset=st.one_of(st.sampled_from(["card_monsters", "duel", "aq"]), hostile_text),
    names=st.lists(hostile_text, max_size=8),
    configs=st.lists(hostile_text, max_size=8),
    options=hostile_text,
    spectators=int32,
    version=int32,
    caster_delay=st.one_of(st.integers(-2, 86_402), int32),
    kinds=st.lists(st.one_of(st.sampled_from([0, 1, 2]), int32), max_size=8),
)
async def test_create_match(
    matches: pb_grpc.MatchServiceStub,
    ruleset: str,
    names: list[str],
    configs: list[str],
    options: str,
    spectators: int,
    version: int,
    caster_delay: int,
    kinds: list[int],
) -> None:
    padded = configs + [""] * (len(names) - len(configs))
    seats = [pb.SeatSpec(name=name, config_json=config) for name, config in zip(names, padded, strict=False)]
    for seat, kind in zip(seats, kinds, strict=False):
        seat.kind = kind  # type: ignore[assignment]  # proto3 enums are open: any int32 arrives
    request = pb.CreateMatchRequest(
        ruleset=ruleset, seats=seats, options_json=options, ruleset_version=version, caster_delay_seconds=caster_delay
    )
    request.spectators = spectators  # type: ignore[assignment]  # proto3 enums are open: any int32 arrives
    await _settles(matches.CreateMatch(request, timeout=10))


@FUZZ
@given(match_id=maybe_text, token=maybe_text, version=int64, view=st.booleans(), caster=st.booleans())
async def test_reads(
    server: Running,
    matches: pb_grpc.MatchServiceStub,
    match_id: str | None,
    token: str | None,
    version: int,
    view: bool,
    caster: bool,
) -> None:
    created = await _match(server, matches)
    mid, tok = _id(created, match_id), _token(created, token)
    await _settles(matches.GetMatch(pb.GetMatchRequest(match_id=mid, min_version=version), timeout=10))
    await _settles(matches.GetView(pb.GetViewRequest(match_id=mid, token=tok, min_version=version), timeout=10))
    await _settles(
        matches.ListLegalCommands(
            pb.ListLegalCommandsRequest(match_id=mid, token=tok, min_version=version, include_view=view), timeout=10
        )
    )
    await _settles(matches.ExportReplay(pb.ExportReplayRequest(match_id=mid, token=tok), timeout=10))
    await _settles(matches.ViewReplay(pb.ViewReplayRequest(match_id=mid, token=tok, seat=version % 4 - 1), timeout=10))
    watch = pb.WatchMatchRequest(match_id=mid, token=tok, from_version=version, include_view=view, caster=caster)
    await _settles(matches.WatchMatch(watch, timeout=0.5).read())
    await _settles(matches.WatchMatchBatched(watch, timeout=0.5).read())


@FUZZ
@given(
    match_id=maybe_text,
    token=maybe_text,
    command=hostile_text,
    command_id=hostile_text,
    expected=st.one_of(st.none(), int64),
)
async def test_submit_command(
    server: Running,
    matches: pb_grpc.MatchServiceStub,
    match_id: str | None,
    token: str | None,
    command: str,
    command_id: str,
    expected: int | None,
) -> None:
    created = await _match(server, matches)
    request = pb.SubmitCommandRequest(
        match_id=_id(created, match_id), token=_token(created, token), command_json=command, command_id=command_id
    )
    if expected is not None:
        request.expected_version = expected
    await _settles(matches.SubmitCommand(request, timeout=10))


_lobbies: dict[Running, str] = {}


async def _lobby(server: Running, stub: pb_grpc.MatchServiceStub) -> str:
    """A match of this server with seat 1 open (the first join that passes fills it: later ones fuzz refusals)."""
    if server not in _lobbies:
        seats = [pb.SeatSpec(name="ann"), pb.SeatSpec(kind=pb.SEAT_KIND_OPEN)]
        created = await stub.CreateMatch(pb.CreateMatchRequest(ruleset="duel", seats=seats))
        _lobbies[server] = created.match.match_id
    return _lobbies[server]


@FUZZ
@given(
    match_id=maybe_text,
    request_id=hostile_text,
    name=hostile_text,
    config=hostile_text,
    seat=st.one_of(st.none(), int32, st.integers(-1, 3)),
)
async def test_join_seat(
    server: Running,
    matches: pb_grpc.MatchServiceStub,
    match_id: str | None,
    request_id: str,
    name: str,
    config: str,
    seat: int | None,
) -> None:
    lobby = await _lobby(server, matches)
    request = pb.JoinSeatRequest(
        match_id=lobby if match_id is None else match_id, request_id=request_id, name=name, config_json=config
    )
    if seat is not None:
        request.seat = seat
    await _settles(matches.JoinSeat(request, timeout=10))


@FUZZ
@given(ruleset=hostile_text, status=int32, size=int32, token=hostile_text, admin=hostile_text, joinable=st.booleans())
async def test_list_matches(
    matches: pb_grpc.MatchServiceStub, ruleset: str, status: int, size: int, token: str, admin: str, joinable: bool
) -> None:
    request = pb.ListMatchesRequest(ruleset=ruleset, page_size=size, page_token=token, token=admin, open_seats=joinable)
    request.status = status  # type: ignore[assignment]  # proto3 enums are open: any int32 arrives
    await _settles(matches.ListMatches(request, timeout=10))


@FUZZ
@given(replay=st.one_of(garbage, hostile_text.map(str.encode)), flips=st.lists(st.integers(0, 10**6), max_size=4))
async def test_replays(server: Running, matches: pb_grpc.MatchServiceStub, replay: bytes, flips: list[int]) -> None:
    created = await _match(server, matches)
    if flips:
        exported = bytearray(
            (
                await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id, token="test-admin-token"))
            ).replay
        )
        for flip in flips:
            exported[flip % len(exported)] ^= 1 << (flip % 7)
        replay = bytes(exported)
    await _settles(matches.VerifyReplay(pb.VerifyReplayRequest(replay=replay), timeout=30))
    await _settles(matches.ImportReplay(pb.ImportReplayRequest(replay=replay), timeout=30))


@FUZZ
@given(ruleset=hostile_text)
async def test_describe_ruleset(rulesets: pb_grpc.RulesetServiceStub, ruleset: str) -> None:
    await _settles(rulesets.DescribeRuleset(pb.DescribeRulesetRequest(ruleset=ruleset), timeout=10))
