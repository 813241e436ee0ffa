"""Listening addresses (``HOST:PORT``), checked before anything is started or imported: ``serve`` refuses a bad one
as a usage error before its logging is configured and gRPC imported."""

from __future__ import annotations


class ListenError(ValueError):
    """The listening address is malformed, or the port is taken or cannot be bound."""


def listen_address(listen: str, option: str = "--listen") -> tuple[str, int]:
    """(host, port) of a HOST:PORT address; ``ListenError`` unless the port is 0..65535."""
    host, _, port = listen.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ListenError(f"{option} {listen!r} is not HOST:PORT with a port from 0 to 65535")
    return host, int(port)
