"""Prometheus metrics move under a bot match through a real server; the listener and the HTTP port serve them."""

from __future__ import annotations

import asyncio
import functools
import json
import urllib.request
from pathlib import Path

import grpc
import pytest
from prometheus_client import CollectorRegistry, Gauge

from eventstore import open_store
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.matches.manager import MatchManager
from services.matches.tokens import SeatToken
from services.ops.lag import LagSampler
from services.server import Running, ServerConfig, create_server
from tests.services.client import create_match, error_reason, play_random
from tests.services.clock import ManualClock
from tests.services.test_e2e_play import command, start, until_result, until_turn


def value(server: Running, name: str, **labels: str) -> float:
    return server.metrics.registry.get_sample_value(name, labels) or 0.0


async def test_counters_move_under_a_bot_match(server: Running, matches: pb_grpc.MatchServiceStub) -> None:
    created = await create_match(matches)
    watch = matches.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id))
    await watch.read()
    assert value(server, "duelhall_open_streams", method="WatchMatch") == 1
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await matches.SubmitCommand(
            pb.SubmitCommandRequest(
                match_id=created.match_id, token=created.tokens[0], command_json='{"type": "no such thing"}'
            )
        )
    reason = error_reason(refused.value)
    commands = await play_random(matches, created, seed=5)
    while not (await watch.read()).match_ended:
        pass
    assert await watch.read() == grpc.aio.EOF and await watch.code() == grpc.StatusCode.OK
    assert value(server, "duelhall_open_streams", method="WatchMatch") == 0
    assert value(server, "duelhall_commands_total", ruleset="card_monsters", result="accepted", reason="") == commands
    assert value(server, "duelhall_commands_total", ruleset="card_monsters", result="rejected", reason=reason) == 1
    assert value(server, "duelhall_rpc_duration_seconds_count", method="SubmitCommand", code="OK") == commands
    assert value(server, "duelhall_rpc_duration_seconds_count", method="CreateMatch", code="OK") == 1
    # The end is recorded in the background after the last command: once it is (ListMatches waits for the ends
    # under way), no append is left to land between the reads of the two append metrics below.
    await matches.ListMatches(pb.ListMatchesRequest())
    appends = value(server, "duelhall_store_append_duration_seconds_count")
    assert appends >= commands + 1  # the creation, each command, and the server's own records
    assert value(server, "duelhall_store_commit_batch_size_sum") == appends
    assert 1 <= value(server, "duelhall_store_commit_batch_size_count") <= appends
    assert value(server, "duelhall_hot_matches") == 1
    assert value(server, "duelhall_timers_total", event="armed") >= 2
    assert value(server, "duelhall_matches_created_total", ruleset="card_monsters") == 1
    ended = json.loads((await matches.GetMatch(pb.GetMatchRequest(match_id=created.match_id))).outcome_json)
    assert value(server, "duelhall_matches_ended_total", ruleset="card_monsters", reason=ended["reason"]) == 1
    assert sum(s.value for s in server.metrics.ended.collect()[0].samples if s.name.endswith("_total")) == 1


async def test_the_lags_behind_the_store_head_are_sampled_on_the_clock() -> None:
    gauge = Gauge("lag", "lag", ["reader"], registry=CollectorRegistry())
    head, positions = [10], {"projection": 7, "follower": None}
    clock = ManualClock()
    asked = asyncio.Event()

    async def read_head() -> int:
        asked.set()  # the sample is set in the same step, before the waiter below resumes
        return head[0]

    readers = {name: functools.partial(positions.get, name) for name in positions}
    sampler = LagSampler(read_head, readers, gauge, clock, interval=5)
    sampler.start()
    clock.advance(0)  # the first sample as the server starts
    await asyncio.wait_for(asked.wait(), 10)
    # A server alone on its database has no follower, so no follower lag.
    assert {s.labels["reader"]: s.value for s in gauge.collect()[0].samples} == {"projection": 3}
    asked.clear()
    head[0], positions["projection"], positions["follower"] = 20, 20, 14
    clock.advance(4.9)
    assert not asked.is_set()  # not yet due
    clock.advance(0.1)
    await asyncio.wait_for(asked.wait(), 10)
    assert {s.labels["reader"]: s.value for s in gauge.collect()[0].samples} == {"projection": 0, "follower": 6}
    await sampler.stop()


