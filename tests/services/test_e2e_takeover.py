"""Matches owned across instances (issue 37): the owner, a real ``duelhall serve`` process on PostgreSQL, is
SIGKILLed; the survivors (servers in this process) take its matches over once its leases expire: the end it
stored but did not record is recorded once, the tournament round it belongs to finishes, and the turn timer it
would have fired fires once. A client that retries the last command on a survivor finds the end recorded at once."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime

import asyncpg
import grpc
import msgspec
import pytest

from eventstore import AsyncEventStore, RecordedEvent
from eventstore.urls import asyncpg_dsn
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.api import tournament_pb2 as tpb
from services.matches import presence
from services.readmodels.lifecycle import ENDED_STREAM_PREFIX
from services.server import Running, ServerConfig, create_server
from tests.postgres import throwaway_database
from tests.services.client import create_match
from tests.services.conftest import ADMIN_TOKEN
from tests.services.process import ServerProcess
from tests.services.test_e2e_play import start
from tests.services.test_e2e_presence import next_presence
from tests.tournament.players import channel_stubs, open_tournament, play_round

pytestmark = pytest.mark.postgres

LEASE = 2.0
"""Seconds a lease lasts: a survivor must act within it and one more second."""
TURN_SECONDS = 10  # the shortest turn card_monsters allows


@pytest.fixture
def database_url() -> Iterator[str]:
    with throwaway_database("duelhall_takeover") as url:
        yield url


@contextlib.asynccontextmanager
async def survivors(database_url: str, count: int) -> AsyncIterator[list[tuple[Running, pb_grpc.MatchServiceStub]]]:
    started = [
        await create_server(
            ServerConfig(database_url=database_url, listen="127.0.0.1:0", admin_token=ADMIN_TOKEN, lease_seconds=LEASE)
        )
        for _ in range(count)
    ]
    try:
        async with contextlib.AsyncExitStack() as stack:
            channels = [
                await stack.enter_async_context(grpc.aio.insecure_channel(f"127.0.0.1:{running.port}"))
                for running in started
            ]
            yield [
                (running, pb_grpc.MatchServiceStub(channel)) for running, channel in zip(started, channels, strict=True)
            ]
    finally:
        for running in started:
            await running.stop(0)


@contextlib.asynccontextmanager
async def owned(
    database_url: str, count: int
) -> AsyncIterator[tuple[ServerProcess, list[tuple[Running, pb_grpc.MatchServiceStub]], grpc.aio.Channel]]:
    """The owner (a real process, started first: it leads the projections too), ``count`` survivors, and a channel
    to the owner."""
    process = ServerProcess(database_url, "--lease-seconds", str(LEASE), "--admin-token", ADMIN_TOKEN)
    try:
        async with (
            survivors(database_url, count) as alive,
            grpc.aio.insecure_channel(process.address) as channel,
        ):
            yield process, alive, channel
    finally:
        process.stop()


async def ended_change(stub: pb_grpc.MatchServiceStub, from_position: int, match_id: str) -> pb.LifecycleChange:
    stream = stub.WatchLifecycle(pb.WatchLifecycleRequest(from_position=from_position, token=ADMIN_TOKEN))
    try:
        async for change in stream:
            if change.kind == pb.LIFECYCLE_KIND_ENDED and change.match_id == match_id:
                return change
        raise AssertionError("the lifecycle stream ended")
    finally:
        stream.cancel()


@pytest.mark.parametrize("count", [1, 2])
async def test_an_end_the_dead_owner_stored_but_did_not_record_is_recorded_by_a_survivor(
    database_url: str, count: int
) -> None:
    async with owned(database_url, count) as (process, alive, channel):
        stub = pb_grpc.MatchServiceStub(channel)
        created = await create_match(stub)
        store = alive[0][0].store
        head = await store.head()
        watches = [asyncio.ensure_future(ended_change(b, head + 1, created.match_id)) for _, b in alive]
        killed = await killed_after_the_last_append(
            process, database_url, stub, store, created.match_id, created.tokens[0]
        )
        changes = await asyncio.wait_for(asyncio.gather(*watches), 30)
        took = time.monotonic() - killed
        assert took <= LEASE + 1, took
        ended = await store.read_stream(ENDED_STREAM_PREFIX + created.match_id)
        assert len(ended) == 1  # recorded once, whoever recorded it
        ended_position = ended[0].position
        assert {change.position for change in changes} == {ended_position}
        for _, b in alive:
            listed = await b.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
            assert listed.status == pb.MATCH_STATUS_ENDED
        taken = [
            r.metrics.registry.get_sample_value("duelhall_leases_total", {"event": "taken_over"}) for r, _ in alive
        ]
        assert sum(n or 0 for n in taken) == 1  # one survivor took the match over


async def test_a_survivor_answers_a_retried_last_command_once_the_end_the_dead_owner_did_not_record_is(
    database_url: str,
) -> None:
    async with owned(database_url, 1) as (process, alive, channel):
        stub = pb_grpc.MatchServiceStub(channel)
        created = await create_match(stub)
        store = alive[0][0].store
        await killed_after_the_last_append(process, database_url, stub, store, created.match_id, created.tokens[0])
        # Long before the lease expires: the survivor does not own the match yet.
        await concede(alive[0][1], created.match_id, created.tokens[0])
        assert len(await store.read_stream(ENDED_STREAM_PREFIX + created.match_id)) == 1


async def test_a_tournament_round_finishes_when_the_instance_that_started_it_dies_after_a_tables_last_command(
    database_url: str,
) -> None:
    async with (
        owned(database_url, 2) as (process, alive, doomed),
        grpc.aio.insecure_channel(f"127.0.0.1:{alive[1][0].port}") as surviving,
    ):
        doomed_tournaments, doomed_matches = channel_stubs(doomed)
        tournaments, matches = channel_stubs(surviving)
        tid, tokens = await open_tournament(doomed_tournaments, ADMIN_TOKEN, 8, name="takeover", seed_hex="cd" * 32)
        # The instance that pairs the round creates its games, and owns them.
        await doomed_tournaments.Start(tpb.OrganiserRequest(admin_token=ADMIN_TOKEN, tournament_id=tid))
        kept = next(t for t in (await tournaments.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))).tables)
        await play_round(tournaments, matches, tid, "card_monsters", tokens, seed=8, skip=frozenset({kept.table}))
        seat = await tournaments.GetSeat(tpb.PlayerRequest(tournament_id=tid, player=kept.a, token=tokens[kept.a]))
        head = await alive[0][0].store.head()
        watch = asyncio.ensure_future(ended_change(matches, head + 1, seat.match_id))
        store = alive[0][0].store
        killed = await killed_after_the_last_append(
            process, database_url, doomed_matches, store, seat.match_id, seat.token
        )
        await asyncio.wait_for(watch, 30)
        took = time.monotonic() - killed
        assert took <= LEASE + 1, took
        # A tournament call waits for the results of the matches that ended before it.
        pairings = await tournaments.GetPairings(tpb.GetPairingsRequest(tournament_id=tid, round=1))
        assert all(t.finished for t in pairings.tables), pairings
        table = next(t for t in pairings.tables if t.table == kept.table)
        assert (table.result.wins_a, table.result.wins_b) == (0, 1)  # a conceded


async def concede(stub: pb_grpc.MatchServiceStub, match_id: str, token: str) -> None:
    concession = pb.SubmitCommandRequest(
        match_id=match_id, token=token, command_json='{"type": "concede"}', command_id=f"concede-{match_id}"
    )
    await stub.SubmitCommand(concession)


async def killed_after_the_last_append(
    process: ServerProcess,
    database_url: str,
    stub: pb_grpc.MatchServiceStub,
    store: AsyncEventStore,
    match_id: str,
    token: str,
) -> float:
    """Concedes the match on ``process`` and SIGKILLs it once the concession is stored, before the end is recorded
    and the command answered (a lock on the rows the recording reads first holds it there); when it was killed."""
    head = await store.head()
    holder = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        async with holder.transaction():
            await holder.execute("LOCK TABLE projection_rows IN ACCESS EXCLUSIVE MODE")
            answer = asyncio.ensure_future(concede(stub, match_id, token))
            await stored(store, head + 1, match_id)
            process.kill()
            killed = time.monotonic()
    finally:
        await holder.close()
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await answer
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    return killed


@pytest.mark.parametrize("count", [2])
async def test_the_turn_timer_of_a_dead_owners_match_fires_once_on_a_survivor(database_url: str, count: int) -> None:
    async with owned(database_url, count) as (process, alive, channel):
        stub = pb_grpc.MatchServiceStub(channel)
        created = await create_match(stub, options=f'{{"turn_seconds": {TURN_SECONDS}}}')
        view = await stub.GetView(pb.GetViewRequest(match_id=created.match_id))
        deadline = datetime.fromisoformat(view.deadline.expires_at)
        store = alive[0][0].store
        head = await store.head()
        process.kill()
        # The survivors are not asked about the match: only the lease leads them to it.
        fired = await asyncio.wait_for(system_event(store, head + 1, created.match_id), TURN_SECONDS + 30)
        late = (fired.meta.recorded_at - deadline).total_seconds()
        assert 0 <= late <= LEASE + 1, late
        commands = await store.read_commands(created.match_id)
        timeouts = [c for c, _, _ in commands if c.type == "timeout"]
        assert [msgspec.json.decode(c.payload) for c in timeouts] == [{"type": "timeout", "turn": 1}]
        assert datetime.now(UTC) > deadline


async def system_event(store: AsyncEventStore, from_position: int, match_id: str) -> RecordedEvent:
    return await stored(store, from_position, match_id, "system")


async def stored(store: AsyncEventStore, from_position: int, match_id: str, actor: str = "") -> RecordedEvent:
    """The first event of the match from ``from_position`` on (by ``actor``, if given), once it is stored."""
    async for page in store.subscribe(from_position):
        for recorded in page.events:
            if recorded.stream_id == match_id and actor in ("", recorded.meta.actor):
                return recorded
    raise AssertionError("the store closed")


async def test_a_dead_owners_seat_that_never_comes_back_is_forfeited_once_by_a_survivor(database_url: str) -> None:
    """Both seats played on the owner, which is killed: the seats read away since its last presence heartbeat, and
    the survivor that takes the match over forfeits the seat the match waits on once its grace has run out."""
    grace = 1
    async with owned(database_url, 1) as (process, alive, channel):
        stub = pb_grpc.MatchServiceStub(channel)
        created = await create_match(stub, options=f'{{"turn_seconds": 600, "disconnect_grace_seconds": {grace}}}')
        watcher = stub.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id, from_version=created.version))
        plays = []
        for seat in (0, 1):
            play = stub.Play()
            await play.write(start(created, seat))
            plays.append(play)
        while {seat for seat, connected, _ in await next_presence(watcher) if connected} != {0, 1}:
            pass
        waits_on = list((await stub.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act)
        store = alive[0][0].store
        head = await store.head()
        process.kill()
        killed = time.monotonic()
        forfeit = await asyncio.wait_for(system_event(store, head + 1, created.match_id), 30)
        took = time.monotonic() - killed
        # Away since the owner's last heartbeat, known once it is stale; the lease has passed on by then.
        assert took <= presence.STALE + grace + 1, took
        assert forfeit.type == "MatchEnded"
        ended = await alive[0][1].GetMatch(pb.GetMatchRequest(match_id=created.match_id))
        outcome = msgspec.json.decode(ended.outcome_json)
        assert (outcome["losers"], outcome["reason"]) == (waits_on, "disconnected")
        forfeits = [c for c, _, _ in await store.read_commands(created.match_id) if c.type == "forfeit"]
        assert [c.command_id for c in forfeits] == [f"disconnected-{waits_on[0]}-{created.version}"]
