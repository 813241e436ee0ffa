"""``duelhall health``: ask a server's gRPC health service; exit 0 only when it is SERVING (container checks)."""

from __future__ import annotations

import argparse
import asyncio
import os

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.cli.common import add_tls_options, channel, out, unreachable

_WILDCARDS = {"0.0.0.0": "127.0.0.1", "[::]": "[::1]", "": "127.0.0.1"}


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server",
        default=None,
        metavar="HOST:PORT",
        help="the server (default: $DUELHALL_LISTEN, else 127.0.0.1:50051; 0.0.0.0 means this host)",
    )
    parser.add_argument("--service", default="", help="one service's health (default: the whole server)")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds to wait for the answer (default: 3)")
    add_tls_options(parser)
    parser.set_defaults(run=run)


def local_address(listen: str) -> str:
    """The address to reach a server listening on ``listen`` from the same host."""
    host, _, port = listen.rpartition(":")
    return f"{_WILDCARDS.get(host, host)}:{port}"


def run(args: argparse.Namespace) -> int:
    address = args.server or local_address(os.environ.get("DUELHALL_LISTEN", "127.0.0.1:50051"))
    try:
        reply = asyncio.run(_check(args, address))
    except grpc.aio.AioRpcError as exc:
        details = exc.details() or ""
        why = unreachable(details) if exc.code() == grpc.StatusCode.UNAVAILABLE and "connect" in details else details
        out.print(f"{address}: {exc.code().name} ({why})", markup=False, soft_wrap=True)  # one line, for logs
        return 1
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
    out.print(f"{address}: {status}")
    return 0 if reply.status == health_pb2.HealthCheckResponse.SERVING else 1


async def _check(args: argparse.Namespace, address: str) -> health_pb2.HealthCheckResponse:
    async with channel(args, address) as connected:
        stub = health_pb2_grpc.HealthStub(connected)
        reply: health_pb2.HealthCheckResponse = await stub.Check(
            health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout
        )
        return reply
