"""Structured logs: one JSON object per line, one line per RPC with its match, role, status and latency."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import grpc
import httpx
import msgspec
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from tests.services.client import create_match, error_reason
from tests.services.connect_client import MATCHES, ConnectFailure, call
from tests.services.process import ServerProcess


def json_lines(text: str) -> list[dict[str, Any]]:
    return [msgspec.json.decode(line) for line in text.splitlines() if line.startswith("{")]


async def test_every_rpc_is_one_json_line(tmp_path: Path) -> None:
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'logs.db'}", "--log-format", "json", "--admin-token", "adm1n", capture=True
    )
    try:
        async with grpc.aio.insecure_channel(server.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub)
            await stub.GetView(pb.GetViewRequest(match_id=created.match_id, token=created.tokens[1]))
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.GetView(pb.GetViewRequest(match_id=created.match_id, token="not-a-token"))
            assert error_reason(refused.value) == "TOKEN_INVALID"
        async with httpx.AsyncClient(base_url=server.http_address, timeout=30) as web:
            await call(web, MATCHES, "GetView", {"matchId": created.match_id, "token": created.tokens[0]})
            with pytest.raises(ConnectFailure):
                await call(web, MATCHES, "GetView", {"matchId": created.match_id, "token": "not-a-token"})
    finally:
        output = server.stop()
    lines = json_lines(output)
    assert len(lines) == len([line for line in output.splitlines() if line.strip()]), output
    rpcs = [line for line in lines if line["message"] == "rpc"]
    assert [(r["method"], r["protocol"], r["role"], r["code"], r["reason"]) for r in rpcs] == [
        ("CreateMatch", "grpc", "", "OK", ""),
        ("GetView", "grpc", "seat:1", "OK", ""),
        ("GetView", "grpc", "unknown token", "PERMISSION_DENIED", "TOKEN_INVALID"),
        ("GetView", "connect", "seat:0", "OK", ""),
        ("GetView", "connect", "unknown token", "PERMISSION_DENIED", "TOKEN_INVALID"),
    ]
    assert all(r["match_id"] == created.match_id for r in rpcs[1:]) and all(r["ms"] > 0 for r in rpcs)
    messages = [line["message"] for line in lines]
    assert "migrating the database" in messages and any(m.startswith("Running upgrade") for m in messages)
    assert any(m.startswith("duelhall serving on") for m in messages)
    assert messages[-1] == "stopped" and "shutting down" in messages, lines[-3:]
    assert "not-a-token" not in output and "adm1n" not in output
    assert created.tokens[1] not in output


async def test_the_caster_token_is_logged_as_the_caster(tmp_path: Path) -> None:
    """Whoever presents a match's caster token is on the record as the caster, never by the token."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'caster.db'}", "--log-format", "json", capture=True)
    try:
        async with grpc.aio.insecure_channel(server.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            request = pb.CreateMatchRequest(
                ruleset="card_monsters", seats=[pb.SeatSpec(name="a"), pb.SeatSpec(name="b")], caster_delay_seconds=60
            )
            created = await stub.CreateMatch(request)
            with pytest.raises(grpc.aio.AioRpcError) as refused:  # it opens the caster feed, not a view
                await stub.GetView(pb.GetViewRequest(match_id=created.match.match_id, token=created.caster_token))
            assert error_reason(refused.value) == "TOKEN_INVALID"
    finally:
        output = server.stop()
    rpcs = [line for line in json_lines(output) if line["message"] == "rpc"]
    assert [(r["method"], r["role"]) for r in rpcs] == [("CreateMatch", ""), ("GetView", "caster")]
    assert created.caster_token not in output


async def test_a_hostile_match_id_stays_within_its_rpc_line(tmp_path: Path) -> None:
    """The rpc line echoes the match id the client sent: cut like an error message's echo, and quoted in the
    console format when it holds a line break (as a message quoting a request escapes it), so a client can
    neither flood the log nor forge a line."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'hostile.db'}", capture=True)
    forged = "x\n2026-01-01T00:00:00.000Z\tWARNING\tservices.server:\tforged"
    try:
        async with grpc.aio.insecure_channel(server.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            for match_id in ("a" * 100_000, forged):
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await stub.GetView(pb.GetViewRequest(match_id=match_id))
                assert error_reason(refused.value) == "MATCH_NOT_FOUND"
        async with httpx.AsyncClient(base_url=server.http_address, timeout=30) as web:
            with pytest.raises(ConnectFailure):  # the parse error in the warning quotes the value
                await call(
                    web,
                    MATCHES,
                    "GetMatch",
                    {"matchId": "m", "minVersion": "1\n2026-01-01T00:00:00.000Z WARNING forged"},
                )
    finally:
        output = server.stop()
    assert r"WARNING services.edge.malformed: malformed request" in output and r'"1\n2026-01-01' in output, output
    rpcs = [line for line in output.splitlines() if " rpc method=GetView " in line]
    assert len(rpcs) == 2, output
    assert all(len(line) < 500 for line in rpcs), [len(line) for line in rpcs]
    assert "match_id=aaaa" in rpcs[0] and "…" in rpcs[0]
    assert not any(line.startswith("2026-01-01") for line in output.splitlines()), output
    assert r"match_id='x\n2026-01-01" in rpcs[1]
