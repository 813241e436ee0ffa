"""Command ids belong to one actor and one command; seat counts get one reason whatever the ruleset."""

from __future__ import annotations

import grpc
import pytest

from engine.registry import RULESETS
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from tests.services.client import create_match, error_metadata, error_reason


async def test_a_command_id_reused_by_another_seat_is_refused(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    seat = (await matches.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
    first = await matches.SubmitCommand(
        pb.SubmitCommandRequest(
            match_id=created.match_id, token=created.tokens[seat], command_json='{"type": "engage"}', command_id="k"
        )
    )
    for token, body in [(created.tokens[1 - seat], '{"type": "engage"}'), (created.tokens[1 - seat], "{}")]:
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await matches.SubmitCommand(
                pb.SubmitCommandRequest(match_id=created.match_id, token=token, command_json=body, command_id="k")
            )
        assert (caught.value.code(), error_reason(caught.value)) == (
            grpc.StatusCode.ALREADY_EXISTS,
            "COMMAND_ID_REUSED",
        )
        assert error_metadata(caught.value) == {"command_id": "k"}
    # The seat's own retry gets its first result, whatever it sends: the id names the command.
    again = await matches.SubmitCommand(
        pb.SubmitCommandRequest(
            match_id=created.match_id, token=created.tokens[seat], command_json='{"type": "concede"}', command_id="k"
        )
    )
    assert again.duplicate and again.version == first.version
    assert [e.data_json for e in again.events] == [e.data_json for e in first.events]
    assert (await matches.GetMatch(pb.GetMatchRequest(match_id=created.match_id))).version == first.version


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
async def test_a_bad_seat_count_has_one_reason_in_every_ruleset(
    matches: pb_grpc.MatchServiceStub, ruleset: str
) -> None:
    spec = RULESETS[ruleset]
    for count in (spec.min_seats - 1, spec.max_seats + 1):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await matches.CreateMatch(
                pb.CreateMatchRequest(ruleset=ruleset, seats=[pb.SeatSpec(name=f"p{i}") for i in range(count)])
            )
        assert (caught.value.code(), error_reason(caught.value)) == (
            grpc.StatusCode.INVALID_ARGUMENT,
            "PLAYER_COUNT_INVALID",
        )
        assert error_metadata(caught.value) == {
            "min": str(spec.min_seats),
            "max": str(spec.max_seats),
            "count": str(count),
        }
        assert "{" not in (caught.value.details() or "")


async def test_a_seat_configuration_error_names_its_seat(matches: pb_grpc.MatchServiceStub) -> None:
    for ruleset, config in [
        ("card_monsters", '{"deck": ["M99"]}'),
        ("duel", '{"deck": "no_such_preset"}'),
        ("aq", '{"deck": "x"}'),
    ]:
        seats = [pb.SeatSpec(name="a"), pb.SeatSpec(name="b", config_json=config)]
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await matches.CreateMatch(pb.CreateMatchRequest(ruleset=ruleset, seats=seats))
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_metadata(caught.value).get("seat") == "1", ruleset
        assert "{" not in (caught.value.details() or ""), caught.value.details()