async def test_a_server_samples_its_projection_lag_and_on_a_shared_store_its_followers(server: Running) -> None:
    await server.metrics.sample_lags()
    lags = {s.labels["reader"]: s.value for s in server.metrics.lag.collect()[0].samples}
    assert lags == ({"projection": 0.0, "follower": 0.0} if server.manager.shared else {"projection": 0.0})


async def test_commands_over_play_streams_are_counted_like_submitted_ones(
    server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    created = await create_match(matches)
    seat = (await matches.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
    call = matches.Play()
    await call.write(start(created, seat))
    legal = (await until_turn(call, [])).turn.commands_json
    await call.write(command('{"type": "no such thing"}', "bad"))
    refused = (await until_result(call)).result.error.reason
    await call.write(command(next(c for c in legal if '"concede"' not in c), "good"))
    await until_result(call)
    call.cancel()
    assert value(server, "duelhall_commands_total", ruleset="card_monsters", result="accepted", reason="") == 1
    assert value(server, "duelhall_commands_total", ruleset="card_monsters", result="rejected", reason=refused) == 1
    assert refused == "UNKNOWN_COMMAND"


async def test_a_stale_copy_counts_its_conflict(tmp_path: Path) -> None:
    # Another writer of the file (a script on the store, ``selfplay --database-url``) leaves the server's copy
    # of the match behind: its append meets a newer version.
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    server = await create_server(ServerConfig(database_url=url, listen="127.0.0.1:0"))
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub)
            seat = (await stub.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
            engage = b'{"type": "engage"}'
            other = await open_store(url)
            try:
                await MatchManager(other).submit(created.match_id, SeatToken(created.tokens[seat]), engage, "elsewhere")
            finally:
                await other.close()
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                request = pb.SubmitCommandRequest(
                    match_id=created.match_id,
                    token=created.tokens[seat],
                    command_json=engage.decode(),
                    command_id="here",
                )
                await stub.SubmitCommand(request)
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION  # caught up: the turn has passed
        assert value(server, "duelhall_conflicts_total", kind="version", cause="other_instance", appending="seat") == 1
    finally:
        await server.stop(0)


async def test_the_listener_serves_the_registry(tmp_path: Path) -> None:
    server = await create_server(
        ServerConfig(database_url=f"sqlite:///{tmp_path / 'm.db'}", listen="127.0.0.1:0", metrics="127.0.0.1:0")
    )
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            await create_match(pb_grpc.MatchServiceStub(channel))
        assert server.metrics_listener is not None
        with urllib.request.urlopen(f"http://127.0.0.1:{server.metrics_listener.port}/metrics", timeout=10) as page:
            text = page.read().decode()
        assert 'duelhall_rpc_duration_seconds_count{code="OK",method="CreateMatch"} 1.0' in text
    finally:
        await server.stop(0)


async def test_a_fired_turn_timer_is_counted(tmp_path: Path) -> None:
    clock = ManualClock()
    server = await create_server(
        ServerConfig(database_url=f"sqlite:///{tmp_path / 't.db'}", listen="127.0.0.1:0"), clock
    )
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub, options='{"turn_seconds": 10}')
            watch = stub.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id, from_version=created.version))
            await watch.wait_for_connection()
            assert value(server, "duelhall_timers_total", event="armed") == 1
            assert value(server, "duelhall_timers_total", event="fired") == 0
            clock.advance(40)
            update = await asyncio.wait_for(watch.read(), 30)
            assert update.event.actor == "system"
            watch.cancel()
        assert value(server, "duelhall_timers_total", event="fired") == 1
    finally:
        await server.stop(0)


async def test_the_http_port_serves_the_registry(tmp_path: Path) -> None:
    server = await create_server(
        ServerConfig(database_url=f"sqlite:///{tmp_path / 'm.db'}", listen="127.0.0.1:0", http="127.0.0.1:0")
    )
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            await create_match(pb_grpc.MatchServiceStub(channel))
        assert server.http is not None
        address = server.http.address

        def scrape() -> str:
            with urllib.request.urlopen(f"{address}/metrics", timeout=10) as page:
                return str(page.read().decode())

        # the HTTP port runs on this event loop: the request goes from another thread
        text = await asyncio.to_thread(scrape)
        assert 'duelhall_rpc_duration_seconds_count{code="OK",method="CreateMatch"} 1.0' in text
    finally:
        await server.stop(0)
