"""The Play stream: one seat's connection, commands in, everything the seat needs out.

A PlayStart opens a watch for the seat (authenticated as for SubmitCommand); then each PlayCommand is
submitted as SubmitCommand would be. Each response carries what happened since the previous one: the seat's
updates, the result of its command, and its turn (legal commands) once the stream has caught up with a new
version. A refused command is answered in the stream and the stream stays open; a bad start ends it with the
status a unary call would get. The stream ends when the client stops sending, or after the match's last event.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence

import grpc

from services.api import duelhall_pb2 as pb
from services.core import limits
from services.core.errors import InvalidArgument, Unavailable
from services.edge import wire
from services.edge.routing import to_owner
from services.edge.rpc_errors import command_error
from services.matches.hot import HotMatch
from services.matches.manager import MatchManager
from services.matches.tokens import seat_for
from services.matches.watch import Feed, Watch


async def play(
    matches: MatchManager,
    feed: Feed[pb.MatchUpdate],
    requests: AsyncIterator[pb.PlayRequest],
    context: grpc.aio.ServicerContext,
    listeners: Sequence[Callable[[str, pb.CommandResult], None]] = (),
) -> None:
    """``listeners`` are told of each command's result, with its match id (metrics count them)."""
    first = await anext(requests, None)
    if first is None or first.WhichOneof("kind") != "start":
        raise InvalidArgument("the first message of a Play stream must be a PlayStart", reason="PLAY_START_MISSING")
    start = first.start
    await to_owner(matches.ownership, start.match_id, context)

    def seat_of(hot: HotMatch) -> int:
        return seat_for(start.token, hot.token_hashes)

    from_version = limits.version(start.from_version, "from_version")
    with await feed.open(start.match_id, seat_of, from_version, start.include_view) as watch:
        seat = watch.viewer
        assert seat is not None  # seat_for opens a seat or raises
        # One waiter for both sources: the reader queues requests and wakes the watch.
        pending: deque[pb.PlayRequest | None] = deque()
        reader = asyncio.create_task(_read(requests, pending, watch))
        turn_version = -1
        try:
            while True:
                result = None
                if pending:
                    request = pending.popleft()
                    if request is None:  # the client is done
                        return
                    result = await _command(matches, start.match_id, seat, request)
                    for listener in listeners:
                        listener(start.match_id, result)
                try:
                    updates = await watch.take()
                except Unavailable:  # shutting down: a command already stored is answered before the end
                    if result is not None:
                        await context.write(pb.PlayResponse(result=result))
                    raise
                turn = None
                if watch.caught_up and watch.last != turn_version:
                    turn, turn_version = wire.turn(matches.turn(start.match_id, seat)), watch.last
                if updates or result is not None or turn is not None:
                    await context.write(pb.PlayResponse(updates=updates, result=result, turn=turn))
                if watch.ended:
                    return
                if not pending:
                    await watch.wait()
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):  # the stream is over either way
                await reader


async def _read(
    requests: AsyncIterator[pb.PlayRequest], pending: deque[pb.PlayRequest | None], watch: Watch[pb.MatchUpdate]
) -> None:
    try:
        async for request in requests:
            pending.append(request)
            watch.wake()
    finally:
        pending.append(None)
        watch.wake()


async def _command(matches: MatchManager, match_id: str, seat: int, request: pb.PlayRequest) -> pb.CommandResult:
    command = request.command
    try:
        if request.WhichOneof("kind") != "command":
            raise InvalidArgument(
                "after the PlayStart, every message must be a PlayCommand", reason="PLAY_COMMAND_MISSING"
            )
        expected = command.expected_version if command.HasField("expected_version") else None
        submitted = await matches.submit(match_id, seat, command.command_json.encode(), command.command_id, expected)
    except Exception as exc:
        return pb.CommandResult(command_id=command.command_id, error=command_error(exc))
    return pb.CommandResult(command_id=command.command_id, version=submitted.version, duplicate=submitted.duplicate)
