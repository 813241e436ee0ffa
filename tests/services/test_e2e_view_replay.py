"""ViewReplay: every version of an ended match or a replay file, as one viewer saw it, redacted like a watch."""

from __future__ import annotations

import base64

import grpc
import httpx
import msgspec
import pytest

from replays.format import decode_replay, encode_replay
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.core import limits
from services.edge import transport
from services.server import Running
from services.web.connect import MAX_REQUEST
from tests.services.client import create_match, end_match, error_metadata, error_reason, play_random
from tests.services.connect_client import MATCHES, ConnectFailure, call
from tests.services.test_e2e_errors import refused


async def test_an_ended_match_step_by_step_is_what_its_watchers_saw(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches, ruleset="duel")
    await play_random(matches, created, seed=5, max_commands=60)
    await end_match(matches, created)
    for seat, token in ((-1, ""), (0, created.tokens[0]), (1, created.tokens[1])):
        viewed = await matches.ViewReplay(pb.ViewReplayRequest(match_id=created.match_id, seat=seat))
        watched = [
            u
            async for u in matches.WatchMatch(
                pb.WatchMatchRequest(match_id=created.match_id, token=token, include_view=True)
            )
        ]
        assert [s.event.data_json for s in viewed.steps] == [u.event.data_json for u in watched]
        assert [s.view_json for s in viewed.steps] == [u.view_json for u in watched]
        assert [s.event.actor for s in viewed.steps] == [u.event.actor for u in watched]
        final = await matches.GetView(pb.GetViewRequest(match_id=created.match_id, token=token))
        assert viewed.steps[-1].view_json == final.view_json
        assert viewed.match.status == pb.MATCH_STATUS_ENDED and viewed.seat == seat
        assert not viewed.HasField("verification")
    running = viewed.steps[len(viewed.steps) // 2]
    assert running.deadline.seat in (0, 1) and running.deadline.seconds > 0
    assert not viewed.steps[-1].HasField("deadline")


async def test_a_replay_file_is_verified_first(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    await play_random(matches, created, seed=2)
    data = (await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
    viewed = await matches.ViewReplay(pb.ViewReplayRequest(replay=data, seat=1))
    assert viewed.verification.ok and len(viewed.steps) == viewed.match.version
    replay = decode_replay(data)
    events = list(replay.events)
    events[9] = msgspec.structs.replace(events[9], data=events[9].data.replace('"seat":0', '"seat":1', 1))
    tampered = encode_replay(msgspec.structs.replace(replay, events=events))
    refused_view = await matches.ViewReplay(pb.ViewReplayRequest(replay=tampered, seat=1))
    assert not refused_view.verification.ok and not refused_view.steps
    assert (refused_view.verification.failure.check, refused_view.verification.failure.version) == ("chain", 10)


async def test_a_replay_file_over_4_mib_is_refused_over_both_transports(
    server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    """The answer holds every version's view, about ten times the file: past the limit the file is refused before
    it is verified, with the same reason over gRPC and Connect; past a transport's own limit, by the transport."""
    assert server.http is not None
    created = await create_match(matches)
    await matches.SubmitCommand(
        pb.SubmitCommandRequest(match_id=created.match_id, token=created.tokens[0], command_json='{"type": "concede"}')
    )
    data = (await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
    largest = data + b" " * (limits.MAX_VIEWED_REPLAY - len(data))  # JSON may end in white space
    over = largest + b" "
    assert (await matches.ViewReplay(pb.ViewReplayRequest(replay=largest, seat=0))).verification.ok
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await matches.ViewReplay(pb.ViewReplayRequest(replay=over))
    assert (caught.value.code(), error_reason(caught.value)) == (grpc.StatusCode.INVALID_ARGUMENT, "REPLAY_TOO_LARGE")
    assert error_metadata(caught.value) == {"limit": str(limits.MAX_VIEWED_REPLAY)}
    with pytest.raises(grpc.aio.AioRpcError) as too_big:
        await matches.ViewReplay(pb.ViewReplayRequest(replay=b" " * transport.MAX_MESSAGE_BYTES))
    assert too_big.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    async with httpx.AsyncClient(base_url=server.http.address, timeout=60) as web:
        viewed = await call(web, MATCHES, "ViewReplay", {"replay": base64.b64encode(largest).decode(), "seat": 0})
        assert viewed["verification"]["ok"]
        with pytest.raises(ConnectFailure) as refusal:
            await call(web, MATCHES, "ViewReplay", {"replay": base64.b64encode(over).decode()})
        assert (refusal.value.code, refusal.value.reason) == ("invalid_argument", "REPLAY_TOO_LARGE")
        assert "4 MiB" in refusal.value.message
        body = pb.ViewReplayRequest(replay=b" " * MAX_REQUEST).SerializeToString()
        response = await web.post(f"/{MATCHES}/ViewReplay", content=body, headers={"content-type": "application/proto"})
        assert response.json()["code"] == "resource_exhausted"


async def test_a_long_match_is_viewed_in_pages_and_an_oversize_answer_says_so(
    matches: pb_grpc.MatchServiceStub, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = await create_match(matches, ruleset="duel")
    await play_random(matches, created, seed=7, max_commands=40)
    await end_match(matches, created)  # the random play may have ended it: the match's seed is the server's
    whole = await matches.ViewReplay(pb.ViewReplayRequest(match_id=created.match_id, seat=0))
    assert whole.next_version == 0 and len(whole.steps) > 20
    pages: list[pb.ReplayStep] = []
    start = 1
    while True:
        page = await matches.ViewReplay(
            pb.ViewReplayRequest(match_id=created.match_id, seat=0, from_version=start, max_steps=7)
        )
        assert 0 < len(page.steps) <= 7 and page.steps[0].event.version == start
        pages += page.steps
        if not page.next_version:
            break
        assert page.next_version == page.steps[-1].event.version + 1
        start = page.next_version
    assert [s.SerializeToString() for s in pages] == [s.SerializeToString() for s in whole.steps]
    # Past the message limit gRPC itself would fail the call after all the work, with no reason.
    monkeypatch.setattr(transport, "MAX_MESSAGE_BYTES", whole.ByteSize() - 1)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await matches.ViewReplay(pb.ViewReplayRequest(match_id=created.match_id, seat=0))
    assert (caught.value.code(), error_reason(caught.value)) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "RESPONSE_TOO_LARGE",
    )
    assert "max_steps" in (caught.value.details() or "")
    assert error_metadata(caught.value) == {"limit": str(whole.ByteSize() - 1)}
    paged = await matches.ViewReplay(pb.ViewReplayRequest(match_id=created.match_id, seat=0, max_steps=10))
    assert len(paged.steps) == 10 and paged.next_version == 11
    bad = (
        (pb.ViewReplayRequest(match_id=created.match_id, max_steps=-1), "MAX_STEPS_INVALID"),
        (pb.ViewReplayRequest(match_id=created.match_id, from_version=-1), "VERSION_OUT_OF_RANGE"),
    )
    for request, reason in bad:
        assert await refused(matches.ViewReplay(request)) == (grpc.StatusCode.INVALID_ARGUMENT, reason)


async def test_running_unknown_and_bad_seats_are_refused(matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    assert await refused(matches.ViewReplay(pb.ViewReplayRequest(match_id=created.match_id))) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "MATCH_RUNNING",
    )
    assert await refused(matches.ViewReplay(pb.ViewReplayRequest(match_id="nope"))) == (
        grpc.StatusCode.NOT_FOUND,
        "MATCH_NOT_FOUND",
    )
    await matches.SubmitCommand(
        pb.SubmitCommandRequest(match_id=created.match_id, token=created.tokens[0], command_json='{"type": "concede"}')
    )
    assert await refused(matches.ViewReplay(pb.ViewReplayRequest(match_id=created.match_id, seat=2))) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "SEAT_INVALID",
    )


async def test_rulesets_describe_their_catalog(rulesets: pb_grpc.RulesetServiceStub) -> None:
    described = await rulesets.DescribeRuleset(pb.DescribeRulesetRequest(ruleset="card_monsters"))
    cards = {c["id"]: c for c in msgspec.json.decode(described.cards_json)}
    assert cards["M01"]["name"] == "Ember Brute"
    aq = msgspec.json.decode((await rulesets.DescribeRuleset(pb.DescribeRulesetRequest(ruleset="aq"))).cards_json)
    assert {"Mon.01", "SK01"} <= {c["id"] for c in aq}
