"""Hostile or unlucky clients the fuzz tests miss: oversized names and labels that would poison every listing
and the match's own replay, a request id burnt by a refused request, a Play start from an impossible version,
a replay file whose informational times are not times, and Connect bodies that do not parse."""

from __future__ import annotations

import asyncio

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
