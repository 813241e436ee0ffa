"""Small helpers shared by the CLI commands: database and server options, number types, the rich consoles."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import IO

from rich.console import Console

from services.core.secrets import hide_url_password, scrub


class _Scrubbed:
    """A console's stream with every known secret masked: the net under ``eventstore.urls.redacted``, for a
    table cell or a message that quotes a URL or a driver's error."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(scrub(text))

    def __getattr__(self, name: str) -> object:  # flush, isatty, fileno, encoding: the stream's own
        return getattr(self._stream, name)


class _Console(Console):
    @property
    def file(self) -> IO[str]:
        return _Scrubbed(super().file)  # type: ignore[return-value]  # a stand-in: writes and the rest

    @file.setter
    def file(self, new_file: IO[str]) -> None:
        Console.file.fset(self, new_file)  # type: ignore[attr-defined]

    def on_broken_pipe(self) -> None:
        # rich exits 1 here; a reader that went away (``| head``) is no failure: main() ends with 141.
        self.quiet = True
        raise BrokenPipeError


# Piped output is not cut at 80 columns: ids and outcomes stay whole for scripts and logs.
out = _Console(highlight=False, width=None if sys.stdout.isatty() else 160)
err = _Console(stderr=True, highlight=False)

DATA_DIR_ENV = "DUELHALL_DATA_DIR"
DEFAULT_SERVER = "127.0.0.1:50051"


def data_dir() -> Path:
    """Where the default database lives, whatever the current directory: ``$DUELHALL_DATA_DIR``, else
    ``$XDG_DATA_HOME/duelhall``, else ``~/.local/share/duelhall``."""
    explicit = os.environ.get(DATA_DIR_ENV)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "duelhall"


def default_database_url() -> str:
    return f"sqlite:///{data_dir() / 'duelhall.db'}"


def add_database_option(parser: argparse.ArgumentParser | argparse._MutuallyExclusiveGroup) -> None:
    # Imported by the commands that open a database only: the store's package costs a second of CPU to import.
    from eventstore.urls import DATABASE_URL_ENV

    parser.add_argument(
        "--database-url",
        default=None,
        help=f"SQLAlchemy URL (default: ${DATABASE_URL_ENV}, else duelhall.db in the data directory, "
        f"${DATA_DIR_ENV} or ~/.local/share/duelhall)",
    )


def add_server_option(parser: argparse.ArgumentParser | argparse._MutuallyExclusiveGroup) -> None:
    parser.add_argument(
        "--server",
        default=None,
        metavar="HOST:PORT",
        help=f"ask a running server (e.g. {DEFAULT_SERVER}) instead of opening the database",
    )


def database(args: argparse.Namespace) -> str:
    """The URL the command opens (the default data directory is created on first use); its password is from
    now on masked in every log and output line."""
    from eventstore.urls import DATABASE_URL_ENV

    url = args.database_url or os.environ.get(DATABASE_URL_ENV)
    if not url:
        data_dir().mkdir(parents=True, exist_ok=True)
        url = default_database_url()
    hide_url_password(url)
    return str(url)


def positive(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value
