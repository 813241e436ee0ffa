"""The Connect edge: the proto services over HTTP/1.1 and HTTP/2 for browsers and curl (connectrpc on ASGI).

The endpoints call the servicers the gRPC server runs (``services/edge/methods.py``), observed like gRPC calls
(``services/edge/observer.py``: logged, counted, refused once the server shuts down), with a context that stands in
for gRPC's: a refusal becomes a Connect error with the same code, message and ErrorInfo, a written stream
message becomes a streamed one. ``Play`` takes a stream of requests, which browsers cannot send (fetch streams
only responses) and connectrpc takes only over HTTP/2, so it stays on gRPC; web clients use SubmitCommand and
WatchMatch.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
from collections.abc import AsyncIterator, Sequence
from typing import Any, NoReturn

from connectrpc.code import Code
from connectrpc.compat import google_protobuf_binary_codec
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import code_pb2, status_pb2
from protobuf.wkt import Any as AnyDetail

from services.core.tasks import cancel
from services.edge import malformed
from services.edge.methods import Method

_DETAILS_KEY = "grpc-status-details-bin"
_BUFFERED = 64
"""Stream messages a call may write ahead of the client reading them."""
PREFIX = "/duelhall.v1."
"""Request paths of the Connect endpoints start with this (``/duelhall.v1.MatchService/GetView``)."""
_COMPRESSED = 0x01
"""The envelope flag of a compressed stream message."""
MAX_REQUEST = 64 * 1024 * 1024
"""Replay files travel in requests; a long match's file is several megabytes."""


def connect_error(status: status_pb2.Status) -> ConnectError:
    """The Connect error for a rich status: the same code, message and ErrorInfo as over gRPC."""
    details = [ErrorDetail(AnyDetail(type_url=d.type_url, value=d.value)) for d in status.details]
    return ConnectError(Code(code_pb2.Code.Name(status.code).lower()), status.message, details)


class _Context:
    """What the servicers use of ``grpc.aio.ServicerContext``, for one Connect call."""

    def __init__(self) -> None:
        self.written: asyncio.Queue[Any] = asyncio.Queue(maxsize=_BUFFERED)
        self._code: Any = None
        self._trailing: Any = ()

    def code(self) -> Any:
        """The status code the call was aborted with, None while it was not (what the observer reads)."""
        return self._code

    def trailing_metadata(self) -> Any:
        return self._trailing

    async def abort_with_status(self, status: Any) -> NoReturn:
        self._code, self._trailing = status.code, status.trailing_metadata
        for key, value in status.trailing_metadata:
            if key == _DETAILS_KEY:
                raise connect_error(status_pb2.Status.FromString(value))
        raise connect_error(status_pb2.Status(code=status.code.value[0], message=status.details))

    async def send_initial_metadata(self, metadata: Any) -> None:
        """Connect sends its headers with the first message."""

    async def write(self, message: Any) -> None:
        await self.written.put(message)


class CompactJson:
    """Proto3 JSON without indentation: a replay's every version is megabytes, pretty-printing only adds to it."""

    def name(self) -> str:
        return "json"

    def encode(self, message: Message) -> bytes:
        text: str = json_format.MessageToJson(message, indent=None)
        return text.encode()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        text = bytes(data)
        # The JSON parser reads an array's elements as the fields of a message: `[]` was an empty request.
        if not text.lstrip().startswith(b"{"):
            raise ValueError("a request in JSON is an object")
        message = message_class()
        json_format.Parse(text, message, ignore_unknown_fields=True)
        return message


_method: contextvars.ContextVar[str] = contextvars.ContextVar("connect_method", default="")
"""The method the request being decoded is for (``duelhall.v1.MatchService/GetView``), as gRPC names it."""


