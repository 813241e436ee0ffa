"""JSON a client sends is bounded in depth and size: past the bounds it is INVALID_ARGUMENT BAD_JSON."""

from __future__ import annotations

import grpc
import pytest

from engine.jsonbounds import MAX_BYTES
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from tests.services.client import create_match
from tests.services.test_e2e_errors import refused

DEEP_ARRAY = "[" * 1000 + "]" * 1000
DEEP_OBJECT = '{"a":' * 1000 + "{}" + "}" * 1000
HUGE_OBJECT = '{"a": "' + "x" * MAX_BYTES + '"}'
BAD_JSON = (grpc.StatusCode.INVALID_ARGUMENT, "BAD_JSON")


@pytest.mark.parametrize("text", [DEEP_ARRAY, DEEP_OBJECT, HUGE_OBJECT])
async def test_deep_or_huge_configurations_are_bad_json(matches: pb_grpc.MatchServiceStub, text: str) -> None:
    seats = [pb.SeatSpec(name="ann"), pb.SeatSpec(name="bob")]
    assert (
        await refused(
            matches.CreateMatch(pb.CreateMatchRequest(ruleset="card_monsters", seats=seats, options_json=text))
        )
        == BAD_JSON
    )
    seats[1].config_json = text
    assert await refused(matches.CreateMatch(pb.CreateMatchRequest(ruleset="card_monsters", seats=seats))) == BAD_JSON


@pytest.mark.parametrize(
    "text",
    [
        DEEP_ARRAY,
        DEEP_OBJECT,
        '{"type": "engage", "x": ' + DEEP_ARRAY + "}",
        '{"type": "engage", "pad": "' + "x" * MAX_BYTES + '"}',
    ],
)
async def test_deep_or_huge_commands_are_bad_json(matches: pb_grpc.MatchServiceStub, text: str) -> None:
    created = await create_match(matches)
    seat = (await matches.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
    assert (
        await refused(
            matches.SubmitCommand(
                pb.SubmitCommandRequest(match_id=created.match_id, token=created.tokens[seat], command_json=text)
            )
        )
        == BAD_JSON
    )
