"""Small helpers shared by the CLI commands: database option and the rich consoles."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console

from eventstore import database_url
from services.secrets import hide_url_password

# Piped output is not cut at 80 columns: ids and outcomes stay whole for scripts and logs.
out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False)


def add_database_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database-url", default=None,
                        help="SQLAlchemy URL (default: $DUELHALL_DATABASE_URL or sqlite:///duelhall.db)")


def database(args: argparse.Namespace) -> str:
    """The database URL of the command; its password is from now on masked in every log and output line."""
    url = database_url(args.database_url)
    hide_url_password(url)
    return url