class Refusing:
    """A codec whose decode failures are refused as over gRPC: INVALID_ARGUMENT MALFORMED_REQUEST (metadata
    ``method``), rather than connectrpc's bare ``invalid_argument`` without an ErrorInfo."""

    def __init__(self, codec: Any) -> None:
        self._codec = codec

    def name(self) -> str:
        name: str = self._codec.name()
        return name

    def encode(self, message: Message) -> bytes:
        encoded: bytes = self._codec.encode(message)
        return encoded

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        try:
            decoded: Message = self._codec.decode(data, message_class)
        except Exception as exc:
            raise connect_error(malformed.refusal(_method.get(), f"{type(exc).__name__}: {exc}")) from None
        return decoded


class ConnectApp(ConnectASGIApplication[None]):
    """Every method of ``methods`` at ``/<service>/<method>``."""

    def __init__(self, methods: Sequence[Method]) -> None:
        endpoints = {f"/{m.service}/{m.name}": _endpoint(m) for m in methods if not m.client_streaming}
        super().__init__(
            service=None,
            endpoints=lambda _: endpoints,
            codecs=[Refusing(google_protobuf_binary_codec()), Refusing(CompactJson())],
            read_max_bytes=MAX_REQUEST,
        )

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        token = _method.set(str(scope.get("path", "")).lstrip("/"))
        try:
            await super().__call__(scope, _uncompressed(scope, receive), send)
        finally:
            _method.reset(token)

    @property
    def path(self) -> str:
        return PREFIX.rstrip(".")


def _uncompressed(scope: Any, receive: Any) -> Any:
    """``receive``, refusing a stream whose first message is flagged compressed though the request names no
    encoding: connectrpc answers that with ``internal``, which no client error may get."""
    headers = dict(scope.get("headers") or ())
    streaming = headers.get(b"content-type", b"").lower().startswith(b"application/connect+")
    if (
        scope.get("type") != "http"
        or not streaming
        or headers.get(b"connect-content-encoding", b"") not in (b"", b"identity")  # empty: identity too
    ):
        return receive
    first = True

    async def checked() -> Any:
        nonlocal first
        message = await receive()
        body = message.get("body", b"")
        if first and body:
            first = False
            if body[0] & _COMPRESSED:
                error = "a message flagged compressed, with no Connect-Content-Encoding"
                raise connect_error(malformed.refusal(_method.get(), error))
        return message

    return checked


def _endpoint(method: Method) -> Any:
    info: MethodInfo[Any, Any] = MethodInfo(
        name=method.name,
        service_name=method.service,
        input=method.request,
        output=method.response,
        idempotency_level=IdempotencyLevel.UNKNOWN,
        stream_type=StreamType.SERVER_STREAM if method.server_streaming else StreamType.UNARY,
    )
    call = method.call
    if not method.server_streaming:

        async def unary(request: Any, context: RequestContext[Any, Any]) -> Any:
            return await call(request, _Context())

        return Endpoint.unary(info, unary)
    if inspect.isasyncgenfunction(call):

        async def generated(request: Any, context: RequestContext[Any, Any]) -> AsyncIterator[Any]:
            async for message in call(request, _Context()):
                yield message

        return Endpoint.server_stream(info, generated)

    async def written(request: Any, context: RequestContext[Any, Any]) -> AsyncIterator[Any]:
        stand_in = _Context()
        running = asyncio.ensure_future(call(request, stand_in))
        message: asyncio.Future[Any] | None = None
        try:
            while True:
                if stand_in.written.empty() and running.done():
                    running.result()
                    return
                message = asyncio.ensure_future(stand_in.written.get())
                await asyncio.wait((message, running), return_when=asyncio.FIRST_COMPLETED)
                if message.done():
                    yield message.result()
                else:
                    message.cancel()
        finally:
            # The client went away: stop the call, and the read of its next message, which would otherwise stay
            # pending until collected and then be logged as a task destroyed while pending.
            if message is not None and not message.done():
                message.cancel()
            if not running.done():
                await cancel(running)

    return Endpoint.server_stream(info, written)
