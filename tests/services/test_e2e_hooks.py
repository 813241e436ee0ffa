"""Hooks for outside tournament servers: idempotent CreateMatch, labels, the resumable lifecycle stream."""

from __future__ import annotations

import asyncio

import grpc
import msgspec
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import Running, ServerConfig, create_server
from tests.postgres import throwaway_database
from tests.services.client import Created, error_reason, play_random


def _request(request_id: str, labels: dict[str, str] | None = None, name: str = "ann") -> pb.CreateMatchRequest:
    return pb.CreateMatchRequest(
        ruleset="card_monsters",
        seats=[pb.SeatSpec(name=name), pb.SeatSpec(name="bob")],
        request_id=request_id,
        labels=labels or {},
    )


async def _labelled(stub: pb_grpc.MatchServiceStub, labels: dict[str, str]) -> list[pb.Match]:
    return list((await stub.ListMatches(pb.ListMatchesRequest(labels=labels))).matches)


async def test_the_same_request_id_gives_the_same_match_even_when_retried_concurrently(
    matches: pb_grpc.MatchServiceStub,
) -> None:
    replies = await asyncio.gather(*(matches.CreateMatch(_request("req-1", {"batch": "a"})) for _ in range(6)))
    assert len({r.match.match_id for r in replies}) == 1
    assert len({tuple(t.token for t in r.tokens) for r in replies}) == 1
    later = await matches.CreateMatch(_request("req-1", {"batch": "a"}))
    assert later.match.match_id == replies[0].match.match_id
    assert [t.token for t in later.tokens] == [t.token for t in replies[0].tokens]
    # The returned tokens open the seats.
    seat = await matches.ListLegalCommands(
        pb.ListLegalCommandsRequest(match_id=later.match.match_id, token=later.tokens[1].token)
    )
    assert seat.seat == 1
    assert len(await _labelled(matches, {"batch": "a"})) == 1
    other = await matches.CreateMatch(_request("req-2", {"batch": "a"}))
    assert other.match.match_id != later.match.match_id
    assert len(await _labelled(matches, {"batch": "a"})) == 2


async def test_a_request_id_reused_for_a_different_match_is_refused(matches: pb_grpc.MatchServiceStub) -> None:
    await matches.CreateMatch(_request("req-x"))
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await matches.CreateMatch(_request("req-x", name="carl"))
    assert refused.value.code() == grpc.StatusCode.ALREADY_EXISTS
    assert error_reason(refused.value) == "REQUEST_ID_REUSED"


@pytest.mark.postgres
async def test_instances_sharing_a_database_create_one_match_per_request_id() -> None:
    with throwaway_database("duelhall_hooks") as url:
        await _one_match_per_request_id(url)


async def _one_match_per_request_id(database_url: str) -> None:
    servers = [await create_server(ServerConfig(database_url=database_url, listen="127.0.0.1:0")) for _ in range(2)]
    try:
        async with (
            grpc.aio.insecure_channel(f"127.0.0.1:{servers[0].port}") as a,
            grpc.aio.insecure_channel(f"127.0.0.1:{servers[1].port}") as b,
        ):
            stubs = [pb_grpc.MatchServiceStub(a), pb_grpc.MatchServiceStub(b)]
            replies = await asyncio.gather(
                *(stubs[i % 2].CreateMatch(_request(f"shared-{n}", {"run": "x"})) for n in range(4) for i in range(4))
            )
            by_request = [replies[n * 4 : (n + 1) * 4] for n in range(4)]
            for group in by_request:
                assert len({r.match.match_id for r in group}) == 1
            assert len({group[0].match.match_id for group in by_request}) == 4
            for stub in stubs:
                assert len(await _labelled(stub, {"run": "x"})) == 4
    finally:
        for server in servers:
            await server.stop(0)


