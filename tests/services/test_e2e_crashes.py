"""A submit that commits after its client gave up, and a match without a list row: the list, the loaded match
and the replay export all follow the events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest

from eventstore import DatabaseError
from services import server as server_module
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.readmodels.matchlist import MatchList
from services.readmodels.matchrows import ReadModel
from services.server import Running, ServerConfig, create_server
from tests.services.client import create_match, play_random
from tests.services.conftest import ADMIN_TOKEN


class HeldAppends:
    """The real store, but appends wait for ``released`` while ``held``: a write held up in the database.
    The append is handed over at once, like the real stores' queued writes, so it commits even when the
    caller stops waiting."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.held = False
        self.released = asyncio.Event()
        self.committed = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def append(self, *args: Any, **kwargs: Any) -> Any:
        return await asyncio.shield(asyncio.ensure_future(self._append(*args, **kwargs)))

    async def _append(self, *args: Any, **kwargs: Any) -> Any:
        if self.held:
            await self.released.wait()
        appended = await self._store.append(*args, **kwargs)
        self.committed.set()
        return appended


@pytest.fixture
async def held(database_url: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[Running, HeldAppends]]:
    wrappers: list[HeldAppends] = []
    real_open = server_module.open_store

    async def open_held(*args: Any, **kwargs: Any) -> Any:
        wrappers.append(HeldAppends(await real_open(*args, **kwargs)))
        return wrappers[-1]

    monkeypatch.setattr(server_module, "open_store", open_held)
    running = await create_server(
        ServerConfig(database_url=database_url, listen="127.0.0.1:0", admin_token=ADMIN_TOKEN)
    )
    try:
        yield running, wrappers[0]
    finally:
        await running.stop(0)


async def test_a_submit_that_commits_after_its_deadline_reaches_the_match_and_the_list(
    held: tuple[Running, HeldAppends],
) -> None:
    running, store = held
    await running.match_list.stop()  # the submit itself must bring the match and its row up to date
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        stub = pb_grpc.MatchServiceStub(channel)
        created = await create_match(stub)
        store.held = True
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.SubmitCommand(
                pb.SubmitCommandRequest(
                    match_id=created.match_id,
                    token=created.tokens[0],
                    command_json='{"type": "concede"}',
                    command_id="late",
                ),
                timeout=0.3,
            )
        assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        store.released.set()
        await store.committed.wait()
        async with (await running.manager.get(created.match_id)).lock:
            pass  # the submit's work holds the lock until the match follows the append
        await running.manager.ends.recorded()  # then its end is recorded and listed
        match = await stub.GetMatch(pb.GetMatchRequest(match_id=created.match_id))
        assert match.status == pb.MATCH_STATUS_ENDED
        row = await ReadModel(running.store).get(created.match_id)
        assert row is not None and row.status == "ended" and row.version == match.version
        replay = (await stub.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
        assert (await stub.VerifyReplay(pb.VerifyReplayRequest(replay=replay))).ok


async def test_a_match_without_a_row_still_exports_with_its_seed(
    server: Running, matches: pb_grpc.MatchServiceStub
) -> None:
    created = await create_match(matches)
    await play_random(matches, created, seed=2)
    await ReadModel(server.store).clear()
    replay = (await matches.ExportReplay(pb.ExportReplayRequest(match_id=created.match_id))).replay
    verdict = await matches.VerifyReplay(pb.VerifyReplayRequest(replay=replay))
    assert verdict.ok, verdict.failure


class FailingRows(HeldAppends):
    """The real store, but projection-row writes fail while ``failing``: a fault just after an append."""

    failing = False

    def __init__(self, store: Any) -> None:
        super().__init__(store)
        self.rows = self

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store.rows if name in ("get", "list", "clear") else self._store, name)

    async def put(self, *args: Any) -> None:
        if self.failing:
            raise DatabaseError("disk I/O error")
        await self._store.rows.put(*args)

    async def write(self, *args: Any) -> None:
        if self.failing:
            raise DatabaseError("disk I/O error")
        await self._store.rows.write(*args)


async def test_a_row_write_failing_after_the_append_still_acknowledges_the_command(
    held: tuple[Running, HeldAppends],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    running, store = held
    rows = FailingRows(store)
    monkeypatch.setattr(running.manager, "store", rows)
    monkeypatch.setattr(running.manager.read_model, "_store", rows)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        stub = pb_grpc.MatchServiceStub(channel)
        rows.failing = True
        created = await create_match(stub)
        await stub.SubmitCommand(
            pb.SubmitCommandRequest(
                match_id=created.match_id, token=created.tokens[0], command_json='{"type": "concede"}', command_id="bye"
            )
        )
        await running.manager.ends.recorded()  # the end's append commits; its row write fails, left to the projection
        rows.failing = False
        await running.match_list.stop()
        await MatchList(running.store).catch_up()
        listed = await stub.ListMatches(pb.ListMatchesRequest(status=pb.MATCH_STATUS_ENDED))
        assert [m.match_id for m in listed.matches] == [created.match_id]
