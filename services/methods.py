"""The API's methods, read from the proto descriptor: each edge (gRPC, Connect) serves this one list."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec
from google.protobuf import message_factory

from services.api import duelhall_pb2 as pb


class Method(msgspec.Struct, frozen=True):
    service: str
    """The full service name, e.g. ``duelhall.v1.MatchService``."""
    name: str
    request: Any
    """The request message class."""
    response: Any
    streaming: bool
    """Server streaming (the response is an async iterator)."""
    call: Callable[[Any], Any]


def methods(implementations: Mapping[str, object]) -> list[Method]:
    """Every method of the services in ``implementations`` (by short service name), bound to its call."""
    found = []
    for short, implementation in implementations.items():
        service = pb.DESCRIPTOR.services_by_name[short]
        for method in service.methods:
            found.append(Method(
                service=service.full_name, name=method.name,
                request=message_factory.GetMessageClass(method.input_type),
                response=message_factory.GetMessageClass(method.output_type),
                streaming=method.server_streaming, call=getattr(implementation, method.name)))
    return found
