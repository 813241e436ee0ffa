"""Transport: an idle watch survives a client pinging every second; TLS and mutual TLS round trips, from the
command line's clients too."""

from __future__ import annotations

import argparse
import asyncio
import ssl
from collections.abc import Iterator
from pathlib import Path

import grpc
import httpx
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.cli.main import main
from services.cli.main import parser as main_parser
from services.edge.transport import Tls
from services.server import ServerConfig, create_server
from tests.ops.certs import Certificates
from tests.services.client import create_match
from tests.services.process import ServerProcess

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


ADMIN = "tls-admin"


class Served:
    """A ``duelhall serve`` process with TLS, and the certificates."""

    def __init__(self, folder: Path, mutual: bool) -> None:
        self.certs = Certificates(folder)
        tls = ["--tls-cert", str(self.certs.server_cert), "--tls-key", str(self.certs.server_key)]
        client_ca = ["--tls-client-ca", str(self.certs.ca)] if mutual else []
        self.process = ServerProcess(f"sqlite:///{folder / 'tls.db'}", *tls, *client_ca, "--admin-token", ADMIN)
        self.address = self.process.address


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("tls"), mutual=False)
    yield served
    served.process.stop()


@pytest.fixture(scope="module")
def mtls_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = Served(tmp_path_factory.mktemp("mtls"), mutual=True)
    yield served
    served.process.stop()


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_health_checks_a_tls_server(
    tls_server: Served, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ca, address = str(tls_server.certs.ca), tls_server.address
    assert cli(capsys, "health", "--server", address, "--tls-ca", ca) == (0, f"{address}: SERVING\n")
    status, shown = cli(capsys, "health", "--server", address)
    assert status == 1 and "UNAVAILABLE (the server closed the connection: if it serves TLS, give --tls-ca" in shown
    status, shown = cli(capsys, "health", "--server", address, "--tls-ca", str(tls_server.certs.client_cert))
    assert status == 1 and "does not chain to --tls-ca" in shown
    status, shown = cli(capsys, "health", "--server", address, "--tls-ca", ca, "--tls-server-name", "elsewhere")
    assert status == 1 and "does not name the host called" in shown
    assert cli(capsys, "health", "--server", address, "--tls-ca", ca, "--tls-server-name", "localhost")[0] == 0
    # The image's health check: `duelhall health`, configured by the server's environment.
    monkeypatch.setenv("DUELHALL_LISTEN", address)
    monkeypatch.setenv("DUELHALL_TLS_CA", ca)
    assert cli(capsys, "health") == (0, f"{address}: SERVING\n")


def test_health_checks_a_mutual_tls_server(
    mtls_server: Served, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    certs, address = mtls_server.certs, mtls_server.address
    status, shown = cli(capsys, "health", "--server", address, "--tls-ca", str(certs.ca))
    assert status == 1 and "if it requires client certificates, --tls-client-cert and --tls-client-key" in shown
    client = ["--tls-client-cert", str(certs.client_cert), "--tls-client-key", str(certs.client_key)]
    assert cli(capsys, "health", "--server", address, "--tls-ca", str(certs.ca), *client)[0] == 0
    status, shown = cli(capsys, "health", "--server", address, "--tls-ca", str(certs.ca), *client[:2])
    assert (status, shown) == (1, "duelhall: a client certificate needs both --tls-client-cert and --tls-client-key\n")
    monkeypatch.setenv("DUELHALL_LISTEN", address)
    monkeypatch.setenv("DUELHALL_TLS_CA", str(certs.ca))
    monkeypatch.setenv("DUELHALL_TLS_CLIENT_CERT", str(certs.client_cert))
    monkeypatch.setenv("DUELHALL_TLS_CLIENT_KEY", str(certs.client_key))
    assert cli(capsys, "health")[0] == 0


# Every command that calls a server, and what it answers once it reached the mutual TLS server.
CLIENTS: list[tuple[list[str], int, str]] = [
    (["health"], 0, "SERVING"),
    (["selfplay", "card_monsters", "--games", "1"], 0, "1 finished"),
    (["matches"], 0, "match"),
    (["play", "duel"], 0, "open http"),
    (["join", "no-such-match", "--name", "ann"], 1, "NOT_FOUND"),
    (
        ["replay", "export", "no-such-match", "-o", "{tmp}/r.json"],
        1,
        "the server refused the request (NOT_FOUND / MATCH_NOT_FOUND)",
    ),
    *(
        (["tournament", verb, *extra], 1, "(TOURNAMENT_NOT_FOUND)")
        for verb, extra in [
            ("register", ["t-none", "ann", "--admin-token", ADMIN]),
            ("start", ["t-none", "--admin-token", ADMIN]),
            ("pair", ["t-none", "--admin-token", ADMIN]),
            ("cut", ["t-none", "--admin-token", ADMIN]),
            ("standings", ["t-none"]),
            ("report", ["t-none", "1", "1", "1", "0", "--by", "judge", "--why", "test", "--admin-token", ADMIN]),
            ("drop", ["t-none", "ann", "--by", "judge", "--admin-token", ADMIN]),
            ("show", ["t-none"]),
            ("check-in", ["t-none", "ann", "--admin-token", ADMIN]),
            ("reinstate", ["t-none", "ann", "--by", "judge", "--why", "test", "--admin-token", ADMIN]),
            ("repair", ["t-none", "--by", "judge", "--why", "test", "--admin-token", ADMIN]),
            ("edit", ["t-none", "swap", "ann", "bob", "--by", "judge", "--why", "test", "--admin-token", ADMIN]),
            ("seat", ["t-none", "ann", "--admin-token", ADMIN]),
            ("choose-first", ["t-none", "ann", "bob", "--admin-token", ADMIN]),
            ("side-deck", ["t-none", "ann", "--out", "c1", "--in", "s1", "--admin-token", ADMIN]),
            ("events", ["t-none", "--admin-token", ADMIN]),
            ("watch", ["t-none"]),
            ("play", ["t-none", "ann", "--admin-token", ADMIN]),
            ("reissue", ["t-none", "ann", "--by", "judge", "--why", "test", "--admin-token", ADMIN]),
            ("publish", ["t-none", "--by", "judge", "--why", "test", "--admin-token", ADMIN]),
        ]
    ),
    (["tournament", "list"], 0, "tournaments"),
    (["tournament", "create", "open", "--ruleset", "card_monsters", "--admin-token", ADMIN], 0, ""),
]


def test_every_command_that_calls_a_server_takes_the_tls_options() -> None:
    def commands(parser: argparse.ArgumentParser, name: str) -> Iterator[tuple[str, argparse.ArgumentParser]]:
        verbs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not verbs:
            yield name, parser
        for action in verbs:
            for verb, sub in action.choices.items():
                yield from commands(sub, f"{name} {verb}".strip())

    calling = {
        name
        for name, parser in commands(main_parser(), "")
        if any("--server" in action.option_strings for action in parser._actions)
    }
    flags = ("--tls-ca", "--tls-client-cert", "--tls-client-key", "--tls-server-name")
    tls = {
        name
        for name, parser in commands(main_parser(), "")
        if all(any(flag in a.option_strings for a in parser._actions) for flag in flags)
    }
    assert calling == tls
    assert calling == {
        " ".join(argv[:2] if argv[0] in ("replay", "tournament") else argv[:1]) for argv, _, _ in CLIENTS
    }


@pytest.mark.parametrize(("argv", "status", "answer"), CLIENTS, ids=[" ".join(argv[:2]) for argv, _, _ in CLIENTS])
def test_every_client_command_reaches_a_mutual_tls_server(
    argv: list[str], status: int, answer: str, mtls_server: Served, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    certs = mtls_server.certs
    tls = ["--tls-ca", str(certs.ca), "--tls-client-cert", str(certs.client_cert)]
    tls += ["--tls-client-key", str(certs.client_key)]
    words = [word.format(tmp=tmp_path) for word in argv]
    shown = cli(capsys, *words, "--server", mtls_server.address, *tls)
    assert shown[0] == status and answer in shown[1], shown
