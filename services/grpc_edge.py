"""The gRPC edge: one generic handler per service over the transport-free calls of ``services/servicers.py``.

Every exception leaves as a rich status (``services/rpc_errors.py``), for unary and streaming methods alike.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from itertools import groupby
from typing import Any

import grpc
from grpc_status import rpc_status

from services.methods import Method
from services.rpc_errors import to_status


def handlers(methods: Sequence[Method]) -> list[grpc.GenericRpcHandler]:
    by_service = groupby(methods, key=lambda method: method.service)
    return [grpc.method_handlers_generic_handler(service, {m.name: _handler(m) for m in group})
            for service, group in by_service]


def _handler(method: Method) -> grpc.RpcMethodHandler:
    options = {"request_deserializer": method.request.FromString,
               "response_serializer": method.response.SerializeToString}
    call = method.call
    if method.streaming:
        async def stream(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            try:
                async for item in call(request):
                    yield item
            except Exception as exc:  # the edge converts every failure
                await context.abort_with_status(rpc_status.to_status(to_status(exc)))
        return grpc.unary_stream_rpc_method_handler(stream, **options)

    async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            return await call(request)
        except Exception as exc:  # the edge converts every failure
            await context.abort_with_status(rpc_status.to_status(to_status(exc)))
    return grpc.unary_unary_rpc_method_handler(unary, **options)
