"""The API's methods read from the proto descriptor, each bound to its servicer method.

The gRPC server registers the servicers directly; the Connect edge (``services/web/connect.py``) serves the
methods of this list, calling the same servicer methods.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec
from google.protobuf import message_factory

from services.api import duelhall_pb2 as pb
from services.api import tournament_pb2 as tpb

_FILES = (pb.DESCRIPTOR, tpb.DESCRIPTOR)
"""The proto files whose services the API has."""


class Method(msgspec.Struct, frozen=True):
    service: str
    """The full service name, e.g. ``duelhall.v1.MatchService``."""
    name: str
    request: Any
    """The request message class."""
    response: Any
    client_streaming: bool
    server_streaming: bool
    call: Callable[..., Any]
    """The servicer method: ``(request or request iterator, context)``."""


def methods(servicers: Mapping[str, object]) -> list[Method]:
    """Every method of the services in ``servicers`` (by short service name), bound to its servicer."""
    found = []
    for short, servicer in servicers.items():
        service = next(f.services_by_name[short] for f in _FILES if short in f.services_by_name)
        for method in service.methods:
            found.append(
                Method(
                    service=service.full_name,
                    name=method.name,
                    request=message_factory.GetMessageClass(method.input_type),
                    response=message_factory.GetMessageClass(method.output_type),
                    client_streaming=method.client_streaming,
                    server_streaming=method.server_streaming,
                    call=getattr(servicer, method.name),
                )
            )
    return found
