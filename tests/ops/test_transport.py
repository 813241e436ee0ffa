"""Transport: an idle watch survives a client pinging every second; TLS and mutual TLS round trips."""

from __future__ import annotations

import asyncio
import ssl
from pathlib import Path

import grpc
import httpx
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.edge.transport import Tls
from services.server import ServerConfig, create_server
from tests.ops.certs import Certificates
from tests.services.client import create_match

IDLE_SECONDS = 30
CLIENT_KEEPALIVE = [
    ("grpc.keepalive_time_ms", 1000),
    ("grpc.keepalive_timeout_ms", 5000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.max_pings_without_data", 0),
]


async def test_an_idle_watch_with_one_second_keepalive_stays_open(tmp_path: Path) -> None:
    server = await create_server(ServerConfig(database_url=f"sqlite:///{tmp_path / 'k.db'}", listen="127.0.0.1:0"))
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}", options=CLIENT_KEEPALIVE) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub)
            watch = stub.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id, from_version=created.version))
            next_update = asyncio.ensure_future(watch.read())
            # The time is the thing under test: about 30 pings, each one a strike under gRPC's defaults.
            await asyncio.sleep(IDLE_SECONDS)
            assert not next_update.done(), f"the watch ended while idle: {watch.code() if watch.done() else ''}"
            seat = (await stub.GetView(pb.GetViewRequest(match_id=created.match_id))).to_act[0]
            await stub.SubmitCommand(
                pb.SubmitCommandRequest(
                    match_id=created.match_id, token=created.tokens[seat], command_json='{"type": "engage"}'
                )
            )
            update = await asyncio.wait_for(next_update, 10)
            assert update.event.version == created.version + 1
            watch.cancel()
    finally:
        await server.stop(0)


async def test_tls_round_trip_and_client_certificates(tmp_path: Path) -> None:
    certs = Certificates(tmp_path)
    tls = Tls(certs.server_cert, certs.server_key, client_ca=certs.ca)
    server = await create_server(
        ServerConfig(database_url=f"sqlite:///{tmp_path / 't.db'}", listen="127.0.0.1:0", tls=tls)
    )
    try:
        trusted = grpc.ssl_channel_credentials(
            root_certificates=certs.ca.read_bytes(),
            private_key=certs.client_key.read_bytes(),
            certificate_chain=certs.client_cert.read_bytes(),
        )
        async with grpc.aio.secure_channel(f"127.0.0.1:{server.port}", trusted) as channel:
            reply = await pb_grpc.RulesetServiceStub(channel).ListRulesets(pb.ListRulesetsRequest(), timeout=10)
            assert "card_monsters" in [r.id for r in reply.rulesets]
        anonymous = grpc.ssl_channel_credentials(root_certificates=certs.ca.read_bytes())
        async with grpc.aio.secure_channel(f"127.0.0.1:{server.port}", anonymous) as channel:
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await pb_grpc.RulesetServiceStub(channel).ListRulesets(pb.ListRulesetsRequest(), timeout=10)
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            with pytest.raises(grpc.aio.AioRpcError):
                await pb_grpc.RulesetServiceStub(channel).ListRulesets(pb.ListRulesetsRequest(), timeout=10)
    finally:
        await server.stop(0)


async def test_the_http_port_requires_the_same_client_certificates(tmp_path: Path) -> None:
    """The same API is served over Connect on the HTTP port: mutual TLS on gRPC alone would leave it open."""
    certs = Certificates(tmp_path)
    tls = Tls(certs.server_cert, certs.server_key, client_ca=certs.ca)
    server = await create_server(
        ServerConfig(database_url=f"sqlite:///{tmp_path / 't.db'}", listen="127.0.0.1:0", http="127.0.0.1:0", tls=tls)
    )
    assert server.http is not None
    url = f"{server.http.address}/duelhall.v1.RulesetService/ListRulesets"
    assert url.startswith("https://")
    trusted = ssl.create_default_context(cafile=certs.ca)
    trusted.load_cert_chain(certs.client_cert, certs.client_key)
    try:
        async with httpx.AsyncClient(verify=trusted) as client:
            reply = await client.post(url, json={}, timeout=10)
            assert reply.status_code == 200 and "card_monsters" in reply.text
        async with httpx.AsyncClient(verify=ssl.create_default_context(cafile=certs.ca)) as client:
            with pytest.raises(httpx.TransportError):
                (await client.post(url, json={}, timeout=10)).raise_for_status()
        async with httpx.AsyncClient() as client:
            with pytest.raises(httpx.TransportError):
                await client.post(url.replace("https://", "http://"), json={}, timeout=10)
    finally:
        await server.stop(0)
