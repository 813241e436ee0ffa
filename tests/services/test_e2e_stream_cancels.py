"""Streams their clients cancel, over gRPC and Connect, at every moment: counted and logged CANCELLED (never
UNKNOWN, which operators alert on), and nothing left behind on the server."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
import httpx
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.edge.observer import CallObserver, Finished
from services.server import Running
from tests.services.client import Created, create_match, play_random
from tests.services.conftest import ADMIN_TOKEN
from tests.services.connect_client import MATCHES, stream
from tests.services.test_e2e_play import start

STREAMS = ("WatchMatch", "WatchMatchBatched", "WatchLifecycle", "Play")


class _Context:
    """What the observer reads of a call's context: no status set, as for a call its client left."""

    def code(self) -> Any:
        return None

    def trailing_metadata(self) -> Any:
        return ()


async def test_a_generator_dropped_at_its_yield_is_counted_cancelled(server: Running) -> None:
    # What gRPC does with a stream whose client is gone while a message is being sent: it stops iterating the
    # handler's generator, which is closed (GeneratorExit at its ``yield``) when released.
    seen: list[Finished] = []
    observer = CallObserver(server.manager, ADMIN_TOKEN)
    observer.listeners.append(seen.append)

    async def changes(request: Any, context: Any) -> AsyncIterator[int]:
        while True:
            yield 1

    handler = observer.observed(
        "/duelhall.v1.MatchService/WatchLifecycle", grpc.unary_stream_rpc_method_handler(changes)
    )
    generator = handler.unary_stream(pb.WatchLifecycleRequest(), _Context())
    assert await anext(generator) == 1
    await generator.aclose()
    assert [(call.method, call.code) for call in seen] == [("WatchLifecycle", "CANCELLED")]
    assert await observer.settled(0)


def _codes(server: Running) -> dict[tuple[str, str], float]:
    counts: dict[tuple[str, str], float] = {}
    for metric in server.metrics.registry.collect():
        for sample in metric.samples:
            if sample.name == "duelhall_rpc_duration_seconds_count" and sample.labels["method"] in STREAMS:
                counts[(sample.labels["method"], sample.labels["code"])] = sample.value
    return counts


async def _moment(step: int, first: Callable[[], Awaitable[Any]]) -> None:
    """Lets the stream reach one of several moments before its client cancels it: not yet sent, sent but not
    answered, its first message read, or messages flowing."""
    if step % 4 == 1:
        await asyncio.sleep(0)
    elif step % 4 >= 2:
        await first()


async def _grpc_streams(stub: pb_grpc.MatchServiceStub, created: Created, step: int) -> None:
    watch = pb.WatchMatchRequest(match_id=created.match_id, include_view=True)
    calls: list[Any] = [
        stub.WatchMatch(watch),
        stub.WatchMatchBatched(watch),
        stub.WatchLifecycle(pb.WatchLifecycleRequest(token=ADMIN_TOKEN)),
    ]
    play = stub.Play()
    await play.write(start(created, step % 2, include_view=True))
    calls.append(play)
    for call in calls:
        await _moment(step, call.read)
        call.cancel()


async def _connect_streams(web: httpx.AsyncClient, created: Created, step: int) -> None:
    watch = {"matchId": created.match_id, "includeView": True}
    for method, body in (("WatchMatch", watch), ("WatchMatchBatched", watch), ("WatchLifecycle", {})):
        messages = stream(web, MATCHES, method, body)
        first = asyncio.ensure_future(anext(messages))
        await _moment(step, lambda: asyncio.shield(first))
        first.cancel()  # the client drops the response mid-read or before it started
        await asyncio.gather(first, return_exceptions=True)
        await messages.aclose()


async def test_streams_cancelled_by_their_clients_are_cancelled_not_unknown(
    server: Running, matches: pb_grpc.MatchServiceStub, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    created = await create_match(matches)
    # Each moment while the match is played, so streams are cancelled mid-write too.
    player = asyncio.ensure_future(play_random(matches, created, seed=3))
    async with httpx.AsyncClient(base_url=server.http.address if server.http else "", timeout=30) as web:
        step = 0
        while not player.done() or step < 8:
            await _grpc_streams(matches, created, step)
            await _connect_streams(web, created, step)
            step += 1
    await player
    assert await server.observer.settled(30)
    codes = _codes(server)
    assert {code for _, code in codes} <= {"CANCELLED", "OK"}, codes
    for method in STREAMS:
        assert codes.get((method, "CANCELLED"), 0) > 0, codes
    # A Connect watch's pending read of its next message used to outlive the call, logged ERROR once collected.
    assert not [t for t in asyncio.all_tasks() if t.get_coro().__qualname__ == "Queue.get"]
    ours = [r for r in caplog.records if r.name.startswith("services.") or "Task was destroyed" in r.getMessage()]
    assert not [r for r in ours if r.levelno >= logging.ERROR]
