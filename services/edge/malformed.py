"""The gRPC edge's guards: requests whose bytes are not the method's protobuf message (``INVALID_ARGUMENT``
``MALFORMED_REQUEST``), and answers too large for a gRPC message (``RESOURCE_EXHAUSTED`` ``RESPONSE_TOO_LARGE``).

grpc.aio answers a request its deserializer cannot parse with UNKNOWN and logs a traceback per request. Here
each method handler gets a deserializer that never raises (it hands the servicer a ``Malformed`` marker) and
a behaviour that refuses the marker with a rich status, logging one short line at most every minute
(``services/core/throttle.py``). An answer past the message limit would fail after all the work with gRPC's own
RESOURCE_EXHAUSTED and no reason; it gets the reason, and what to ask instead. Connect bounds no answer.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

import grpc
from google.rpc import code_pb2, status_pb2
from grpc_status import rpc_status

from services.core.errors import InvalidArgument
from services.core.throttle import ThrottledLog
from services.edge import transport
from services.edge.observer import CallObserver
from services.edge.rpc_errors import status

log = logging.getLogger(__name__)

MALFORMED_REQUEST = "MALFORMED_REQUEST"
RESPONSE_TOO_LARGE = "RESPONSE_TOO_LARGE"
_SMALLER = {"duelhall.v1.MatchService/ViewReplay": "; ask for fewer steps at a time (max_steps), from next_version on"}
"""What to ask instead of an answer too large to send, by method."""


class Malformed:
    """What the deserializer hands on instead of a request it could not parse."""

    def __init__(self, error: str) -> None:
        self.error = error


_throttled = ThrottledLog(log)


def refusal(method: str, error: str) -> status_pb2.Status:
    """The status a request that does not parse gets, over gRPC and over Connect; noted in the log, throttled."""
    _throttled.note(f"malformed request to {method} refused: {error}")
    message = f"the request bytes are not a valid request message for {method}"
    return status(code_pb2.INVALID_ARGUMENT, MALFORMED_REQUEST, message, {"method": method})


async def _refuse(method: str, malformed: Malformed, context: grpc.aio.ServicerContext) -> None:
    await context.abort_with_status(rpc_status.to_status(refusal(method, malformed.error)))


async def _sendable(method: str, response: Any, context: grpc.aio.ServicerContext) -> Any:
    size = response.ByteSize()
    if size > transport.MAX_MESSAGE_BYTES:
        limit = transport.MAX_MESSAGE_BYTES
        message = (
            f"the answer is {size:,} bytes, more than the {limit:,} a gRPC message may hold{_SMALLER.get(method, '')}"
        )
        too_large = status(code_pb2.RESOURCE_EXHAUSTED, RESPONSE_TOO_LARGE, message, {"limit": str(limit)})
        await context.abort_with_status(rpc_status.to_status(too_large))
    return response


def _tolerant(decode: Callable[[bytes], Any]) -> Callable[[bytes], Any]:
    def deserialize(data: bytes) -> Any:
        try:
            return decode(data)
        except Exception as exc:
            return Malformed(f"{type(exc).__name__}: {exc}")

    return deserialize


def guarded(method: str, handler: Any) -> Any:
    """The method handler with a deserializer that never raises and a behaviour that refuses what failed."""
    if handler.request_deserializer is None:
        return handler
    if handler.request_streaming:
        return _guarded_requests(method, handler)
    if handler.unary_unary is not None:
        unary_behaviour = handler.unary_unary

        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            if isinstance(request, Malformed):
                await _refuse(method, request, context)
            return await _sendable(method, await unary_behaviour(request, context), context)

        return handler._replace(request_deserializer=_tolerant(handler.request_deserializer), unary_unary=unary)
    stream_behaviour = handler.unary_stream
    if not inspect.isasyncgenfunction(stream_behaviour):  # writes its responses with context.write

        async def writes(request: Any, context: grpc.aio.ServicerContext) -> None:
            if isinstance(request, Malformed):
                await _refuse(method, request, context)
            await stream_behaviour(request, context)

        return handler._replace(request_deserializer=_tolerant(handler.request_deserializer), unary_stream=writes)

    async def stream(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        if isinstance(request, Malformed):
            await _refuse(method, request, context)
        async for item in stream_behaviour(request, context):
            yield item

    return handler._replace(request_deserializer=_tolerant(handler.request_deserializer), unary_stream=stream)


def _guarded_requests(method: str, handler: Any) -> Any:
    """A request-streaming handler: a message that does not parse ends the stream with the same refusal,
    raised into the servicer (``services/edge/rpc_errors.py`` sends it) rather than aborted under it."""
    if handler.stream_stream is None:
        return handler
    behaviour = handler.stream_stream

    async def checked(requests: AsyncIterator[Any]) -> AsyncIterator[Any]:
        async for request in requests:
            if isinstance(request, Malformed):
                _throttled.note(f"malformed request to {method} refused: {request.error}")
                raise InvalidArgument(
                    f"a request message to {method} is not a valid request message",
                    reason=MALFORMED_REQUEST,
                    method=method,
                )
            yield request

    async def stream(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext) -> None:
        await behaviour(checked(requests), context)

    return handler._replace(request_deserializer=_tolerant(handler.request_deserializer), stream_stream=stream)


class GuardedRegistration:
    """Stands in for the server while a generated ``add_*_to_server`` registers a servicer, so that every
    method handler is ``guarded``, then observed (``services/edge/observer.py``), before the real server sees it."""

    def __init__(self, server: grpc.aio.Server, observer: CallObserver) -> None:
        self._server = server
        self._observer = observer

    def add_generic_rpc_handlers(self, handlers: Any) -> None:
        """Ignored: ``add_registered_method_handlers`` carries the same handlers, by name."""

    def add_registered_method_handlers(self, service: str, handlers: Mapping[str, Any]) -> None:
        wrapped = {
            name: self._observer.observed(f"/{service}/{name}", guarded(f"{service}/{name}", handler))
            for name, handler in handlers.items()
        }
        self._server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, wrapped),))
        self._server.add_registered_method_handlers(service, wrapped)
