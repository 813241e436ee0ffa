"""``duelhall migrate``: bring the database schema to the newest revision."""

from __future__ import annotations

import argparse

from eventstore import migrate as run_migrations
from eventstore.urls import redacted
from services.cli.common import add_database_option, database, err
from services.cli.environment import from_environment
from services.core import logs


def arguments(parser: argparse.ArgumentParser) -> None:
    add_database_option(parser)
    parser.add_argument("--revision", default="head", help="target alembic revision (default: head)")
    logs.add_options(parser)
    from_environment(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    url = database(args)
    logs.configure(args.log_format, args.log_level)
    run_migrations(url, args.revision)
    err.print(f"migrated {redacted(url)} to {args.revision}")
    return 0
