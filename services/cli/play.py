"""``duelhall play RULESET``: a match against the server's bots on a running server, and the address of the viewer
page that opens it as the human's seat."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import urllib.parse

import msgspec

from engine import registry
from engine.bots import BOT_KINDS
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.cli.common import DEFAULT_SERVER, add_tls_options, channel, out, positive
from services.cli.games import seat_count

HTTP_PORT = 8080
"""``duelhall serve``'s HTTP port unless told otherwise: where the viewer page is served."""


class Table(msgspec.Struct, frozen=True):
    """What ``--json`` prints: the match, the human's seat and token, and the viewer's address for that seat."""

    match_id: str
    seat: int
    token: str
    url: str


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset")
    parser.add_argument(
        "--bot", choices=BOT_KINDS, default="greedy", help="the level of the bot seats (default: greedy)"
    )
    parser.add_argument("--name", default=None, help="your seat's name (default: your user name)")
    parser.add_argument("--players", type=positive, default=None, help="seats, yours and bots (default: the minimum)")
    parser.add_argument("--server", default=DEFAULT_SERVER, metavar="HOST:PORT", help="the server's gRPC port")
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
    else:
        out.print(f"match {table.match_id}: you play seat {table.seat}, the server's {args.bot} bots the others")
        out.print(f"open {table.url}", soft_wrap=True)
    return 0


async def _create(args: argparse.Namespace, players: int) -> Table:
    async with channel(args, args.server) as connected:
        matches = pb_grpc.MatchServiceStub(connected)  # type: ignore[no-untyped-call]  # generated, untyped
        bot = pb.SeatSpec(kind=pb.SEAT_KIND_BOT, bot_level=args.bot)
        human = pb.SeatSpec(name=args.name or getpass.getuser())
        request = pb.CreateMatchRequest(ruleset=args.ruleset, seats=[human, *[bot] * (players - 1)])
        created = await matches.CreateMatch(request)
    token = created.tokens[0].token
    match_id = created.match.match_id
    return Table(match_id, 0, token, viewer_url(args.http or default_http(args.server), match_id, token))


def default_http(server: str) -> str:
    """The viewer's address on the host of ``--server``, at ``serve``'s default HTTP port."""
    host = server.rpartition(":")[0] or "127.0.0.1"
    return f"http://{host}:{HTTP_PORT}"


def viewer_url(http: str, match_id: str, token: str) -> str:
    """The viewer page following ``match_id`` live as the seat ``token`` opens (docs/viewer.md)."""
    return f"{http.rstrip('/')}/?{urllib.parse.urlencode({'watch': match_id, 'token': token})}"
