"""One server per SQLite file: a second one is refused at start, and a stopped or killed one leaves no claim."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import grpc
import pytest

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.ops.claim import DatabaseInUse
from services.server import ServerConfig, create_server
from tests.services.client import create_match
from tests.services.process import BIN, ServerProcess


async def test_a_second_server_on_a_served_file_is_refused_until_the_first_stops(tmp_path: Path) -> None:
    path = tmp_path / "one.db"
    (tmp_path / "alias.db").symlink_to(path)
    first = await create_server(ServerConfig(database_url=f"sqlite:///{path}", listen="127.0.0.1:0"))
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{first.port}") as channel:
            created = await create_match(pb_grpc.MatchServiceStub(channel))
        for name in ("one.db", "alias.db"):
            with pytest.raises(
                DatabaseInUse, match=f"{path} is served by another duelhall serve \\(process {os.getpid()}\\)"
            ):
                await create_server(ServerConfig(database_url=f"sqlite:///{tmp_path / name}", listen="127.0.0.1:0"))
    finally:
        await first.stop(0)
    second = await create_server(ServerConfig(database_url=f"sqlite:///{path}", listen="127.0.0.1:0"))
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{second.port}") as channel:
            found = await pb_grpc.MatchServiceStub(channel).GetMatch(pb.GetMatchRequest(match_id=created.match_id))
        assert found.match_id == created.match_id
    finally:
        await second.stop(0)


async def test_a_second_serve_process_exits_saying_who_serves_and_a_killed_one_leaves_no_claim(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"
    first = ServerProcess(url)
    second = subprocess.run(
        [str(BIN), "serve", "--listen", "127.0.0.1:0", "--http", "off", "--database-url", url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert second.returncode == 1
    assert f"is served by another duelhall serve (process {first.proc.pid})" in second.stderr
    first.kill()
    third = ServerProcess(url)
    try:
        async with grpc.aio.insecure_channel(third.address) as channel:
            await create_match(pb_grpc.MatchServiceStub(channel))
    finally:
        third.stop()


async def test_a_hard_link_to_a_served_file_is_refused_too(tmp_path: Path) -> None:
    path = tmp_path / "one.db"
    first = await create_server(ServerConfig(database_url=f"sqlite:///{path}", listen="127.0.0.1:0"))
    try:
        os.link(path, tmp_path / "link.db")
        with pytest.raises(DatabaseInUse, match="under another name of the same file \\(a hard link\\)"):
            await create_server(ServerConfig(database_url=f"sqlite:///{tmp_path / 'link.db'}", listen="127.0.0.1:0"))
        async with grpc.aio.insecure_channel(f"127.0.0.1:{first.port}") as channel:
            await create_match(pb_grpc.MatchServiceStub(channel))  # the first server's file is untouched
    finally:
        await first.stop(0)
    second = await create_server(ServerConfig(database_url=f"sqlite:///{tmp_path / 'link.db'}", listen="127.0.0.1:0"))
    await second.stop(0)
