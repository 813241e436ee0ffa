"""``duelhall serve``: run the gRPC server and its HTTP port until interrupted."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
from typing import Any

from services.cli.common import add_database_option, database
from services.server import ServerConfig, serve


def register(commands: Any) -> None:
    parser = commands.add_parser("serve", help="run the match service (gRPC, and HTTP for browsers)")
    add_database_option(parser)
    parser.add_argument("--listen", default="127.0.0.1:50051", help="HOST:PORT to listen on (port 0: any free port)")
    parser.add_argument("--http", default="127.0.0.1:8080",
                        help="HOST:PORT of the HTTP port: the API over Connect and the viewer page "
                             "(port 0: any free port; 'off': none)")
    parser.add_argument("--admin-token", default=os.environ.get("DUELHALL_ADMIN_TOKEN"),
                        help="token for admin actions (default: $DUELHALL_ADMIN_TOKEN; none: admin actions refused)")
    parser.add_argument("--capacity", type=int, default=1024, help="matches kept in memory")
    parser.add_argument("--sqlite-synchronous", choices=("NORMAL", "FULL"), default="NORMAL",
                        help="SQLite durability: FULL syncs every commit (see docs/eventstore.md)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = ServerConfig(database_url=database(args), listen=args.listen,
                          http=None if args.http == "off" else args.http, admin_token=args.admin_token,
                          capacity=args.capacity, sqlite_synchronous=args.sqlite_synchronous)
    asyncio.run(serve(config))
    return 0
