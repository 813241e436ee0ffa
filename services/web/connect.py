"""The Connect edge: the proto services over HTTP/1.1 and HTTP/2 for browsers and curl (connectrpc on ASGI).

The endpoints are built from the same method list as the gRPC edge (``services/methods.py``), so both serve
the same calls; every exception leaves as a Connect error carrying the gRPC status's code and ErrorInfo.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

from connectrpc.code import Code
from connectrpc.compat import google_protobuf_binary_codec
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import code_pb2
from protobuf.wkt import Any as AnyDetail

from services.methods import Method
from services.rpc_errors import to_status

PREFIX = "/duelhall.v1."
"""Request paths of the Connect endpoints start with this (``/duelhall.v1.MatchService/GetView``)."""
MAX_REQUEST = 64 * 1024 * 1024
"""Replay files travel in requests; a long match's file is several megabytes."""


def connect_error(exc: BaseException) -> ConnectError:
    """The Connect error for an exception: the same code, message and ErrorInfo as over gRPC."""
    status = to_status(exc)
    details = [ErrorDetail(AnyDetail(type_url=d.type_url, value=d.value)) for d in status.details]
    return ConnectError(Code(code_pb2.Code.Name(status.code).lower()), status.message, details)


class CompactJson:
    """Proto3 JSON without indentation: a replay's every version is megabytes, pretty-printing only adds to it."""

    def name(self) -> str:
        return "json"

    def encode(self, message: Message) -> bytes:
        text: str = json_format.MessageToJson(message, indent=None)
        return text.encode()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        message = message_class()
        json_format.Parse(bytes(data), message, ignore_unknown_fields=True)
        return message


class ConnectApp(ConnectASGIApplication[None]):
    """Every method of ``methods`` at ``/<service>/<method>``."""

    def __init__(self, methods: Sequence[Method]) -> None:
        endpoints = {f"/{m.service}/{m.name}": _endpoint(m) for m in methods}
        super().__init__(service=None, endpoints=lambda _: endpoints,
                         codecs=[google_protobuf_binary_codec(), CompactJson()], read_max_bytes=MAX_REQUEST)

    @property
    def path(self) -> str:
        return PREFIX.rstrip(".")


def _endpoint(method: Method) -> Any:
    info: MethodInfo[Any, Any] = MethodInfo(
        name=method.name, service_name=method.service, input=method.request, output=method.response,
        idempotency_level=IdempotencyLevel.UNKNOWN,
        stream_type=StreamType.SERVER_STREAM if method.streaming else StreamType.UNARY)
    call = method.call
    if method.streaming:
        async def stream(request: Any, context: RequestContext[Any, Any]) -> AsyncIterator[Any]:
            try:
                async for item in call(request):
                    yield item
            except Exception as exc:  # the edge converts every failure
                raise connect_error(exc) from None
        return Endpoint.server_stream(info, stream)

    async def unary(request: Any, context: RequestContext[Any, Any]) -> Any:
        try:
            return await call(request)
        except Exception as exc:  # the edge converts every failure
            raise connect_error(exc) from None
    return Endpoint.unary(info, unary)
