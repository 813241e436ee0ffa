"""Test-side helpers for talking to a real server: error details, match creation, random play."""

from __future__ import annotations

import random
from dataclasses import dataclass

import grpc
import msgspec
from google.rpc import error_details_pb2, status_pb2

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc


def error_reason(error: grpc.aio.AioRpcError) -> str:
    """The ErrorInfo reason in the rich status trailer (AIP-193)."""
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    assert info.domain == "duelhall"
                    return info.reason
    raise AssertionError(f"no ErrorInfo on {error.code()}: {error.details()}")


@dataclass
class Created:
    match_id: str
    tokens: list[str]
    version: int


async def create_match(
    stub: pb_grpc.MatchServiceStub, ruleset: str = "card_monsters", players: int = 2, options: str = ""
) -> Created:
    reply = await stub.CreateMatch(
        pb.CreateMatchRequest(
            ruleset=ruleset, seats=[pb.SeatSpec(name=f"player-{i}") for i in range(players)], options_json=options
        )
    )
    tokens = [t.token for t in sorted(reply.tokens, key=lambda t: t.seat)]
    return Created(reply.match.match_id, tokens, reply.match.version)


async def play_random(stub: pb_grpc.MatchServiceStub, created: Created, seed: int, max_commands: int = 10_000) -> int:
    """Plays random non-concede legal commands until the match ends (or ``max_commands``); returns the count."""
    rng = random.Random(seed)
    to_act = list((await stub.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act)
    commands = 0
    while to_act and commands < max_commands:
        reply = await play_one(stub, created, to_act[0], rng, f"s{seed}-c{commands}")
        to_act = list(reply.to_act)
        commands += 1
    return commands


async def end_match(stub: pb_grpc.MatchServiceStub, created: Created) -> None:
    """Ends the match by seat 0's concession, unless its play has already ended it."""
    if (await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))).status == pb.MATCH_STATUS_RUNNING:
        await stub.SubmitCommand(
            pb.SubmitCommandRequest(
                match_id=created.match_id, token=created.tokens[0], command_json='{"type": "concede"}'
            )
        )


async def play_one(
    stub: pb_grpc.MatchServiceStub,
    created: Created,
    seat: int,
    rng: random.Random,
    command_id: str,
    min_version: int = 0,
) -> pb.SubmitCommandResponse:
    """Submits a random non-concede legal command of ``seat`` (legal at ``min_version`` or later)."""
    legal = await stub.ListLegalCommands(
        pb.ListLegalCommandsRequest(match_id=created.match_id, token=created.tokens[seat], min_version=min_version)
    )
    options = [c for c in legal.commands_json if msgspec.json.decode(c)["type"] != "concede"]
    return await stub.SubmitCommand(
        pb.SubmitCommandRequest(
            match_id=created.match_id,
            token=created.tokens[seat],
            command_json=rng.choice(options),
            command_id=command_id,
        )
    )


def error_metadata(error: grpc.aio.AioRpcError) -> dict[str, str]:
    """The ErrorInfo metadata in the rich status trailer."""
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return dict(info.metadata)
    raise AssertionError(f"no ErrorInfo on {error.code()}: {error.details()}")
