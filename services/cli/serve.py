"""``duelhall serve``: run the gRPC server and its HTTP port until interrupted."""

from __future__ import annotations

import argparse
import asyncio
import gc
from pathlib import Path

from services.cli.common import add_database_option, database, positive
from services.cli.environment import from_environment
from services.core import logs
from services.core.addresses import ListenError, listen_address
from services.core.limits import LEASE_SECONDS, MAX_STREAMS
from services.core.secrets import hide

YOUNG_COLLECTION = 10_000
"""Allocations between two collections of Python's youngest generation (its default is 700). A call allocates
hundreds of short-lived objects, so at the default the collector ran every few calls: about 3 % of the server's
CPU per command."""


def positive_seconds(text: str) -> float:
    """An argparse type: a number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of seconds")
    return value


def arguments(parser: argparse.ArgumentParser) -> None:
    add_database_option(parser)
    parser.add_argument(
        "--listen",
        default="127.0.0.1:50051",
        help="HOST:PORT to listen on (port 0: any free port; default: 127.0.0.1:50051)",
    )
    parser.add_argument(
        "--http",
        default="127.0.0.1:8080",
        help="HOST:PORT of the HTTP port: the API over Connect and the viewer page "
        "(port 0: any free port; 'off': none; default: 127.0.0.1:8080)",
    )
    parser.add_argument(
        "--admin-token", default=None, help="token for admin actions (default: none, admin actions refused)"
    )
    parser.add_argument("--capacity", type=positive, default=1024, help="matches kept in memory (default: 1024)")
    parser.add_argument(
        "--max-streams",
        type=positive,
        default=MAX_STREAMS,
        help=f"streams (watches, Play, lifecycle) open at once; past it one is refused (default: {MAX_STREAMS:,})",
    )
    parser.add_argument(
        "--sqlite-synchronous",
        choices=("NORMAL", "FULL"),
        default="NORMAL",
        help="SQLite durability: FULL syncs every commit (see docs/eventstore.md; default: NORMAL)",
    )
    parser.add_argument(
        "--no-migrate",
        dest="migrate",
        action="store_false",
        help="do not migrate the database first (a separate job does: duelhall migrate)",
    )
    parser.add_argument(
        "--metrics",
        default=None,
        metavar="HOST:PORT",
        help="serve Prometheus metrics over HTTP at HOST:PORT (default: no listener)",
    )
    parser.add_argument("--tls-cert", type=Path, default=None, help="PEM certificate chain: serve TLS (with --tls-key)")
    parser.add_argument("--tls-key", type=Path, default=None, help="PEM private key of --tls-cert")
    parser.add_argument(
        "--tls-client-ca",
        type=Path,
        default=None,
        help="PEM CA bundle: require client certificates signed by it (mutual TLS)",
    )
    parser.add_argument(
        "--drain-seconds",
        type=float,
        default=0.0,
        help="on SIGTERM, serve on this long with health NOT_SERVING before ending watches (default: 0)",
    )
    parser.add_argument(
        "--grace-seconds",
        type=float,
        default=10.0,
        help="then let in-flight calls finish for up to this long (default: 10)",
    )
    parser.add_argument(
        "--lease-seconds",
        type=positive_seconds,
        default=LEASE_SECONDS,
        help="on PostgreSQL, how long this instance's ownership of a match lasts unrenewed: a dead instance's "
        f"matches are taken over within it and half a second (default: {LEASE_SECONDS:g})",
    )
    parser.add_argument(
        "--advertise",
        default=None,
        metavar="HOST:PORT",
        help="on PostgreSQL, the address other instances send a client to when it asks for a match's owner "
        "(docs/api.md, Calling a match's owner; default: the gRPC listen address, with the port it bound)",
    )
    logs.add_options(parser)
    from_environment(parser)
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    try:
        listen_address(args.listen)
        if args.advertise is not None:
            listen_address(args.advertise, "--advertise")
        if args.http != "off":
            listen_address(args.http, "--http")
    except ListenError as exc:
        args.parser.error(str(exc))
    hide(args.admin_token)
    # Before gRPC is imported: its C core reads how much to log (services/core/logs.py, json) then.
    logs.configure(args.log_format, args.log_level)
    from services.edge.transport import Tls
    from services.server import ServerConfig, serve

    if (args.tls_cert is None) != (args.tls_key is None) or (args.tls_client_ca and not args.tls_cert):
        raise ValueError("TLS needs both --tls-cert and --tls-key (and --tls-client-ca only with them)")
    tls = Tls(args.tls_cert, args.tls_key, args.tls_client_ca) if args.tls_cert else None
    config = ServerConfig(
        database_url=database(args),
        listen=args.listen,
        http=None if args.http == "off" else args.http,
        admin_token=args.admin_token,
        capacity=args.capacity,
        max_streams=args.max_streams,
        sqlite_synchronous=args.sqlite_synchronous,
        migrate=args.migrate,
        metrics=args.metrics,
        tls=tls,
        drain_seconds=args.drain_seconds,
        grace_seconds=args.grace_seconds,
        lease_seconds=args.lease_seconds,
        advertise=args.advertise,
    )
    gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])
    asyncio.run(serve(config))
    return 0
