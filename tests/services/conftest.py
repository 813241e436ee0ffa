"""End-to-end fixtures: a real server on a free port over SQLite and PostgreSQL, and real channels; a store of
the test's own for tests of one part without a server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import grpc
import pytest

from eventstore import AsyncEventStore, migrate, open_store
from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import Running, ServerConfig, create_server
from tests.postgres import throwaway_database

ADMIN_TOKEN = "test-admin-token"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'e2e.db'}"
        return
    with throwaway_database("duelhall_e2e") as url:
        yield url


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[AsyncEventStore]:
    """A migrated SQLite store."""
    url = f"sqlite:///{tmp_path / 'parts.db'}"
    migrate(url)
    opened = await open_store(url)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[Running]:
    running = await create_server(
        ServerConfig(database_url=database_url, listen="127.0.0.1:0", http="127.0.0.1:0", admin_token=ADMIN_TOKEN)
    )
    try:
        yield running
    finally:
        await running.stop(0)


@pytest.fixture
async def channel(server: Running) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as chan:
        yield chan


@pytest.fixture
def matches(channel: grpc.aio.Channel) -> pb_grpc.MatchServiceStub:
    return pb_grpc.MatchServiceStub(channel)


@pytest.fixture
def rulesets(channel: grpc.aio.Channel) -> pb_grpc.RulesetServiceStub:
    return pb_grpc.RulesetServiceStub(channel)
