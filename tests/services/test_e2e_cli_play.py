"""``duelhall play``: a match against the server's bots on a running server, and the viewer's address for the
human's seat, which opens the page and whose token plays the match to its end against the bots."""

from __future__ import annotations

import asyncio
import urllib.parse
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import msgspec
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.cli.main import main
from services.server import Running, ServerConfig, create_server
from tests.services.test_e2e_bot_seats import play_seat, verified


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Running]:
    """One backend is enough here: the command is a client; bot seats run on both in test_e2e_bot_seats.py."""
    url = f"sqlite:///{tmp_path / 'play.db'}"
    running = await create_server(ServerConfig(database_url=url, listen="127.0.0.1:0", http="127.0.0.1:0"))
    try:
        yield running
    finally:
        await running.stop(0)


async def test_play_creates_a_match_against_bots_and_prints_the_viewer_address(
    server: Running, capsys: pytest.CaptureFixture[str]
) -> None:
    assert server.http is not None
    address, http = f"127.0.0.1:{server.port}", server.http.address
    # On a thread of its own (the command runs its own loop), so this loop's server keeps answering.
    argv = ["play", "aq", "--server", address, "--http", http, "--name", "ada", "--players", "3", "--json"]
    assert await asyncio.to_thread(main, argv) == 0
    table = msgspec.json.decode(capsys.readouterr().out)
    url = urllib.parse.urlsplit(table["url"])
    assert f"{url.scheme}://{url.netloc}" == http and url.path == "/"
    assert urllib.parse.parse_qs(url.query) == {"watch": [table["match_id"]], "token": [table["token"]]}
    page = await asyncio.to_thread(urllib.request.urlopen, table["url"], timeout=10)
    assert page.status == 200
    async with grpc.aio.insecure_channel(address) as channel:
        stub = pb_grpc.MatchServiceStub(channel)
        match = await stub.GetMatch(pb.GetMatchRequest(match_id=table["match_id"]))
        assert [(s.name, s.kind, s.bot_level) for s in match.seat_info] == [
            ("ada", pb.SEAT_KIND_PLAYER, ""),
            ("greedy bot", pb.SEAT_KIND_BOT, "greedy"),
            ("greedy bot", pb.SEAT_KIND_BOT, "greedy"),
        ]
        await play_seat(stub, table["match_id"], table["token"], table["seat"], seed=2)
        await verified(stub, table["match_id"])


async def test_play_prints_the_address_to_open(server: Running, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "duel", "--server", f"127.0.0.1:{server.port}", "--bot", "random"]
    assert await asyncio.to_thread(main, argv) == 0
    printed = capsys.readouterr().out
    assert "the server's random bots the others" in printed
    assert "open http://127.0.0.1:8080/?watch=" in printed and "&token=" in printed


def test_play_with_an_unknown_ruleset_or_seat_count_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, said in (
        (["play", "chess"], "unknown ruleset 'chess'"),
        (["play", "duel", "--players", "3"], "duel takes 2 players, not 3"),
    ):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2
        assert said in capsys.readouterr().err


async def test_play_open_leaves_the_seats_to_friends_who_join_from_the_command_line(
    server: Running, capsys: pytest.CaptureFixture[str]
) -> None:
    assert server.http is not None
    address, http = f"127.0.0.1:{server.port}", server.http.address
    assert await asyncio.to_thread(main, ["play", "duel", "--open", "--server", address, "--http", http]) == 0
    printed = capsys.readouterr().out
    match_id = printed.split()[1].rstrip(":")
    assert f"duelhall join {match_id} --name NAME --server {address}" in printed
    joined = ["join", match_id, "--name", "friend", "--server", address, "--http", http, "--json"]
    assert await asyncio.to_thread(main, joined) == 0
    friend = msgspec.json.decode(capsys.readouterr().out)
    assert friend["seat"] == 1 and friend["url"].startswith(f"{http}/?watch={match_id}&token=")
    async with grpc.aio.insecure_channel(address) as channel:
        match = await pb_grpc.MatchServiceStub(channel).GetMatch(pb.GetMatchRequest(match_id=match_id))
        assert match.open_seats == 0 and [s.name for s in match.seat_info][1] == "friend"
