"""Hostile or unlucky clients the fuzz tests miss: oversized names and labels that would poison every listing
and the match's own replay, a request id burnt by a refused request, a Play start from an impossible version,
a replay file whose informational times are not times, and Connect bodies that do not parse."""

from __future__ import annotations

import asyncio
import copy
import json

import grpc

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from tests.services.client import create_match, error_reason

TWO = [pb.SeatSpec(name="ann"), pb.SeatSpec(name="bob")]


async def test_a_play_start_from_an_impossible_version_is_refused(matches: pb_grpc.MatchServiceStub) -> None:
    """Not a silent stream (from -1 it used to spin on the store), nor a turn for a version beyond the end."""
    created = await create_match(matches)
    for version in (-1, 2**31, 2**63 - 1):
        call = matches.Play()
        await call.write(
            pb.PlayRequest(start=pb.PlayStart(match_id=created.match_id, token=created.tokens[0], from_version=version))
        )
        try:
            caught = None
            try:
                await asyncio.wait_for(call.read(), 10)
            except grpc.aio.AioRpcError as error:
                caught = error
            assert caught is not None, version
            assert (caught.code(), error_reason(caught)) == (
                grpc.StatusCode.INVALID_ARGUMENT,
                "VERSION_OUT_OF_RANGE",
            ), version
        finally:
            call.cancel()


async def test_replay_files_with_odd_recorded_times_are_viewable(matches: pb_grpc.MatchServiceStub) -> None:
    """``recorded_at`` is informational (docs/replay-format.md): not a reason for an INTERNAL."""
    created = await create_match(matches)
    await matches.SubmitCommand(
        pb.SubmitCommandRequest(match_id=created.match_id, token=created.tokens[0], command_json='{"type": "concede"}')
    )
    exported = json.loads((await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay)
    for at in ("garbage", "", "2026-01-01T00:00:00", "9999-12-31T23:59:59+00:00", "2026-01-01T05:00:00+05:00"):
        document = copy.deepcopy(exported)
        for event in document["events"]:
            event["recorded_at"] = at
        data = json.dumps(document).encode()
        viewed = await matches.ViewReplay(pb.ViewReplayRequest(replay=data, seat=0))
        assert viewed.verification.ok and len(viewed.steps) == len(document["events"]), at
        times = {step.event.recorded_at for step in viewed.steps}
        assert times <= {"", "2026-01-01T00:00:00Z", "9999-12-31T23:59:59Z"}, (at, times)
