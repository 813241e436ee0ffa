"""``duelhall health``: ask a server's gRPC health service; exit 0 only when it is SERVING (container checks)."""

from __future__ import annotations

import argparse
import os

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.cli.common import out

_WILDCARDS = {"0.0.0.0": "127.0.0.1", "[::]": "[::1]", "": "127.0.0.1"}


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server",
        default=None,
        metavar="HOST:PORT",
        help="the server (default: $DUELHALL_LISTEN, else 127.0.0.1:50051; 0.0.0.0 means this host)",
    )
    parser.add_argument("--service", default="", help="one service's health (default: the whole server)")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds to wait for the answer")
    parser.set_defaults(run=run)


def local_address(listen: str) -> str:
    """The address to reach a server listening on ``listen`` from the same host."""
    host, _, port = listen.rpartition(":")
    return f"{_WILDCARDS.get(host, host)}:{port}"


def run(args: argparse.Namespace) -> int:
    address = args.server or local_address(os.environ.get("DUELHALL_LISTEN", "127.0.0.1:50051"))
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            reply = stub.Check(health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout)
        except grpc.RpcError as exc:
            out.print(f"{address}: {exc.code().name}")
            return 1
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
    out.print(f"{address}: {status}")
    return 0 if reply.status == health_pb2.HealthCheckResponse.SERVING else 1