async def test_labels_are_returned_and_filter_the_list(matches: pb_grpc.MatchServiceStub) -> None:
    table = await matches.CreateMatch(_request("", {"tournament": "t1", "round": "1", "table": "3"}))
    await matches.CreateMatch(_request("", {"tournament": "t1", "round": "2"}))
    await matches.CreateMatch(_request("", {"tournament": "t2", "round": "1"}))
    fetched = await matches.GetMatch(pb.GetMatchRequest(match_id=table.match.match_id))
    assert dict(fetched.labels) == {"tournament": "t1", "round": "1", "table": "3"}
    assert len(await _labelled(matches, {"tournament": "t1"})) == 2
    assert [m.match_id for m in await _labelled(matches, {"tournament": "t1", "round": "1"})] == [table.match.match_id]
    assert len(await _labelled(matches, {})) == 3
    assert await _labelled(matches, {"tournament": "t3"}) == []


async def _collect(
    stub: pb_grpc.MatchServiceStub, from_position: int, labels: dict[str, str], count: int
) -> list[pb.LifecycleChange]:
    stream = stub.WatchLifecycle(pb.WatchLifecycleRequest(from_position=from_position, labels=labels))
    received: list[pb.LifecycleChange] = []
    try:
        async with asyncio.timeout(30):
            async for change in stream:
                received.append(change)
                if len(received) == count:
                    break
    finally:
        stream.cancel()
    return received


async def test_the_lifecycle_stream_resumes_without_missing_or_repeating(
    server: Running,
    matches: pb_grpc.MatchServiceStub,
) -> None:
    labels = {"tournament": "life"}
    first = await matches.CreateMatch(_request("", labels))
    second = await matches.CreateMatch(_request("", labels))
    await matches.CreateMatch(_request("", {"tournament": "other"}))
    created = [Created(r.match.match_id, [t.token for t in r.tokens], r.match.version) for r in (first, second)]
    await play_random(matches, created[0], seed=1)
    before = await _collect(matches, 0, labels, 3)
    assert [(c.kind, c.match_id) for c in before] == [
        (pb.LIFECYCLE_KIND_CREATED, created[0].match_id),
        (pb.LIFECYCLE_KIND_CREATED, created[1].match_id),
        (pb.LIFECYCLE_KIND_ENDED, created[0].match_id),
    ]
    ended = before[2]
    final = await matches.GetMatch(pb.GetMatchRequest(match_id=created[0].match_id))
    assert msgspec.json.decode(ended.outcome_json) == msgspec.json.decode(final.outcome_json)
    assert ended.version == final.version and dict(ended.labels) == labels
    assert [c.position for c in before] == sorted({c.position for c in before})
    # Resume after the last change handled: the next end arrives once, nothing before it again.
    resumed = asyncio.create_task(_collect(matches, ended.position + 1, labels, 1))
    await play_random(matches, created[1], seed=2)
    after = await resumed
    assert [(c.kind, c.match_id) for c in after] == [(pb.LIFECYCLE_KIND_ENDED, created[1].match_id)]
    assert after[0].position > ended.position
    everything = await _collect(matches, 0, {}, 5)
    assert sum(c.kind == pb.LIFECYCLE_KIND_ENDED for c in everything) == 2


async def test_an_end_is_recorded_once_however_often_it_is_reported(
    server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    reply = await matches.CreateMatch(_request("", {"k": "once"}))
    created = Created(reply.match.match_id, [t.token for t in reply.tokens], reply.match.version)
    await play_random(matches, created, seed=3)
    hot = await server.manager.get(created.match_id)
    await server.manager.ends.record(hot)
    await server.manager.reindex(created.match_id)
    changes = await _collect(matches, 0, {"k": "once"}, 2)
    assert [c.kind for c in changes] == [pb.LIFECYCLE_KIND_CREATED, pb.LIFECYCLE_KIND_ENDED]
    assert len(await server.store.read_stream(f"ended:{created.match_id}")) == 1
    assert await server.match_list.rebuild() == 1
    assert dict((await matches.GetMatch(pb.GetMatchRequest(match_id=created.match_id))).labels) == {"k": "once"}
