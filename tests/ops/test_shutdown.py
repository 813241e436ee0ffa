"""SIGTERM under load: health NOT_SERVING, watches ended UNAVAILABLE, no acknowledged command lost, exit 0."""

from __future__ import annotations

import asyncio
import random
import signal
import socket
from pathlib import Path
from typing import Any

import grpc
import httpx
import msgspec
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from eventstore import open_store
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import ServerConfig, create_server
from tests.services.client import Created, create_match, error_reason
from tests.services.connect_client import MATCHES, ConnectFailure, stream
from tests.services.process import ServerProcess

CLIENTS = 6
BEFORE_SIGTERM = 40
"""Acknowledged commands before the signal is sent."""


async def bot(
    stub: pb_grpc.MatchServiceStub, seed: int, acked: list[tuple[str, str, int]], enough: asyncio.Event
) -> None:
    """Plays matches until the server refuses; records every acknowledged (match, command id, version)."""
    rng = random.Random(seed)
    try:
        while True:
            created = await create_match(stub)
            to_act = list((await stub.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act)
            while to_act:
                seat = to_act[0]
                legal = await stub.ListLegalCommands(
                    pb.ListLegalCommandsRequest(match_id=created.match_id, token=created.tokens[seat])
                )
                options = [c for c in legal.commands_json if msgspec.json.decode(c)["type"] != "concede"]
                command_id = f"bot{seed}-{len(acked)}-{rng.random()}"
                reply = await stub.SubmitCommand(
                    pb.SubmitCommandRequest(
                        match_id=created.match_id,
                        token=created.tokens[seat],
                        command_json=rng.choice(options),
                        command_id=command_id,
                    ),
                    timeout=30,
                )
                acked.append((created.match_id, command_id, reply.version))
                if len(acked) >= BEFORE_SIGTERM:
                    enough.set()
                to_act = list(reply.to_act)
    except grpc.aio.AioRpcError as exc:
        assert exc.code() == grpc.StatusCode.UNAVAILABLE, exc


async def test_sigterm_during_load_loses_no_acknowledged_command(database_url: str) -> None:
    server = ServerProcess(database_url, "--drain-seconds", "1", capture=True)
    acked: list[tuple[str, str, int]] = []
    enough = asyncio.Event()
    try:
        async with grpc.aio.insecure_channel(server.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            health = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=""))
            assert (await health.read()).status == health_pb2.HealthCheckResponse.SERVING
            idle = await create_match(stub)
            watch = stub.WatchMatch(pb.WatchMatchRequest(match_id=idle.match_id, from_version=idle.version))
            bots = [asyncio.ensure_future(bot(stub, seed, acked, enough)) for seed in range(CLIENTS)]
            await asyncio.wait_for(enough.wait(), 120)
            server.proc.send_signal(signal.SIGTERM)
            assert (await health.read()).status == health_pb2.HealthCheckResponse.NOT_SERVING
            health.cancel()
            during_drain = len(acked)
            try:
                await watch.read()
                raise AssertionError("the idle watch received an event")
            except grpc.aio.AioRpcError as ended:
                assert ended.code() == grpc.StatusCode.UNAVAILABLE
                assert error_reason(ended) == "SERVER_SHUTTING_DOWN"
            await asyncio.wait_for(asyncio.gather(*bots), 60)
            assert len(acked) > during_drain, "commands were refused during the drain period"
        returncode = await asyncio.to_thread(server.proc.wait, 60)
    finally:
        output = server.stop()
    assert returncode == 0, output
    assert "stopped" in output
    store = await open_store(database_url)
    try:
        stored: dict[tuple[str, str], int] = {}
        for match_id in {match for match, _, _ in acked}:
            for command, _, last in await store.read_commands(match_id):
                stored[(match_id, command.command_id)] = last
    finally:
        await store.close()
    assert all(stored.get((match, command)) == version for match, command, version in acked)


async def _play(stub: pb_grpc.MatchServiceStub, created: Created) -> Any:
    play = stub.Play()
    await play.write(pb.PlayRequest(start=pb.PlayStart(match_id=created.match_id, token=created.tokens[0])))
    return play


async def _lifecycle(stub: pb_grpc.MatchServiceStub, created: Created) -> Any:
    return stub.WatchLifecycle(pb.WatchLifecycleRequest())


@pytest.mark.parametrize("opened", [_play, _lifecycle], ids=["play", "lifecycle"])
async def test_shutdown_ends_an_open_stream_unavailable(tmp_path: Path, opened: Any) -> None:
    """A Play stream or a lifecycle watch: the client hears why, and resumes from what it handled elsewhere."""
    running = await create_server(ServerConfig(database_url=f"sqlite:///{tmp_path / 'p.db'}", listen="127.0.0.1:0"))
    stopped = False
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            call = await opened(stub, await create_match(stub))
            await call.read()  # the first answer: the stream is in place
            stopping = asyncio.ensure_future(running.stop(5))
            with pytest.raises(grpc.aio.AioRpcError) as ended:
                while await call.read() is not grpc.aio.EOF:
                    pass
            assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
            assert error_reason(ended.value) == "SERVER_SHUTTING_DOWN"
            await stopping
            stopped = True
    finally:
        if not stopped:
            await running.stop(0)


