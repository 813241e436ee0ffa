"""The HTTP listener: uvicorn serving the web application inside the process's own asyncio loop.

It runs beside grpc.aio in the same loop and the same match manager, so both ports see one source of truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Iterator
from typing import Any

import uvicorn

GRACE = 2.0
"""Seconds open requests (watch streams) get to finish when the listener stops."""


class _Embedded(uvicorn.Server):
    """A uvicorn server that leaves signals to its host and says when it is listening."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.listening = asyncio.Event()

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        # The process (services/server.py) handles SIGINT/SIGTERM and stops this server itself.
        yield

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.listening.set()


class HttpListener:
    """Serves ``app`` on ``listen`` (HOST:PORT; port 0 picks a free one) until ``stop``."""

    def __init__(self, app: Any, listen: str) -> None:
        host, _, port = listen.rpartition(":")
        self.host = host or "127.0.0.1"
        self._socket = socket.create_server((self.host, int(port)), reuse_port=False)
        self.port: int = self._socket.getsockname()[1]
        config = uvicorn.Config(app, lifespan="off", log_level="warning", access_log=False,
                                timeout_graceful_shutdown=int(GRACE))
        self._server = _Embedded(config)
        self._task: asyncio.Task[None] | None = None

    @property
    def address(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        self._task = asyncio.create_task(self._server.serve(sockets=[self._socket]))
        listening = asyncio.create_task(self._server.listening.wait())
        await asyncio.wait({self._task, listening}, return_when=asyncio.FIRST_COMPLETED)
        if not self._server.listening.is_set():
            listening.cancel()
            await self._task
            raise RuntimeError(f"the HTTP listener did not start on {self.host}:{self.port}")

    async def stop(self, grace: float = GRACE) -> None:
        # uvicorn's wait for open requests times out at once when given 0, even with none open.
        self._server.config.timeout_graceful_shutdown = max(1, round(grace))
        self._server.should_exit = True
        if self._task is not None:
            await self._task
        self._socket.close()
