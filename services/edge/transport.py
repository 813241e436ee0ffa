"""The gRPC transport of ``duelhall serve``: keepalive, message size limits and TLS (docs/operations.md).

Clients may keep idle watches open with keepalive pings as often as once a second (the gRPC default would
answer a client pinging more often than every five minutes with GOAWAY ``too_many_pings``); the server
pings idle connections itself every minute and drops peers that stop answering.
"""

from __future__ import annotations

from pathlib import Path

import grpc
import msgspec

MAX_MESSAGE_BYTES = 16 * 1024 * 1024
"""Largest request or response: room for the replay file of a long match (ImportReplay, ExportReplay)."""

CLIENT_PING_INTERVAL_MS = 1000
"""The shortest interval between client pings the server accepts; a client should ping no more often."""

OPTIONS: tuple[tuple[str, int], ...] = (
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    # What clients may do: ping while no call is open, and as often as once a second without data.
    ("grpc.keepalive_permit_without_calls", 1),
    # GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS; half the interval, so that jitter is no strike.
    ("grpc.http2.min_ping_interval_without_data_ms", CLIENT_PING_INTERVAL_MS // 2),
    ("grpc.http2.max_ping_strikes", 2),
    # What the server does: ping an idle connection every minute, close it if no answer within 20 s.
    ("grpc.keepalive_time_ms", 60_000),
    ("grpc.keepalive_timeout_ms", 20_000),
    ("grpc.http2.max_pings_without_data", 0),
)


class Tls(msgspec.Struct, frozen=True):
    """PEM files: the server's certificate chain and key, and optionally the CA that client certificates
    must be signed by (then a client without one is refused)."""

    cert: Path
    key: Path
    client_ca: Path | None = None

    def credentials(self) -> grpc.ServerCredentials:
        ca = self.client_ca.read_bytes() if self.client_ca is not None else None
        return grpc.ssl_server_credentials(
            [(self.key.read_bytes(), self.cert.read_bytes())], root_certificates=ca, require_client_auth=ca is not None
        )


def listen(server: grpc.aio.Server, address: str, tls: Tls | None) -> int:
    """Adds the listening port (TLS if configured); returns the port number (port 0: the one chosen)."""
    port = server.add_secure_port(address, tls.credentials()) if tls else server.add_insecure_port(address)
    if not port:
        raise OSError(f"cannot listen on {address}")
    return int(port)