async def test_a_play_command_stored_as_shutdown_begins_is_answered_before_the_stream_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command is in the store: its result reaches the client before UNAVAILABLE, so it need not retry."""
    running = await create_server(ServerConfig(database_url=f"sqlite:///{tmp_path / 'p.db'}", listen="127.0.0.1:0"))
    submit = running.manager.submit

    async def stored_then_shutdown(*args: Any, **kwargs: Any) -> Any:
        submitted = await submit(*args, **kwargs)
        running.feed.end_watches()  # what Running.stop does, after this command was stored
        return submitted

    monkeypatch.setattr(running.manager, "submit", stored_then_shutdown)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub)
            seat = (await stub.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
            play = stub.Play()
            await play.write(pb.PlayRequest(start=pb.PlayStart(match_id=created.match_id, token=created.tokens[seat])))
            await play.read()
            await play.write(
                pb.PlayRequest(command=pb.PlayCommand(command_json='{"type": "engage"}', command_id="last"))
            )
            while not (answered := await play.read()).HasField("result"):
                pass  # a presence update: the seat connected
            assert answered.result.command_id == "last" and answered.result.version > created.version
            with pytest.raises(grpc.aio.AioRpcError) as ended:
                await play.read()
            assert error_reason(ended.value) == "SERVER_SHUTTING_DOWN"
    finally:
        await running.stop(0)


async def test_an_http_request_still_open_after_the_grace_is_one_warning(tmp_path: Path) -> None:
    """A client that never finishes sending its request holds the HTTP port until the grace ends; cancelling it
    is a warning (as for gRPC calls), not an ERROR with uvicorn's traceback: any client can cause it."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'slow.db'}", "--grace-seconds", "1", capture=True)
    try:
        host, port = server.http_address.removeprefix("http://").rsplit(":", 1)
        with socket.create_connection((host, int(port))) as slow:
            slow.sendall(
                b"POST /duelhall.v1.MatchService/ListMatches HTTP/1.1\r\nHost: duelhall\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
            )
            server.proc.send_signal(signal.SIGTERM)
            returncode = await asyncio.to_thread(server.proc.wait, 30)
    finally:
        output = server.stop()
    assert returncode == 0, output
    assert "Traceback" not in output and " ERROR " not in output, output
    assert (
        "WARNING services.web.http: HTTP requests still open after the grace period are cancelled requests=1" in output
    )
    assert output.rstrip().endswith("stopped"), output


async def test_http_and_grpc_calls_share_one_grace_period(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Shutdown waits for open HTTP requests and in-flight gRPC calls at once: one after the other, a stuck
    request on each port made it take two grace periods. Each wait here returns only once both have begun."""
    server = await create_server(
        ServerConfig(database_url=f"sqlite:///{tmp_path / 's.db'}", listen="127.0.0.1:0", http="127.0.0.1:0")
    )
    assert server.http is not None
    begun: list[str] = []
    both = asyncio.Event()

    def waiting(what: str) -> None:
        begun.append(what)
        if len(begun) == 2:
            both.set()

    stop_http, settled = server.http.stop, server.observer.settled

    async def http_stop(grace: float = 0.0) -> None:
        waiting("http")
        await both.wait()
        await stop_http(grace)

    async def calls_settled(grace: float | None) -> bool:
        waiting("grpc")
        await both.wait()
        return await settled(grace)

    monkeypatch.setattr(server.http, "stop", http_stop)
    monkeypatch.setattr(server.observer, "settled", calls_settled)
    await asyncio.wait_for(server.stop(1.0), 30)
    assert sorted(begun) == ["grpc", "http"]


async def test_shutdown_ends_a_lifecycle_watch_over_connect_unavailable(tmp_path: Path) -> None:
    running = await create_server(
        ServerConfig(database_url=f"sqlite:///{tmp_path / 'p.db'}", listen="127.0.0.1:0", http="127.0.0.1:0")
    )
    stopping: asyncio.Future[None] | None = None
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            await create_match(pb_grpc.MatchServiceStub(channel))
        assert running.http is not None
        async with httpx.AsyncClient(base_url=running.http.address, timeout=30) as web:
            with pytest.raises(ConnectFailure) as ended:
                async for _ in stream(web, MATCHES, "WatchLifecycle", {}):
                    stopping = stopping or asyncio.ensure_future(running.stop(5))
        assert (ended.value.code, ended.value.reason) == ("unavailable", "SERVER_SHUTTING_DOWN")
        assert stopping is not None
        await stopping
    finally:
        if stopping is None:
            await running.stop(0)
