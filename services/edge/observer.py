"""One log line per RPC, from a wrapper put around each method handler when it is registered (and around each
method the Connect edge serves): method, protocol, match id, seat or role, status, latency.

Wrapping at registration, not in a grpc.aio interceptor, costs nothing per call beyond the wrapper itself (an
interceptor is awaited for every call and builds a new handler each time). The wrapper sees the decoded
request, the status the servicer left (``rpc_errors`` aborts with a rich status whose ErrorInfo reason is read
back here) and the time the call took; for a stream, the time it stayed open. It also refuses new calls once
the server is shutting down (and ends the open streams the feed does not end: the lifecycle's), refuses a stream
past ``max_streams`` open, and tells the server when the last call in flight has ended. Tokens are never
logged: the line names the seat a token opens, ``admin``, ``caster``, ``spectator`` (no token) or ``unknown
token``.
Health checks log at debug, and count neither as calls in flight nor as open streams.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import inspect
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any, NoReturn

import grpc
import msgspec
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from services.core.errors import Exhausted, ServiceError, Unavailable
from services.core.limits import MAX_STREAMS
from services.core.logs import line
from services.core.tasks import cancel
from services.edge.methods import Method
from services.edge.rpc_errors import clip, to_status
from services.matches.manager import MatchManager
from services.matches.tokens import token_hash

log = logging.getLogger(__name__)

GRPC = "grpc"
CONNECT = "connect"
"""The protocols a call can come over: gRPC, or Connect on the HTTP port."""
_QUIET = ("/grpc.health.v1.Health/",)
"""Services whose calls (probes every few seconds) are logged at debug level."""


class Finished:
    """What became of one call."""

    def __init__(self, method: str, request: Any, role: str, code: str, reason: str, seconds: float) -> None:
        self.method, self.request, self.role = method, request, role
        self.code, self.reason, self.seconds = code, reason, seconds

    @property
    def match_id(self) -> str:
        return str(getattr(self.request, "match_id", ""))


def status_of(context: grpc.aio.ServicerContext, failure: BaseException | None) -> tuple[str, str]:
    """(status code name, ErrorInfo reason) the call ended with.

    A call its client cancelled is CANCELLED however that reached the handler: its task cancelled
    (CancelledError), or its generator dropped at the ``yield`` it was suspended at (GeneratorExit): gRPC stops
    iterating a stream whose client is gone mid-send and leaves the generator to be closed when released."""
    code = context.code()
    if code is None and isinstance(failure, asyncio.CancelledError | GeneratorExit):
        code = grpc.StatusCode.CANCELLED
    elif failure is not None and code is None:
        code = grpc.StatusCode.UNKNOWN
    name = code.name if isinstance(code, grpc.StatusCode) else "OK"
    return name, reason_of(context.trailing_metadata()) if name != "OK" else ""


def reason_of(trailing: Any) -> str:
    """The ErrorInfo reason in a rich status trailer, or ""."""
    for key, value in trailing or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return str(info.reason)
    return ""


class CallObserver:
    """Times every call and reports it to ``log`` and to each of ``listeners`` (metrics)."""

    def __init__(self, manager: MatchManager, admin_token: str | None, max_streams: int = MAX_STREAMS) -> None:
        self._manager, self._admin_token = manager, admin_token
        self._max_streams = max_streams
        self.listeners: list[Callable[[Finished], None]] = []
        self.stream_listeners: list[Callable[[str, int], None]] = []
        """Called with the method and +1 when a server stream opens, -1 when it ends."""
        self._shutting = asyncio.Event()
        self._open = 0
        self._in_flight = 0
        self._settled = asyncio.Event()
        self._settled.set()

    def refuse(self) -> None:
        """From now on, answer new calls (but health checks) UNAVAILABLE, and so end the open streams that are
        generators (the lifecycle's; the feed ends the watches): the server is shutting down."""
        self._shutting.set()

    async def settled(self, timeout: float | None) -> bool:
        """Wait until no call is in flight but health checks (at most ``timeout`` seconds); True if none is."""
        if self._settled.is_set():
            return True
        try:
            await asyncio.wait_for(self._settled.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def observed(self, method: str, handler: Any) -> Any:
        """``handler`` of ``method`` (``/package.Service/Method``), timed, logged and counted."""
        if handler.unary_unary is not None:
            return handler._replace(unary_unary=self._unary(method, handler.unary_unary))
        if handler.unary_stream is not None:
            return handler._replace(unary_stream=self._stream(method, handler.unary_stream))
        if handler.stream_stream is not None:
            return handler._replace(stream_stream=self._stream(method, handler.stream_stream))
        return handler

    def observed_method(self, method: Method) -> Method:
        """A method the Connect edge serves (``services/web/connect.py``), timed, logged and counted like its
        gRPC twin."""
        name = f"/{method.service}/{method.name}"
        call = method.call
        observed = self._stream(name, call, CONNECT) if method.server_streaming else self._unary(name, call, CONNECT)
        return msgspec.structs.replace(method, call=observed)

    def _unary(
        self, method: str, behaviour: Callable[..., Awaitable[Any]], protocol: str = GRPC
    ) -> Callable[..., Awaitable[Any]]:
        quiet = method.startswith(_QUIET)

        async def call(request: Any, context: grpc.aio.ServicerContext) -> Any:
            started = time.perf_counter()
            failure: BaseException | None = None
            if not quiet:
                self._begin()
            try:
                if not quiet and self._shutting.is_set():
                    await _abort(context, _shutting_down())
                return await behaviour(request, context)
            except BaseException as exc:
                failure = exc
                raise
            finally:
                if not quiet:
                    self._done()
                self._finished(method, protocol, request, context, failure, time.perf_counter() - started)

        return call

    def _stream(self, method: str, behaviour: Callable[..., Any], protocol: str = GRPC) -> Callable[..., Any]:
        if not inspect.isasyncgenfunction(behaviour):
            # A handler that writes with ``context.write`` (a watch, Play, the health service's Watch) is a
            # coroutine.
            return self._writer(method, behaviour, protocol)

        async def call(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            started = time.perf_counter()
            failure: BaseException | None = None
            self._begin()
            try:
                if self._shutting.is_set():
                    await _abort(context, _shutting_down())
                await self._admit(method, context)
                try:
                    # Closed here, not when collected: a client gone leaves the stream's tasks to end at once.
                    async with contextlib.aclosing(self._until_shutdown(behaviour(request, context), context)) as out:
                        async for response in out:
                            yield response
                finally:
                    self._streams(method, -1)
            except BaseException as exc:
                failure = exc
                raise
            finally:
                self._done()
                self._finished(method, protocol, request, context, failure, time.perf_counter() - started)

        return call

    async def _until_shutdown(
        self, source: AsyncGenerator[Any, None], context: grpc.aio.ServicerContext
    ) -> AsyncGenerator[Any, None]:
        """``source``'s messages until it ends, or until the server shuts down, which ends it UNAVAILABLE."""
        shutdown = asyncio.ensure_future(self._shutting.wait())
        step: asyncio.Future[Any] | None = None
        try:
            while True:
                step = asyncio.ensure_future(anext(source))
                await asyncio.wait((step, shutdown), return_when=asyncio.FIRST_COMPLETED)
                if not step.done():
                    break
                try:
                    message = step.result()
                except StopAsyncIteration:
                    return
                yield message
        finally:
            shutdown.cancel()
            if step is not None and not step.done():
                await cancel(step)
            await source.aclose()
        await _abort(context, _shutting_down())

    def _begin(self) -> None:
        self._in_flight += 1
        self._settled.clear()

    def _done(self) -> None:
        self._in_flight -= 1
        if not self._in_flight:
            self._settled.set()

    def _writer(
        self, method: str, behaviour: Callable[..., Awaitable[None]], protocol: str
    ) -> Callable[..., Awaitable[None]]:
        async def counted(request: Any, context: grpc.aio.ServicerContext) -> None:
            await self._admit(method, context)
            try:
                await behaviour(request, context)
            finally:
                self._streams(method, -1)

        return self._unary(method, counted, protocol)

    async def _admit(self, method: str, context: grpc.aio.ServicerContext) -> None:
        """Counts a stream in, or refuses it RESOURCE_EXHAUSTED while ``max_streams`` are open."""
        if self._open >= self._max_streams and not method.startswith(_QUIET):
            await _abort(
                context,
                Exhausted(
                    f"this server holds the most streams it takes open ({self._max_streams:,}); "
                    "retry later, or on another instance",
                    limit=str(self._max_streams),
                ),
            )
        self._streams(method, +1)

    def _streams(self, method: str, change: int) -> None:
        if not method.startswith(_QUIET):
            self._open += change
        name = method.rsplit("/", 1)[-1]
        for listener in self.stream_listeners:
            listener(name, change)

    def _finished(
        self,
        method: str,
        protocol: str,
        request: Any,
        context: grpc.aio.ServicerContext,
        failure: BaseException | None,
        seconds: float,
    ) -> None:
        code, reason = status_of(context, failure)
        finished = Finished(method.rsplit("/", 1)[-1], request, self._role(request), code, reason, seconds)
        for listener in self.listeners:
            listener(finished)
        level = logging.DEBUG if method.startswith(_QUIET) else logging.INFO
        if log.isEnabledFor(level):
            line(
                log,
                level,
                "rpc",
                {
                    "method": finished.method,
                    "protocol": protocol,
                    "match_id": clip(finished.match_id),  # the client's text: a match id is 32 characters
                    "role": finished.role,
                    "code": code,
                    "reason": reason,
                    "ms": round(seconds * 1000, 3),
                },
            )

    def _role(self, request: Any) -> str:
        token = str(getattr(request, "token", ""))
        if not token:
            return "spectator" if hasattr(request, "token") else ""
        if self._admin_token and hmac.compare_digest(token.encode(), self._admin_token.encode()):
            return "admin"
        hot = self._manager.loaded(str(getattr(request, "match_id", "")))
        if hot is not None:
            presented = token_hash(token)
            for seat, expected in enumerate(hot.token_hashes):
                if hmac.compare_digest(presented, expected):
                    return f"seat:{seat}"
            if hot.caster.token_hash and hmac.compare_digest(presented, hot.caster.token_hash):
                return "caster"  # the caster feed is omniscient: each watch of it is on the record
        return "unknown token"


def _shutting_down() -> Unavailable:
    return Unavailable("the server is shutting down; retry on another instance")


async def _abort(context: grpc.aio.ServicerContext, error: ServiceError) -> NoReturn:
    await context.abort_with_status(rpc_status.to_status(to_status(error)))
    raise AssertionError("abort_with_status returns only by raising")
