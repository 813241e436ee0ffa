"""Two servers on one database (admin token ``ADMIN_TOKEN``), with a MatchService stub on each: the start of every
multi-instance test."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import grpc

from services.api import duelhall_pb2_grpc as pb_grpc
from services.server import Running, ServerConfig, create_server
from tests.services.conftest import ADMIN_TOKEN


@contextlib.asynccontextmanager
async def two_instances(
    database_url: str,
) -> AsyncIterator[tuple[Running, Running, list[pb_grpc.MatchServiceStub]]]:
    config = ServerConfig(database_url=database_url, listen="127.0.0.1:0", admin_token=ADMIN_TOKEN)
    first = await create_server(config)
    second = await create_server(config)
    try:
        async with (
            grpc.aio.insecure_channel(f"127.0.0.1:{first.port}") as a,
            grpc.aio.insecure_channel(f"127.0.0.1:{second.port}") as b,
        ):
            yield first, second, [pb_grpc.MatchServiceStub(a), pb_grpc.MatchServiceStub(b)]
    finally:
        await second.stop(0)
        await first.stop(0)
