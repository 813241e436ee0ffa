"""``duelhall play RULESET``: a match against the server's bots on a running server, and the address of the viewer
page that opens it as the human's seat."""

from __future__ import annotations

import argparse
import asyncio
import getpass

import msgspec

from engine import registry
from engine.bots import BOT_KINDS
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.cli.common import (
    DEFAULT_SERVER,
    HTTP_PORT,
    add_tls_options,
    channel,
    default_http,
    out,
    positive,
    viewer_url,
)
from services.cli.games import seat_count


class Table(msgspec.Struct, frozen=True):
    """What ``--json`` prints: the match, the human's seat and token, and the viewer's address for that seat."""

    match_id: str
    seat: int
    token: str
    url: str


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", help="the ruleset to play (duelhall rulesets lists them)")
    parser.add_argument(
        "--bot", choices=BOT_KINDS, default="greedy", help="the level of the bot seats (default: greedy)"
    )
    parser.add_argument(
        "--open", action="store_true", help="leave the other seats open for friends (duelhall join) instead of bots"
    )
    parser.add_argument("--name", default=None, help="your seat's name (default: your user name)")
    parser.add_argument("--players", type=positive, default=None, help="seats, yours and bots (default: the minimum)")
    parser.add_argument(
        "--server",
        default=DEFAULT_SERVER,
        metavar="HOST:PORT",
        help=f"the server's gRPC port (default: {DEFAULT_SERVER})",
    )
    parser.add_argument(
        "--http",
        default=None,
        metavar="URL",
        help=f"the server's HTTP port, where the viewer page is (default: http://HOST:{HTTP_PORT} of --server)",
    )
    parser.add_argument("--json", action="store_true", help="print the match id, token and address as JSON")
    add_tls_options(parser)
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    # Checked here, as selfplay checks them: a usage error at once, not a round trip.
    try:
        players = seat_count(registry.get(args.ruleset), args.players)
    except KeyError as exc:
        args.parser.error(str(exc.args[0]))
    except ValueError as exc:
        args.parser.error(str(exc))
    table = asyncio.run(_create(args, players))
    if args.json:
        print(msgspec.json.encode(table).decode())
    elif args.open:
        out.print(f"match {table.match_id}: you play seat {table.seat}; it starts once every other seat is taken")
        out.print(f"open {table.url}", soft_wrap=True)
        out.print(
            f"a friend joins with: duelhall join {table.match_id} --name NAME --server {args.server}", soft_wrap=True
        )
    else:
        out.print(f"match {table.match_id}: you play seat {table.seat}, the server's {args.bot} bots the others")
        out.print(f"open {table.url}", soft_wrap=True)
    return 0


async def _create(args: argparse.Namespace, players: int) -> Table:
    async with channel(args, args.server) as connected:
        matches = pb_grpc.MatchServiceStub(connected)  # type: ignore[no-untyped-call]  # generated, untyped
        other = (
            pb.SeatSpec(kind=pb.SEAT_KIND_OPEN) if args.open else pb.SeatSpec(kind=pb.SEAT_KIND_BOT, bot_level=args.bot)
        )
        human = pb.SeatSpec(name=args.name or getpass.getuser())
        request = pb.CreateMatchRequest(ruleset=args.ruleset, seats=[human, *[other] * (players - 1)])
        created = await matches.CreateMatch(request)
    token = next(t.token for t in created.tokens if t.seat == 0)
    match_id = created.match.match_id
    return Table(match_id, 0, token, viewer_url(args.http or default_http(args.server), match_id, token))
