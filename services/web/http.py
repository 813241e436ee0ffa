"""The HTTP listener: uvicorn serving the web application inside the process's own asyncio loop.

It runs beside grpc.aio in the same loop and the same match manager, so both ports see one source of truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import ssl
from collections.abc import Iterator
from typing import Any

import uvicorn

from services.core.logs import fields
from services.edge.transport import Tls

log = logging.getLogger(__name__)

GRACE = 2.0
"""Seconds open requests (watch streams) get to finish when the listener stops."""
_CANCELLING = "Cancel %s running task(s), timeout graceful shutdown exceeded"
"""What uvicorn logs, as an ERROR, when requests are still open at the end of its graceful shutdown."""


class _Cancelled(logging.Filter):
    """uvicorn's report of the requests it cancels at the end of the grace period, as one warning.

    uvicorn logs an ERROR, then an ERROR with a traceback per request (its ``CancelledError``): any client that
    keeps a request open (a body never finished) causes them, so they are not errors of the server.
    """

    def __init__(self, grace: float) -> None:
        super().__init__()
        self._grace = grace

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == _CANCELLING:
            log.warning(
                "HTTP requests still open after the grace period are cancelled",
                extra=fields(
                    requests=record.args[0] if isinstance(record.args, tuple) else 0, grace_seconds=self._grace
                ),
            )
            return False
        return not (record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError))


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
    """Listens on ``listen`` (HOST:PORT; port 0 picks a free one) from construction, serves from ``start``.

    Binding first lets a server refuse to start, before it opens anything else, when the port is taken. With
    ``tls`` it serves HTTPS with the gRPC port's certificate, and its client CA if any: the same API is on both
    ports, so mutual TLS on one only would leave the other open.
    """

    def __init__(self, listen: str, tls: Tls | None = None) -> None:
        self._tls = tls
        host, _, port = listen.rpartition(":")
        self.host = host or "127.0.0.1"
        try:
            self._socket = socket.create_server((self.host, int(port)))
        except OSError as exc:
            reason = os.strerror(exc.errno) if exc.errno else str(exc)
            raise OSError(f"cannot listen for HTTP on {listen}: {reason}") from None
        self.port: int = self._socket.getsockname()[1]
        self._server: _Embedded | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def address(self) -> str:
        return f"{'https' if self._tls else 'http'}://{self.host}:{self.port}"

    async def start(self, app: Any) -> None:
        # log_config=None: uvicorn's own logging setup would close the process's log handler (services/core/logs.py).
        config = uvicorn.Config(
            app,
            lifespan="off",
            log_config=None,
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=int(GRACE),
            **_tls_options(self._tls),
        )
        self._server = _Embedded(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[self._socket]))
        listening = asyncio.create_task(self._server.listening.wait())
        await asyncio.wait({self._task, listening}, return_when=asyncio.FIRST_COMPLETED)
        if not self._server.listening.is_set():
            listening.cancel()
            await self._task
            raise RuntimeError(f"the HTTP listener did not start on {self.host}:{self.port}")

    async def stop(self, grace: float = GRACE) -> None:
        if self._server is not None and self._task is not None:
            # uvicorn's wait for open requests times out at once when given 0, even with none open.
            self._server.config.timeout_graceful_shutdown = max(1, round(grace))
            self._server.should_exit = True
            cancelled = _Cancelled(grace)
            uvicorn_log = logging.getLogger("uvicorn.error")
            uvicorn_log.addFilter(cancelled)
            try:
                await self._task
            finally:
                uvicorn_log.removeFilter(cancelled)
        self._socket.close()


def _tls_options(tls: Tls | None) -> dict[str, Any]:
    if tls is None:
        return {}
    options: dict[str, Any] = {"ssl_certfile": str(tls.cert), "ssl_keyfile": str(tls.key)}
    if tls.client_ca is not None:
        options |= {"ssl_ca_certs": str(tls.client_ca), "ssl_cert_reqs": ssl.CERT_REQUIRED}
    return options
