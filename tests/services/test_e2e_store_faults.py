"""Store faults through a real server: UNAVAILABLE with a reason (never INTERNAL), nothing acknowledged lost,
prompt recovery, and watchers that get every version once the store is back."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc
import psycopg
import pytest

from eventstore.sqlite_async import AsyncSqliteStore
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import Running
from tests.postgres import ADMIN_URL
from tests.services.client import Created, create_match, error_reason
from tests.services.process import ServerProcess

UNAVAILABLE = (grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE")


class Player:
    """Plays legal commands one at a time, retrying a refused submit with the same command id."""

    def __init__(self, stub: pb_grpc.MatchServiceStub, created: Created) -> None:
        self.stub, self.created = stub, created
        self.acknowledged = created.version
        self.refusals: list[tuple[grpc.StatusCode, str]] = []
        self._count = 0

    async def step(self) -> bool:
        """One command; False when the store refused it (the refusal is recorded), True when acknowledged."""
        try:
            view = await self.stub.GetView(pb.GetViewRequest(match_id=self.created.match_id))
            if not view.to_act:
                return True
            seat = view.to_act[0]
            legal = await self.stub.ListLegalCommands(
                pb.ListLegalCommandsRequest(match_id=self.created.match_id, token=self.created.tokens[seat])
            )
            command = next(c for c in legal.commands_json if '"concede"' not in c)
            reply = await self.stub.SubmitCommand(
                pb.SubmitCommandRequest(
                    match_id=self.created.match_id,
                    token=self.created.tokens[seat],
                    command_json=command,
                    command_id=f"p{self._count}",
                ),
                timeout=20,
            )
        except grpc.aio.AioRpcError as error:
            self.refusals.append((error.code(), error_reason(error)))
            return False
        self._count += 1
        self.acknowledged = reply.version
        return True


def _writer(server: Running) -> sqlite3.Connection:
    store = server.store.wrapped
    assert isinstance(store, AsyncSqliteStore)
    writer = store._writer
    return writer._connection


def _sqlite_path(database_url: str) -> str:
    return database_url.removeprefix("sqlite:///")


@contextmanager
def _postgres(database_url: str) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        yield admin


def _terminate(admin: psycopg.Connection[Any], database_url: str) -> None:
    name = database_url.rsplit("/", 1)[1]
    admin.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", (name,)
    )


@contextmanager
def _fault(server: Running, database_url: str, kind: str) -> Iterator[None]:
    """The store refuses writes for the duration of the block."""
    if kind == "sqlite-read-only":
        _writer(server).execute("PRAGMA query_only = 1")
        try:
            yield
        finally:
            _writer(server).execute("PRAGMA query_only = 0")
        return
    if kind == "sqlite-disk-full":  # the file may not grow: SQLITE_FULL, as on a full disk
        writer = _writer(server)
        (pages,) = writer.execute("PRAGMA page_count").fetchone()
        (limit,) = writer.execute("PRAGMA max_page_count").fetchone()
        writer.execute(f"PRAGMA max_page_count = {pages}")
        try:
            yield
        finally:
            writer.execute(f"PRAGMA max_page_count = {limit}")
        return
    if kind == "sqlite-locked":
        holder = sqlite3.connect(_sqlite_path(database_url), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    name = database_url.rsplit("/", 1)[1]
    with _postgres(database_url) as admin:
        if kind == "postgres-read-only":
            admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        else:  # an outage: every connection killed, no new one accepted until the block ends
            admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        _terminate(admin, database_url)
        try:
            yield
        finally:
            if kind == "postgres-read-only":
                admin.execute(f'ALTER DATABASE "{name}" RESET default_transaction_read_only')
                _terminate(admin, database_url)
            else:
                admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')


def _kinds(database_url: str) -> list[str]:
    if database_url.startswith("sqlite"):
        return ["sqlite-read-only", "sqlite-disk-full", "sqlite-locked"]
    return ["postgres-read-only", "postgres-outage"]


async def test_submits_during_a_store_fault_are_unavailable_then_recover(
    server: Running,
    matches: pb_grpc.MatchServiceStub,
    database_url: str,
) -> None:
    for kind in _kinds(database_url):
        player = Player(matches, await create_match(matches))
        assert await player.step()
        with _fault(server, database_url, kind):
            for _ in range(3 if kind != "sqlite-disk-full" else 40):  # until the free pages are used up
                if not await player.step() and kind == "sqlite-disk-full":
                    break
        assert player.refusals, kind
        assert set(player.refusals) == {UNAVAILABLE}, (kind, player.refusals)
        before = player.acknowledged
        # Pooled connections the fault killed fail once each (UNAVAILABLE), then the pool replaces them.
        attempts = 1
        while not await player.step():
            attempts += 1
            assert attempts <= 12, (kind, player.refusals[-1])
        for _ in range(5):
            assert await player.step(), (kind, player.refusals[-1])
        assert player.acknowledged > before
        stored = await matches.GetMatch(pb.GetMatchRequest(match_id=player.created.match_id))
        assert stored.version == player.acknowledged


async def _versions(
    stub: pb_grpc.MatchServiceStub, match_id: str, seen: list[int], target: list[int], reached: asyncio.Event
) -> None:
    """Every version the watcher receives, in order; sets ``reached`` once it got ``target[0]``. A watch that
    ends with UNAVAILABLE is resumed from the last version received, as docs/api.md tells clients to."""
    while True:
        try:
            async for update in stub.WatchMatch(
                pb.WatchMatchRequest(match_id=match_id, from_version=seen[-1] if seen else 0)
            ):
                seen.append(update.event.version)
                if target and seen[-1] >= target[0]:
                    reached.set()
            return
        except grpc.aio.AioRpcError as error:
            assert (error.code(), error_reason(error)) == UNAVAILABLE


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_watchers_get_every_version_across_a_postgres_outage(
    server: Running,
    matches: pb_grpc.MatchServiceStub,
    database_url: str,
) -> None:
    player = Player(matches, await create_match(matches))
    seen: list[int] = []
    target: list[int] = []
    reached = asyncio.Event()
    watching = asyncio.create_task(_versions(matches, player.created.match_id, seen, target, reached))
    for _ in range(5):
        assert await player.step()
    with _postgres(database_url) as admin:
        for _ in range(3):
            _terminate(admin, database_url)
            for _ in range(4):
                await player.step()
    while not await player.step() or player.acknowledged < 40:
        pass
    final = player.acknowledged
    target.append(final)
    if not (seen and seen[-1] >= final):
        await asyncio.wait_for(reached.wait(), 30)
    watching.cancel()
    assert seen == list(range(1, final + 1))
    assert set(player.refusals) <= {UNAVAILABLE}


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_sigterm_after_a_postgres_outage_exits_cleanly(database_url: str) -> None:
    process = ServerProcess(database_url)
    try:
        async with grpc.aio.insecure_channel(process.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            created = await create_match(stub)
            await stub.WatchMatch(pb.WatchMatchRequest(match_id=created.match_id)).read()
            with _postgres(database_url) as admin:
                _terminate(admin, database_url)
            player = Player(stub, created)
            while not await player.step():
                pass
    finally:
        process.proc.terminate()
        assert process.proc.wait(20) == 0
        process.stop()


async def test_a_sqlite_file_deleted_under_the_server_refuses_writes(tmp_path: Path) -> None:
    """Deleting the database file does not stop SQLite writing to the open, unlinked file, which vanishes with
    the process: every command acknowledged after the deletion would be lost. Appends are refused instead
    (UNAVAILABLE, as for any store fault), and the log says why; putting a file back (a restore) takes a restart."""
    path = tmp_path / "deleted.db"
    process = ServerProcess(f"sqlite:///{path}", capture=True)
    try:
        async with grpc.aio.insecure_channel(process.address) as channel:
            stub = pb_grpc.MatchServiceStub(channel)
            player = Player(stub, await create_match(stub))
            assert await player.step()
            path.unlink()
            assert not await player.step()
            assert player.refusals == [UNAVAILABLE]
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await create_match(stub)
            assert (refused.value.code(), error_reason(refused.value)) == UNAVAILABLE
    finally:
        output = process.stop()
    assert f"the database file {path} was deleted or replaced while the server had it open" in output, output
