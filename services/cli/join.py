"""``duelhall join``: take an open seat of a match on a running server and print the seat and its token."""

from __future__ import annotations

import argparse
import asyncio
import uuid

import msgspec

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.cli.common import DEFAULT_SERVER, add_tls_options, channel, default_http, err, out, viewer_url


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "match_id", metavar="MATCH_ID", help="the match with an open seat (duelhall play --open prints it)"
    )
    parser.add_argument("--name", required=True, help="the player's display name")
    parser.add_argument(
        "--seat-config", default="", metavar="JSON", help='the seat\'s configuration, e.g. {"deck": "starter_a"}'
    )
    parser.add_argument("--seat", type=int, default=None, help="the open seat to take (default: the first open)")
    parser.add_argument(
        "--request-id",
        default="",
        help="makes the join safe to repeat: the same id returns the same seat and token (default: a fresh one)",
    )
    parser.add_argument("--server", default=DEFAULT_SERVER, metavar="HOST:PORT", help=f"default: {DEFAULT_SERVER}")
    parser.add_argument(
        "--http",
        default=None,
        metavar="URL",
        help="the server's HTTP port, where the viewer page is (default: http://HOST:8080 of --server)",
    )
    parser.add_argument("--json", action="store_true", help='print {"match_id", "seat", "token", "url"} as JSON')
    add_tls_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    request = pb.JoinSeatRequest(
        match_id=args.match_id,
        request_id=args.request_id or uuid.uuid4().hex,
        name=args.name,
        config_json=args.seat_config,
    )
    if args.seat is not None:
        request.seat = args.seat
    seated = asyncio.run(_join(args, request))
    url = viewer_url(args.http or default_http(args.server), args.match_id, seated.token)
    if args.json:
        joined = {"match_id": args.match_id, "seat": seated.seat, "token": seated.token, "url": url}
        print(msgspec.json.encode(joined).decode())
        return 0
    waiting = seated.match.open_seats
    err.print(f"{waiting} seat(s) still open" if waiting else "every seat is taken: the match has started")
    out.print(f"seat: {seated.seat}\ntoken: {seated.token} (shown once)")
    out.print(f"open {url}", soft_wrap=True)
    return 0


async def _join(args: argparse.Namespace, request: pb.JoinSeatRequest) -> pb.JoinSeatResponse:
    async with channel(args, args.server) as connected:
        stub = pb_grpc.MatchServiceStub(connected)  # type: ignore[no-untyped-call]  # generated, untyped
        seated: pb.JoinSeatResponse = await stub.JoinSeat(request, timeout=30)
        return seated
